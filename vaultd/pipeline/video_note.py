"""A video's wiki note: time-coded transcript chunks, slides and citations.

The transcript is read from the stored subtitle file, best source first: the creator's
captions, then YouTube's automatic captions, then local speech recognition of the media
(``vaultd[asr]``). It is cut into chunks by chapter or by about a minute
(``vaultd.video.segments``); each chunk's quote is the transcript's own words with its
SHA-256, its start and end, and where the words come from. When the media is there,
slides (scene-change keyframes, deduplicated, OCR'd) become ``slide`` chunks at their
time. ``verify --source`` re-derives the same chunks from the same stored files.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from vaultd.canonical import canonical_sha256, canonical_text
from vaultd.config import Settings
from vaultd.enrich.pending import pending_chunks
from vaultd.errors import InputError
from vaultd.models import Chunk, MetaFile, Note, NoteMeta, Provenance
from vaultd.pipeline import citations as citations_mod
from vaultd.pipeline.compiled import CompileResult, write_merged
from vaultd.pipeline.video_capture import INFO_SUFFIX, VideoFiles, read_video_files, remove_media
from vaultd.trust import short_warning
from vaultd.vault import Vault
from vaultd.video.asr import AsrError, AsrUnavailableError, transcriber
from vaultd.video.info import VideoInfo
from vaultd.video.segments import Segment, segment
from vaultd.video.tools import missing_message, missing_tools
from vaultd.video.transcript import Cue, read_vtt

log = logging.getLogger("vaultd.video")

VIDEO_TAGS = ("video",)


@dataclass(frozen=True)
class Transcript:
    origin: str  # "creator", "auto" or "asr:<model>"
    language: str | None
    cues: list[Cue]
    source: Path | None  # the subtitle file it was read from (None for speech recognition)


def _matches(lang: str, wanted: str) -> bool:
    base = lang.split("-")[0].lower()
    return lang.lower() == wanted.lower() or base == wanted.split("-")[0].lower()


def choose_subtitles(info: VideoInfo, subtitles: dict[str, Path],
                     language: str | None) -> tuple[str, str, Path] | None:
    """(origin, language, file) of the best subtitle file: the wanted language (configured,
    else the video's own, else English) before any other, creator captions before
    automatic ones within a language. Deterministic: verify makes the same choice."""
    wanted = language or info.language or "en"

    def origin(lang: str) -> str:
        if lang in info.subtitles:
            return "creator"
        if lang in info.automatic_captions or lang.endswith("-orig"):
            return "auto"
        return "creator"  # a subtitle file yt-dlp's info does not list: given by the user

    ranked = sorted(subtitles, key=lambda lang: (not _matches(lang, wanted),
                                                 origin(lang) != "creator", lang))
    if not ranked:
        return None
    lang = ranked[0]
    return origin(lang), lang, subtitles[lang]


def read_transcript(files: VideoFiles, settings: Settings, warnings: list[str]) -> Transcript | None:
    chosen = choose_subtitles(files.info, files.subtitles, settings.video.language)
    if chosen is not None:
        origin, lang, path = chosen
        cues = read_vtt(path.read_text(encoding="utf-8", errors="replace"))
        return Transcript(origin, lang, cues, path)
    if files.media is None:
        return None

    try:
        asr = transcriber(settings.video.asr_model)
        asr_cues = asr.transcribe(files.media, settings.video.language or files.info.language)
    except (AsrUnavailableError, AsrError) as exc:
        warnings.append(f"no captions: {exc}")
        return None
    cues = [Cue(c.start, c.end, " ".join(c.text.split())) for c in asr_cues if c.text.strip()]
    return Transcript(f"asr:{asr.name}", settings.video.language or files.info.language, cues, None)


def _unique_id(base: str, taken: set[str]) -> str:
    n = 1
    while f"{base}c{n}" in taken:
        n += 1
    taken.add(f"{base}c{n}")
    return f"{base}c{n}"


def transcript_chunks(segments: Sequence[Segment], transcript: Transcript) -> list[Chunk]:
    """One chunk per segment, its quote the segment's words (char ranges set later)."""
    parser = "asr" if transcript.source is None else "webvtt"
    taken: set[str] = set()
    chunks = []
    for seg in segments:
        text = canonical_text(seg.text)
        if not text:
            continue
        prov = Provenance(page=1, section=seg.chapter, text_sha256=canonical_sha256(text),
                          char_range=[0, 0], chunk_type="transcript", parser=parser,
                          start=seg.start, end=seg.end, transcript=transcript.origin)
        chunks.append(Chunk(id=_unique_id(f"t{int(seg.start)}", taken), text=text, provenance=prov))
    return chunks


def slide_chunks(vault: Vault, files: VideoFiles, key: str, settings: Settings,
                 warnings: list[str], taken: set[str]) -> list[Chunk]:
    """Slides read from the media (keyframes at scene changes and chapter starts)."""
    if files.media is None or not settings.video.slides or settings.video.max_slides == 0:
        return []
    # lazy: vaultd.video.slides costs 196 ms at import (pulls in numpy, imagehash)
    from vaultd.video.slides import SlidesError, read_slides

    missing = missing_tools(["ffmpeg", "tesseract"])
    if missing:
        warnings.append(f"slides not read: {missing_message(missing)}")
        return []
    try:
        slides = read_slides(files.media, files.info_path.parent / "slides", prefix=key,
                             extra_times=[c.start for c in files.info.chapters],
                             max_frames=settings.video.max_slides)
    except SlidesError as exc:
        warnings.append(f"slides not read: {exc}")
        return []
    chunks = []
    for slide in slides:
        text = canonical_text(slide.text)
        if not text:
            slide.image.unlink(missing_ok=True)  # a frame with no words is no quote
            continue
        prov = Provenance(page=1, text_sha256=canonical_sha256(text), char_range=[0, 0],
                          chunk_type="slide", parser="tesseract", ocr=True,
                          ocr_confidence=slide.confidence, start=slide.time)
        chunks.append(Chunk(id=_unique_id(f"t{int(slide.time)}s", taken), text=text,
                            provenance=prov, figure=vault.rel(slide.image)))
    return chunks


def _in_time_order(transcript: list[Chunk], slides: list[Chunk]) -> list[Chunk]:
    """Slides placed before the transcript chunk they start in; char ranges set in order."""
    def start(c: Chunk) -> float:
        return c.provenance.start or 0.0

    merged = sorted([*transcript, *slides],
                    key=lambda c: (start(c), c.provenance.chunk_type != "slide"))
    pos = 0
    for c in merged:
        c.provenance.char_range = [pos, pos + len(c.text)]
        pos += len(c.text) + 1
    return merged


def video_chunks(vault: Vault, settings: Settings, key: str, files: VideoFiles,
                 warnings: list[str]) -> tuple[list[Chunk], Transcript | None]:
    transcript = read_transcript(files, settings, warnings)
    chunks: list[Chunk] = []
    if transcript is not None:
        chunks = transcript_chunks(segment(transcript.cues, files.info.chapters), transcript)
    elif not warnings:
        warnings.append("no transcript: no subtitle file and no media to transcribe")
    slides = slide_chunks(vault, files, key, settings, warnings, {c.id for c in chunks})
    return _in_time_order(chunks, slides), transcript


def stored_files(vault: Vault, meta: MetaFile) -> tuple[Path, VideoFiles]:
    """The folder ``meta.video`` names and the video files kept in it."""
    stored = vault.root / (meta.video or "")
    info_files = sorted(stored.glob(f"*{INFO_SUFFIX}")) if meta.video else []
    if not info_files:
        raise InputError(f"{meta.video or 'raw/youtube/'}: the video's info JSON is missing; "
                         "capture the video again")
    return stored, read_video_files(info_files[0])


def compile_video(vault: Vault, settings: Settings, meta: MetaFile, *, folder: str | None = None,
                  citer: object = None, tags: Sequence[str] = ()) -> CompileResult:
    """Write the video's note from the files stored in ``meta.video``."""
    key = meta.cite_key
    stored, files = stored_files(vault, meta)
    warnings: list[str] = []
    chunks, transcript = video_chunks(vault, settings, key, files, warnings)
    if files.media is not None and not settings.video.keep_media:
        remove_media(stored)
    for w in warnings:
        log.info("%s: %s", key, w)
    note_path, pending = _write_note(vault, settings, meta, files.info, chunks, warnings, folder,
                                     citer, tags)
    parser = transcript.origin if transcript else None
    return CompileResult(key, note_path, parser, len(chunks), 0, warnings, pending)


def _write_note(vault: Vault, settings: Settings, meta: MetaFile, info: VideoInfo,
                chunks: list[Chunk], warnings: list[str], folder: str | None,
                citer: object, tags: Sequence[str] = ()) -> tuple[Path, int]:
    """Write the talk's note; its path and how many of its chunks await enrichment."""
    own = citer is None
    renderer = citations_mod.renderer_for(vault, settings) if own else citer
    try:
        citations = renderer.for_note(meta.work, meta.cite_key)  # type: ignore[attr-defined]
    finally:
        if own:
            renderer.close()  # type: ignore[attr-defined]
    captured_at = meta.captured_at or datetime.now(UTC).replace(microsecond=0).isoformat()
    title = meta.title
    note_meta = NoteMeta(
        cite_key=meta.cite_key, title=title, authors=list(meta.authors), year=meta.year,
        tags=list(dict.fromkeys([*VIDEO_TAGS, *tags])),
        aliases=[" ".join(title.split())] if title and title.strip() else [],
        warnings=[short_warning(w) for w in [*meta.warnings, *warnings]],
        captured=captured_at[:10], captured_at=captured_at,
        raw=f"{meta.video}{info.id}{INFO_SUFFIX}" if meta.video else None,
        video_id=info.id, url=meta.work.url, chunks=len(chunks),
        enrichment="pending" if chunks else None,
        **citations_mod.trust_fields(meta))
    note_path = vault.new_note_path(meta.cite_key, folder)
    written = write_merged(vault, note_path, Note(meta=note_meta, citations=citations, chunks=chunks))
    return note_path, pending_chunks(written.chunks)


def rederive(vault: Vault, settings: Settings, meta: MetaFile) -> dict[str, str] | None:
    """chunk id → text_sha256 of the transcript chunks the stored subtitle file gives
    today (None when the words came from speech recognition: they cannot be re-derived)."""
    _, files = stored_files(vault, meta)
    chosen = choose_subtitles(files.info, files.subtitles, settings.video.language)
    if chosen is None:
        return None
    cues = read_vtt(chosen[2].read_text(encoding="utf-8", errors="replace"))
    transcript = Transcript(chosen[0], chosen[1], cues, chosen[2])
    return {c.id: c.provenance.text_sha256
            for c in transcript_chunks(segment(cues, files.info.chapters), transcript)}
