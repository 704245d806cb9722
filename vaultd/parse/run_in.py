"""Run-in headings: a paragraph's first words set bold or italic apart from the rest and
closed by a stop or colon (Nature's **Signature development.** *To develop …*), the
section of their paragraph and those after it (``vaultd.parse.blocks``). Used by
``vaultd.parse.structure`` once a page's paras are built and typed.
"""

from __future__ import annotations

import re
from collections import Counter

from vaultd.parse.bylines import SECTION_NAME_RE
from vaultd.parse.classify import CAPTION_RE, all_caps, heading_number, is_theorem_label
from vaultd.parse.front import opens_paper
from vaultd.parse.headings import font_chars
from vaultd.parse.paras import Para

#: Most words of a run-in heading, its number not counted (the RSC's ``3.5.2 Use of the
#: proposed method for capsule content uniformity testing.``).
RUN_IN_WORDS = 10
#: Fewest words of the paragraph after a run-in heading.
RUN_IN_REST = 3
#: Punctuation that ends a run-in heading.
_RUN_IN_STOPS = ".:—–"
#: A word that is a number (``4``, ``1.1``): a label's, never a run-in heading's.
_NUMBER_WORD_RE = re.compile(r"\d+(?:[.,]\d+)*")
#: The statements after a paper's text, named by a label set apart in bold and run in
#: with no stop (the BMJ journals' **Funding** ``The authors have not declared …``).
_STATEMENT_RE = re.compile(
    r"funding|competing\s+interests?|contributors|authors?['’]?\s+contributions|ethics\s+(?:approval|statement)|"
    r"data\s+availability(?:\s+statement)?|conflicts?\s+of\s+interests?|patient\s+consent(?:\s+for\s+publication)?|"
    r"provenance\s+and\s+peer\s+review", re.IGNORECASE)
#: A run-in heading's number (``1)``, ``2.3``, ``(a)``), the only number it may hold.
_RUN_IN_NUMBER_RE = re.compile(r"\(?(?:\d{1,2}(?:\.\d{1,2})*|[a-z])[.)]?\s+")


def run_in_heads(paras: list[Para]) -> None:
    """Paragraphs opening with a run-in heading — their first words set bold or italic
    apart from the rest and closed by a stop or colon (Nature's **Signature
    development.** *To develop …*, APA's fourth level, IEEE's ``1) DATA AUGMENTATION:``,
    ACM's ``\\paragraph``) — get it as ``runin``: the section of their paragraph and
    those after it, under the heading before (``vaultd.parse.blocks``). No statement
    (``Theorem 2.``), caption or label with a number for a word in it (``Step 4:``; an
    acronym's digit, ``SIIPS1``, is no number), and not the whole paragraph."""
    lead_fonts = _lead_fonts(paras)
    for para in paras:
        # (a note's run-in term heads no text after it: Annual Reviews' margin glossary,
        # ``Retrotransposon: a type of …``, beside the body)
        if para.type != "paragraph" or para.footnote or all(ln.margin for ln in para.lines):
            continue
        first = para.lines[0]
        # its first words in a face of their own; or its first line bold whole, wrapped onto
        # the next line's bold words (``_wrapped_lead``) or closed by a stop
        leads = [first.lead, first.face_lead if first.lead_font in lead_fonts else "",
                 f"{first.text.strip()} {para.lines[1].lead}" if _wrapped_lead(para) else "",
                 first.text.strip() if _bold_line_lead(para) else ""]
        para.runin = next((name for k, lead in enumerate(leads)
                           if lead and (name := _run_in_name(lead, para.text.lstrip(), k == 0 and first.lead_bold))),
                          None)


def _run_in_name(lead: str, text: str, bold: bool = False) -> str | None:
    """The run-in heading ``lead`` names, opening the paragraph ``text``, or None when it is
    none (``run_in_heads``); ``bold``: the lead is set bold."""
    if not text.startswith(lead):
        return None
    rest = text[len(lead):].lstrip()
    # (or a paper's usual section name alone, set apart: Science Advances' bold
    # ``Acknowledgments`` run in before its ``Funding:``; or words in capitals before a
    # sentence's capital, ASM's bold ``IMPORTANCE`` before *Aspergillus fumigatus is …*,
    # not a gene's name in the sentence, ``KRAS G12C is …``)
    closed = lead[-1] in _RUN_IN_STOPS or rest[:1] in _RUN_IN_STOPS or opens_paper(lead) \
        or SECTION_NAME_RE.fullmatch(lead.strip()) is not None or _STATEMENT_RE.fullmatch(lead.strip()) is not None \
        or (all_caps(lead) and rest[:1].isupper() and not any(c.isdigit() for c in lead)) \
        or _sentence_after(lead, rest, bold)
    name = lead.rstrip(" " + _RUN_IN_STOPS)
    bare = _RUN_IN_NUMBER_RE.sub("", name, count=1)
    if (closed and name and (name[0].isupper() or name[0].isdigit() or name[0] == "(")
            and len(bare.split()) <= RUN_IN_WORDS and len(rest.lstrip(_RUN_IN_STOPS).split()) >= RUN_IN_REST
            and not any(_NUMBER_WORD_RE.fullmatch(w.strip("().,:;")) for w in bare.split()) and not is_theorem_label(text)
            and not CAPTION_RE.match(name) and any(len(w) >= 3 and w.isalpha() for w in bare.split())):
        return name
    return None


def _sentence_after(lead: str, rest: str, bold: bool = False) -> bool:
    """Whether words set apart, ``RUN_IN_OPEN_WORDS`` or more with no digit (two set bold),
    are closed by a sentence opening after them in the text's face, a capital and a small
    letter (Theoretical Economics' italic *Computing the CMI* ``Using known results …``;
    *Diabetologia*'s bold **Surface expression**, closed by an en space the text layer reads
    as a space, ``Surface expression of wild-type …``; not a species' two italic words
    before a strain's name)."""
    words = lead.split()
    return len(words) >= (RUN_IN_BOLD_WORDS if bold else RUN_IN_OPEN_WORDS) and not any(c.isdigit() for c in lead) \
        and bool(_SENTENCE_START_RE.match(rest)) and lead[-1:].isalnum()


#: Fewest words of a run-in head closed by no stop, only by the sentence after it (set
#: bold: a species' name is italic).
RUN_IN_OPEN_WORDS, RUN_IN_BOLD_WORDS = 3, 2
#: A sentence's first word: a capital and small letters, or the article ``A`` before a word.
_SENTENCE_START_RE = re.compile(r"[A-Z][a-z]+\b|A\s+[a-z]")


def _lead_fonts(paras: list[Para]) -> set[str]:
    """Fonts a document sets its run-in heads in without naming or flagging them bold or
    italic (``spans.font_lead``): two paragraphs or more open with words in the font,
    closed by a stop in the next one, and the font is not the one most of the text is set
    in (Nature Communications' Methods: ``Participants.``, ``Stimuli.``)."""
    votes: Counter[str] = Counter(p.lines[0].lead_font for p in paras
                                  if p.type == "paragraph" and p.lines[0].face_lead and not p.lines[0].lead)
    if not votes:
        return set()
    body = font_chars(paras).most_common(1)[0][0]
    return {font for font, n in votes.items() if n >= 2 and font != body}


def _bold_line_lead(para: Para) -> bool:
    """Whether the paragraph's first line is a run-in heading filling it: set bold (or italic
    and numbered), closed by a stop (or a paper's usual section name: Science Advances'
    **Acknowledgments**), over lines that are not (Nature Communications' **Primary
    alkylamine monoarylation substrate scope using C1.** | *Primary alkylamines represent …*)."""
    first = para.lines[0]
    if len(para.lines) < 2 or first.lead:
        return False
    # (or set italic whole and numbered: Hindawi's *2.4. Biochemical Evaluation of Liver and
    # Cardiac Injury.* over ``Liver function was evaluated …``; an italic line without a
    # number may be a quotation's)
    italic = first.italic and not first.bold and heading_number(first.text.strip()) is not None
    if not (italic or (first.bold and not first.italic)):
        return False
    second = para.lines[1]
    return not second.bold and not (italic and second.italic) and second.page == first.page \
        and abs(second.size - first.size) <= 0.5 \
        and (first.text.rstrip()[-1:] in ".:" or SECTION_NAME_RE.fullmatch(first.text.strip()) is not None)


def _wrapped_lead(para: Para) -> bool:
    """Whether the paragraph opens with a run-in heading wrapped over two lines: its first
    line set bold whole to the measure's end, the next line's bold words closing it with a stop (*Mycobiology*'s
    **Microsatellite polymorphisms and discriminatory** | **power.** *As a preliminary …*)."""
    first = para.lines[0]
    if len(para.lines) < 2 or not first.bold or first.lead:
        return False
    second = para.lines[1]
    # (the first line full: a heading's words wrap at the measure's end, not after a
    # section's name alone, Science Advances' **Acknowledgments** over *Funding:*)
    return bool(second.lead) and second.page == first.page and abs(second.size - first.size) <= 0.5 \
        and second.lead[-1] in ".:" and len(second.lead.split()) <= WRAPPED_LEAD_WORDS \
        and first.bbox[2] >= second.bbox[2] - max(first.size, 1.0)


#: Most words of a run-in heading's rest wrapped onto its paragraph's second line.
WRAPPED_LEAD_WORDS = 4
