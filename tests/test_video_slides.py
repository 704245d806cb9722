"""Slides from a synthetic talk: key frames, near-duplicates, OCR, and missing tools."""

from __future__ import annotations

import io
import os
import shutil
import sys
from pathlib import Path

import numpy as np
import pytest
from PIL import Image, ImageDraw, ImageFont
from video_support import Talk, font_file, require_tools, synthetic_talk

from vaultd.video.slides import Slide, SlidesError, dedupe, keyframes, read_slides
from vaultd.video.tools import missing_message, missing_tools

CHAPTER_INSIDE_LAST_SLIDE = 13.0  # a chapter start 1 s into the fourth slide


@pytest.fixture(scope="session")
def talk(tmp_path_factory: pytest.TempPathFactory) -> Talk:
    return synthetic_talk(tmp_path_factory)


@pytest.fixture(scope="module")
def slides(talk: Talk, tmp_path_factory: pytest.TempPathFactory) -> list[Slide]:
    require_tools("tesseract")
    out = tmp_path_factory.mktemp("slides")
    return read_slides(talk.video, out, prefix="talk", extra_times=[CHAPTER_INSIDE_LAST_SLIDE])


def _near(times: list[float], target: float, within: float = 0.5) -> bool:
    return any(abs(t - target) <= within for t in times)


def test_keyframes_fall_within_half_a_second_of_each_slide_change_and_chapter(
    talk: Talk, tmp_path: Path
) -> None:
    frames = keyframes(talk.video, tmp_path, prefix="talk", extra_times=[CHAPTER_INSIDE_LAST_SLIDE])

    times = [t for t, _ in frames]
    assert times == sorted(times)
    for start in [*talk.starts, CHAPTER_INSIDE_LAST_SLIDE]:
        assert _near(times, start), (start, times)
    assert len(frames) == len(talk.starts) + 1  # no frame where nothing changed
    for t, png in frames:
        assert png.parent == tmp_path
        assert png.name == f"talk-{round(t * 1000)}.png"
        with Image.open(png) as img:
            assert img.width <= 1280
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(p.name for _, p in frames)


def test_keyframes_scale_frames_down_to_the_width(talk: Talk, tmp_path: Path) -> None:
    frames = keyframes(talk.video, tmp_path, prefix="small", width=640)

    with Image.open(frames[0][1]) as img:
        assert img.size == (640, 360)


def test_dedupe_drops_a_chapter_frame_inside_a_slide_and_deletes_its_file(
    talk: Talk, tmp_path: Path
) -> None:
    frames = keyframes(talk.video, tmp_path, prefix="talk", extra_times=[CHAPTER_INSIDE_LAST_SLIDE])
    chapter_png = next(p for t, p in frames if abs(t - CHAPTER_INSIDE_LAST_SLIDE) <= 0.5)

    kept = dedupe(frames)

    assert [round(t) for t, _ in kept] == [round(s) for s in talk.starts]
    assert not chapter_png.exists()
    assert all(p.exists() for _, p in kept)


def test_dedupe_keeps_a_slide_shown_again_after_another(talk: Talk, tmp_path: Path) -> None:
    # The fourth slide repeats the first; coming back to it is a moment worth its own time.
    assert talk.slides[3] == talk.slides[0]
    kept = dedupe(keyframes(talk.video, tmp_path, prefix="talk"))

    assert _near([t for t, _ in kept], talk.starts[3])


def _text_slide(path: Path, lines: list[str]) -> Path:
    font_path = font_file()
    font = ImageFont.truetype(str(font_path), 40) if font_path else ImageFont.load_default(40)
    img = Image.new("RGB", (1280, 720), "white")
    draw = ImageDraw.Draw(img)
    for i, line in enumerate(lines):
        draw.text((80, 80 + i * 70), line, fill="black", font=font)
    img.save(path)
    return path


def _reencoded(src: Path, dest: Path) -> Path:
    """``src`` as a camera might give it back: noise, JPEG at quality 40, 2 px shift."""
    with Image.open(src) as img:
        pixels = np.asarray(img.convert("RGB")).astype(float)
    noisy = pixels + np.random.default_rng(0).normal(0, 8, pixels.shape)
    shifted = Image.fromarray(np.clip(noisy, 0, 255).astype("uint8")).transform(
        (1280, 720), Image.Transform.AFFINE, (1, 0, 2, 0, 1, 2), fillcolor="white"
    )
    buf = io.BytesIO()
    shifted.save(buf, "JPEG", quality=40)
    Image.open(buf).save(dest)
    return dest


def test_dedupe_tells_same_layout_slides_apart_but_not_a_noisy_copy(tmp_path: Path) -> None:
    methods = _text_slide(tmp_path / "a.png", ["Methods", "", "- sample ice cores at four sites",
                                               "- measure isotope ratios",
                                               "- date layers by annual bands"])
    results = _text_slide(tmp_path / "b.png", ["Results", "", "- retreat doubled since 1990",
                                               "- summer melt dominates",
                                               "- uncertainty is twelve percent"])
    copy = _reencoded(results, tmp_path / "c.png")

    kept = dedupe([(0.0, methods), (4.0, results), (5.0, copy)])

    assert kept == [(0.0, methods), (4.0, results)]
    assert not copy.exists()


def test_read_slides_finds_each_slides_words_with_a_confidence(
    talk: Talk, slides: list[Slide]
) -> None:
    assert [round(s.time) for s in slides] == [round(t) for t in talk.starts]
    for slide, (title, subtitle) in zip(slides, talk.slides, strict=True):
        words = slide.text.lower().split()
        for word in f"{title} {subtitle}".lower().split():
            assert word in words, (word, slide.text)
        assert slide.confidence is not None and 0.0 <= slide.confidence <= 1.0
        assert slide.image.is_file()
        assert "  " not in slide.text


def test_read_slides_returns_a_frame_without_text_with_no_confidence(tmp_path: Path) -> None:
    require_tools("ffmpeg", "tesseract")
    blank = tmp_path / "blank.png"
    Image.new("RGB", (320, 180), "white").save(blank)

    result = read_slides(blank, tmp_path / "out", prefix="blank")

    assert [(s.time, s.text, s.confidence) for s in result] == [(0.0, "", None)]


def test_max_frames_keeps_that_many_spread_over_the_video(talk: Talk, tmp_path: Path) -> None:
    extra = [2.0, 6.0, 10.0, CHAPTER_INSIDE_LAST_SLIDE]

    frames = keyframes(talk.video, tmp_path, prefix="talk", extra_times=extra, max_frames=3)

    times = [t for t, _ in frames]
    assert len(frames) == 3
    assert _near(times, 0.0) and _near(times, CHAPTER_INSIDE_LAST_SLIDE)
    assert _near(times, 6.0, within=2.0)  # the frame nearest the middle
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(p.name for _, p in frames)


def test_a_file_that_is_not_a_video_raises_slides_error_naming_it(tmp_path: Path) -> None:
    require_tools("ffmpeg")
    notes = tmp_path / "notes.txt"
    notes.write_text("not a video\n")

    with pytest.raises(SlidesError, match=r"notes\.txt") as info:
        keyframes(notes, tmp_path / "out", prefix="notes")
    assert "\n" not in str(info.value)


def test_a_missing_video_raises_slides_error_naming_it(tmp_path: Path) -> None:
    with pytest.raises(SlidesError, match=r"gone\.mp4: no such video file"):
        keyframes(tmp_path / "gone.mp4", tmp_path, prefix="gone")


def test_missing_tools_on_an_empty_path_name_ffmpeg_and_tesseract_with_install_commands(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("PATH", "")

    missing = missing_tools(["ffmpeg", "tesseract", "ffmpeg"])

    assert missing == ["ffmpeg", "tesseract"]
    assert missing_message(missing) == (
        "missing tools for video notes: ffmpeg (apt install ffmpeg · brew install ffmpeg), "
        "tesseract (apt install tesseract-ocr · brew install tesseract); "
        "or run scripts/install.sh"
    )


def test_yt_dlp_counts_as_present_through_its_python_module_or_its_command(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("PATH", "")
    monkeypatch.setitem(sys.modules, "yt_dlp", None)  # not importable

    assert missing_tools(["yt-dlp"]) == ["yt-dlp"]
    assert "yt-dlp (brew install yt-dlp · pip install yt-dlp)" in missing_message(["yt-dlp"])


def test_read_slides_without_tools_says_what_to_install(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    video = tmp_path / "talk.mp4"
    video.write_bytes(b"")
    monkeypatch.setenv("PATH", "")

    with pytest.raises(SlidesError, match=r"tesseract \(apt install tesseract-ocr"):
        read_slides(video, tmp_path / "out", prefix="talk")


def test_keyframes_work_with_an_ffmpeg_older_than_5_1(
    talk: Talk, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = shutil.which("ffmpeg")
    old = tmp_path / "bin" / "ffmpeg"  # rejects -fps_mode like ffmpeg 4.x, else the real one
    old.parent.mkdir()
    old.write_text(
        "#!/bin/sh\n"
        'for a in "$@"; do [ "$a" = -fps_mode ] && '
        "{ echo \"Unrecognized option 'fps_mode'.\" >&2; exit 1; }; done\n"
        f'exec "{real}" "$@"\n'
    )
    old.chmod(0o755)
    monkeypatch.setenv("PATH", f"{old.parent}{os.pathsep}{os.environ['PATH']}")

    frames = keyframes(talk.video, tmp_path / "out", prefix="talk")

    assert [round(t) for t, _ in frames] == [round(s) for s in talk.starts]
