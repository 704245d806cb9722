"""A first page's peer-review panel: the side column an open-review platform sets beside
the abstract (F1000Research and its sister journals: ``Open Peer Review``, ``Referee
Status:``, ``Invited Referees``, the referees' names and affiliations, ``report`` links,
``Discuss this article``; its 2013 form ``Article Status Summary`` | ``Referee
Responses``). Every block in it is front matter, none a heading or body text, and the
abstract read beside it goes on past it. Pure: lines in, a box and yes or no out.
"""

from __future__ import annotations

import math
import re

from vaultd.parse.base import Box
from vaultd.parse.paras import Line, Para

#: The labels that open such a panel.
PANEL_RE = re.compile(
    r"(?:open\s+peer\s+review|referee\s+status|reviewer\s+status|approval\s+status|invited\s+referees"
    r"|article\s+status\s+summary|referee\s+responses)\b",
    re.IGNORECASE,
)
#: The panel stands in the page's right part: its label starts past this share of the width.
PANEL_SIDE = 0.45


def panel_of(para: Para, lines: list[Line], width: float) -> Box | None:
    """The panel ``para`` opens when it is a review panel's label set in the page's right
    part: from the label's left edge (an em of slack) to the page's right edge, from its
    top down to the first line under it that crosses that edge from the left (the box
    across the page's foot that holds the correspondence and licence), or the page's end."""
    first = para.lines[0]
    if not PANEL_RE.match(para.text.strip()) or first.bbox[0] < PANEL_SIDE * width:
        return None
    em = max(first.size, 1.0)
    left = first.bbox[0] - em
    bottom = min((ln.bbox[1] for ln in lines if ln.bbox[1] > first.bbox[3] and ln.bbox[0] < left
                  and ln.bbox[2] > first.bbox[0] + em), default=math.inf)
    return (left, first.bbox[1] - 0.5 * em, width, bottom)


def in_panel(panel: Box, para_lines: list[Line]) -> bool:
    """Whether every line of a para stands inside the panel's box."""
    x0, y0, x1, y1 = panel
    return all(ln.bbox[0] >= x0 and ln.bbox[2] <= x1 + 1.0 and ln.bbox[1] >= y0 and ln.bbox[3] <= y1
               for ln in para_lines)


def in_review_panel(panels: dict[int, Box], para: Para, lines: list[Line], page: int, width: float) -> bool:
    """Whether ``para`` stands in its page's review panel; a panel's label opens it
    (``panels``: each page's panel once found, by page number, kept by the caller)."""
    if page not in panels and (opened := panel_of(para, lines, width)) is not None:
        panels[page] = opened
    return page in panels and in_panel(panels[page], para.lines)
