"""Headings: the document's title, headings told by their font alone, and each
heading's depth in the section path (``3 Experiments › 3.1 Setup``).

Used by ``vaultd.parse.structure`` while it builds paras (``font_lead``, ``is_title``,
``continue_title``) and once they are built (``font_headings``; their depths:
``vaultd.parse.heading_levels``).
"""

from __future__ import annotations

import itertools
from collections import Counter

from vaultd.models import ChunkType
from vaultd.parse.classify import (
    BRACKET_HEAD_RE,
    all_caps,
    heading_number,
    is_caps_heading,
    is_prose,
    is_theorem_label,
)
from vaultd.parse.fontnames import is_mono_font
from vaultd.parse.layout import join_two
from vaultd.parse.paras import SENT_END, Line, Para, style_key
from vaultd.parse.title_block import abstract_paras
from vaultd.parse.wrapped_heads import OVERLAP_EMS, join_wrapped_heads

#: How much larger than the body a title is set, at least.
TITLE_RATIO = 1.35
#: Longest title: lines and characters.
TITLE_LINES, TITLE_CHARS = 4, 300

def font_lead(prev: Line, cur: Line) -> bool:
    """A paragraph's first line in another font than the line under it, ending without
    punctuation: maybe a heading set on the paragraph's first line. It is split off, and
    ``font_headings`` decides: a heading, or joined back."""
    text = prev.text.rstrip()
    return (bool(prev.font) and bool(cur.font) and prev.font != cur.font and not prev.mixed
            and bool(text) and text[-1].isalnum() and cur.text[:1].isupper())


def heading_goes_on(head: Para, lines: list[Line], text: str, body: float) -> bool:
    """Whether a line in lowercase right under a one-line heading set well over the body
    (``HEADING_OVER`` points), in the heading's size, is the heading's second line (the
    Royal Society's ``(d) Bird community: variables used to measure the`` | ``biotic
    Eltonian niche``), or centred under it: a block of its own, it had made the heading a
    sentence's start. So is a numbered heading's subtitle after its colon, in its face
    (ACM's ``4.2 Fine-tuning Small Language Models:`` | ``Distilling Knowledge From LLMs``,
    hanging under the words after the number)."""
    if head.type != "heading" or len(head.lines) != 1 or len(lines) != 1:
        return False
    last, line = head.lines[0], lines[0]
    same_face = line.font == last.font and line.bold == last.bold
    subtitle = not text[:1].islower() and (head.number or "")[:1].isdigit() and head.text.rstrip().endswith(":") \
        and same_face and heading_number(text) is None
    # a head in capitals broken over two blocks, in its face (the British Ecological
    # Society's ``CAN WE PREDICT SUCCESS OF A SUBFOSSIL SAMPLE`` | ``ANALYSIS WITH …``)
    caps = same_face and is_caps_heading(head.text) and is_caps_heading(text) and heading_number(text) is None
    if not (text[:1].islower() or subtitle or caps):
        return False
    centred = abs(line.bbox[0] + line.bbox[2] - last.bbox[0] - last.bbox[2]) <= 2 * last.size
    # (or in the heading's bold face at the body's size, centred under it: APS's ``A.
    # Demonstration of the failure of the pigeonhole`` | ``principle with neutrons``)
    bold_centred = same_face and last.bold and centred
    return (last.page == line.page and abs(line.size - last.size) <= 0.5
            and (last.size >= body + HEADING_OVER or caps or bold_centred)
            # (boxes a display face's ascenders and descenders make tall may overlap: a
            # book's 36 pt chapter title ``Fanlike Engagement`` | ``before Fan Studies``)
            and -OVERLAP_EMS * last.size <= line.bbox[1] - last.bbox[3]
            and (line.bbox[1] - last.bbox[3] <= 0.5 * max(last.size, 1.0)
                 # (capitals set small, a line of the body's apart)
                 or (caps and line.bbox[1] - last.bbox[1] <= CAPS_PITCH * max(last.size, body)))
            # (hanging under its number, or centred under it: JMLR's title ``SMAC3: A
            # Versatile Bayesian Optimization Package`` | ``for Hyperparameter Optimization``)
            and (-last.size <= line.bbox[0] - last.bbox[0] <= (SUBTITLE_EMS if subtitle else 3) * last.size
                 or centred)
            and (subtitle or not head.text.rstrip().endswith(SENT_END)))


#: How far over the body's size (points) a heading is set whose second line is told by its size.
HEADING_OVER = 1.5
SUBTITLE_EMS = 5.0
#: How far apart (the larger of the heading's and the body's size) the tops of a head's two
#: lines in capitals may stand.
CAPS_PITCH = 1.5


def is_title(kind: ChunkType, lines: list[Line], text: str, body: float) -> bool:
    """A first-page block of up to four lines set well above the body size: the title
    (or a heading already, then it may continue one set in two blocks)."""
    sizes = [ln.size for ln in lines]
    return (kind in ("paragraph", "heading") and min(sizes) >= body * TITLE_RATIO
            and max(sizes) - min(sizes) <= 0.5 and len(lines) <= TITLE_LINES
            and len(text) <= TITLE_CHARS and any(c.isalpha() for c in text))


def continue_title(paras: list[Para], lines: list[Line], text: str) -> bool:
    """Join a title line set as its own block (``Practitioners``) to the title lines right
    above it in the same size; True when joined. Not a head in capitals alone over a line
    in upper and lower case: a section's head over its first subsection's (BMJ Open's
    ``METHODS`` | ``Study design and participants`` on a first page)."""
    if not paras or paras[-1].type != "heading" or paras[-1].number is not None:
        return False
    prev = paras[-1]
    if len(prev.lines) == 1 and all_caps(prev.text) and any(c.islower() for c in text):
        return False
    last = prev.lines[-1]
    first = lines[0]
    height = max(last.bbox[3] - last.bbox[1], 1.0)
    if (last.page != first.page or abs(last.size - first.size) > 0.5
            or not 0 <= first.bbox[1] - last.bbox[3] <= 0.5 * height
            or len(prev.lines) + len(lines) > TITLE_LINES):
        return False
    prev.text = join_two(prev.text, text)
    prev.lines.extend(lines)
    prev.pieces[-1] = (prev.pieces[-1][0], prev.text)
    prev.spans[-1] += len(lines)
    return True


#: Longest heading told only by its font (words, characters).
FONT_HEADING_WORDS, FONT_HEADING_CHARS = 14, 100
#: Least size (share of the body's) of a heading told by its face, set more than 1.5 pt
#: under the body (then over a paragraph of prose, no figure or colon in it): Ubiquity
#: Press sets its third-level heads in an 8 pt sans face over a 10 pt serif body
#: (``Support for Meritocracy``), *Veterinary World* its subsection heads in an 8 pt bold
#: Verdana over an 11 pt Times body (``Ethical approval``); set smaller, a line is a label
#: or a note.
FONT_HEADING_LEAST = 0.72
#: ... over a paragraph of prose of this many lines at least.
SMALL_HEAD_TEXT_LINES = 3
#: Largest share of the document's characters a headings-only font may have.
FONT_HEADING_SHARE = 0.05
#: Smallest share of the document's characters of a body font (papers may set the
#: abstract and the body in two faces).
BODY_FONT_SHARE = 0.2


def _flush_under(line: Line, after: Para) -> bool:
    """Whether the paragraph ``after`` a heading's last ``line`` stands flush with it, or
    under it centred, or indents only its first line (a Word manuscript indents every paragraph, the first
    under a heading too: medRxiv's ``Interventions`` | ``    Participants were …``)."""
    below = after.lines[0]
    if abs(below.bbox[0] - line.bbox[0]) <= FLUSH_SLACK:
        return True
    # (or centred over it, a paragraph of lines: MMWR's ``Discussion`` over its column)
    lines = [ln for ln in after.lines[:3] if ln.page == below.page]
    left, right = min(ln.bbox[0] for ln in lines), max(ln.bbox[2] for ln in lines)
    # (a numbered one may stand further off the centre: *German History*'s ``I.`` | ``A New
    # Framework for the Study of Political Taboos``, 6 pt left of its text's; a display
    # formula, centred too, has no heading's number)
    slack = CENTRED_SLACK if heading_number(line.text) is not None else 1.0
    if len(lines) >= 2 and line.bbox[0] > left + FLUSH_SLACK \
            and abs(line.bbox[0] + line.bbox[2] - left - right) <= slack * max(line.size, 1.0):
        return True
    second = after.lines[1] if len(after.lines) >= 2 else None
    return second is not None and second.page == below.page and below.bbox[0] > second.bbox[0] \
        and abs(second.bbox[0] - line.bbox[0]) <= FLUSH_SLACK


#: How far apart (points) a heading's and its text's left edges may stand and be flush.
FLUSH_SLACK = 12.0
#: How far off the centre of the text under it a centred numbered heading may stand (its
#: size: twice the distance, the sum of its edges against the text's; else once its size).
CENTRED_SLACK = 2.5


def font_headings(paras: list[Para], body: float) -> None:
    """Headings told apart from the body by their face alone (BMC's subsection heads:
    ``Trial design and setting`` in a sans face at about the body size; PLOS's
    ``Purification of the ECFP derivatives`` in its bold face one point over the body), in
    place.

    A style is a font at a size (to the half point). A one-line paragraph (or two lines in
    one style) is such a heading
    when its style is rare in the document (under ``FONT_HEADING_SHARE`` of its characters,
    so not the body's or a common one: a face the captions also use can still head
    sections at its own size), it is short, starts with a capital and ends without
    punctuation, the paragraph after it starts right below it (or at the next page's top),
    flush with it, in the
    body's font or in another rare style (a section's heading right over its first
    subsection's, which may take two lines), and at least two lines of the document are
    headings in that style, these or others the classifier found numbered as they are (a
    heading style repeats; one odd line is not a style). A typewriter face sets code, never headings."""
    fonts = font_chars(paras)
    text_gap = _text_gap(paras)
    styles: Counter[tuple[str, float]] = Counter()
    abstract = abstract_paras(paras)  # (in a face of its own, which the heads may share)
    for para in paras:
        if id(para) in abstract:
            continue
        if len(para.lines) <= 2:
            for ln in para.lines:
                styles[style_key(ln)] += len(ln.text)
            continue
        # (a line of a longer paragraph in another style than most of its lines is an inline
        # run's, lines of species names in italics inside a Word article's body text: no
        # style of text its heads' italics would be common beside; counted as none)
        own: Counter[tuple[str, float]] = Counter()
        for ln in para.lines:
            own[style_key(ln)] += len(ln.text)
        main = own.most_common(1)[0][0]
        for st, n in own.items():
            styles[st] += n if st == main else 0
    total = sum(fonts.values()) or 1
    body_fonts = {f for f, n in fonts.items() if n >= BODY_FONT_SHARE * total}
    rare = {st for st, n in styles.items() if n <= FONT_HEADING_SHARE * total}
    display = _display_styles(paras, body, {st for st, n in styles.items() if n <= DISPLAY_SHARE * total} - rare)
    rare |= display
    found: dict[tuple[str, float], list[Para]] = {}
    short: dict[tuple[str, float], list[Para]] = {}  # small heads over less than prose's lines
    under: dict[int, Para] = {}  # the para under each of those
    # (headings the classifier found already set a style: an all-capitals ``INTRODUCTION``
    # in the face of ``DISCUSSION AND CONCLUSION`` is one of them)
    typed = Counter((style_key(p.lines[-1]), p.number is None) for p in paras
                    if p.type == "heading" and len(p.lines) <= 2)
    for k, para in enumerate(paras[:-1]):
        small = False  # a head set smaller than most: only over a paragraph of prose
        # (past a sidebar's front matter set between a heading and its text: MIT Press's
        # ``Citation: …`` beside ``INTRODUCTION``)
        after = next((paras[j] for j in range(k + 1, len(paras)) if paras[j].type != "front"), paras[k + 1])
        if not (_font_head_shape(para, rare, body, body - 1.5) or _caps_head_shape(para, body_fonts, body)):
            # (or no smaller than the text it heads, a section set small: BMC's declarations'
            # ``Funding`` over its text, both 7.5 pt under a 9.8 pt body)
            least = min(FONT_HEADING_LEAST * body, after.lines[0].size - 0.25)
            small = _font_head_shape(para, rare, body, least) \
                and not any(c.isdigit() or c == ":" for c in para.text)
            if not small:
                continue
        line, below = para.lines[-1], after.lines[0]
        if after.type != "paragraph" or not (below.font in body_fonts or (
                style_key(below) in rare and style_key(below) != style_key(line)) or _panel_text(after, line)):
            continue
        height = max(line.bbox[3] - line.bbox[1], 1.0)
        # (or the page's last line, its text at the next page's top: medRxiv's
        # ``Participants, recruitment, and blinding`` at page 5's foot)
        # (in a double-spaced manuscript, a line of space more than its lines stand apart:
        # a PeerJ preprint's italic ``Registry`` 18 pt over its text, whose lines stand 9 pt apart)
        right_below = below.page == line.page \
            and -1.0 <= below.bbox[1] - line.bbox[3] <= max(1.5 * height, text_gap + height)
        if not (right_below or below.page == line.page + 1) or not _flush_under(line, after):
            continue
        if small and (len(after.lines) < SMALL_HEAD_TEXT_LINES or not is_prose(after.text)):
            # (a masthead's name over its title, a contact's label over its address: a head
            # only in a style two heads over prose set, BMC's ``Funding`` over two lines)
            short.setdefault(style_key(line), []).append(para)
            under[id(para)] = after
            continue
        found.setdefault(style_key(line), []).append(para)
    # (a section's head right over its first subsection's, set smaller, counts with one
    # head of its style over prose: *Veterinary World*'s ``Materials and Methods`` over
    # ``Ethical approval``, its ``Introduction`` over the text)
    heads_over = {id(p) for ps in (*found.values(), *short.values()) for p in ps}
    for style, more in short.items():
        over_head = [p for p in more if id(under[id(p)]) in heads_over]
        if len(found.get(style, ())) >= 2:
            found[style] += more
        elif found.get(style) and over_head:
            found[style] += over_head
    place = {id(p): k for k, p in enumerate(paras)}
    for style, heads in found.items():
        # (numbered headings set no style for an unnumbered line: CEUR's bold example
        # ``Annotations: … — GO:0097084`` in its numbered subsections' face)
        if len(heads) + max(typed[(style, p.number is None)] for p in heads) < 2 \
                and not _first_subhead(heads, paras, place, body):
            continue
        if style in display:  # every short line in it heads something (a slide's title)
            # (and the heads wrapped over lines that head a paragraph, found above)
            found_ids = {id(p) for p in heads}
            heads = [p for p in paras if id(p) in found_ids or (
                p.type == "paragraph" and len(p.lines) == 1 and style_key(p.lines[0]) == style)]
        for para in heads:
            para.type = "heading"
    join_wrapped_heads(paras)
    _heads_labels(paras)
    _join_leads(paras)


def _first_subhead(heads: list[Para], paras: list[Para], place: dict[int, int], body: float) -> bool:
    """Whether a style's one head is a section's first subsection's, right under the
    section's heading past the first page, set larger than the body and smaller than that
    heading: an excerpt may hold one subsection of each section (*Molecular Biology and
    Evolution*'s 11.5 pt ``The Structure of Genetic Variation in Siberia`` under its
    13 pt ``Results and Discussion``, over 9.5 pt text)."""
    if len(heads) != 1 or not place.get(id(heads[0])):
        return False
    head, above = heads[0], paras[place[id(heads[0])] - 1]
    line, over = head.lines[0], above.lines[-1]
    return above.type == "heading" and line.page == over.page > 1 \
        and body + SUBHEAD_OVER <= line.size < over.size \
        and 0.0 <= line.bbox[1] - over.bbox[3] <= max(over.bbox[3] - over.bbox[1], 1.0)


#: How much larger (points) than the body a section's first subsection's head is set.
SUBHEAD_OVER = 1.0


#: Most words of a label set in the margin beside a head.
HEAD_LABEL_WORDS = 4
#: Least gap (points) between such a label and its head.
HEAD_LABEL_GAP = 12.0


def _heads_labels(paras: list[Para]) -> None:
    """A label set in the margin level with a head (*Current Protocols*' ``BASIC PROTOCOL
    5`` in bold italics left of ``IDENTIFYING POLYTOMIES``) is front matter, no paragraph
    of the section's, in place: a para of one or two lines and ``HEAD_LABEL_WORDS`` words
    at most, closed by no stop, wholly left or right of the head, its top within a line of
    the head's."""
    heads = [p for p in paras if p.type == "heading"]
    for para in paras:
        if para.type != "paragraph" or len(para.lines) > 2 or len(para.text.split()) > HEAD_LABEL_WORDS \
                or para.text.rstrip().endswith((".", ",", ";", ":")):
            continue
        first = para.lines[0]
        x0, x1 = min(ln.bbox[0] for ln in para.lines), max(ln.bbox[2] for ln in para.lines)
        height = first.bbox[3] - first.bbox[1]
        level = [h for h in heads if h.lines[0].page == first.page and abs(h.lines[0].bbox[1] - first.bbox[1]) <= height]
        if not level:
            continue
        # (in the page's margin: wholly left or right of every other line of its page)
        others = [ln for p in paras if p is not para for ln in p.lines if ln.page == first.page]
        if (x1 <= min((ln.bbox[0] for ln in others), default=x1) - HEAD_LABEL_GAP
                or x0 >= max((ln.bbox[2] for ln in others), default=x0) + HEAD_LABEL_GAP):
            para.type, para.floating = "front", True


def _text_gap(paras: list[Para]) -> float:
    """The median gap (points) between a paragraph's lines on a page, over the document's
    paragraphs (0 with none): a double-spaced manuscript's lines stand most of a line apart."""
    gaps = sorted(b.bbox[1] - a.bbox[3] for p in paras if p.type == "paragraph"
                  for a, b in itertools.pairwise(p.lines) if a.page == b.page and b.bbox[1] > a.bbox[1])
    return gaps[len(gaps) // 2] if gaps else 0.0


#: Largest share of a document's characters a display style of headings may have (in a
#: slide deck, frame and block titles are an eighth of its few words).
DISPLAY_SHARE = 0.25


def _display_styles(paras: list[Para], body: float, styles: set[tuple[str, float]]
                    ) -> set[tuple[str, float]]:
    """Of ``styles`` (too common to be rare), those set larger than the body and only in
    lines standing alone — one-line paragraphs or headings of a heading's length that end
    without punctuation: a deck's frame and block titles (its body text is so short that
    they hold more than ``FONT_HEADING_SHARE`` of its characters). Such a style heads
    sections when two of its lines head a paragraph as ``font_headings`` asks; then each of
    its lines does, whatever its case (beamer's ``numbered equation``)."""
    out = {st for st in styles if st[1] >= body + 0.5 and st[0] and not is_mono_font(st[0])}
    for para in paras:
        if not out:
            break
        # (or wrapped over two or three lines in its style: PLOS 2012's front section sets
        # ``Rule 3: Define to Yourself and Others Why You Are Starting a Company …`` in a
        # narrow column, its ten heads more than 5 % of a three-page editorial)
        lines = len(para.lines)
        alone = para.type in ("paragraph", "heading") and (lines == 1 or (
            lines <= WRAPPED_HEAD_LINES and len({style_key(ln) for ln in para.lines}) == 1)) and \
            len(para.text) <= (FONT_HEADING_CHARS if lines == 1 else WRAPPED_HEAD_CHARS) \
            and len(para.text.split()) <= (FONT_HEADING_WORDS if lines == 1 else WRAPPED_HEAD_WORDS) \
            and not para.text.rstrip().endswith((".", ",", ";", ":"))
        if not alone:
            out -= {style_key(ln) for ln in para.lines}
    return out


def _panel_text(after: Para, head: Line) -> bool:
    """Whether ``after`` is a paragraph of prose in a face of its own, under a bold head in
    its size (a boxed panel's ``Evidence before this study`` over its sans text, in a
    Lancet journal whose body is set in a serif): ``PANEL_LINES`` lines or more, none bold."""
    return head.bold and len(after.lines) >= PANEL_LINES and not any(ln.bold for ln in after.lines) \
        and abs(after.lines[0].size - head.size) <= 0.5 and is_prose(after.text)


#: Fewest lines of a panel's paragraph under its bold head.
PANEL_LINES = 3


def _caps_head_shape(para: Para, body_fonts: set[str], body: float) -> bool:
    """A paragraph of one line or two in capitals, in a face of its own no body font's at
    the body's size or over (an InDesign report's ``ADOPT INNERSOURCE PRACTICES`` in Gotham
    Medium over Gotham Book text: a face its bullets' bold leads make common, so not
    rare)."""
    if para.type != "paragraph" or not 1 <= len(para.lines) <= 2 \
            or any(style_key(ln) != style_key(para.lines[0]) for ln in para.lines):
        return False
    line, text = para.lines[0], para.text.strip()
    return bool(line.font) and line.font not in body_fonts and not is_mono_font(line.font) \
        and line.size >= body - 0.5 and is_caps_heading(text) and len(text) <= FONT_HEADING_CHARS \
        and not text.endswith((".", ",", ";", ":"))


def _font_head_shape(para: Para, rare: set[tuple[str, float]], body: float, least: float) -> bool:
    """A paragraph of one line (or two in one style) shaped like a heading, in a ``rare``
    style that is no typewriter face's (code such as ``R> hod2 <- join(…)`` is no heading),
    set ``least`` large or larger."""
    # (or three in a bold face, or set larger than the body: Cell Press's heads wrap over a
    # narrow column's lines, and so do PLOS 2012's, 10 pt over a 9 pt body in a face whose
    # name tells no weight)
    three = 3 <= len(para.lines) <= WRAPPED_HEAD_LINES \
        and all(ln.bold or ln.size >= body + WRAPPED_HEAD_LARGER for ln in para.lines)
    if para.type != "paragraph" or not (1 <= len(para.lines) <= 2 or three) \
            or any(style_key(ln) != style_key(para.lines[0]) for ln in para.lines):
        return False  # one line, or two in one style (Wiley's heads wrap)
    line, text = para.lines[0], para.text.strip()
    words, chars = (WRAPPED_HEAD_WORDS, WRAPPED_HEAD_CHARS) if three else (FONT_HEADING_WORDS, FONT_HEADING_CHARS)
    return (bool(line.font) and style_key(line) in rare
            and not is_mono_font(line.font) and not is_theorem_label(text)
            and (text[:1].isupper() or heading_number(text) is not None  # "3.2. Competition …"
                 or bool(BRACKET_HEAD_RE.match(text)))  # IEEE's "1) DATA AUGMENTATION"
            and len(text) <= chars and len(text.split()) <= words
            and not text.endswith((".", ",", ";", ":")) and line.size >= least)


#: Most words and characters of a bold head wrapped over three lines or four, and how much larger
#: (points) than the body such a head in another face is set when not known bold.
WRAPPED_HEAD_WORDS, WRAPPED_HEAD_CHARS = 24, 160
WRAPPED_HEAD_LARGER = 0.75
#: Most lines a head wraps over in a narrow column (three columns a page).
WRAPPED_HEAD_LINES = 4


def _join_leads(paras: list[Para]) -> None:
    """Put each first line split off for its font that is not a heading back in front of
    the rest of its paragraph, in place."""
    for i in range(len(paras) - 2, -1, -1):
        lead, rest = paras[i], paras[i + 1]
        if not lead.lead or lead.type != "paragraph" or rest.type != "paragraph" \
                or rest.lines[0].block != lead.lines[0].block:
            continue
        rest.text = join_two(lead.text, rest.text)
        rest.lines[:0] = lead.lines
        rest.pieces[0] = (lead.pieces[0][0], join_two(lead.pieces[0][1], rest.pieces[0][1]))
        rest.spans[0] += len(lead.lines)
        del paras[i]


def font_chars(paras: list[Para]) -> Counter[str]:
    """How many characters of the paragraphs each font sets."""
    fonts: Counter[str] = Counter()
    for para in paras:
        for ln in para.lines:
            fonts[ln.font] += len(ln.text)
    return fonts
