"""Licence statements and copyright notices: a block that is the work's licence (a CC BY
notice, an open-access statement, a publisher's download stamp) or a copyright notice
alone, front matter on whatever page it stands. Pure."""

from __future__ import annotations

import re


def is_licence(text: str) -> bool:
    """Whether a block is the work's licence statement, on whatever page it stands."""
    body = _FOLIO_LEAD_RE.sub("", text.strip().lstrip("*†‡§∗ ").strip())
    return len(body) <= LICENCE_MAX and (_LICENCE_RE.match(body) is not None or _copyright_line(body))


def holds_licence(text: str) -> bool:
    """Whether a block holds an open licence's statement after other words (CUP's head
    block: ``American Political Science Review (2024) 118, 3, 1556–1562 doi:… © The
    Author(s), 2023. … This is an Open Access article, distributed under the terms of the
    Creative Commons Attribution licence …``, read as one block)."""
    return len(text) <= LICENCE_MAX and _STATEMENT_RE.search(text) is not None


def _copyright_line(body: str) -> bool:
    """A copyright notice alone: a year and its holder's name (``Copyright POST, 1995.``,
    ``© 2019 Elsevier B.V. All rights reserved.``), no sentence's words."""
    mark = _COPYRIGHT_MARK_RE.match(body)
    if mark is None or len(body) > COPYRIGHT_LINE_MAX or not _YEAR_RE.search(body):
        return False
    words = _RESERVED_RE.sub(" ", body[mark.end():]).split()
    return all(not w[:1].islower() or w in ("by", "the", "and", "of") for w in words)


#: A copyright mark opening a block (or a glyph the text layer maps it to, before a year:
#: Elsevier's ``& 2016 Elsevier Ltd. All rights reserved.``; or typed as ``@`` before its
#: holder's name and the year that ends the line: a JRC draft's ``@ European Union, 2023``,
#: never an address or a handle, which take no space after the sign).
_COPYRIGHT_MARK_RE = re.compile(r"(?:©|c\u20dd|\(c\)|(?i:copyright)\b|[&ßÓ]\s?(?=(?:19|20)\d\d\s)"
                                r"|@\s(?=[A-Z][^@]{0,60}?,?\s(?:19|20)\d\d\.?$))")
_YEAR_RE = re.compile(r"\b(?:19|20)\d\d\b")
_RESERVED_RE = re.compile(r"(?i:all\s+rights\s+reserved)")
#: Longest copyright notice alone (characters).
COPYRIGHT_LINE_MAX = 100


#: A page number read into the start of a footer's line (IEEE Access: ``40496 This work is
#: licensed under …``).
_FOLIO_LEAD_RE = re.compile(r"^\d{1,6}\s+(?=\D)")


#: A licence statement, wherever it stands (Scientific Reports prints its CC BY notice at
#: the article's end, a slide deck on its last slide): it may follow a copyright line
#: (``© 2014 Dominika Tkaczyk. This document is distributed under …``).
_LICENCE_RE = re.compile(
    r"""^(?:(?:open\s+access|creative\s+commons[\w\s-]{0,40})[.:]\s*)?  # JAMA's label run in before it (SAGE's
        # ``Creative Commons Non Commercial CC BY-NC: This article is distributed …``)
        (?:(?-i:[a-z])[\w-]*[.;]\s+)?  # the last word of a sentence broken over pages (PLOS's margin)
        (?:(?:©|\ufffd|c\s?\u20dd|\(c\)|copyright\b|[&ßÓ]\s?(?=(?:19|20)\d\d\s))(?:.{0,160}?[.,;]\s*){1,3}
          | (?:(?:19|20)\d\d\s+)?the\s+authors?[.,;]\s*)?  # (its © a glyph the text layer lost, or mapped
        # to another before the year: the Royal Society's and Elsevier's ``& 2016 The Authors.``, Taylor &
        # Francis's ``ß``)
        (?:
        (?:this|the)\s+(?:open[\s-]access\s+)?(?:work|article|publication|document|paper|book|chapter|preprint)
        \s+is\s+(?:licensed|distributed|published|made\s+available)\s+under
      | (?:distributed|licensed|published|available|released)\s+under\s+(?:a\s+|the\s+)?(?:terms\s+of\s+(?:a\s+|the\s+)?)?
        (?:creative\s+commons|cc[\s-]by)
      | (?:licen[cs]e\s+)?authors?\s+(?:of\s+(?:papers|articles)\s+)?retain\s+(?:the\s+)?copyright\b.{0,60}?
        \bunder\s+(?:a\s+|the\s+)?(?:creative\s+commons|cc[\s-]by)  # JOSS's and JOSE's sidebar
      | this\s+is\s+an\s+open[\s-]access\s+article
      | this\s+is\s+an\s+open(?:[\s-]access)?\s*$  # broken at the line's end, its rest read as the next block:
      | (?:open[\s-]access\s+|access\s+)?article\s+under\s+(?:a\s+|the\s+)?(?:creative\s+commons|cc[\s-]by)  # (Elsevier's)
      | this\s+publication\s+is\s+available\s+free\s+of\s+charge\s+from  # NIST's, on every page's margin
      | funded\s+by\s+scoap\s?3\b  # the open-access funder's line under an HEP article's licence
      | the\s+reuse\s+policy\s+of\s+the\s+european\s+commission\b  # every EU publication's legal notice
      | (?:unless\s+otherwise\s+noted,?\s+)?the\s+reuse\s+of\s+this\s+document\s+is\s+authori[sz]ed\s+under
      | (?:[\w&-]+\s+){0,8}?(?:articles?|papers?)\s+(?:is|are)\s+open\s+access\s+and\s+(?:distributed|licensed|published)
        \s+under\s+(?:the\s+terms\s+of\s+)?(?:a\s+|the\s+)?(?:creative\s+commons|cc[\s-]by)  # Maney's MORE OpenChoice
      | open\s+access\s+this\s+(?:article|chapter|book)
      | (?:original\s+)?content\s+from\s+this\s+work\s+may\s+be\s+used  # IOP's and the AAS journals'
      | use\s+of\s+this\s+article\s+is\s+subject\s+to\s+the\s+terms  # Science's download stamp
      | published\s+by\s+.{3,80}?\s+under\s+the\s+terms\s+of\s+the\s+creative\s+commons  # APS
      # the same statement in Italian, Spanish, Portuguese, French and German (a thesis's
      # licence page: ``Quest’opera è distribuita con licenza Creative Commons …``)
      | quest(?:['’]\s*|[ao]\s+)(?:opera|tesi|documento|lavoro)\s+è\s+(?:distribuit|rilasciat|concess|pubblicat)[ao]\s
        (?:con|sotto|secondo)\s
      | est[ae]\s+(?:obra|trabajo|documento|art[íi]culo)\s+(?:est[áa]|se\s+distribuye)\s+(?:bajo|sujet[ao]\s+a)\s
      | est[ae]\s+(?:obra|trabalho|documento|artigo)\s+(?:est[áa]|é)\s+licenciad[ao]\s
      | (?:ce|cet|cette)\s+(?:document|ouvrage|article|œuvre|oeuvre|travail|thèse)\s+est\s
        (?:mise?\s+à\s+disposition|distribu[ée]e?|diffus[ée]e?|publi[ée]e?)\s+(?:selon|sous)\s
      | dies(?:es|e)?\s+(?:werk|dokument|arbeit|artikel)\s+(?:ist|steht|wird)\s+(?:unter|lizenziert)\s
    )""",
    re.IGNORECASE | re.VERBOSE,
)
#: A licence's statement inside a block (``holds_licence``).
_STATEMENT_RE = re.compile(
    r"\bthis\s+is\s+an\s+open[\s-]access\s+article\b|\b(?:distributed|licensed)\s+under\s+the\s+terms\s+of\s+the"
    r"\s+creative\s+commons\b", re.IGNORECASE)
#: Longest licence statement (characters): a paragraph, not a page of text.
LICENCE_MAX = 1000
