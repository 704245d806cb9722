"""What a first page prints about its work: title, authors, year (pure).

Read from the page's typeset lines (``vaultd.capture.page_layout``), used when no metadata
source answers (source ``pdf-layout``, never verified). The title is the largest text near
the top that is no masthead, banner or running head; the byline is the block of names
right under it (``find_byline``); a name labelled "By", "Thèse présentée par" or "研究生"
anywhere on the page wins over names under the title (a thesis' cover names its jury
there); the year is the printed publication or copyright date
(``vaultd.capture.printed_dates``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from vaultd.capture.byline import (
    LABEL_RE,
    ends_open,
    leading_names,
    looks_like_name,
    names_only,
    split_names,
)
from vaultd.capture.page_layout import SIZE_TOLERANCE_PT, TextLine
from vaultd.capture.page_title import Title, find_title
from vaultd.capture.printed_dates import DatedLine, printed_year

BYLINE_ZONE = 0.4  # the byline stands within 40 % of the page's height under the title
NAME_BLOCK_GAP = 9.0  # a further row of names starts within this many sizes of the last
MAX_AUTHORS = 200
# Where the title block ends: the abstract, keywords, the first section.
_STOP_RE = re.compile(
    r"^\W*(?:abstract|summary|résumé|resumo|resumen|riassunto|zusammenfassung|"
    r"kurzfassung|аннотация|реферат|摘要|초록|요약|keywords?|key\s+words|palavras-chave|"
    r"mots[-\s]cl[ée]s|schlüsselwörter|contents|table\s+of\s+contents|оглавление|"
    r"содержание|目录|(?:1|i)\.?\s+introduc\w+|introduc\w+|nomenclature)\b",
    re.IGNORECASE)
# A block that is no byline though it may hold names: editors, citations, addresses.
_SKIP_RE = re.compile(
    r"^\W*(?:(?:academic\s+|handling\s+)?editor|edited\s+by|reviewed\s+by|citation|"
    r"correspondence|corresponding|received|accepted|published|copyright|©|"
    r"th[èe]se\s+dirig[ée]e|directeurs?|supervis|advis|betreuer|begutachter|orientador|"
    r"指导|导师|composition\s+du\s+jury|jury|rapporteurs?|examinat)",
    re.IGNORECASE)
_CJK_SPACED_RE = re.compile(r"(?<=[\u3400-\u9fff])\s+(?=[\u3400-\u9fff])")
_CONNECTOR_RE = re.compile(r"\W*(?:and|und|et|e|y|и|&)?\W*", re.IGNORECASE)
_SENTENCE_WORDS = 14  # a line this long that is no list of names is prose


@dataclass
class FirstPage:
    """The first page's own metadata (each field None or empty when not printed)."""

    title: str | None = None
    authors: list[str] = field(default_factory=list)
    year: int | None = None


def _paragraphs(lines: Sequence[TextLine]) -> list[list[TextLine]]:
    """Lines in one style that stand one under the other, as byline paragraphs."""
    paras: list[list[TextLine]] = []
    for line in lines:
        for para in reversed(paras):
            last = para[-1]
            if abs(last.size - line.size) <= 0.3 and last.bold == line.bold and \
                    0 < line.y0 - last.y0 <= 1.8 * line.size and \
                    min(last.x1, line.x1) - max(last.x0, line.x0) > 0:
                para.append(line)
                break
        else:
            paras.append([line])
    order = {id(line): i for i, line in enumerate(lines)}  # lines come in reading order
    paras.sort(key=lambda p: order[id(p[0])])
    return paras


def byline_text(para: Sequence[TextLine]) -> str:
    """A paragraph's lines as one byline string: a line break separates names, unless the
    line stops inside a name ('Ana Cristina Franco da' / 'Silva')."""
    text = ""
    for line in para:
        part = line.text.strip()
        if not text:
            text = part
        elif ends_open(text) or re.search(r"(?:[,;&]|\band|\bund|\bet|\be|\bи)\s*$", text):
            text = f"{text}{'' if text.endswith('-') else ' '}{part}"
        else:
            text = f"{text}, {part}"
    return text


def _in_columns(line: TextLine, title: Title, width: float) -> bool:
    """True when ``line`` stands under the title's span of the page (a sidebar does not)."""
    left, right = min(title.x0, width * 0.2), max(title.x1, width * 0.8)
    return line.x1 > left and line.x0 < right


def _segments(para: Sequence[TextLine]) -> list[tuple[str, str, bool]]:
    """A paragraph's fields in reading order, each with whether it opens a line; a line
    that stops inside a name ('Ana Cristina Franco da' / 'Silva') runs on into the next
    line's first field."""
    out: list[tuple[str, str, bool]] = []
    for line in para:
        fields = list(line.fields) or [(line.text, "")]
        if out and ends_open(out[-1][0]):
            joiner = "" if out[-1][0].endswith("-") else " "
            out[-1] = (f"{out[-1][0]}{joiner}{fields[0][0]}", out[-1][1], out[-1][2])
            fields = fields[1:]
        out.extend((text, style, i == 0) for i, (text, style) in enumerate(fields))
    return out


def _names_in(para: Sequence[TextLine], style: str | None) -> tuple[list[str], str | None]:
    """The names a paragraph's fields open with, read only from fields in the byline's
    style once it is known (an affiliation, an e-mail or a role set in another face
    beside each name is passed over); returns the names and the style of the first.
    Before that style is known, a line is read up to its first field that is no name
    (a name-shaped phrase in italics inside prose is no byline)."""
    names: list[str] = []
    segments = _segments(para)
    i = 0
    line_done = False
    while i < len(segments):
        text, field_style, opens = segments[i]
        i += 1
        line_done = line_done and not opens
        if line_done or (style is not None and field_style != style):
            continue
        if _CONNECTOR_RE.fullmatch(text):
            continue  # "and" set in roman between two names in bold
        found = leading_names(text, printed=True)
        if not found and i < len(segments) and not segments[i][2]:
            # a name stored in pieces, or set in two faces ("Jean DUPONT")
            found = leading_names(f"{text} {segments[i][0]}", printed=True)
            i += bool(found)
        if found:
            style = style or field_style
            names.extend(found)
        elif style is None:
            line_done = True
    return names, style


def find_byline(lines: Sequence[TextLine], title: Title, width: float,
                height: float) -> list[str]:
    """The names in the block under the title, in order, rows of a grid left to right."""
    below = [ln for ln in lines if ln.y0 >= title.bottom - 1 and ln not in title.lines
             and ln.y0 <= title.bottom + BYLINE_ZONE * height and _in_columns(ln, title, width)]
    region: list[TextLine] = []
    for line in below:
        if _STOP_RE.match(line.text):
            break
        region.append(line)
    names: list[str] = []
    style: str | None = None
    size = 0.0
    last_bottom = title.bottom
    for para in _paragraphs(region):
        text = byline_text(para)
        if _SKIP_RE.match(text):
            continue
        if style is not None and para[0].y0 - last_bottom > NAME_BLOCK_GAP * size:
            break
        found, style_now = _names_in(para, style)
        if not found:
            if style is None and len(text.split()) >= _SENTENCE_WORDS:
                break  # prose before any name: this page has no byline under its title
            continue
        if style is None:
            size = para[0].size
        style = style_now
        last_bottom = max(ln.y1 for ln in para)
        names.extend(n for n in found if n not in names)
    return names[:MAX_AUTHORS]


def labelled_authors(lines: Sequence[TextLine]) -> list[str]:
    """Names a label introduces ('By …', 'Thèse présentée par …', '研究生：…'); a label
    alone on its line names the next line."""
    for i, line in enumerate(lines):
        text = _CJK_SPACED_RE.sub("", line.text)  # a letter-spaced label: "研 究 生"
        m = LABEL_RE.match(text)
        if m is None or not m.group(0).strip():
            continue
        rest = text[m.end():].strip()
        if not rest and i + 1 < len(lines):
            rest = lines[i + 1].text
        names = split_names(rest, printed=True)
        if names and all(looks_like_name(n, printed=True) for n in names):
            return names
    return []


def _body_size(lines: Sequence[TextLine]) -> float:
    chars: dict[float, int] = {}
    for ln in lines:
        chars[round(ln.size, 1)] = chars.get(round(ln.size, 1), 0) + len(ln.text)
    return max(chars, key=lambda k: chars[k]) if chars else 0.0


def display_names(lines: Sequence[TextLine], title: Title) -> list[str]:
    """Names the page sets apart from its text when none stands under the title: whole
    lines that are names, from the title's top down, in a style (larger than the body, or
    bold) that no other line there uses — ASME's names in the margin beside the
    abstract, "R Core Team" at the foot of a manual's title page. A heading that reads as a name shares its style
    with the page's other headings, so it never qualifies."""
    body = _body_size(lines)
    styles: dict[tuple[float, bool], list[list[str]]] = {}
    for ln in lines:
        if ln in title.lines or ln.y0 < title.top:
            continue  # over the title: banners, mastheads, the number
        key = (round(ln.size, 1), ln.bold)
        found = [] if re.search(r"\d", ln.text) else names_only(ln.text, printed=True)
        styles.setdefault(key, []).append(found)
    for (size, bold), rows in styles.items():
        if (size > body + SIZE_TOLERANCE_PT or bold) and all(rows):
            return [n for row in rows for n in row][:MAX_AUTHORS]
    return []


def dated_lines(lines: Sequence[TextLine], height: float) -> list[DatedLine]:
    return [DatedLine(ln.raw or ln.text, max(0.0, min(1.0, ln.y0 / height))) for ln in lines]


def read_first_page(lines: Sequence[TextLine], width: float, height: float,
                    page_text: str = "") -> FirstPage:
    """Title, authors and year of a first page from its typeset lines."""
    out = FirstPage(year=printed_year(dated_lines(lines, height), page_text))
    title = find_title(lines, height)
    if title is None:
        return out
    out.title = title.text
    out.authors = labelled_authors(lines) or find_byline(lines, title, width, height) \
        or display_names(lines, title)
    return out
