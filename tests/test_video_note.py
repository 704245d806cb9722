"""Videos become time-coded notes: yt-dlp's files in, verbatim transcript chunks, slides,
video citations with time locators, verify and verify --source (no network)."""

from __future__ import annotations

import json
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from video_support import Talk, require_tools, synthetic_talk

from vaultd.canonical import text_sha256
from vaultd.config import Settings
from vaultd.lookup import citation, quote
from vaultd.notes.reader import parse_note
from vaultd.pipeline.capture import capture_sync
from vaultd.pipeline.citations import renderer_for
from vaultd.pipeline.compile import compile_note
from vaultd.pipeline.verify_source import verify_sources
from vaultd.vault import Vault
from vaultd.verify import verify_notes

CHAPTERED = "gogEJyoSB9s"  # 27 chapters, only live_chat "subtitles", auto captions
NO_CHAPTERS = "JjQDik3yNhA"


def drop_video(folder: Path, fixtures_dir: Path, video_id: str, vtt: str | None,
               lang: str = "en") -> Path:
    """yt-dlp's files for ``video_id`` as yt-dlp names them: the recorded info JSON and a
    recorded subtitle file (of another video: real caption text, this video's name)."""
    folder.mkdir(parents=True, exist_ok=True)
    info = next((fixtures_dir / "youtube" / "info").glob(f"{video_id}_*.info.json"))
    shutil.copy(info, folder / f"{video_id}.info.json")
    if vtt is not None:
        shutil.copy(fixtures_dir / "youtube" / "vtt" / vtt, folder / f"{video_id}.{lang}.vtt")
    return folder / f"{video_id}.info.json"


def capture_and_compile(vault: Vault, info: Path) -> str:
    [result] = capture_sync(vault, Settings(), str(info))
    compile_note(vault, Settings(), result.cite_key)
    return result.cite_key


def test_creator_subtitles_become_verbatim_time_coded_chunks(vault: Vault, fixtures_dir: Path,
                                                             tmp_path: Path) -> None:
    info = drop_video(tmp_path / "dl", fixtures_dir, NO_CHAPTERS,
                      "human_crash_course_european_history.en.vtt")
    key = capture_and_compile(vault, info)
    text = vault.note_path(key).read_text(encoding="utf-8")
    note = parse_note(text)
    assert note.meta.video_id == NO_CHAPTERS and "video" in note.meta.tags
    first = note.chunks[0]
    # Read off the subtitle file by hand: its first cue, and the cue starting at 0:00.16.
    assert first.text.startswith("Hi I’m John Green and this is Crash Course European History.")
    assert first.provenance.start == pytest.approx(0.16)
    assert first.provenance.chunk_type == "transcript"
    assert first.provenance.text_sha256 == text_sha256(first.text)
    assert f"(https://youtu.be/{NO_CHAPTERS}?t=0)" in text
    # every word of the captions is in the note, once, in order (the excerpt runs 65 s)
    assert " ".join(c.text for c in note.chunks).count("John Green") == 1
    assert note.chunks[-1].provenance.end == pytest.approx(65.14)
    assert verify_notes(vault).ok
    assert verify_sources(vault).ok


def test_chapters_title_the_chunks_and_auto_captions_are_labelled(
        vault: Vault, fixtures_dir: Path, tmp_path: Path) -> None:
    info = drop_video(tmp_path / "dl", fixtures_dir, CHAPTERED,
                      "human_crash_course_european_history.en.vtt")
    key = capture_and_compile(vault, info)
    note = parse_note(vault.note_path(key).read_text(encoding="utf-8"))
    recorded = json.loads(info.read_text(encoding="utf-8"))
    titles = [c["title"] for c in recorded["chapters"]]
    assert {c.provenance.section for c in note.chunks} <= set(titles)
    # the info lists "en" among automatic captions only: these words are YouTube's
    assert {c.provenance.transcript for c in note.chunks} == {"auto"}
    assert "en" in recorded["automatic_captions"] and "en" not in recorded["subtitles"]


def test_video_citations_go_through_the_csl_styles_with_time_locators(
        vault: Vault, fixtures_dir: Path, tmp_path: Path) -> None:
    info = drop_video(tmp_path / "dl", fixtures_dir, CHAPTERED,
                      "human_crash_course_european_history.en.vtt")
    key = capture_and_compile(vault, info)
    recorded = json.loads(info.read_text(encoding="utf-8"))
    channel, date = recorded["channel"], recorded["upload_date"]
    citer = renderer_for(vault, None)
    apa = citation(vault, key, "apa", renderer=citer)
    # APA 7 for a YouTube video: Channel. (Year, Month Day). *Title* [Video]. YouTube. URL
    assert apa.text.startswith(f"{channel}. ({date[:4]}, ")
    assert "\\[Video\\]. YouTube. <https://www.youtube.com/watch?v=gogEJyoSB9s>" in apa.text
    assert citation(vault, key, "apa", renderer=citer, time="1:02:03").intext == f"({channel}, {date[:4]}, 1:02:03)"
    assert citation(vault, key, "chicago", renderer=citer, time="195").intext == f"({channel} {date[:4]}, 3:15)"
    bib = citation(vault, key, "bibtex", renderer=citer).text
    assert bib.startswith(f"@misc{{{key},") and "howpublished = {YouTube}" in bib
    q = quote(vault, key, parse_note(vault.note_path(key).read_text()).chunks[1].id,
              renderer=citer)
    assert q["link"].startswith(f"https://youtu.be/{CHAPTERED}?t=")
    assert q["citation"].startswith(f"({channel}, {date[:4]}, 0:")


def test_the_same_video_again_keeps_one_record(vault: Vault, fixtures_dir: Path,
                                               tmp_path: Path) -> None:
    info = drop_video(tmp_path / "dl", fixtures_dir, NO_CHAPTERS, "auto_captions_youtube_dl.en.vtt")
    key = capture_and_compile(vault, info)
    [again] = capture_sync(vault, Settings(), str(info))
    assert again.cite_key == key and again.status == "existing"
    assert len(list(vault.raw.glob("*.meta.json"))) == 1


def test_verify_source_catches_a_changed_subtitle_file(vault: Vault, fixtures_dir: Path,
                                                       tmp_path: Path) -> None:
    info = drop_video(tmp_path / "dl", fixtures_dir, NO_CHAPTERS,
                      "human_crash_course_european_history.en.vtt")
    key = capture_and_compile(vault, info)
    stored = vault.raw / "youtube" / NO_CHAPTERS / f"{NO_CHAPTERS}.en.vtt"
    stored.write_text(stored.read_text().replace("John Green", "Jon Green"), encoding="utf-8")
    report = verify_sources(vault)
    assert [f.kind for f in report.findings] == ["STALE"]
    assert report.findings[0].cite_key == key and "subtitles" in report.findings[0].message


def test_no_subtitles_and_no_speech_recognition_still_writes_the_note(
        vault: Vault, fixtures_dir: Path, tmp_path: Path) -> None:
    info = drop_video(tmp_path / "dl", fixtures_dir, NO_CHAPTERS, None)
    key = capture_and_compile(vault, info)
    note = parse_note(vault.note_path(key).read_text(encoding="utf-8"))
    assert note.chunks == [] and note.citations
    assert any("no subtitles" in w for w in note.meta.warnings)


@pytest.fixture(scope="module")
def talk(tmp_path_factory: pytest.TempPathFactory) -> Talk:
    return synthetic_talk(tmp_path_factory)


def test_a_talk_with_its_media_gets_slides_and_the_media_is_not_kept(
        vault: Vault, fixtures_dir: Path, tmp_path: Path, talk: Talk) -> None:
    require_tools("tesseract")
    info = drop_video(tmp_path / "dl", fixtures_dir, NO_CHAPTERS,
                      "human_crash_course_european_history.en.vtt")
    shutil.copy(talk.video, tmp_path / "dl" / f"{NO_CHAPTERS}.mp4")
    key = capture_and_compile(vault, info)
    text = vault.note_path(key).read_text(encoding="utf-8")
    note = parse_note(text)
    slides = [c for c in note.chunks if c.provenance.chunk_type == "slide"]
    shown = " ".join(c.text for c in slides).lower()
    for title, _ in dict.fromkeys(talk.slides):  # each distinct slide's title was read
        assert title.lower() in shown
    for s in slides:
        assert s.provenance.ocr and s.figure and (vault.root / s.figure).is_file()
        assert f"![[{s.figure}]]" in text
    starts = [c.provenance.start or 0.0 for c in note.chunks]
    assert starts == sorted(starts)  # slides sit in time order among the transcript
    assert not list((vault.raw / "youtube" / NO_CHAPTERS).glob("*.mp4"))  # keep_media = false
    assert verify_notes(vault).ok and verify_sources(vault).ok


def test_a_talk_without_captions_and_without_a_model_says_how_to_get_one(
        vault: Vault, fixtures_dir: Path, tmp_path: Path, talk: Talk) -> None:
    info = drop_video(tmp_path / "dl", fixtures_dir, NO_CHAPTERS, None)
    shutil.copy(talk.video, tmp_path / "dl" / f"{NO_CHAPTERS}.mp4")
    key = capture_and_compile(vault, info)
    note = parse_note(vault.note_path(key).read_text(encoding="utf-8"))
    assert any("vaultd[asr]" in w for w in note.meta.warnings)
    assert all(c.provenance.chunk_type == "slide" for c in note.chunks)


def test_yt_dlp_files_dropped_into_the_inbox_become_one_note(
        vault: Vault, fixtures_dir: Path, tmp_path: Path) -> None:
    from test_daemon_support import agent, settled, wait_for

    staging = drop_video(tmp_path / "dl", fixtures_dir, NO_CHAPTERS,
                         "human_crash_course_european_history.en.vtt").parent
    with agent(vault) as a:
        # subtitles first, as a download finishes them first; the info JSON is the item
        for name in (f"{NO_CHAPTERS}.en.vtt", f"{NO_CHAPTERS}.info.json"):
            (staging / name).replace(vault.inbox / name)
        wait_for(lambda: settled(vault, 1) and not list(vault.inbox.glob("*.vtt")), 60,
                 "the video to be processed")
        assert a.stop() == 0
    [note] = vault.paper_notes()
    assert parse_note(note.read_text(encoding="utf-8")).chunks
    assert not [p for p in vault.inbox.iterdir() if p.is_file()]
    kept = sorted(p.name for p in vault.processed_dir.rglob("*") if p.is_file())
    assert kept == [f"{NO_CHAPTERS}.en.vtt", f"{NO_CHAPTERS}.info.json"]


@pytest.fixture
def workshop_page(tmp_path: Path) -> Iterator[str]:
    """A page of two talks on 127.0.0.1: yt-dlp's generic extractor reads it as a
    playlist of two videos (the real tool, on local data)."""
    import http.server
    import threading
    from functools import partial

    require_tools("ffmpeg")
    site = tmp_path / "site"
    site.mkdir()
    (site / "index.html").write_text(
        "<html><head><title>Talks of the workshop</title></head><body>"
        '<video src="a.mp4"></video><video src="b.mp4"></video></body></html>', encoding="utf-8")
    for name, colour in (("a", "white"), ("b", "black")):
        subprocess.run(["ffmpeg", "-loglevel", "error", "-y", "-f", "lavfi", "-i",
                        f"color=c={colour}:s=320x240:d=1", str(site / f"{name}.mp4")], check=True)
    handler = partial(http.server.SimpleHTTPRequestHandler, directory=str(site))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}/index.html"
    server.shutdown()


def test_a_playlist_gives_one_note_per_video_and_an_index(vault: Vault, tmp_path: Path,
                                                          workshop_page: str) -> None:
    from vaultd.pipeline.video_capture import download_video

    own = download_video(workshop_page, tmp_path / "dl", Settings(), playlist=True)
    results = capture_sync(vault, Settings(), str(own))
    assert len(results) == 2 and len({r.cite_key for r in results}) == 2
    index = vault.wiki / "playlists" / "Talks of the workshop.md"
    text = index.read_text(encoding="utf-8")
    # in playlist order, each a link to its video's record
    first, second = (line for line in text.splitlines() if line[:2] in ("1.", "2."))
    assert first.startswith(f"1. [[{results[0].cite_key}|") and second.startswith("2. [[")
    index.write_text(text + "my thoughts on the workshop\n", encoding="utf-8")
    capture_sync(vault, Settings(), str(own))  # again: same records, the user's text kept
    assert len(list(vault.raw.glob("*.meta.json"))) == 2
    assert index.read_text(encoding="utf-8").endswith("my thoughts on the workshop\n")


def test_a_playlist_record_alone_says_what_is_missing(vault: Vault, tmp_path: Path,
                                                      workshop_page: str) -> None:
    from vaultd.errors import InputError
    from vaultd.pipeline.video_capture import download_video

    own = download_video(workshop_page, tmp_path / "dl", Settings(), playlist=True)
    alone = tmp_path / "alone"
    alone.mkdir()
    shutil.copy(own, alone / own.name)
    with pytest.raises(InputError, match="playlist's own record"):
        capture_sync(vault, Settings(), str(alone / own.name))


@pytest.mark.parametrize(("message", "transient", "says"), [
    # yt-dlp's own formats: its HTTP errors ("HTTP Error {status}: {reason}") and the
    # age-gate reasons its YouTube extractor looks for ('confirm your age', 'age-restricted')
    ("ERROR: [youtube] abc: Unable to download API page: HTTP Error 429: Too Many Requests",
     True, "try again later"),
    ("ERROR: [youtube] abc: Sign in to confirm your age", False, "--cookies-from-browser"),
    ("ERROR: [youtube] abc: This video is age-restricted", False, "age"),
])
def test_youtube_refusals_read_as_one_sentence(message: str, transient: bool, says: str) -> None:
    from vaultd.pipeline.video_capture import explain_download_error

    err = explain_download_error(message)
    assert err.transient is transient
    assert says in str(err) and "\n" not in str(err) and not str(err).startswith("ERROR")


def test_mcp_cite_points_at_a_time_in_a_video(vault: Vault, fixtures_dir: Path,
                                              tmp_path: Path) -> None:
    import anyio
    from mcp import Client

    from vaultd.mcp.server import build_server

    info = drop_video(tmp_path / "dl", fixtures_dir, CHAPTERED,
                      "human_crash_course_european_history.en.vtt")
    key = capture_and_compile(vault, info)
    channel = json.loads(info.read_text(encoding="utf-8"))["channel"]

    async def go() -> str:
        async with Client(build_server(vault, Settings())) as client:
            result = await client.call_tool("cite", {"cite_key": key, "format": "apa",
                                                     "time": "3:15"})
            return "\n".join(getattr(c, "text", "") for c in result.content)

    assert f"In text: ({channel}, 2022, 3:15)" in anyio.run(go)
