"""Algorithm floats: pseudocode kept out of paragraphs, as one ``figure`` chunk.

LaTeX's ``algorithm`` float in its ruled style (the ``algorithm`` package's ``ruled``,
``algorithm2e``'s ``ruled``/``algoruled``; ACM, IEEE and Springer papers use it) draws a
rule over the caption, a rule right under it, the pseudocode, and a closing rule of the
same width::

    ───────────────────────────────
    Algorithm 1 Name(args)
    ───────────────────────────────
    mappings ← ∅
    for all item ← items do …
    ───────────────────────────────

Read as text, the pseudocode's lines became paragraphs (``for all archItem ← archItems,
codeItem ← codeItems do confidence ← …``). Here, a line opening with ``Algorithm N`` that
has a rule within ``SEED_GAP`` under it is such a caption, and every line between that
rule and the next rule below it of the same width (``SAME_EXTENT``) is its body. The
geometry is the evidence: a sentence that merely opens with ``Algorithm 2 …`` has no
rule under it and stays a paragraph.
"""

from __future__ import annotations

import functools
import re

from vaultd.parse.base import Box
from vaultd.parse.classify import CAPTION_CACHE_LINES
from vaultd.parse.open_tables import SAME_EXTENT
from vaultd.parse.table_geometry import Rule, overlap

ALGORITHM_RE = re.compile(r"^(?:Algorithm|ALGORITHM|Procedure|PROCEDURE)\s+\d{1,3}(?:\s*[.:]|\s+\S|\s*$)")
#: A caption that is its label alone (Elsevier's ``Algorithm 1`` over its title's line).
BARE_RE = re.compile(r"(?:Algorithm|ALGORITHM|Procedure|PROCEDURE)\s+\d{1,3}\s*[.:]?")
#: The rule under a caption stands within this many points below the caption's box.
SEED_GAP = 6.0
#: How far above the caption's bottom the rule under it may reach (glyph boxes overlap it).
OVERLAP = 2.0


@functools.lru_cache(maxsize=CAPTION_CACHE_LINES)
def is_algorithm_caption(text: str) -> bool:
    return bool(ALGORITHM_RE.match(text.lstrip()))


def with_title(caption: Box, height: float, lines: list[Box]) -> Box:
    """A bare label's caption box with its title's line right under it (its top within
    half a line's height of the caption's bottom, the boxes of tight lines overlapping;
    overlapping it across), where the rule under the caption stands."""
    under = [b for b in lines if -0.5 * height <= b[1] - caption[3] <= 0.5 * height and b[1] > caption[1] + 0.5 * height
             and min(b[2], caption[2]) > max(b[0], caption[0])]
    if not under:
        return caption
    title = min(under, key=lambda b: b[1])
    return (min(caption[0], title[0]), caption[1], max(caption[2], title[2]), title[3])


def algorithm_box(rules: list[Rule], caption: Box) -> Box | None:
    """The box of the pseudocode under ``caption``: from the rule right under it to the
    next rule below of the same width, or None when the caption has no rule under it or
    the body no closing rule."""
    under = [r for r in rules
             if -OVERLAP <= r[0] - caption[3] <= SEED_GAP and min(r[2], caption[2]) > max(r[1], caption[0])]
    if not under:
        return None
    seed = min(under, key=lambda r: r[0])
    below = [r for r in rules if r[0] > seed[0] + OVERLAP and overlap(r, seed) >= SAME_EXTENT]
    if not below:
        return None
    end = min(below, key=lambda r: r[0])
    return (min(seed[1], end[1]), seed[0], max(seed[2], end[2]), end[0])
