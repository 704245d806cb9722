"""The first page's title block: between the title and the abstract stand the authors'
names, their affiliations and addresses, which are front matter, not sections.

(``vaultd.parse.front`` tells front matter by a block's own words; this module by where the
block stands on the first page.)
"""

from __future__ import annotations

from vaultd.parse.classify import is_prose
from vaultd.parse.front import BODY_WORDS, is_cover_page, opens_abstract, opens_paper
from vaultd.parse.paras import REFS_RE, Para


def front_after_title(paras: list[Para], body: float) -> list[Para]:
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
    # everything before the abstract's label is the title block, however long (MDPI lists
    # 14 authors and their addresses over 200 words before "Abstract:")
    until = next((i for i, p in enumerate(paras) if p.lines[0].page == first and opens_abstract(p.text)), -1)
    page_one: list[Para] = []
    for i, para in enumerate(paras):
        if para.lines[0].page < first:
            continue
        if i == until or para.lines[0].page != first or (i > until and para.type == "paragraph" and (
                len(para.text.split()) >= BODY_WORDS or is_prose(para.text))):
            break  # the abstract or the body: names and addresses are no prose
        if opens_paper(para.text) or (para.type == "heading" and (
                _section_number(para) or REFS_RE.match(para.text.strip()))):
            break  # (an OCR layer's "Abstract" may be a paragraph)
        page_one.append(para)
    heads = [p for p in page_one if p.type == "heading"]
    marked = [p for p in heads if p.title]
    large = [p for p in heads if p.lines[0].size >= TITLE_FALLBACK * body]
    title = marked[-1] if marked else max(large, key=lambda p: p.lines[0].size, default=None)
    if title is None:
        return []
    changed: list[Para] = []
    last = title
    for para in page_one[page_one.index(title) + 1:]:
        if para.type == "heading" and last is title \
                and abs(para.lines[0].size - title.lines[0].size) <= 0.5:
            title = last = para  # the title's next line, set as a heading of its own
            continue
        if para.type in ("heading", "paragraph"):
            para.type = "front"
            para.floating = True
            changed.append(para)
        last = para
    return changed + _above_the_text(paras, first, title.lines[0].size)


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
                or max(ln.bbox[3] for ln in para.lines) > top + 1.0:
            continue
        if para.type == "paragraph" or (para.type == "heading" and not para.title and not _section_number(para)
                                        and para.lines[0].size < title_size - 0.5):
            para.type = "front"
            para.floating = True
            out.append(para)
    return out


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
