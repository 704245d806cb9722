"""WebVTT subtitles to cues: recorded YouTube tracks read by eye, and rolling captions undone."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from vaultd.errors import ParseError
from vaultd.video.transcript import Cue, TranscriptError, read_vtt


def _read(fixtures_dir: Path, name: str) -> list[Cue]:
    return read_vtt((fixtures_dir / "youtube" / "vtt" / name).read_text(encoding="utf-8"))


# -- recorded tracks (expected values written from the files by eye) -------------------------


def test_auto_captions_keep_each_spoken_line_once_at_its_first_time(fixtures_dir: Path) -> None:
    cues = _read(fixtures_dir, "auto_captions_youtube_dl.en.vtt")
    assert cues == [
        Cue(286.07, 286.47, "yeah"),
        Cue(286.47, 304.08, "what"),
        Cue(304.08, 305.069, "this will happen is I'm telling"),
    ]


def test_auto_captions_drop_timing_tags_styles_and_cue_settings(fixtures_dir: Path) -> None:
    text = " ".join(c.text for c in _read(fixtures_dir, "auto_captions_youtube_dl.en.vtt"))
    for residue in ("<", ">", "00:05", "align:", "position:", "color", "::cue", "Kind"):
        assert residue not in text


def test_short_inline_timestamps_and_class_spans_are_stripped(fixtures_dir: Path) -> None:
    assert _read(fixtures_dir, "cue_timestamp_tags.vtt") == [
        Cue(16.5, 18.5, "When the moon hits your eye"),
        Cue(18.5, 20.5, "Like a big-a pizza pie"),
        Cue(20.5, 21.5, "That's amore"),
    ]


def test_creator_subtitles_keep_every_cue_with_lines_joined(fixtures_dir: Path) -> None:
    cues = _read(fixtures_dir, "human_crash_course_european_history.en.vtt")
    assert len(cues) == 13
    assert cues[0] == Cue(0.16, 3.54,
                          "Hi I’m John Green and this is Crash Course European History.")
    assert cues[1].text == ("Last time, we looked at how the monarchs did--and "
                            "didn’t--incorporate the ideas of the Enlightenment")
    assert cues[2] == Cue(9.54, 11.269, "into their domestic policies.")
    assert cues[6] == Cue(28.88, 37.719,
                          "[Intro] So, population was rising in 18th century")
    assert cues[-1] == Cue(60.96, 65.14, "Now, this may seem like minor progress, but "
                                         "here’s another way of thinking about it:")


def test_creator_subtitles_lose_no_word(fixtures_dir: Path) -> None:
    path = fixtures_dir / "youtube" / "vtt" / "human_crash_course_european_history.en.vtt"
    body = [line for line in path.read_text(encoding="utf-8").splitlines()[1:]
            if line and "-->" not in line]
    assert " ".join(c.text for c in read_vtt(path.read_text(encoding="utf-8"))).split() == \
        " ".join(body).split()


# -- small hand-written tracks ---------------------------------------------------------------


def test_voice_and_styling_tags_keep_their_words_and_entities_are_decoded() -> None:
    vtt = ("WEBVTT\n\n00:00:01.000 --> 00:00:02.000 line:0 align:start\n"
           "<v Roger Bingham>We are <i>in</i> <b>New</b> <u>York</u> &amp; fine&nbsp;now</v>\n"
           "&lt;not a tag&gt;\n")
    assert read_vtt(vtt) == [Cue(1.0, 2.0, "We are in New York & fine now <not a tag>")]


def test_empty_cues_are_dropped_and_sound_tags_kept() -> None:
    vtt = ("WEBVTT\n\n00:00:01.000 --> 00:00:02.000\n[Music]\n\n"
           "00:00:02.000 --> 00:00:03.000\n<c> </c>\n\n"
           "00:00:03.000 --> 00:00:04.000\n  hello    there \n")
    assert read_vtt(vtt) == [Cue(1.0, 2.0, "[Music]"), Cue(3.0, 4.0, "hello there")]


def test_a_header_only_track_has_no_cues() -> None:
    assert read_vtt("WEBVTT\nKind: captions\nLanguage: en\n") == []


def test_hours_and_a_byte_order_mark_are_read() -> None:
    vtt = "\ufeffWEBVTT\r\n\r\n01:02:03.450 --> 01:02:04.000\r\nlate\r\n"
    assert read_vtt(vtt) == [Cue(3723.45, 3724.0, "late")]


def test_a_line_repeated_in_creator_subtitles_is_kept() -> None:
    vtt = ("WEBVTT\n\n00:00:01.000 --> 00:00:02.000\nNo.\n\n"
           "00:00:02.000 --> 00:00:03.000\nYes, really.\n\n"
           "00:00:03.000 --> 00:00:04.000\nreally.\nSo it goes.\n")
    assert [c.text for c in read_vtt(vtt)] == ["No.", "Yes, really.", "really. So it goes."]


@pytest.mark.parametrize("text", ["", "hello", "1\n00:00:01,000 --> 00:00:02,000\nhi\n",
                                  "<html><body>404</body></html>"])
def test_what_is_not_webvtt_is_refused_in_one_sentence(text: str) -> None:
    with pytest.raises(TranscriptError, match="not WebVTT") as caught:
        read_vtt(text)
    assert isinstance(caught.value, ValueError) and isinstance(caught.value, ParseError)
    assert "\n" not in str(caught.value)


# -- generated rolling captions --------------------------------------------------------------

# A small vocabulary so that repeated lines (the hard case for undoing the roll) are common.
_WORD = st.sampled_from(["yeah", "so", "the", "model", "I'm", "[Music]", "&amp;", "it's",
                         "a", "b"])
_LINE = st.lists(_WORD, min_size=1, max_size=4)


def _ts(ms: int) -> str:
    hours, rest = divmod(ms, 3_600_000)
    minutes, rest = divmod(rest, 60_000)
    return f"{hours:02d}:{minutes:02d}:{rest // 1000:02d}.{rest % 1000:03d}"


def _karaoke(words: list[str], start_ms: int) -> str:
    """A new line as YouTube writes it: each word after the first in a timed <c> span."""
    spans = [f"<{_ts(start_ms + 200 * k)}><c> {w}</c>" for k, w in enumerate(words[1:], 1)]
    return words[0] + "".join(spans)


def _rolling_vtt(lines: list[list[str]], flashes: bool) -> str:
    """Auto captions for ``lines``: each cue repeats the last line above the new one; with
    ``flashes``, a 10 ms cue shows the finished line alone (as yt-dlp writes them today)."""
    out = ["WEBVTT", "Kind: captions", "Language: en", ""]
    for i, words in enumerate(lines):
        start = 3000 * i
        top = " ".join(lines[i - 1]) if i else " "
        out += [f"{_ts(start)} --> {_ts(start + 2990)} align:start position:0%",
                top, _karaoke(words, start), ""]
        if flashes:
            out += [f"{_ts(start + 2990)} --> {_ts(start + 3000)} align:start position:0%",
                    " ".join(words), " ", ""]
    return "\n".join(out)


def _plain(words: list[str]) -> str:
    return " ".join(words).replace("&amp;", "&")


@given(st.lists(_LINE, min_size=1, max_size=25), st.booleans())
def test_rolling_captions_give_each_spoken_line_once_in_order(lines: list[list[str]],
                                                              flashes: bool) -> None:
    cues = read_vtt(_rolling_vtt(lines, flashes))
    assert [c.text for c in cues] == [_plain(words) for words in lines]
    assert [c.start for c in cues] == [3.0 * i for i in range(len(lines))]


@given(st.lists(_LINE, min_size=1, max_size=25), st.booleans())
def test_rolling_captions_lose_no_word(lines: list[list[str]], flashes: bool) -> None:
    cues = read_vtt(_rolling_vtt(lines, flashes))
    spoken = " ".join(_plain(words) for words in lines).split()
    assert " ".join(c.text for c in cues).split() == spoken


def _creator_vtt(cues: list[list[str]]) -> str:
    out = ["WEBVTT", ""]
    for i, lines in enumerate(cues):
        out += [f"{_ts(2000 * i)} --> {_ts(2000 * i + 1500)}", *lines, ""]
    return "\n".join(out)


@given(st.lists(st.lists(_LINE, min_size=1, max_size=3), min_size=1, max_size=20))
def test_creator_subtitles_are_kept_cue_for_cue(cues: list[list[list[str]]]) -> None:
    # A numbered first word makes neighbouring lines differ, as in real creator subtitles.
    numbered = [[" ".join([f"n{i}.{k}", *words]) for k, words in enumerate(lines)]
                for i, lines in enumerate(cues)]
    got = read_vtt(_creator_vtt(numbered))
    assert [c.text for c in got] == [" ".join(lines).replace("&amp;", "&") for lines in numbered]
    assert [(c.start, c.end) for c in got] == [(2.0 * i, 2.0 * i + 1.5) for i in range(len(cues))]


@given(st.lists(st.lists(_LINE, min_size=1, max_size=3), min_size=1, max_size=20))
def test_any_track_keeps_every_source_line_and_invents_no_word(
        cues: list[list[list[str]]]) -> None:
    source = [[" ".join(words) for words in lines] for lines in cues]
    got = read_vtt(_creator_vtt(source))
    source_words = " ".join(" ".join(lines) for lines in source).replace("&amp;", "&").split()
    out_words = " ".join(c.text for c in got).split()
    remaining = iter(source_words)
    assert all(word in remaining for word in out_words)  # a subsequence, in order
    for lines in source:
        for line in lines:
            assert any(line.replace("&amp;", "&") in c.text for c in got)
