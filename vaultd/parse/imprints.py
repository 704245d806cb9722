"""Imprints: a book's or report's copyright page (an ISBN, a series' ISSN, the rights
statement, the publisher's place and year, the designer's credit) and a thesis's
citation of itself under its abstract's head: front matter, no passage of the text.
Pure.
"""

from __future__ import annotations

import re

#: A book's or report's imprint (its copyright page): an ISBN, or the rights statement.
_IMPRINT_RE = re.compile(r"\bISBN(?:-1[03])?:?\s*(?:97[89][-\s]?)?\d[\d\s-]{8,}[\dX]\b"
                         r"|\bISSN\b[^\d\n]{0,20}\d{4}-\d{3}[\dX]\b"  # a series' ISSN
                         r"|\b(?:all|no|some)\s+rights\s+reserved\b", re.IGNORECASE)
#: The pages a book's imprint stands on: its first few (half title, title, copyright).
IMPRINT_PAGES = 6
#: Most words of an imprint's ISBN block (a sentence citing a book by its ISBN has more).
IMPRINT_WORDS = 30


#: A document's symbol alone, as the United Nations print it on a report's imprint page
#: (``UNCTAD/TIR/2025 (Overview)``, ``E/CN.4/2005/1``): three parts at least.
_SYMBOL_RE = re.compile(r"[A-Z][A-Z0-9.]*(?:/[A-Z0-9][A-Za-z0-9.-]*){2,}(?:\s+\([^()]{1,30}\))?")
#: A credit's label on an imprint page (``Copy-Editing:``, ``Cover Image:``, ``Printer:``).
_CREDIT_RE = re.compile(r"(?:^|\s)[A-Z][a-z]+(?:[- ][A-Z][a-z]+)?:\s")
#: Fewest credits' labels that make a long block with an ISBN a book's credits.
CREDIT_LABELS = 4


#: A publisher's imprint line: its name, its place and the year (``U.S. Geological Survey,
#: Reston, Virginia: 2016``).
_PLACE_YEAR_RE = re.compile(r"(?:[A-Z][\w.&'’ -]{1,60},\s+){1,3}[A-Z][\w.’ -]{1,30}:\s*(?:1[5-9]|20)\d\d\.?")


#: A designer's or typesetter's credit on an imprint page (``Design and layout by 400
#: Communications Limited.``), a line of its own.
_DESIGNER_RE = re.compile(
    r"(?i:design\s+and\s+layout|layout\s+and\s+design|(?:cover\s+)?design(?:ed)?|typeset(?:ting)?|layout)\s+by\s+"
    r"[A-Z0-9][^.,;]{0,60}\.?$")


def is_imprint(text: str) -> bool:
    """Whether a block of a book's first pages is its imprint (a short block with an
    ISBN, ``ISBN-13: 978-…``, its series' ISSN, or the rights statement, ``All rights
    reserved``; a longer one of credits with an ISBN; a document's symbol; a publisher's
    line, ``U.S. Geological Survey, Reston, Virginia: 2016``; a designer's credit,
    ``Design and layout by …``): front matter, no passage of the text."""
    if _PLACE_YEAR_RE.fullmatch(text.strip()) or _DESIGNER_RE.match(text.strip()) \
            or _SYMBOL_RE.fullmatch(text.strip()):
        return True
    found = _IMPRINT_RE.search(text)
    return found is not None and (found.group().lower().endswith("reserved")
                                  or len(text.split()) <= IMPRINT_WORDS
                                  # (or the book's credits, label by label: ``Editors: …
                                  # Design: … Printer: … Publisher: … ISBN: 978-…``)
                                  or len(_CREDIT_RE.findall(text)) >= CREDIT_LABELS)


def is_own_citation(text: str) -> bool:
    """Whether a paragraph under an abstract's head is the work's citation of itself, as a
    thesis prints it there: a reference (its authors, its year) naming the kind of thesis
    (APA's ``Vartanian, D. (2024). Is latitude associated with chronotype? [Master’s
    Thesis, University of São Paulo].``; ABNT's ``… 2024. Dissertação (Mestrado em …)``)."""
    body = text.strip()
    return len(body) <= OWN_CITATION_MAX and _CITED_AUTHOR_RE.match(body) is not None \
        and _THESIS_KIND_RE.search(body) is not None


#: Longest citation of a work by itself (characters).
OWN_CITATION_MAX = 400
#: A reference's first author: a surname and initials or a name (``Vartanian, D.``, ``SILVA, Maria``).
_CITED_AUTHOR_RE = re.compile(r"[^\W\d_][\w'’-]+,\s+[^\W\d_]")
#: The kind of thesis a reference names, with its year before it.
_THESIS_KIND_RE = re.compile(
    r"(?:19|20)\d\d\b.{0,300}?(?:\[[^\]]{0,40}?(?:thesis|dissertation|tese|dissertação|tesis)\b"
    r"|\b(?:dissertação|tese|tesis|thesis|dissertation)\s*\((?:mestrado|doutorado|maestría|doctorado|master|doctor|ph\.?d))",
    re.IGNORECASE)
