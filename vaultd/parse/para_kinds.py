"""A built para's kind: the classifier's verdict on its text and style, refined by where
it stands (a first page's front matter, a formula going on with a sentence, a run-in
lead set in two fonts, a thesis's citation of itself under its abstract's head). Used by
``vaultd.parse.structure`` as it builds a page's paras.
"""

from __future__ import annotations

import re

from vaultd.models import ChunkType
from vaultd.parse.block_paras import (
    SUBSECTION_RE,
)
from vaultd.parse.bylines import is_byline, is_title_note
from vaultd.parse.classify import (
    alpha_ratio,
    classify,
    heading_number,
    is_formula_line,
    is_short,
)
from vaultd.parse.code import is_code, statements_go_on
from vaultd.parse.court_filings import is_judges_line
from vaultd.parse.float_notes import merge_target
from vaultd.parse.fontnames import is_small_caps_font
from vaultd.parse.front import (
    is_credit,
    is_declaration,
    is_front_matter,
    opens_abstract,
)
from vaultd.parse.front_blocks import (
    is_contact,
    is_orcid_list,
)
from vaultd.parse.headings import (
    is_title,
)
from vaultd.parse.imprints import IMPRINT_PAGES, is_imprint, is_own_citation
from vaultd.parse.licences import holds_licence, is_licence
from vaultd.parse.number_rows import is_number_row
from vaultd.parse.paras import (
    REFS_RE,
    SENT_END,
    Line,
    PageInfo,
    Para,
    small_print,
)
from vaultd.parse.textlayer import mis_mapped, prose_words, unreliable


def _inline_math(paras: list[Para], text: str) -> bool:
    """A formula line that goes on with a sentence left open (``the quantity`` / ``xB ≡
    mB``, set on its own line around a built-up fraction): it continues that paragraph."""
    if not text[:1].islower():
        return False
    target = merge_target(paras)
    return target is not None and target.type == "paragraph" and not target.text.rstrip().endswith(SENT_END)



#: A label set letter by letter, lowercase, a space between (two words at most).
_SPACED_LABEL_RE = re.compile(r"[a-z](?: [a-z]){4,}(?:  ?[a-z](?: [a-z])+)?")
#: A name's initial: ``D.`` in ``J. D. McCauley``.
_INITIAL_RE = re.compile(r"[A-Z]\.")
#: A sentence's end with a word after it, inside a line: a run-in heading's lead and the
#: paragraph's first words, set on one line in two fonts (not an initial's stop: a genus
#: abbreviated in italics, PLOS's ``… binding of V. cholerae biofilms to host membranes``),
#: or a dash between words (UNCTAD's bold ``Serving both private and public interests``
#: and `` – Leading`` in its light face).
_RUN_IN_RE = re.compile(r"[.?!:](?<!\b[A-Z]\.)\s+\w|\b[A-Z]\.\s+[A-Z\d]|\w\s+[–—]\s+\w")


def _after_number(text: str, number: str | None) -> str:
    """A heading's text after its number and the number's full stop (``2. The class
    "zoo" and its methods``, set in two fonts: the stop after ``2`` ends no run-in lead)."""
    text = text.strip()
    return text[len(number):].lstrip(". ") if number and text.startswith(number) else text


def para_kind(paras: list[Para], lines: list[Line], text: str, info: PageInfo, body: float,
          alone: bool) -> tuple[ChunkType, str | None]:
    """A para's type and heading number (``alone``: its source block was not split)."""
    if is_code(lines, text) or statements_go_on(paras, lines):
        return "code", None
    italic_head = len(lines) == 1 and lines[0].italic and bool(SUBSECTION_RE.match(text))
    kind, number = classify(text, max(ln.size for ln in lines), all(ln.bold for ln in lines),
                            len(lines), body, alone or lines[0].bold or italic_head,
                            italic=all(ln.italic for ln in lines),
                            small_caps=all(ln.small_caps or is_small_caps_font(ln.font) for ln in lines))
    if kind == "paragraph" and alone and len(lines) == 1 and REFS_RE.match(text.strip()):
        return "heading", heading_number(text)  # "REFERENCES" on its own, in the body's font
    if kind == "paragraph" and is_formula_line(text) and is_short(len(lines), text) \
            and not _inline_math(paras, text):
        kind = "equation"
    if kind == "paragraph" and len(lines) >= 2 and prose_words(text) <= len(lines) \
            and 3 * sum(1 for ln in lines if is_formula_line(ln.text)) >= 2 * len(lines) \
            and not _inline_math(paras, text):
        kind = "equation"  # a display of several lines, read as one block (an LSTM's gates)
    if kind == "paragraph" and mis_mapped(text) and (
            is_short(len(lines), text) or alpha_ratio(text) < 0.6 or prose_words(text) < 3):
        kind = "equation"  # a formula in a mis-mapped font: never quoted as prose
    if kind == "heading" and len(lines) == 1 and lines[0].mixed and _RUN_IN_RE.search(_after_number(text, number)):
        kind = "paragraph"  # "What is the best highlighting algorithm? We": a run-in lead
    if kind in ("paragraph", "heading") and is_number_row(lines, text):
        return "table", None  # a table's row of figures no table finder took in
    if kind == "heading" and unreliable(text) and prose_words(text) < 2:
        kind = "equation"  # "Duy ¼ lk � g0": a formula set large, not a section
    at_edge = info.number <= FRONT_PAGES and _at_edge(lines, info, body)
    if kind == "paragraph" and at_edge and holds_licence(text):
        return "front", None  # a head or foot block that holds the licence: banner, © line, licence
    if info.number <= FRONT_PAGES and kind in ("paragraph", "heading", "list") \
            and is_front_matter(text, at_edge=at_edge,
                                small=small_print(max(ln.size for ln in lines), body),
                                banner=info.number == 1 and lines[0].bbox[1] < info.height * BANNER_TOP):
        return "front", None
    if kind == "paragraph" and (is_licence(text) or is_credit(text) or is_declaration(text) or is_contact(text)
                                or is_judges_line(text) or is_orcid_list(text)):
        # a CC BY notice at the article's end, a slide deck's last slide, a photo's credit,
        # the Nature journals' dates and boilerplate after the text, a contact's addresses,
        # an opinion's judges (its panel, its signature, the others' concurrence)
        return "front", None
    if kind == "paragraph" and paras and paras[-1].type == "heading" and opens_abstract(paras[-1].text) \
            and is_own_citation(text):
        return "front", None  # a thesis's citation of itself under its abstract's head
    if info.number <= IMPRINT_PAGES and kind == "paragraph" and is_imprint(text):
        return "front", None  # a book's copyright page: "… ISBN-13: 978-…", "All rights reserved."
    if info.number == 1 and kind == "heading" and is_byline(text) and (
            number is None or _INITIAL_RE.match(_after_number(text, number))
            # (a byline's next line, in its size: ``M. Langguth, …`` | ``S. Stadtler``)
            or (paras and paras[-1].type == "front" and is_byline(paras[-1].text)
                and abs(paras[-1].lines[-1].size - lines[0].size) <= 0.5)):
        # the authors' names, set large: not a section of the paper (``2 Cost Coverage``
        # and ``B. Citations and References``, numbered as sections are, are sections;
        # ``J. D. McCauley`` opens with initials)
        return "front", None
    if info.number <= FRONT_PAGES and kind in ("paragraph", "equation") and len(lines) == 1 \
            and _SPACED_LABEL_RE.fullmatch(text.strip()):
        return "front", None  # Elsevier's letter-spaced ``a r t i c l e i n f o``, ``a b s t r a c t``
    if info.number == 1 and kind == "paragraph" and len(lines) > 1 and is_byline(lines[0].text):
        return "front", None  # the authors' names over their addresses, read as one block
    if info.number == 1 and kind == "paragraph" and is_title_note(text, (
            p.text for p in paras if p.type in ("heading", "front", "equation") and p.lines[0].page == 1)):
        return "front", None
    if info.number == 1 and is_title(kind, lines, text, body):
        if kind == "paragraph" and is_byline(text):
            return "front", None  # the authors' names set as large as a title (the Royal Society's)
        return "heading", number
    return kind, number


#: Pages that may hold the article's front matter (a cover page may come first).
FRONT_PAGES = 2
#: Share of the page height at its top and foot where banners and footers stand.
EDGE_FRACTION = 0.15
#: Share of the first page's height, from its top, where an article-type banner stands.
BANNER_TOP = 0.25
def _at_edge(lines: list[Line], info: PageInfo, body: float) -> bool:
    """At the page's top or foot, or set small (side columns of article data)."""
    return (lines[0].bbox[1] < info.height * EDGE_FRACTION
            or lines[-1].bbox[3] > info.height * (1 - EDGE_FRACTION)
            or max(ln.size for ln in lines) < body * 0.9)
