"""The year a first page prints as the work's own date (pure).

Every year on the page is ranked by what stands around it, and the best rank wins (the
topmost year among equals):

1. a publication date: "Published: 22 January 2014", "published online … on Oct. 2015",
   a thesis defence ("Soutenue le …"), arXiv's stamp;
2. the citation line or masthead: a year beside a volume, issue, pages or proceedings
   ("Future Internet 2014, 6, 61-75", "160 (2008)", "Proceedings of NAACL-HLT 2018"), an
   issue date at the top of the page, a thesis' degree line ("University of …, 1994"),
   the meeting a paper was presented at ("Presented at the 2019 …", "written for
   presentation as the 1992 International Winter Meeting");
3. a copyright line ("© 2016", "c⃝2017", "Copyright 2017");
4. the document's own date: a version, draft or "Dated:" line, a line that is only a date.

Never: received, revised, accepted or submitted dates ("Preprint submitted to Elsevier
June 8, 2018" is the preprint's own date, rank 4), years inside a DOI or URL, cited years
("Zeileis (2004)", "(Bürkner 2018)"), earlier degrees ("B.A., University of …, 1981").
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import pairwise

MIN_YEAR = 1800
MAX_YEAR = 2100
EDGE_ZONE = 0.12  # the top and bottom 12 % of a page hold its citation line and footer
_YEAR = r"(?<![\d./-])((?:1[89]|20)\d{2})(?![\d])"
YEAR_RE = re.compile(_YEAR)
_MONTHS = (
    r"jan(?:uary|vier|uar|eiro)?|feb(?:ruary|ruar)?|févr(?:ier)?|fev(?:ereiro)?|"
    r"mar(?:ch|s|z|ço)?|märz|apr(?:il)?|avr(?:il)?|abr(?:il)?|may|mai(?:o)?|mayo|"
    r"jun(?:e|i|ho|io)?|juin|jul(?:y|i|ho|io)?|juil(?:let)?|aug(?:ust)?|août|ago(?:sto)?|"
    r"sep(?:t(?:ember|embre)?)?|set(?:embro)?|oct(?:ober|obre)?|okt(?:ober)?|out(?:ubro)?|"
    r"nov(?:ember|embre|embro)?|dec(?:ember)?|dez(?:ember|embro)?|déc(?:embre)?|dic(?:iembre)?|"
    r"января|февраля|марта|апреля|мая|июня|июля|августа|сентября|октября|ноября|декабря|"
    r"январь|февраль|март|апрель|май|июнь|июль|август|сентябрь|октябрь|ноябрь|декабрь")
_DATE_RE = re.compile(
    rf"(?:\b(?:{_MONTHS})\.?\s+(?:\d{{1,2}}(?:st|nd|rd|th|er)?[,.]?\s+)?{_YEAR}|"
    rf"\b\d{{1,2}}(?:st|nd|rd|th|er|\.)?\s+(?:de\s+)?(?:{_MONTHS})\.?,?\s+(?:de\s+)?{_YEAR}|"
    rf"{_YEAR}\s+(?:{_MONTHS})\b|{_YEAR}-\d{{2}}-\d{{2}}|{_YEAR}/\d{{2}}/\d{{2}}|"
    rf"{_YEAR}\s*년|{_YEAR}\s*年)", re.IGNORECASE)
_EXCLUDED_RE = re.compile(
    r"\b(?:received|revised|accepted|submitted|in\s+revised\s+form|in\s+original\s+form|"
    r"recebido|aceito|aceptado|recibido|reçu|accepté|eingegangen|angenommen|поступила|"
    r"принята)\b", re.IGNORECASE)
_PREPRINT_SUBMITTED_RE = re.compile(r"\bpreprint\s+submitted\s+to\b", re.IGNORECASE)
_PUBLISHED_RE = re.compile(
    r"\b(?:published(?:\s+online)?|publication\s+date|available\s+online|first\s+published|"
    r"publicado|publié|veröffentlicht|опубликовано|soutenue\s+le|defended\s+on|issued)\b"
    rf"(?:\s*(?:online)?\s*[:.,]?\s*(?:(?:on|le|am|em)\s+)?(?:\d{{1,2}}(?:st|nd|rd|th|er)?\.?\s+)?"
    rf"(?:(?:{_MONTHS})\.?\s+)?(?:\d{{1,2}},?\s+)?|"
    rf"[^()\d]{{0,80}}\b(?:on|le|am|em)\s+(?:the\s+)?(?:{_MONTHS})?\.?\s*)$",
    re.IGNORECASE)
_CITATION_RE = re.compile(
    r"\b(?:vol(?:ume)?\.?|issue|no\.|number|nr\.|pp\.|pages?|article\s+(?:id|no\.?|number)|"
    r"proceedings|conference|symposium|workshop|meeting|congress|tome|band|heft|том)(?!\w)|"
    rf"\b\d+\s*:\s*e?\d+|\d+\s*\(\s*{_YEAR}\s*\)|{_YEAR}\s*\)?\s*[,;:]\s*(?:vol\.?\s*)?\d+|\d+\s*[,:]\s*{_YEAR}",
    re.IGNORECASE)
_COPYRIGHT_RE = re.compile(r"©|c⃝|\(c\)\s*\d|\bcopyright\b|^\s*c\s+(?:1[89]|20)\d{2}\b|"
                           r"\sc\s+(?:1[89]|20)\d{2}\s", re.IGNORECASE)
_DOC_DATE_RE = re.compile(
    r"\b(?:version|versión|versão|версия|draft|dated|date|compiled|last\s+updated|"
    r"datum|stand|updated|preprint|revision|rev\.|printed|edition)\b",
    re.IGNORECASE)
_THESIS_RE = re.compile(r"\b(?:thesis|dissertation|these|thèse|tese|tesis|dissertação|"
                        r"diplomarbeit|masterarbeit|bachelorarbeit|doktorarbeit|"
                        r"partial\s+fulfil+ment)\b", re.IGNORECASE)
_INSTITUTION_RE = re.compile(r"\b(?:university|universit\w+|institute|college|school|"
                             r"academy|hochschule)\b", re.IGNORECASE)
_PRIOR_DEGREE_RE = re.compile(r"^\s*(?:[A-Z][a-z]{0,3}\.){1,3}[A-Z]?\.?\s*,|^\s*(?:B|M)\.?S\.?c?\b")
_CITED_RE = re.compile(
    rf"\((?:[A-Z][\w'’-]+(?:\s+(?:and|&|et\s+al\.?)\s*)?[\s,]*)+(?:{_YEAR}[a-z]?[;,\s]*)+\)|"
    rf"[A-Z][\w'’-]+\s*\((?:{_YEAR}[a-z]?[;,\s]*)+\)|et\s+al\.?,?\s*{_YEAR}|"
    rf"^\W*\({_YEAR}[a-z]?\)\W*$")
_ID_SPAN_RE = re.compile(r"\b10\.\d{4,9}/\S+|https?://\S+|www\.\S+|\barXiv:\S+|\S+@\S+|"
                         r"ISSN\s*[\d-]+X?|ISBN[\s\d-]+X?", re.IGNORECASE)
_CJK_DIGITS = {"〇": 0, "○": 0, "零": 0, "一": 1, "二": 2, "三": 3, "四": 4, "五": 5, "六": 6,
               "七": 7, "八": 8, "九": 9}
_CJK_YEAR_RE = re.compile(r"([〇○零一二三四五六七八九]{4})\s*年")
_ARXIV_STAMP_RE = re.compile(rf"arXiv:\S+\s*\[[^\]]+\]\s+\d{{1,2}}\s+\w+\s+{_YEAR}")
# A paper's conference: "Presented at the 2019 …", "for presentation as the 1992 …".
_PRESENTED_RE = re.compile(r"\b(?:presented\s+at|(?:for\s+)?presentation\s+(?:at|as))\b"
                           r"[^.;]{0,60}$", re.IGNORECASE)
RANKS = {"published": 1, "citation": 2, "copyright": 3, "document": 4}


@dataclass(frozen=True)
class DatedLine:
    """A line of the page and where it stands (0 = top, 1 = bottom)."""

    text: str
    position: float


@dataclass(frozen=True)
class YearCandidate:
    year: int
    rank: int
    position: float
    line: str


def cjk_year(text: str) -> int | None:
    """'二〇二二年十月' → 2022 (a year written digit by digit in ideographs)."""
    m = _CJK_YEAR_RE.search(text)
    return int("".join(str(_CJK_DIGITS[c]) for c in m.group(1))) if m else None


def _years(text: str) -> list[tuple[int, int]]:
    """(year, offset) of the plausible years in ``text``."""
    found = [(int(m.group(1)), m.start(1)) for m in YEAR_RE.finditer(text)]
    return [(y, at) for y, at in found if MIN_YEAR <= y <= MAX_YEAR]


def _clause(text: str, at: int) -> str:
    """The part of ``text`` before offset ``at``, back to the last clause break."""
    before = text[:at]
    cut = max(before.rfind(sep) for sep in (";", "/", "|", "·"))
    return before[cut + 1:]


def _rank(line: DatedLine, text: str, at: int, thesis: bool) -> int | None:
    clause = _clause(text, at)
    if _PREPRINT_SUBMITTED_RE.search(clause):
        return RANKS["document"]
    if _EXCLUDED_RE.search(clause):
        return None
    if _PUBLISHED_RE.search(clause):
        return RANKS["published"]
    if _COPYRIGHT_RE.search(clause):
        return RANKS["copyright"]
    if _PRESENTED_RE.search(clause):
        return RANKS["citation"]  # "written for presentation as the 1992 … Meeting"
    edge = line.position <= EDGE_ZONE or line.position >= 1 - EDGE_ZONE
    if _CITATION_RE.search(text) and (edge or not _looks_like_prose(text)):
        return RANKS["citation"]
    if thesis and _INSTITUTION_RE.search(clause) and not _PRIOR_DEGREE_RE.match(text):
        return RANKS["citation"]
    is_date = bool(_DATE_RE.search(text)) or text.strip().isdigit() or \
        bool(re.fullmatch(rf"\W*{_YEAR}\W*(?:,?\s*v[-\d.]+)?\W*", text.strip()))
    if is_date and len(text.split()) <= 9:
        return RANKS["citation"] if line.position <= EDGE_ZONE + 0.05 else RANKS["document"]
    if _DOC_DATE_RE.search(clause) and _DATE_RE.search(text):
        return RANKS["document"]
    return None


def _looks_like_prose(text: str) -> bool:
    return len(text.split()) > 14


def year_candidates(lines: Sequence[DatedLine], page_text: str = "") -> list[YearCandidate]:
    """Every year the page prints as its own, with its rank (see the module doc)."""
    thesis = any(_THESIS_RE.search(ln.text) for ln in lines)
    out: list[YearCandidate] = []
    for line in lines:
        text = _CITED_RE.sub(" ", _ID_SPAN_RE.sub(" ", line.text))
        for year, at in _years(text):
            rank = _rank(line, text, at, thesis)
            if rank is not None:
                out.append(YearCandidate(year, rank, line.position, line.text))
        if (cjk := cjk_year(line.text)) is not None:
            out.append(YearCandidate(cjk, RANKS["document"], line.position, line.text))
    for m in _ARXIV_STAMP_RE.finditer(page_text):
        out.append(YearCandidate(int(m.group(1)), RANKS["published"], 0.0, m.group(0)))
    # "published online in the Journal …, on Oct. 2015": a publication date over two lines
    for first, second in pairwise(lines):
        joined = f"{first.text} {second.text}"
        for year, at in _years(joined):
            if at >= len(first.text) and _PUBLISHED_RE.search(_clause(joined, at)) \
                    and not _EXCLUDED_RE.search(_clause(joined, at)):
                out.append(YearCandidate(year, RANKS["published"], second.position, joined))
    return out


def printed_year(lines: Sequence[DatedLine], page_text: str = "") -> int | None:
    """The work's year as the first page prints it, or None when it prints none."""
    found = year_candidates(lines, page_text)
    if not found:
        return None
    best = min(found, key=lambda c: (c.rank, c.position))
    return best.year
