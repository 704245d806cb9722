"""Front matter grouped: a label of the first pages (``Edited by:``, ``Reviewed by:``,
``*Correspondence:``, ``Keywords:``) and the block set right under it are one ``front``
chunk, as a reader takes them, not a label and a loose name or address. A document's
table of contents, and the authors' addresses a journal prints under a label at the
article's end (JSS's ``Affiliation:``), are front matter wherever they stand."""

from __future__ import annotations

import re

from vaultd.parse.classify import is_prose
from vaultd.parse.continuation import FULL_LINE_EMS
from vaultd.parse.front import EMAIL_RE
from vaultd.parse.paras import SENT_END, Line, Para, append_piece

#: The label of a table of contents or of a list of a document's tables, figures,
#: abbreviations (a thesis's front matter), as a block of its own.
_CONTENTS_RE = re.compile(
    r"(?:table\s+of\s+)?contents|table\s+of\s+content|list\s+of\s+(?:appendix\s+)?(?:tables|figures|illustrations|"
    r"abbreviations|acronyms|symbols|algorithms|listings|plates|maps)|inhaltsverzeichnis|inhalt|"
    r"sum[áa]rio|[íi]ndice|table\s+des\s+mati[èe]res", re.IGNORECASE)
#: A paper's list of its abbreviations or symbols under that word alone (*Diabetologia*'s
#: by its abstract, an AIAA paper's ``Nomenclature``): its entries on the label's page.
_GLOSSARY_RE = re.compile(r"abbreviations|acronyms|nomenclature", re.IGNORECASE)
#: An issue's contents box (MMWR's ``INSIDE``): a label, never a section of the paper.
_ISSUE_RE = re.compile(r"inside(?:\s+this\s+issue)?|in\s+this\s+issue", re.IGNORECASE)
#: The label of the authors' addresses, as a block of its own, or of a sidebar's entry.
_ADDRESS_RE = re.compile(
    r"(?:authors?['’]?s?['’]?\s+)?(?:affiliations?|addresses|address)(?:\s+of\s+the\s+authors?)?"
    r"|(?:author|contact)\s+information"
    # (the Royal Society's first-page sidebar labels, their values under them)
    r"|subject\s+(?:category|areas?)|authors?\s+for\s+correspondence", re.IGNORECASE)
#: A contents entry's start: its page number before a capitalised title.
_PAGE_START_RE = re.compile(r"\s*\d{1,4}\s+[A-Z][a-z]")
#: A contents entry's end: its page number, arabic or roman.
_PAGE_END_RE = re.compile(r"\S\s+(?:\d{1,4}|[ivxlc]{1,7})\s*$")

#: Largest gap between a label and its block, in the label's line heights.
LABEL_GAP_LINES = 2.5


def _under(label: Para, block: Para) -> bool:
    """``block`` starts right under ``label``'s last line, in its column."""
    last, first = label.lines[-1], block.lines[0]
    height = max(last.bbox[3] - last.bbox[1], 1.0)
    across = min(last.bbox[2], first.bbox[2]) > max(last.bbox[0], first.bbox[0])
    return last.page == first.page and across and -1.0 <= first.bbox[1] - last.bbox[3] <= LABEL_GAP_LINES * height


def runs_on(front: Para, para: Para) -> bool:
    """Whether ``para`` is the next line of the front block ``front``, its sentence left
    open on a full line (Ecosphere's ``Received 28 January 2013; revised …; published 14``
    | ``August 2013. Corresponding Editor: A. McCall.``): a line or two in its size,
    starting at its left edge, the front block's last line a full one (``FULL_LINE_EMS``
    wide, reaching the right edge of both blocks' lines)."""
    last, first = front.lines[-1], para.lines[0]
    em = max(last.size, 1.0)
    return front.type == "front" and len(para.lines) <= RUN_ON_LINES and not front.text.rstrip().endswith(SENT_END) \
        and abs(last.size - first.size) <= 0.5 \
        and (abs(first.bbox[0] - min(ln.bbox[0] for ln in front.lines)) <= em or _flush_right(front, para, em)) \
        and last.bbox[2] - last.bbox[0] >= FULL_LINE_EMS * em \
        and last.bbox[2] >= max(ln.bbox[2] for ln in (*front.lines, *para.lines)) - em


def keyword_list(front: Para, para: Para) -> bool:
    """Whether ``para`` is an entry of the keywords list a ``KEYWORDS`` label heads, set a
    term a line under it (G3's label and ``domestication`` | ``genomics`` | … in the margin
    beside the abstract, a term a line): lines of a few words each right under the block's
    last line, at its left edge."""
    if front.type != "front" or not _KEYWORDS_LABEL_RE.match(front.lines[0].text.strip()) \
            or len(para.lines) > KEYWORD_LINES or any(len(ln.text.split()) > KEYWORD_WORDS for ln in para.lines):
        return False
    last, first = front.lines[-1], para.lines[0]
    em = max(first.size, 1.0)
    return first.page == last.page and abs(first.bbox[0] - front.lines[0].bbox[0]) <= em \
        and -1.0 <= first.bbox[1] - last.bbox[3] <= em and not para.text.rstrip().endswith(SENT_END)


#: A keywords list's label alone on its line, and most words of one of its terms and lines
#: of a block of them.
_KEYWORDS_LABEL_RE = re.compile(r"(?:key\s*words|index\s+terms)\s*:?$", re.IGNORECASE)
KEYWORD_WORDS = 4
KEYWORD_LINES = 8


def front_above(paras: list[Para], para: Para) -> Para | None:
    """The front block ``para`` goes on, though read apart from it: the last front block of
    the last few (``ABOVE_REACH``) whose last line stands right over ``para``'s first, a
    line's gap at most, sharing its left or right edge (a side column set flush right),
    its text left open; ``para`` a few lines (``ABOVE_LINES``: *Frontiers*' sidebar ``Citation: Lee J-Y,
    Park S-H, …, Choi M,`` | ``Rha E, Lee H, Lee D-H, Sung BH,`` | … read after the
    Introduction's first lines level with them)."""
    if len(para.lines) > ABOVE_LINES:
        return None
    first = para.lines[0]
    for front in reversed(paras[-ABOVE_REACH:]):
        if front.type != "front" or front.text.rstrip().endswith(SENT_END):
            continue
        last = front.lines[-1]
        em = max(last.size, 1.0)
        if last.page == first.page and abs(last.size - first.size) <= 0.5 \
                and -1.0 <= first.bbox[1] - last.bbox[3] <= 0.6 * (last.bbox[3] - last.bbox[1]) \
                and (abs(first.bbox[0] - last.bbox[0]) <= em or abs(first.bbox[2] - last.bbox[2]) <= em) \
                and min(first.bbox[2], last.bbox[2]) > max(first.bbox[0], last.bbox[0]):
            return front
    return None


def front_overleaf(paras: list[Para], para: Para) -> Para | None:
    """The front block of the page before that ``para`` goes on, at its column's top: a
    side column's entry left open at its page's foot (PLOS's ``Data Availability
    Statement: … the codon optimization`` | p. 2's ``scores generated by stAI-calc …``
    atop the same column, read as a paragraph of the body). ``para`` opens in lowercase
    (or in a capital after a list left open on a comma) in the block's size, at its left
    edge, and nothing was read before it in that column on its page; the block's last
    line, a full one of two or more, is the lowest of its column on its page."""
    first = para.lines[0]
    if not first.text[:1].isalpha():
        return None
    em = max(first.size, 1.0)

    def in_column(line: Line) -> bool:
        return abs(line.bbox[0] - first.bbox[0]) <= em

    read = [ln for p in paras for ln in p.lines]
    if any(ln.page == first.page and in_column(ln) for ln in read):
        return None
    for front in reversed(paras):
        last = front.lines[-1]
        if last.page < first.page - 1:
            return None
        if front.type != "front" or last.page != first.page - 1 or not in_column(last):
            continue
        if front.text.rstrip().endswith(SENT_END) or abs(last.size - first.size) > 0.5 or len(front.lines) < 2 \
                or last.bbox[2] < max(ln.bbox[2] for ln in front.lines) - em or any(
                ln.page == last.page and in_column(ln) and ln.bbox[1] >= last.bbox[3] for ln in read):
            return None  # (its sentence breaks off at a full line's end, at its column's foot)
        # (a capital goes on a list left open on its comma or semicolon: PLOS's ``Funding: …
        # (12471473 to XZ; 12171396 to KW),`` | ``Fundamental Research Funds for …``)
        return front if first.text[:1].islower() or front.text.rstrip().endswith((",", ";")) else None
    return None


#: How many blocks back a side column's front block is looked for; most lines of a piece.
ABOVE_REACH = 8
ABOVE_LINES = 4


def _flush_right(front: Para, para: Para, em: float) -> bool:
    """Both blocks set flush right, their lines ending at one edge and starting where they
    may (Wiley's licence at a first page's foot: ``which permits use, …, provided the
    original work`` | ``is not used for commercial purposes.``)."""
    rights = [ln.bbox[2] for ln in (*front.lines, *para.lines)]
    return len(front.lines) >= 2 and max(rights) - min(rights) <= em \
        and max(ln.bbox[0] for ln in front.lines) - min(ln.bbox[0] for ln in front.lines) > em


#: Most lines a front block's run-on has (a body paragraph under a front block has more).
RUN_ON_LINES = 2


def group_front(paras: list[Para]) -> list[Para]:
    """The paras with each front-matter label joined by the block right under it: a
    first page's label ending in a colon, or on any page a keywords label (``KEYWORDS``,
    ``Palabras claves:``, a report's ``Keywords`` heading) over its list of terms, the
    ACM's ``CCS Concepts`` heading over its concepts; and a front block's next line, set as
    a block of its own (``runs_on``)."""
    out: list[Para] = []
    for para in paras:
        prev = out[-1] if out else None
        if prev is not None and para.type in ("front", "paragraph", "list") and _under(prev, para) and (
                (len(prev.pieces) == 1 and (
                    (prev.type == "front" and prev.text.rstrip().endswith(":") and not _enumerated_prose(para))
                    or (prev.type in ("front", "paragraph", "heading") and _label(prev, _KEYWORDS_RE)
                        and is_term_list(para.text))
                    or (prev.type in ("front", "heading") and _label(prev, _CCS_RE))))
                or (para.type == "paragraph" and runs_on(prev, para))):
            prev.type, prev.floating = "front", True
            append_piece(prev, para.lines, para.text)
            continue
        out.append(para)
    return out


def _enumerated_prose(para: Para) -> bool:
    """Whether a para is a numbered paragraph of prose (a legal act's recital ``(1) The
    increase in the volume of road transport …`` under its ``Whereas:``): no label's value."""
    return para.type == "paragraph" and _RECITAL_RE.match(para.text) is not None and is_prose(para.text)


#: A numbered paragraph's mark: ``(1) ``, ``1. ``.
_RECITAL_RE = re.compile(r"\s*(?:\(\d{1,3}\)|\d{1,3}\.)\s+[A-Z]")
#: A keywords label as a block of its own.
_KEYWORDS_RE = re.compile(
    r"(?:key\s*words|index\s+terms|palabras\s+claves?|palavras[\s-]chave|mots[\s-]cl[ée]s|schl[üu]sselw[öo]rter)"
    r"(?:\s*(?:\d{1,2}|[*†‡]))?",  # a footnote's mark after it (CEUR's ``Keywords 1``)
    re.IGNORECASE)
#: The ACM's classification label as a heading of its own (acmart's ``CCS Concepts`` over
#: ``• Human-centered computing → User studies; …``): what it heads is front matter.
_CCS_RE = re.compile(r"(?:ccs\s+concepts|acm\s+(?:ccs|computing\s+classification(?:\s+system)?))", re.IGNORECASE)
#: Most words in one term of a keywords list, and most characters in the list.
TERM_WORDS = 6
TERMS_MAX = 400


def is_term_list(text: str) -> bool:
    """Whether ``text`` is a list of terms (``architecture; cybersecurity; zero trust.``):
    two or more, separated by semicolons, commas or middle dots, each a few words long."""
    body = text.strip().rstrip(".")
    terms = [t.strip() for t in re.split(r"[;,·•]", body)]
    return len(body) <= TERMS_MAX and len(terms) >= 2 and all(
        t and len(t.split()) <= TERM_WORDS and not re.search(r"[.?!:]\s", t) for t in terms)


def _label(para: Para, pattern: re.Pattern[str]) -> bool:
    text = para.text.strip().rstrip(":").strip()
    if _SPACED_LETTERS_RE.fullmatch(text):
        text = text.replace(" ", "")  # letter-spaced (Wiley's ``K E Y W O R D S``)
    return para.type in ("heading", "paragraph", "front") and len(para.lines) <= 2 \
        and pattern.fullmatch(text) is not None


#: A word set letter by letter, a space between each.
_SPACED_LETTERS_RE = re.compile(r"(?:\w ){3,}\w")


def contents_front(paras: list[Para]) -> list[Para]:
    """A table of contents or a list of tables, figures or abbreviations, under its label
    (``CONTENTS``, ``LIST OF FIGURES``, ``Abbreviations``; a weekly's ``INSIDE``), and the authors' addresses under theirs
    (``Affiliation:``), are ``front``, in place: their entries are no passage of the
    paper (REVTeX's contents entry ``VIII.3. Table placement 5`` is not the section's
    text). The label becomes ``front`` unless it is a contents heading; its blocks follow it until a
    heading (another such label goes on) or a paragraph of prose ending a sentence (an
    entry ends on its page number, an address on a name or an e-mail address); floating
    blocks between are left. Returns the paras made ``front``."""
    out: list[Para] = []
    label: re.Pattern[str] | None = None
    page = 0  # the label's page
    for i, para in enumerate(paras):
        kind = next((pattern for pattern in (_ISSUE_RE, _CONTENTS_RE, _GLOSSARY_RE, _ADDRESS_RE)
                     if _label(para, pattern)), None)
        if kind is not None:
            label, page = kind, para.lines[0].page
            if para.type != "heading" or kind not in (_CONTENTS_RE, _GLOSSARY_RE):
                para.type, para.floating = "front", True
                out.append(para)
            continue
        if label is _GLOSSARY_RE and para.lines[0].page != page:
            label = None  # (a list of abbreviations ends on its page: a letter's text follows, GAO's)
        if label is None or para.floating:
            continue
        if para.type == "heading" and not _entry(para, label):
            label = None
        elif para.type in ("paragraph", "list", "heading") and (
                _entry(para, label) or not (_sentences(para) and is_prose(para.text))
                or _entry_goes_on(paras, i, label)):
            para.type, para.floating = "front", True
            out.append(para)
        elif para.type in ("paragraph", "list"):
            label = None
    return out


def _sentences(para: Para) -> bool:
    """Whether a block reads as running text: it ends a sentence, or runs on for lines of
    prose (an abstract broken at the page's foot, after a sidebar's last label)."""
    return para.text.rstrip().endswith(SENT_END) or (len(para.lines) >= PROSE_LINES
                                                    and len(para.text.split()) >= PROSE_WORDS)


#: Lines and words of a block that is running text though its sentence is left open.
PROSE_LINES, PROSE_WORDS = 4, 40


def _entry(para: Para, label: re.Pattern[str]) -> bool:
    """A contents entry: three words or more ending on a page number, or under an issue's
    ``INSIDE`` opening with one (MMWR's ``707 Prevalence of Adverse Childhood …``)."""
    return label in (_CONTENTS_RE, _ISSUE_RE) and len(para.text.split()) >= 3 and (
        _PAGE_END_RE.search(para.text) is not None
        or (label is _ISSUE_RE and _PAGE_START_RE.match(para.text) is not None))


def _entry_goes_on(paras: list[Para], at: int, label: re.Pattern[str]) -> bool:
    """The next block on the page (floats aside) is an entry that ``paras[at]`` begins: a
    long entry's first lines, a sentence of a caption, read as a block of their own."""
    nxt = next((p for p in paras[at + 1:] if not p.floating), None)
    return nxt is not None and nxt.type == "paragraph" and nxt.lines[0].page == paras[at].lines[-1].page \
        and _entry(nxt, label)


#: An epigraph's attribution: a dash and a name (``— Benjamin Franklin, at the signing …``).
_ATTRIBUTION_RE = re.compile(r"^(?:[—―–]|--)\s*[^\W\d_]")
#: Most lines of an epigraph's quotation, and of its attribution.
EPIGRAPH_LINES = 8
ATTRIBUTION_LINES = 3


def epigraphs_front(paras: list[Para]) -> None:
    """A chapter's or section's epigraphs are ``front``, in place: a short quotation and,
    right under it and set in further or to the right, its attribution opening with a dash
    (``— Joseph Kruskal, describing …``), next to a heading on the page with nothing but
    other epigraphs between (Erickson's *Algorithms* opens each chapter with three). Their
    words are another author's, not the work's to be quoted from it. (A formula's stray
    piece, an ``equation``, may stand between.)"""
    pairs: list[tuple[int, int]] = []
    for i, source in enumerate(paras):
        q = i - 1
        while q >= 0 and paras[q].type == "equation":
            q -= 1
        if q >= 0 and _attribution(paras[q], source):
            pairs.append((q, i))
    inside = {j for q, i in pairs for j in range(q, i + 1)}
    for q, i in pairs:
        if _by_heading(paras, q, i, inside):
            for j in range(q, i + 1):
                if paras[j].type == "paragraph":
                    paras[j].type, paras[j].floating = "front", True


def _attribution(quote: Para, source: Para) -> bool:
    if quote.type != "paragraph" or source.type != "paragraph" or len(quote.lines) > EPIGRAPH_LINES \
            or len(source.lines) > ATTRIBUTION_LINES or not _ATTRIBUTION_RE.match(source.text):
        return False
    last, first = quote.lines[-1], source.lines[0]
    height = max(last.bbox[3] - last.bbox[1], 1.0)
    return last.page == first.page and -1.0 <= first.bbox[1] - last.bbox[3] <= 1.5 * height \
        and first.bbox[0] >= min(ln.bbox[0] for ln in quote.lines) + max(first.size, 1.0)


def _by_heading(paras: list[Para], start: int, end: int, inside: set[int]) -> bool:
    """Whether a heading stands right after ``paras[end]`` or right before ``paras[start]``
    on their page, past other epigraphs (``inside``) and a chapter's number, set as an
    equation."""
    page = paras[start].lines[0].page

    def passes(j: int) -> bool:
        return paras[j].type == "equation" or j in inside

    j = end + 1
    while j < len(paras) and paras[j].lines[0].page == page and passes(j) and paras[j].type != "heading":
        j += 1
    if j < len(paras) and paras[j].lines[0].page == page and paras[j].type == "heading":
        return True
    j = start - 1
    while j >= 0 and paras[j].lines[-1].page == page and passes(j) and paras[j].type != "heading":
        j -= 1
    return j >= 0 and paras[j].lines[-1].page == page and paras[j].type == "heading"


#: A contact's items: a web or e-mail address, a telephone number.
_CONTACT_ITEM_RE = re.compile(rf"https?://\S+|www\.\S+|{EMAIL_RE.pattern}"
                              r"|(?<![\d.])(?:\+\d{1,3}[\s.-]?)?\(?\d{2,4}\)?[\s.-]?\d{3}[.-]\d{4}(?![\d.]\d)")
#: A contact's label of a word or three before its colon (each line's).
_CONTACT_LABEL_RE = re.compile(r"(?:^|(?<=\s))[A-Z][\w-]*(?:\s+[\w-]+){0,2}\s*:(?!//)")
#: Longest contact block (characters).
CONTACT_MAX = 300
#: The words a contact block sets around its items.
_CONTACT_WORD_RE = re.compile(
    r"(?i:visit|e-?mail|phone|tel(?:ephone)?|fax|call|contact|web(?:site)?|online|or|at|us|:)")


def is_contact(text: str) -> bool:
    """Whether a block is a contact's addresses alone (NIST's ``LEARN MORE`` box: ``Visit
    https://nccoe.nist.gov nccoe@nist.gov 301-975-0200``): two items or more, and no
    word but the ones set around them."""
    if len(text) > CONTACT_MAX or ("@" not in text and "://" not in text and "www." not in text):
        return False  # (a contact's block is short and holds an address: most text is none)
    text = _CONTACT_LABEL_RE.sub(" ", text)  # (``Technical information: (202) 691-7000 • …``)
    items = _CONTACT_ITEM_RE.findall(text)
    rest = _CONTACT_ITEM_RE.sub(" ", text)
    return len(items) >= 2 and all(_CONTACT_WORD_RE.fullmatch(w.strip(".,;|•")) or not w.strip(".,;|•")
                                   for w in rest.split())


#: Authors' names each followed by an ORCID identifier, and nothing else (Taylor &
#: Francis's ``ORCID`` section: ``Scott Chamberlain http://orcid.org/0000-0003-1444-9135``).
_ORCID_LIST_RE = re.compile(
    r"(?:[^\W\d_][\w.'’-]*\.?\s+){1,6}(?:https?://)?(?:www\.)?orcid\.org/\d{4}-\d{4}-\d{4}-\d{3}[\dX]"
    r"(?:[\s,;]+(?:[^\W\d_][\w.'’-]*\.?\s+){1,6}(?:https?://)?(?:www\.)?orcid\.org/\d{4}-\d{4}-\d{4}-\d{3}[\dX])*[.\s]*")


def is_orcid_list(text: str) -> bool:
    """Whether a block is authors' ORCID identifiers, each after its author's name."""
    return _ORCID_LIST_RE.fullmatch(text.strip()) is not None
