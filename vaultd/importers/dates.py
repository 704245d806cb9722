"""Dates as Zotero stores them, and as RIS and free text write them, into CSL date objects.

Zotero keeps a date field in its database as a *multipart* string: the date it parsed when
the user typed it, as ``YYYY-MM-DD`` with ``00`` for an unknown part, a space, and the text
as typed (``'2017-06-00 June 2017'``; Zotero's ``date.js``, ``isMultipart``). Its CSL export
cites the parsed parts, a quoted date (``"n.d."``) as a literal, a date with no year as a
literal, and a season named in the text as ``season``. Exports (Better BibTeX JSON) carry
the typed text alone; ``parse_text`` reads it the way Zotero's ``strToDate`` mostly does
(ISO forms, English month names, a four-digit year anywhere).

Pure.
"""

from __future__ import annotations

import re
from typing import Any

_MULTIPART = re.compile(r"^(\d{4})-(0\d|1[0-2])-(0\d|[12]\d|3[01]) (.*)$", re.DOTALL)
_SQL_DATE = re.compile(r"^(-?\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2})(?::(\d{2}))?Z?)?$")
_QUOTED = re.compile(r'^["“](.+)["”]$', re.DOTALL)
_ISO = re.compile(r"^(\d{4})(?:[-/.](\d{1,2})(?:[-/.](\d{1,2}))?)?(?:[T ]\d{1,2}:\d{2}\S*)?$")
# EDTF (Zotero 7 and later write it): a date, qualified '~' (approximate), '?' (uncertain)
# or '%' (both); a season as month 21–24; an interval 'a/b' (an open end '' or '..').
_EDTF_DATE = r"-?\d{4}(?:-\d{2}(?:-\d{2})?)?[~?%]?"
_EDTF = re.compile(rf"^({_EDTF_DATE})$")
_INTERVAL = re.compile(rf"^({_EDTF_DATE})/({_EDTF_DATE}|\.\.)?$")
_NUMERIC_DMY = re.compile(r"^(\d{1,2})([./])(\d{1,2})\2(\d{4})$")
_RIS = re.compile(r"^(\d+)(?:/(\d{0,2})(?:/(\d{0,2})(?:[/\s](.*))?)?)?$")
_YEAR = re.compile(r"(?<!\d)(\d{4})(?!\d)")
_DAY = re.compile(r"(?<!\d)([1-9]|[12]\d|3[01])(?:st|nd|rd|th)?(?!\d)")

_MONTHS = {
    "jan": 1, "feb": 2, "mar": 3, "apr": 4, "may": 5, "jun": 6, "jul": 7, "aug": 8,
    "sep": 9, "oct": 10, "nov": 11, "dec": 12,
}
_MONTH_WORD = re.compile(
    r"\b(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|"
    r"sept?(?:ember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?(?![a-z])", re.IGNORECASE)
_SEASONS = {"spring": 1, "summer": 2, "autumn": 3, "fall": 3, "winter": 4}
_SEASON_WORD = re.compile(r"\b(spring|summer|autumn|fall|winter)\b", re.IGNORECASE)

DateParts = list[int]


def is_multipart(value: str) -> bool:
    return bool(_MULTIPART.match(value)) and not _SQL_DATE.match(value)


def multipart(parts: DateParts, text: str) -> str:
    """The multipart string Zotero stores for ``parts`` typed as ``text``."""
    y, m, d = [*parts, 0, 0, 0][:3]
    return f"{y:04d}-{m:02d}-{d:02d} {text}"


def _parts(year: int, month: int = 0, day: int = 0) -> DateParts:
    out = [year]
    if 1 <= month <= 12:
        out.append(month)
        if 1 <= day <= 31:
            out.append(day)
    return out


def _date_parts_obj(parts: DateParts, text: str = "") -> dict[str, Any]:
    obj: dict[str, Any] = {"date-parts": [parts]}
    season = _SEASON_WORD.search(text)
    if len(parts) == 1 and season:
        obj["season"] = _SEASONS[season.group(1).lower()]
    return obj


def zotero_date(value: str | None, *, access: bool = False) -> dict[str, Any] | None:
    """A Zotero date field's value (multipart, SQL or as typed) → CSL date object, or None
    for an empty value. ``access``: an access date (always an SQL date-time in UTC; cited as
    its UTC day)."""
    if value is None or not value.strip():
        return None
    value = value.strip()
    sql = _SQL_DATE.match(value)
    if sql and int(sql.group(1)) > 0:
        return {"date-parts": [_parts(int(sql.group(1)), int(sql.group(2)), int(sql.group(3)))]}
    if access:
        return _text_date(value)
    m = _MULTIPART.match(value)
    if m:
        year, month, day, text = int(m.group(1)), int(m.group(2)), int(m.group(3)), m.group(4)
        quoted = _QUOTED.match(text.strip())
        if quoted:
            return {"literal": quoted.group(1)}
        if year == 0:
            return {"literal": text.strip()} if text.strip() else None
        interval = _INTERVAL.match(text.strip())
        if interval:
            return _interval(interval)
        edtf = _EDTF.match(text.strip())
        if edtf:
            return _edtf(edtf)
        return _date_parts_obj(_parts(year, month, day), text)
    return _text_date(value)


def _edtf_parts(text: str) -> tuple[DateParts, int | None]:
    """Parts of one EDTF date, and its season (EDTF months 21–24) if it names one."""
    negative = text.startswith("-")
    numbers = [int(p) for p in text.lstrip("-").rstrip("~?%").split("-")]
    if negative:
        numbers[0] = -numbers[0]
    if len(numbers) > 1 and 21 <= numbers[1] <= 24:
        return [numbers[0]], numbers[1] - 20
    return _parts(*numbers), None


def _edtf(m: re.Match[str]) -> dict[str, Any]:
    parts, season = _edtf_parts(m.group(1))
    obj: dict[str, Any] = {"date-parts": [parts]}
    if season:
        obj["season"] = season
    return obj


def _interval(m: re.Match[str]) -> dict[str, Any]:
    start, _ = _edtf_parts(m.group(1))
    if not m.group(2) or m.group(2) == "..":
        return {"date-parts": [start]}  # an open interval: its known end
    end, _ = _edtf_parts(m.group(2))
    return {"date-parts": [start, end]}


def _text_date(text: str) -> dict[str, Any]:
    quoted = _QUOTED.match(text)
    if quoted:
        return {"literal": quoted.group(1)}
    interval = _INTERVAL.match(text)
    if interval:
        return _interval(interval)
    edtf = _EDTF.match(text)
    if edtf:
        return _edtf(edtf)
    parts = parse_text(text)
    if parts is None:
        return {"literal": text}
    return _date_parts_obj(parts, text)


def parse_text(text: str) -> DateParts | None:
    """Date parts of a date as typed ('2017-06-01', 'June 12, 2017', '12 Jun 2017', 'Spring
    2019', 'c. 1850'), or None when no year can be found. Numbers only in ISO order
    (year first): '03/04/2017' is ambiguous and gives the year alone."""
    text = text.strip()
    iso = _ISO.match(text)
    if iso:
        return _parts(*(int(g) for g in iso.groups() if g))
    dmy = _NUMERIC_DMY.match(text)
    if dmy:
        first, second, numeric_year = int(dmy.group(1)), int(dmy.group(3)), int(dmy.group(4))
        if dmy.group(2) == "." or first > 12:
            return _parts(numeric_year, second, first)  # day.month.year, or no month first
        if second > 12:
            return _parts(numeric_year, first, second)  # month/day/year
        return [numeric_year]  # 03/04/2017: day or month first cannot be told
    found = _YEAR.search(text)
    if not found:
        return None
    month_word = _MONTH_WORD.search(text)
    if not month_word:
        return _parts(int(found.group(1)))
    month = _MONTHS[month_word.group(1).lower()[:3]]
    rest = text[: found.start()] + " " + text[found.end():]
    day = _DAY.search(rest)
    return _parts(int(found.group(1)), month, int(day.group(1)) if day else 0)


def ris_date(value: str | None) -> dict[str, Any] | None:
    """A RIS date (``YYYY/MM/DD/other``, every part but the year optional, or an ISO or
    free-text date) → CSL date object. Zero parts mean unknown (RIS spec; Zotero's RIS
    translator drops them and what follows)."""
    if value is None or not value.strip():
        return None
    value = value.strip()
    m = _RIS.match(value)
    if m and len(m.group(1)) == 4:
        numbers = [int(g) if g else 0 for g in m.groups()[:3]]
        parts: DateParts = []
        for n in numbers:
            if not n:
                break
            parts.append(n)
        if parts:
            return {"date-parts": [_parts(*parts)]}
    return _text_date(value)


def first_parts(date: dict[str, Any] | None) -> DateParts | None:
    """The first date's parts of a CSL date object, or None."""
    if not date:
        return None
    parts = date.get("date-parts")
    if isinstance(parts, list) and parts and isinstance(parts[0], list) and parts[0]:
        return [int(p) for p in parts[0]]
    return None
