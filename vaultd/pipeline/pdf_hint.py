"""What a capture records from the PDF alone, when no metadata source answers.

The first page's layout gives the title, the authors (all of them, in order) and the
year it prints (``vaultd.capture.firstpage``): those fields carry source ``pdf-layout``,
stay unverified, and give way as soon as a source answers. The PDF's Info title is used
when it is the page's own title better spaced or spelled (the same letters, or the
page's with a few ligature letters the text layer lost), or when the page has no title
in its text layer — not when it adds words the page does not print (a translation);
its Info authors only when the page's byline could not be read. The file's
creation date is never the work's date.

The DOIs and arXiv ids printed in the PDF are kept as ``printed_ids`` while no source
confirms them, whether the sources were down or answered "not found", so that a retry
asks again; an id a source said belongs to another work is not kept.
"""

from __future__ import annotations

from vaultd.capture.names import make_work, split_name
from vaultd.capture.page_title import loose
from vaultd.capture.pdfmeta import PdfMeta, is_generic_title
from vaultd.capture.reconcile import titles_roughly_match
from vaultd.models import Work

MAX_PRINTED_IDS = 3
MAX_LOST_LETTERS = 4  # letters of ligatures a text layer may drop from a title


def pdf_hint(meta: PdfMeta) -> Work | None:
    """The PDF's own metadata as a partial Work (None when it names no title)."""
    year = meta.first_page_year
    issued = [year] if year else None
    info_title = meta.info_title if meta.info_title and not is_generic_title(meta.info_title) \
        else None
    page_title = meta.first_page_title
    info_is_this_paper = bool(info_title) and (
        not page_title or _says_the_same(info_title or "", page_title))
    layout_authors = [split_name(a) for a in meta.first_page_authors]
    if info_is_this_paper:
        authors = layout_authors or [split_name(a) for a in meta.info_authors]
        source = "pdf-layout" if layout_authors or year else "pdf"
        return make_work(title=info_title, authors=authors, issued=issued, sources=[source])
    if page_title:
        return make_work(title=page_title, authors=layout_authors, issued=issued,
                         sources=["pdf-layout"])
    return None


def _says_the_same(info: str, page: str) -> bool:
    """True when the Info title is the page's title, spaced or spelled better: the same
    letters, or the page's letters with a few the text layer lost (ligatures: "Coecients"
    for "Coefficients"). One that adds words — a translation, a subtitle the page does not
    print — is not the printed title."""
    a, b = loose(info), loose(page)
    if a == b:
        return True
    if not b or not 0 < len(a) - len(b) <= MAX_LOST_LETTERS:
        return False
    rest = iter(a)
    return all(c in rest for c in b) and titles_roughly_match(info, page)


def printed_ids(meta: PdfMeta | None, rejected: list[str] | None = None) -> list[str]:
    """``doi:``/``arxiv:`` ids printed in the PDF, less those that belong to another work."""
    if meta is None:
        return []
    ids = [f"arxiv:{a}" for a in meta.arxiv_ids] + [f"doi:{d}" for d in meta.dois]
    return [i for i in ids if i not in (rejected or [])][:MAX_PRINTED_IDS]


def printed_ids_warning(ids: list[str], all_down: bool) -> str:
    """The record's note on ids kept unconfirmed: why, and that a retry asks again."""
    listed = ", ".join(ids)
    if all_down:
        return f"ids printed in the PDF, not yet confirmed (no source answered): {listed}"
    return (f"ids printed in the PDF, not yet confirmed (the sources answered not found "
            f"(404)): {listed}; kept so that a retry asks again")
