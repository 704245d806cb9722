"""A first page's lines about its authors, told by their words: a byline, a list of
names (``is_byline``), and a note to the title or an author opening with the mark one of
them carries (``is_title_note``). Pure: text in, yes or no out.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

#: Lowercase words a list of authors' names may hold besides the names.
_NAME_PARTICLES = {"and", "&", "de", "da", "das", "do", "dos", "van", "von", "der", "den", "di",
                   "del", "della", "la", "le", "y", "e", "et", "al.", "und"}
_MARKS = "*†‡§¶∗⋆★♠♢♡♣♦♥♤♧⇑"  # (⇑: Elsevier's corresponding author)
#: An affiliation's letter set after a name on the baseline, closed by a comma, another
#: mark or the line's end (Elsevier's ``Yang-Yang Zhou a,⇑, Guy Grossman b , Shuning Ge
#: c``; not the article of ``Towards a Theory``).
_LETTER_MARK_RE = re.compile(r"(?<=\w)\s+[a-z](?=\s*(?:[,;" + _MARKS + r"]|$))")
_INITIAL_RE = re.compile(r"^[A-Z]\.(?:-?[A-Z]\.)*$")


def is_title_note(text: str, above: Iterable[str]) -> bool:
    """A first-page note to the title or an author (LaTeX's ``\\thanks``: ``∗Part of the
    work was done…``, ``†Research partially supported…``), set in the body's size at a
    column's foot: it opens with a symbol mark that one of ``above``, the texts of the
    title, the bylines and the lone marks above it, carries too (read only for a text
    opening with a mark)."""
    text = text.lstrip()
    return len(text) > 2 and text[0] in _MARKS \
        and (text[1].isupper() or (text[1] == " " and text[2].isupper())) \
        and any(text[0] in t for t in above)


#: A paper's usual section names (a pattern), which head a section whatever follows them.
SECTION_NAMES = (r"introduction|background|motivation|methods?|materials(?:\s+and\s+methods)?|results|"
                 r"discussion|conclusions?|summary|nomenclature|overview|preliminaries|evaluation|"
                 r"experiments?|implementation|analysis|applications?|appendix|acknowledge?ments?|"
                 r"references|bibliography")
#: One of them, the whole of a line (``SECTION_NAME_RE.fullmatch``).
SECTION_NAME_RE = re.compile(SECTION_NAMES, re.IGNORECASE)
#: A numbered section heading whose words could pass for an initial and a name.
_SECTION_HEAD_RE = re.compile(r"^(?:[IVX]{1,4}|\d{1,2}|[A-H])\.\s+(?:" + SECTION_NAMES + r")$", re.IGNORECASE)


def is_byline(text: str) -> bool:
    """Whether a first-page line is a list of authors' names (``Keng-Wit Lim and José E.
    Andrade*,†``, ``R. Verfürth``): every word a capitalised name, an initial or a
    particle (``and``, ``van``), at least two names, and an affiliation mark or an
    initial among them (so that ``Results and Discussion`` is no byline)."""
    if _SECTION_HEAD_RE.match(text.strip()):
        return False  # ``I. Introduction``: a numbered section, not ``I. Newton``
    words = _LETTER_MARK_RE.sub("*", text).replace(",", " ").split()
    names = marked = 0
    for word in words:
        core = word.strip(_MARKS + "0123456789")
        if word != core:
            marked += 1
        if not core:
            continue
        if core.lower() in _NAME_PARTICLES:
            continue
        if _INITIAL_RE.match(core):
            names, marked = names + 1, marked + 1
            continue
        if not core[:1].isupper() or not any(c.islower() for c in core) \
                or not all(part[:1].isupper() for part in core.split("-") if part):
            return False  # a name is capitalised, not in capitals (``I. INTRODUCTION``)
        names += 1
    return names >= 2 and marked > 0
