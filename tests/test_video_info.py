"""Video metadata from real yt-dlp info files, and the YouTube URL forms people paste."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from vaultd.errors import ParseError
from vaultd.video.info import (
    Chapter,
    VideoInfoError,
    read_info,
    start_time,
    timestamp,
    watch_link,
    youtube_id,
)

NO_CHAPTERS = "youtube/info/JjQDik3yNhA_no_chapters.info.json"
CHAPTERS = "youtube/info/gogEJyoSB9s_group_therapy_487.info.json"


def _load(fixtures_dir: Path, name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((fixtures_dir / name).read_text(encoding="utf-8"))
    return data


# -- read_info on recorded info files --------------------------------------------------------


def test_info_without_chapters_keeps_the_video_fields(fixtures_dir: Path) -> None:
    raw = _load(fixtures_dir, NO_CHAPTERS)
    info = read_info(raw)
    assert info.id == "JjQDik3yNhA"
    assert info.title == "This is Why Nintendo Shutdown the Miiverse"
    assert info.channel == "Mental Outlaw"
    assert info.uploader == "Mental Outlaw"
    assert info.channel_url == "https://www.youtube.com/channel/UC7YOGHUfC1Tb6E4pudI9STA"
    assert info.upload_date == (2022, 8, 5)
    assert info.duration == 968.0
    assert isinstance(info.duration, float)
    assert info.chapters == ()
    assert info.language == "en"
    assert info.tags == ("Mental Outlaw", "mental", "outlaw")
    assert info.webpage_url == "https://www.youtube.com/watch?v=JjQDik3yNhA"
    assert info.description is not None
    assert info.description.startswith("Nintendo wanted to create a social media for kids")


def test_info_without_chapters_has_auto_captions_only(fixtures_dir: Path) -> None:
    raw = _load(fixtures_dir, NO_CHAPTERS)
    info = read_info(raw)
    assert info.subtitles == ()
    assert len(info.automatic_captions) == len(raw["automatic_captions"]) == 126
    assert "en" in info.automatic_captions
    assert "en-orig" in info.automatic_captions


def test_info_with_chapters_reads_all_27_with_float_ends(fixtures_dir: Path) -> None:
    raw = _load(fixtures_dir, CHAPTERS)
    info = read_info(raw)
    assert len(info.chapters) == len(raw["chapters"]) == 27
    expected = [Chapter(float(c["start_time"]), float(c["end_time"]), c["title"])
                for c in raw["chapters"]]
    assert list(info.chapters) == expected
    assert info.chapters[0] == Chapter(0.0, 31.0, "Intro")
    last = info.chapters[-1]
    assert isinstance(raw["chapters"][-1]["end_time"], int)  # the quirk this fixture holds
    assert last.end == 7205.0 and isinstance(last.end, float)
    assert last.title.startswith("GUEST MIX: RUBEN DE RONDE: Above & Beyond - Can't Sleep")
    assert all(isinstance(c.start, float) and isinstance(c.end, float) for c in info.chapters)


def test_info_with_chapters_keeps_the_video_fields(fixtures_dir: Path) -> None:
    info = read_info(_load(fixtures_dir, CHAPTERS))
    assert info.id == "gogEJyoSB9s"
    assert info.title == "Group Therapy 487 with Above & Beyond and Ruben de Ronde"
    assert info.channel == "Above & Beyond"
    assert info.upload_date == (2022, 6, 17)
    assert info.duration == 7205.0
    assert info.language is None
    assert "Trance" in info.tags and len(info.tags) == 12


def test_live_chat_replay_is_not_counted_as_subtitles(fixtures_dir: Path) -> None:
    raw = _load(fixtures_dir, CHAPTERS)
    assert list(raw["subtitles"]) == ["live_chat"]
    info = read_info(raw)
    assert info.subtitles == ()
    assert len(info.automatic_captions) == 110


# -- read_info on edge cases ---------------------------------------------------------------


def _minimal(**extra: object) -> dict[str, object]:
    return {"id": "dQw4w9WgXcQ", "title": "A talk", **extra}


def test_minimal_info_fills_the_watch_url_and_empty_defaults() -> None:
    info = read_info(_minimal())
    assert info.webpage_url == "https://www.youtube.com/watch?v=dQw4w9WgXcQ"
    assert info.channel is None and info.upload_date is None and info.duration is None
    assert info.chapters == () and info.tags == ()
    assert info.subtitles == () and info.automatic_captions == ()


def test_creator_subtitles_are_listed_without_live_chat() -> None:
    info = read_info(_minimal(subtitles={"en": [{"ext": "vtt"}], "de": [{"ext": "vtt"}],
                                         "live_chat": [{"ext": "json"}], "fr": []}))
    assert info.subtitles == ("en", "de")


def test_backwards_and_empty_chapters_are_dropped() -> None:
    info = read_info(_minimal(chapters=[
        {"start_time": 0, "end_time": 10, "title": "a"},
        {"start_time": 10, "end_time": 10, "title": "empty"},
        {"start_time": 30, "end_time": 20, "title": "backwards"},
        {"start_time": 30, "end_time": 40.5, "title": "b"},
    ]))
    assert info.chapters == (Chapter(0.0, 10.0, "a"), Chapter(30.0, 40.5, "b"))


def test_a_chapter_without_end_ends_at_the_next_or_with_the_video() -> None:
    info = read_info(_minimal(duration=100, chapters=[
        {"start_time": 0, "title": "a"}, {"start_time": 60, "title": "b"}]))
    assert info.chapters == (Chapter(0.0, 60.0, "a"), Chapter(60.0, 100.0, "b"))


@pytest.mark.parametrize("date", ["20221305", "2022-08-05", "2022085", 20220805, None])
def test_an_invalid_upload_date_is_none(date: object) -> None:
    assert read_info(_minimal(upload_date=date)).upload_date is None


def test_a_playlist_is_refused_saying_it_is_a_playlist() -> None:
    data = {"_type": "playlist", "id": "PL123", "title": "Talks", "entries": [{}, {}]}
    with pytest.raises(VideoInfoError, match=r"playlist \(2 entries\), not a single video"):
        read_info(data)


@pytest.mark.parametrize(("data", "message"), [
    ([], "must be a JSON object, not list"),
    ({"title": "x"}, "has no video id"),
    ({"id": "dQw4w9WgXcQ", "title": ""}, "video dQw4w9WgXcQ has no title"),
    ({"_type": "url", "id": "x", "title": "y"}, "of type 'url', not a single video"),
])
def test_what_is_not_one_video_is_refused_with_the_reason(data: object, message: str) -> None:
    with pytest.raises(VideoInfoError, match=message) as caught:
        read_info(data)
    assert isinstance(caught.value, ValueError) and isinstance(caught.value, ParseError)
    assert "\n" not in str(caught.value)


# -- URLs ------------------------------------------------------------------------------------

ID = "dQw4w9WgXcQ"
URL_FORMS = [
    f"https://www.youtube.com/watch?v={ID}",
    f"https://youtube.com/watch?v={ID}&t=42s",
    f"https://www.youtube.com/watch?feature=share&v={ID}",
    f"http://m.youtube.com/watch?v={ID}",
    f"https://music.youtube.com/watch?v={ID}&list=RDAMVM{ID}",
    f"https://youtu.be/{ID}",
    f"https://youtu.be/{ID}?si=abcdEFGH&t=90",
    f"youtu.be/{ID}",
    f"www.youtube.com/watch?v={ID}",
    f"https://www.youtube.com/shorts/{ID}",
    f"https://youtube.com/shorts/{ID}?feature=share",
    f"https://www.youtube.com/embed/{ID}?start=30",
    f"https://www.youtube-nocookie.com/embed/{ID}",
    f"https://www.youtube.com/live/{ID}?si=x",
    f"https://www.youtube.com/v/{ID}",
    f"HTTPS://WWW.YOUTUBE.COM/watch?v={ID}",
    f"  https://youtu.be/{ID}  ",
]

NOT_VIDEOS = [
    "",
    "https://www.youtube.com/",
    "https://www.youtube.com/playlist?list=PLx0sYbCqOb8TBPRdmBHs5Iftvv9TPboYG",
    "https://www.youtube.com/@MentalOutlaw",
    "https://www.youtube.com/channel/UC7YOGHUfC1Tb6E4pudI9STA",
    f"https://www.youtube.com/watch?v={ID}x",  # 12 characters
    "https://www.youtube.com/watch?v=short",
    f"https://vimeo.com/{ID}",
    f"https://notyoutube.com/watch?v={ID}",
    f"https://youtu.be.evil.example/{ID}",
    f"ftp://youtu.be/{ID}",
    f"https://youtu.be/{ID[:10]}!",
    "https://[youtu.be/x",
    "not a url at all",
]


@pytest.mark.parametrize("url", URL_FORMS)
def test_youtube_id_is_found_in_every_url_form(url: str) -> None:
    assert youtube_id(url) == ID


@pytest.mark.parametrize("url", NOT_VIDEOS)
def test_youtube_id_is_none_for_what_is_not_a_video_url(url: str) -> None:
    assert youtube_id(url) is None


_IDS = st.text(alphabet="ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-",
               min_size=11, max_size=11)


@given(_IDS)
def test_youtube_id_round_trips_generated_ids(video_id: str) -> None:
    assert youtube_id(f"https://youtu.be/{video_id}?t=5") == video_id
    assert youtube_id(f"https://www.youtube.com/watch?v={video_id}&t=5") == video_id
    assert youtube_id(watch_link(video_id, 5)) == video_id


@given(st.text(max_size=60))
def test_youtube_id_never_raises(text: str) -> None:
    found = youtube_id(text)
    assert found is None or len(found) == 11


@pytest.mark.parametrize(("url", "seconds"), [
    (f"https://youtu.be/{ID}?t=90", 90.0),
    (f"https://youtu.be/{ID}?t=90s", 90.0),
    (f"https://youtu.be/{ID}?t=1m30s", 90.0),
    (f"https://www.youtube.com/watch?v={ID}&t=1h2m3s", 3723.0),
    (f"https://www.youtube.com/watch?v={ID}&t=2m", 120.0),
    (f"https://www.youtube.com/watch?v={ID}&t=1h", 3600.0),
    (f"https://www.youtube.com/watch?v={ID}&t=12.5", 12.5),
    (f"https://www.youtube.com/embed/{ID}?start=30", 30.0),
    (f"https://www.youtube.com/watch?v={ID}#t=75", 75.0),
    (f"https://www.youtube.com/watch?v={ID}#t=1m15s", 75.0),
    (f"https://youtu.be/{ID}?t=0", 0.0),
])
def test_start_time_reads_every_offset_form(url: str, seconds: float) -> None:
    assert start_time(url) == seconds


@pytest.mark.parametrize("url", [
    f"https://youtu.be/{ID}",
    f"https://youtu.be/{ID}?t=",
    f"https://youtu.be/{ID}?t=abc",
    f"https://youtu.be/{ID}?t=-5",
    f"https://youtu.be/{ID}?t=1m30x",
    f"https://youtu.be/{ID}?t=s",
    f"https://youtu.be/{ID}#comments",
])
def test_start_time_is_none_when_absent_or_invalid(url: str) -> None:
    assert start_time(url) is None


@given(st.integers(min_value=0, max_value=30), st.integers(min_value=0, max_value=59),
       st.integers(min_value=0, max_value=59))
def test_start_time_reads_generated_hms_offsets(h: int, m: int, s: int) -> None:
    url = f"https://youtu.be/{ID}?t={h}h{m}m{s}s"
    assert start_time(url) == h * 3600 + m * 60 + s


@pytest.mark.parametrize(("seconds", "shown"), [
    (0, "0:00"), (5.9, "0:05"), (59.999, "0:59"), (195, "3:15"), (600, "10:00"),
    (3599.5, "59:59"), (3600, "1:00:00"), (3723, "1:02:03"), (36000, "10:00:00"),
    (-3, "0:00"),
])
def test_timestamp_is_floored_and_shows_hours_only_from_one_hour(seconds: float,
                                                                  shown: str) -> None:
    assert timestamp(seconds) == shown


def test_watch_link_floors_to_whole_seconds() -> None:
    assert watch_link(ID, 195.99) == f"https://youtu.be/{ID}?t=195"
    assert watch_link(ID, 0) == f"https://youtu.be/{ID}?t=0"


@given(st.floats(min_value=0, max_value=10 * 3600, allow_nan=False))
def test_watch_link_start_reads_back_floored(seconds: float) -> None:
    assert start_time(watch_link(ID, seconds)) == int(seconds)
