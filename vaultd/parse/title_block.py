"""The first page's title block: between the title and the abstract stand the authors'
names, their affiliations and addresses, which are front matter, not sections.

(``vaultd.parse.front`` tells front matter by a block's own words; this module by where the
block stands on the first page.)
"""

from __future__ import annotations

import re
from collections import Counter

from vaultd.parse.classify import is_prose, opens_item, word_count
from vaultd.parse.court_filings import is_case_caption
from vaultd.parse.front import BODY_WORDS, is_cover_page, opens_abstract, opens_paper
from vaultd.parse.paras import REFS_RE, Line, PageInfo, Para, small_print


def front_after_title(paras: list[Para], body: float, infos: list[PageInfo] | None = None) -> list[Para]:
    """Between the first page's title and its abstract or first section, the short blocks
    are the authors, their affiliations and addresses: ``front``, in place (ACM sets each
    author's name as large as a heading, which would head every section's path).

    The title is the last heading marked as one (a journal's name set large comes before
    it), else the largest heading at ``TITLE_FALLBACK`` times the body size; a heading
    right under it in its size is its second line. Front matter ends at a paragraph of
    prose (``is_prose``) or of ``BODY_WORDS`` words, a numbered heading, the abstract's or introduction's heading,
    or the first page's end. A cover page put before the article (``is_cover_page``: IOP's
    download stamp, ResearchGate's) is passed over: the title page is the next one."""
    first = 2 if is_cover_page([p.text for p in paras if p.lines[0].page == 1]) else 1
    cover = [p for p in paras if first == 2 and p.lines[0].page == 1 and p.type == "paragraph"]
    for para in cover:  # a cover sheet's title and citation repeat the article's: no passage
        para.type, para.floating = "front", True
    # everything before the abstract's label is the title block, however long (MDPI lists
    # 14 authors and their addresses over 200 words before "Abstract:")
    until = next((i for i, p in enumerate(paras) if p.lines[0].page == first and opens_abstract(p.text)), -1)
    page_one: list[Para] = []
    banners: list[Para] = []  # small print over the page's first heading (a publisher's tagline)
    headed = False  # the page's first heading is passed
    for i, para in enumerate(paras):
        if para.lines[0].page < first:
            continue
        if infos and para.lines[0].page == first and not headed and _banner_print(para, body, infos[first - 1]):
            banners.append(para)
            page_one.append(para)
            continue
        if i == until or para.lines[0].page != first or (i > until and para.type == "paragraph" and (
                len(para.text.split()) >= BODY_WORDS or is_prose(para.text)) and not is_case_caption(para.text)):
            break  # the abstract or the body: names and addresses are no prose
        if opens_paper(para.text) or (para.type == "heading" and (
                _section_number(para) or REFS_RE.match(para.text.strip()))):
            break  # (an OCR layer's "Abstract" may be a paragraph)
        page_one.append(para)
        headed = headed or para.type == "heading"
    heads = [p for p in page_one if p.type == "heading"]
    marked = [p for p in heads if p.title]
    large = [p for p in heads if p.lines[0].size >= TITLE_FALLBACK * body]
    title = marked[-1] if marked else max(large, key=lambda p: p.lines[0].size, default=None)
    if title is None and heads and infos and _placed_title(heads[0], page_one, body, infos[first - 1]):
        title = heads[0]
    if title is None:
        return cover
    changed: list[Para] = []
    for para in banners[:page_one.index(title)]:
        para.type = "front"  # (over the title: Dove's ``Open Access Full Text Article open access to …``)
        para.floating = True
        changed.append(para)
    last = first_line = title
    for para in page_one[page_one.index(title) + 1:]:
        if para.type == "heading" and last is title \
                and abs(para.lines[0].size - title.lines[0].size) <= 0.5:
            title = last = para  # the title's next line, set as a heading of its own
            continue
        if _heads_text(para, paras):
            break  # the first section's head
        if para.type in ("heading", "paragraph"):
            para.type = "front"
            para.floating = True
            changed.append(para)
        last = para
    largest = max(heads, key=lambda p: p.lines[0].size)  # the title as seen (``title`` may be a name)
    return cover + changed + _above_the_text(paras, first, title.lines[0].size) \
        + _beside_the_title(paras, first, largest, largest if largest is not first_line else title)


def abstract_paras(paras: list[Para]) -> set[int]:
    """The ids of a structured abstract's parts under its heading, up to the next heading,
    each opened by its label: the abstract is often set in a face of its own (*IJE*'s in the
    sans its subsection heads take, ``Background: …``), which is no style of the body's."""
    out: set[int] = set()
    inside = False
    for para in paras:
        if para.type == "heading":
            inside = opens_abstract(para.text)
        elif inside and para.type == "paragraph" and _ABSTRACT_LABEL_RE.match(para.text):
            out.add(id(para))
    return out


#: A structured abstract's part, by its label: ``Background:``, ``Methods:``, ``Results:``.
_ABSTRACT_LABEL_RE = re.compile(
    r"(?:background|objectives?|aims?|purpose|introduction|context|methods?|design|setting|participants|"
    r"results?|findings|conclusions?|interpretation)\s*:", re.IGNORECASE)


def _banner_print(para: Para, body: float, info: PageInfo) -> bool:
    """A paragraph of small print in the first page's top ``BANNER_BAND``, short of a
    paragraph of the body: a banner or a publisher's tagline over the title, which reads as
    prose (``open access to scientific and medical research``) but opens no body."""
    return para.type == "paragraph" and len(para.text.split()) < BODY_WORDS \
        and all(small_print(ln.size, body) for ln in para.lines) \
        and max(ln.bbox[3] for ln in para.lines) <= BANNER_BAND * info.height


def _beside_the_title(paras: list[Para], first: int, title: Para, last: Para) -> list[Para]:
    """Blocks of the title page in a column of their own beside the title block: wholly
    left of the title's left edge or right of its right edge, above the first section's
    heading (ASME sets its authors' names and affiliations in a narrow column left of the
    title and the abstract; the reading order gives the second author's after the
    abstract). Names, affiliations and addresses, no prose paragraph: they become
    ``front``, in place, headings among them (a name set bold heads no section); returns
    them. ``title``, ``last``: the title's first and last heading."""
    lines = [ln for p in (title, last) for ln in p.lines]
    left, right = min(ln.bbox[0] for ln in lines), max(ln.bbox[2] for ln in lines)
    page = [p for p in paras if all(ln.page == first for ln in p.lines)]
    body = [p.lines[0].bbox[1] for p in page if p.type == "heading" and p is not title and p is not last
            and (_section_number(p) or opens_paper(p.text))]
    foot = min(body, default=float("inf"))
    out = []
    for para in page:
        if para.type not in ("paragraph", "heading") or para is title or para is last:
            continue
        box = [ln.bbox for ln in para.lines]
        top, bottom = min(b[1] for b in box), max(b[3] for b in box)
        on_left = max(b[2] for b in box) < left - 1.0
        if bottom > foot or not (on_left or min(b[0] for b in box) > right + 1.0) or _heads_text(para, paras):
            continue  # (a section's head in the next column, over its text, is none)
        # level with the title block across the edge: a column beside it, not a banner over it
        if not any(q is not para and max(ln.bbox[3] for ln in q.lines) > top
                   and min(ln.bbox[1] for ln in q.lines) < bottom
                   and (min(ln.bbox[0] for ln in q.lines) >= left - 1.0 if on_left
                        else max(ln.bbox[2] for ln in q.lines) <= right + 1.0)
                   for q in page if q.type in ("heading", "paragraph", "front")):
            continue
        if para.type == "heading" and _section_number(para):
            continue
        if para.type == "paragraph" and (len(para.text.split()) >= BODY_WORDS or is_prose(para.text)):
            continue
        para.type = "front"
        para.floating = True
        out.append(para)
    return out


def _above_the_text(paras: list[Para], first: int, title_size: float) -> list[Para]:
    """Short blocks of the title page that stand wholly above its first paragraph of
    prose: the rest of the title block, which the reading order may give after the
    abstract (an IEEE author's name and address over the right column, read as that
    column's top), and banners. Not the title's lines (headings in its size), the
    abstract's heading nor a numbered section's. They become ``front``, in place;
    returns them."""
    page = [p for p in paras if all(ln.page == first for ln in p.lines)]
    tops = [p.lines[0].bbox[1] for p in page if p.type == "paragraph" and (
        len(p.text.split()) >= BODY_WORDS or is_prose(p.text))]
    if not tops:
        return []
    top = min(tops)
    out = []
    for para in page:
        if is_prose(para.text) or opens_paper(para.text) \
                or max(ln.bbox[3] for ln in para.lines) > top + 1.0 or _heads_text(para, paras):
            continue
        if para.type == "paragraph" or (para.type == "heading" and not para.title and not _section_number(para)
                                        and para.lines[0].size < title_size - 0.5):
            para.type = "front"
            para.floating = True
            out.append(para)
    return out


def _heads_text(para: Para, paras: list[Para]) -> bool:
    """Whether ``para`` is a heading right over a paragraph of prose, set in the style of a
    heading further on in the document (a Word report's bold ``Target population`` over
    its first paragraph, as ``Sample Frame`` below it): a section's head, not the title
    block's."""
    if para.type != "heading":
        return False
    k = next(i for i, p in enumerate(paras) if p is para)
    if k + 1 >= len(paras) or paras[k + 1].type != "paragraph" or not is_prose(paras[k + 1].text):
        return False
    style = _head_style(para)
    return any(p.type == "heading" and _head_style(p) == style for p in paras[k + 2:])


def _head_style(para: Para) -> tuple[str, float, bool]:
    first = para.lines[0]
    return first.font, round(first.size * 2) / 2, first.bold


def _section_number(para: Para) -> bool:
    """The heading starts with a section's number: not a title's first word ``A`` (``A New
    Requirement Prioritization Model …``), which only ``A.`` would make a number."""
    number = para.number
    if number is None:
        return False
    return not (len(number) == 1 and number.isalpha() and not para.text.lstrip().startswith(number + "."))


#: With no heading marked as the title, the largest first-page heading at least this many
#: times the body size is taken for it (ACL sets a 14.3 pt title over an 11 pt body).
TITLE_FALLBACK = 1.28
#: A smaller one is the title when it is the page's first heading and centred on the page
#: (REVTeX: 12 pt over 10 pt; a 12 pt section head over a 10 pt body stands flush left),
#: or one in the body's size set bold (AASTeX's title: 10 pt bold over a 10 pt body).
TITLE_CENTRED = 1.18
#: Share of the page's height, from its top, where banners over a title stand.
BANNER_BAND = 0.15


def _placed_title(head: Para, page_one: list[Para], body: float, info: PageInfo) -> bool:
    """The first page's first heading is its title by placement: centred on the page, at
    ``TITLE_CENTRED`` times the body size (or the body's size, bold), with nothing before
    it but front matter and lines in the page's top ``BANNER_BAND`` (AASTeX's ``Typeset
    using LATEX default style`` over its title)."""
    size = head.lines[0].size
    if size < TITLE_CENTRED * body and not (size >= body - 0.5 and all(ln.bold for ln in head.lines)):
        return False
    top = head.lines[0].bbox[1]
    if not all(p.type == "front" or max(ln.bbox[3] for ln in p.lines) <= min(top, BANNER_BAND * info.height)
               for p in page_one[:page_one.index(head)]):
        return False
    return _centred(head.lines, info.width)


#: Pages a title page may be (a cover page may come before it).
TITLE_PAGES = 2
#: Fewest lines a title page has (a page of one or two centred lines is a caption's).
TITLE_PAGE_LINES = 4
#: Widest line of a title page, as a share of the page's width (prose spans the measure).
TITLE_PAGE_WIDTH = 0.65
#: How far a title page's lines' centres stand from their common centre: points, and share
#: of the page's width (centring in TeX or a word processor is exact to a point).
CENTRE_SLACK, CENTRE_SLACK_SHARE = 3.0, 0.015
#: How far that common centre may stand from the page's (a binding margin moves it).
CENTRE_OFF_SHARE = 0.1


def title_page_front(paras: list[Para], infos: list[PageInfo]) -> list[Para]:
    """A thesis's or report's title page: one of the first ``TITLE_PAGES`` pages whose every
    line (``TITLE_PAGE_LINES`` at least) is short and centred on one axis near the page's
    centre (``A Thesis`` / ``Submitted to the Graduate Faculty`` / … / ``January 2022``),
    or set flush right against one edge (a book's title page: *Think Python*'s title,
    edition, author and publisher), whatever their sizes. Its paragraphs, and headings set
    ``TITLE_STEP`` smaller than its largest line, are ``front``, in place, but for the
    title: on a page without a heading, the topmost of its largest lines; returns them."""
    out: list[Para] = []
    for info in infos[:TITLE_PAGES]:
        page = [p for p in paras if all(ln.page == info.number for ln in p.lines)]
        lines = [ln for p in page for ln in p.lines]
        if len(lines) < TITLE_PAGE_LINES or _justified(page) or not (
                _centred(lines, info.width) or _flush_right(lines, info.width)
                or (info.height > info.width and len(infos) > TITLE_PAGES and _no_prose(page))):
            continue
        if not any(p.type == "heading" for p in page):
            size = max(ln.size for ln in lines)
            title = next(p for p in page if max(ln.size for ln in p.lines) >= size - 0.5)
            if title.type == "paragraph":
                title.type, title.title = "heading", True
        size = max(ln.size for ln in lines)
        for para in page:
            # the title, set largest, stays a heading; an author's name or a publisher's
            # set large as headings are the page's front matter too
            if para.type in ("paragraph", "list") or (
                    para.type == "heading" and max(ln.size for ln in para.lines) < size - TITLE_STEP):
                para.type = "front"
                para.floating = True
                out.append(para)
    return out


#: How much smaller (points) than a title page's largest line its other headings are set.
TITLE_STEP = 2.0


def _no_prose(page: list[Para]) -> bool:
    """A page of a title's, names', places' and dates' lines, set however: a heading on it,
    ``TITLE_PAGE_WORDS`` words at most, and no paragraph of running text
    (``PROSE_PARA_WORDS`` words or more, read as prose), no list item and no abstract among
    them (a thesis's title page with its jury set flush left under a centred title; a NASA
    report's set flush left; a checklist's lettered records, ``a. country: Italy; …``, are items). Only a portrait page of a longer document is asked (a slide is
    sparse too, and so is a one-page abstract's scan)."""
    words = sum(word_count(p.text) for p in page)
    marks = {m.group(1) for p in page if (m := _ITEM_MARK_RE.match(p.text))}
    return any(p.type == "heading" for p in page) and words <= TITLE_PAGE_WORDS and len(marks) < 2 and not any(
        p.type == "list" or opens_item(p.text) or opens_abstract(p.text)
        or (p.type == "paragraph" and word_count(p.text) >= PROSE_PARA_WORDS and is_prose(p.text)) for p in page)


#: A list item's mark opening a para, lowercase or a number (``a. ``, ``2) ``): two
#: different ones make a list, no title page's (whose date may open ``8. September``).
_ITEM_MARK_RE = re.compile(r"\(?([a-z]|\d{1,2})[.)]\s")
#: Most words of a title page.
TITLE_PAGE_WORDS = 160
#: Fewest words of a paragraph of running text.
PROSE_PARA_WORDS = 25


def _justified(page: list[Para]) -> bool:
    """Whether a page holds text set justified: ``JUSTIFIED_LINES`` lines of one paragraph
    or more starting and ending on the same edges (to a point). A narrow text block set in
    the middle of the page (a Supreme Court slip opinion's) centres every line, but a title
    page's centred lines are ragged."""
    for para in page:
        edges = Counter((round(ln.bbox[0]), round(ln.bbox[2])) for ln in para.lines[:-1])
        if edges and edges.most_common(1)[0][1] >= JUSTIFIED_LINES:
            return True
    return False


#: Lines of one paragraph on the same edges that make a page's text justified.
JUSTIFIED_LINES = 3


def _short(lines: list[Line], width: float) -> bool:
    """Every line ``TITLE_PAGE_WIDTH`` of the page wide at most."""
    return all(ln.bbox[2] - ln.bbox[0] <= TITLE_PAGE_WIDTH * width for ln in lines)


def _flush_right(lines: list[Line], width: float) -> bool:
    """Every line short (``TITLE_PAGE_WIDTH`` wide at most) and ending on one right edge
    (within ``CENTRE_SLACK``) in the page's right half, their left edges ragged."""
    if not _short(lines, width):
        return False
    rights = [ln.bbox[2] for ln in lines]
    lefts = [ln.bbox[0] for ln in lines]
    return max(rights) - min(rights) <= CENTRE_SLACK and min(rights) > width / 2 \
        and max(lefts) - min(lefts) > CENTRE_SLACK


def _centred(lines: list[Line], width: float) -> bool:
    """Every line short and centred on one axis near the page's centre (``TITLE_PAGE_WIDTH``
    wide at most, within ``CENTRE_SLACK`` of one another and ``CENTRE_OFF_SHARE`` of the
    page's centre)."""
    if not _short(lines, width):
        return False
    centres = sorted((ln.bbox[0] + ln.bbox[2]) / 2 for ln in lines)
    axis = centres[len(centres) // 2]
    slack = max(CENTRE_SLACK, CENTRE_SLACK_SHARE * width)
    return abs(axis - width / 2) <= CENTRE_OFF_SHARE * width and \
        all(abs(c - axis) <= slack for c in centres)
