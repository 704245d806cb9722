"""A first page's notes block: the small print under its columns between front matter
(LWW's ``Editor: Jianxun Ding.`` | ``RS and WD contributed equally to this work.`` |
``The authors have no conflicts of interest to disclose.`` | the authors' addresses and
``Correspondence: …`` | ``Copyright © 2019 …`` | ``Medicine (2019) 98:10(e14713)`` |
``Received: …``). The classifier knows the labelled items for front matter; the notes
between them, each plain small print, are the block's too, no passage of the paper.
Pure: the built paras in, their types changed in place.
"""

from __future__ import annotations

from vaultd.parse.paras import PageInfo, Para

#: Largest size, as a share of the body's, of the notes block's print (an abstract set a
#: size under the body, ``paras.small_print``, is no such note).
NOTE_SCALE = 0.85
#: Share of the page's height from its top under which the block stands (an abstract,
#: however small, opens higher).
NOTES_BELOW = 0.5


def notes_between_front(paras: list[Para], body: float, infos: list[PageInfo]) -> list[Para]:
    """Make ``front``, in place, the first page's paragraphs of small print
    (``NOTE_SCALE``) in its lower half (``NOTES_BELOW``) that the reading order sets
    between two front blocks of such print in their column: the run's plain notes. Returns
    the paras made front."""
    height = infos[0].height if infos else 0.0
    out: list[Para] = []
    run: list[Para] = []  # the column's small print read so far, from a front block on

    def note(para: Para) -> bool:
        lines = para.lines
        return all(ln.page == 1 for ln in lines) and max(ln.size for ln in lines) <= NOTE_SCALE * body \
            and lines[0].bbox[1] >= NOTES_BELOW * height

    for para in paras:
        if para.lines[0].page > 1:
            break
        if not note(para) or para.type not in ("front", "paragraph") \
                or (run and not _same_column(run[-1], para)):
            run = []
            if not note(para) or para.type != "front":
                continue
        if para.type == "front" and run:
            between = [p for p in run if p.type == "paragraph"]
            for p in between:
                p.type, p.floating = "front", True
            out += between
            run = []
        if run or para.type == "front":
            run.append(para)
    return out


def _same_column(above: Para, para: Para) -> bool:
    """Whether ``para`` stands under ``above`` in its column (their lines overlap across)."""
    a, b = above.lines[0].bbox, para.lines[0].bbox
    return a[0] < b[2] and b[0] < a[2] and para.lines[0].bbox[1] >= above.lines[-1].bbox[1]


def notes_across_columns(paras: list[Para], body: float, infos: list[PageInfo]) -> list[Para]:
    """Make ``front``, in place, a first page's paragraph of small print in its lower half
    that opens with a lowercase letter level with the notes block of another column, whose
    last note ends open: that note's rest, set on at the next column's foot (a bioRxiv
    preprint's ``Abbreviations used: 2D, two-dimensional; … 3D structure:`` | ``coordinates
    of atoms in a protein structure; APC, …``). Returns the paras made front."""
    height = infos[0].height if infos else 0.0
    first = [p for p in paras if all(ln.page == 1 for ln in p.lines)
             and max(ln.size for ln in p.lines) <= NOTE_SCALE * body and p.lines[0].bbox[1] >= NOTES_BELOW * height]
    notes = [p for p in first if p.type == "front"]
    out: list[Para] = []
    for para in first:
        top = para.lines[0]
        if para.type != "paragraph" or not top.text[:1].islower():
            continue
        column = [n for n in notes if n.lines[0].bbox[2] <= top.bbox[0]
                  and abs(min(ln.bbox[1] for ln in n.lines) - top.bbox[1]) <= LEVEL_LINES * (top.bbox[3] - top.bbox[1])]
        if not column:
            continue
        # the column's last note (its lowest), left open
        last = max((n for n in notes if n.lines[0].bbox[2] <= top.bbox[0]
                    and n.lines[0].bbox[0] < column[0].lines[0].bbox[2]), key=lambda n: n.lines[-1].bbox[3])
        if not last.text.rstrip().endswith(_CLOSED) and abs(last.lines[-1].size - top.size) <= 0.3:
            para.type, para.floating = "front", True
            out.append(para)
    return out


#: How far apart (the line's heights) the tops of two columns' notes blocks stand.
LEVEL_LINES = 1.0
#: A note's closing marks (a colon leaves a list of terms open: ``3D structure:``).
_CLOSED = (".", "!", "?", ".”", ".)", "。")
