"""Authors' names from a first page's byline (pure).

``split_names`` reads one byline string ("Pablo E. Branchi *, Carlos Fernández-Valdivielso
and Ignacio R. Matias") into its names, in order, without affiliation marks, stars,
daggers or ORCID marks; ``looks_like_name`` says whether a piece of text is a person's
(or a group's) name as bylines print them: two to six words, each capitalised, an
initial, or a lowercase particle ("van", "da"), no digits, no address or affiliation word.
A Chinese, Japanese or Korean name is one run of two to four ideographs or syllables.
"""

from __future__ import annotations

import re
import unicodedata

MAX_NAME_WORDS = 6

PARTICLES = {"van", "von", "der", "den", "de", "del", "della", "di", "da", "du", "la", "le",
             "ter", "ten", "dos", "das", "do", "bin", "al", "el", "y", "zu", "af", "st.",
             "vander", "degli", "des", "ibn"}
_SUFFIXES = {"jr", "jr.", "sr", "sr.", "ii", "iii", "iv", "v"}
# Words a byline's address or affiliation holds, never a person's name.
_NOT_NAME_WORDS = {
    "university", "universität", "universitat", "université", "universidade", "universidad",
    "università", "department", "dept", "institute", "institut", "instituto", "school",
    "faculty", "college", "laboratory", "laboratories", "lab", "centre", "center", "centro",
    "hospital", "clinic", "academy", "street", "road", "avenue", "usa", "inc", "ltd", "gmbh",
    "the", "of", "for", "in", "on", "at", "to", "from", "with", "is", "are", "this", "that",
    "abstract", "keywords", "introduction", "summary", "research", "article", "open",
    "access", "received", "accepted", "published", "correspondence", "corresponding",
    "email", "e-mail", "editor", "edited", "reviewed", "citation", "copyright", "volume",
    "issue", "page", "pages", "journal", "proceedings", "conference", "workshop", "abstract.",
    "version", "draft", "preprint", "dissertation", "thesis", "submitted", "degree",
    "doctor", "philosophy", "master", "bachelor", "science", "engineering", "technology",
    "computer", "program", "programme", "studies", "group", "division", "unit", "section",
    "box", "p.o.", "tel", "fax", "phone", "www", "vignette", "package", "manual", "guide",
    "template", "class", "paper", "report", "contents", "chapter", "appendix", "figure",
    "table", "et", "al", "al.", "also", "an", "a", "as", "or", "not", "we", "our",
    "computing", "systems", "mathematics", "physics", "chemistry", "biology", "medicine",
    "sciences", "foundation", "ministry", "national", "state", "federal", "county",
    "editorial", "board", "editors", "imprint", "press", "publishing", "publishers",
}
# A byline may name a group as an author ("R Core Team", "ATLAS Collaboration").
_GROUP_WORDS = {"team", "equipe", "équipe", "equipo", "collaboration", "consortium",
                "committee", "investigators", "contributors", "developers", "project",
                "network", "initiative", "editors", "authors"}
_GROUP_LINKS = {"of", "the", "for", "and", "de", "du", "des", "der", "für"}
_CJK_RE = re.compile(r"^[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]{2,4}$")
# Marks bylines set beside names: footnote symbols, ORCID and mail icons, digits, brackets
# (and the "?" and quotes an OCR layer reads raised marks as).
_MARKS_RE = re.compile(r"[*∗†‡§¶#✉⁎⋆★☆✝♯♮♭⊥∥?\"\u2020\u2021\d\[\](){}<>^_|]+")
_ORCID_RE = re.compile(r"\b(?:orcid|iD)\b", re.IGNORECASE)
# Separators between names: commas, semicolons, "and" in several languages, bars, dots.
_SPLIT_RE = re.compile(
    r"\s*(?:[,;|·•]|\s(?:and|und|et|e|y|и|i|og|och|en|ve|és)\s|&|\band\b)\s*",
    re.IGNORECASE)
# Where the byline's own names end: contributors of another role follow.
_ROLE_RE = re.compile(
    r"[,;]?\s*\b(?:with\s+(?:an?\s+)?(?:appendix|afterword|foreword|contributions?|"
    r"preface)|with\s+the\s+assistance|edited\s+by|translated\s+by|illustrated\s+by|"
    r"foreword\s+by|supervised\s+by|advisor)\b.*$", re.IGNORECASE)
_ASIDE_RE = re.compile(r"^\s*\([^()]*\)\W*$")
# A label before the author's name: "By", "Thèse présentée par", "研究生：".
LABEL_RE = re.compile(
    r"^\s*(?:(?:(?:a\s+)?(?:thesis|dissertation|report|paper|work)\s+)?(?:written\s+|"
    r"submitted\s+|presented\s+|prepared\s+)?by|authors?\s*:|autor(?:es|a)?\s*:|"
    r"auteurs?\s*:|verfasser(?:in)?\s*:|vorgelegt\s+von|eingereicht\s+von|von|"
    r"th[èe]se\s+pr[ée]sent[ée]e\s+par|pr[ée]sent[ée]e?\s+par|par|"
    r"apresentad[ao]\s+por|por|研究生|作者|申请人|姓名|저자|발표자)(?![A-Za-zÀ-ÿ])\s*[:：]?\s*",
    re.IGNORECASE)


# A bracket inside a word is part of it ("Author Name[s]" in a template's byline).
_WORD_BRACKETS_RE = re.compile(r"(?<=\w)[\[(](\w{1,3})[\])](?=\W|$)")


# A role or note in parentheses after a name: "J.K. Krishnan (Researcher)".
_INLINE_ASIDE_RE = re.compile(r"\s\([^()]*[^\W\d_][^()]*\)")


# Marks in a list glued to a name ("De Marchis1,2,3*"), taken off before names are split.
_MARK_LIST_RE = re.compile(r"(?<=[^\W\d_])\d+(?:\s*[,;]\s*\d+)+[*∗†‡]*")


def _pieces(text: str) -> list[str]:
    return _SPLIT_RE.split(_MARK_LIST_RE.sub("", text))


def _printed_digit(m: re.Match[str]) -> bool:
    """A digit set at the end of a word and opening no list of marks ("Name1",
    "abnTeX2"; not "Marchis1,2")."""
    glued = m.start() > 0 and m.string[m.start() - 1].isalpha()
    return glued and m.group(0).isdigit() and len(m.group(0)) == 1 \
        and not re.match(r"\s*[,;]\s*\d", m.string[m.end():])


def clean_name(text: str, printed: bool = False) -> str:
    """A name without marks, ORCID labels, asides, trailing punctuation or extra spaces.

    ``printed``: the text comes from the page's layout, whose raised and small marks are
    already gone (``vaultd.capture.page_layout``), so a digit left glued to a word is
    printed at full size as part of the name ("Author Name1"); in plain text it is a mark.
    """
    text = _ORCID_RE.sub(" ", text)
    # icons fonts draw with private-use or symbol code points (ORCID, envelope)
    text = "".join(" " if unicodedata.category(c) in ("Co", "So") else c for c in text)
    text = _WORD_BRACKETS_RE.sub(r"\1", text)
    text = _INLINE_ASIDE_RE.sub(" ", text)
    text = _MARKS_RE.sub(lambda m: m.group(0) if printed and _printed_digit(m) else " ", text)
    text = text.replace("\u00a0", " ")
    text = " ".join(text.split()).strip(" ,;:.-–—'\"")
    # keep the period of a final initial or suffix ("Jr.") that the strip removed
    return text


def _word_ok(word: str, printed: bool) -> bool:
    lower = word.lower()
    if lower in PARTICLES or lower in _SUFFIXES:
        return True
    if re.fullmatch(r"(?:\w\.-?)+\w?\.?", word):  # J. / G.K.M. / J.-P.
        return word[0].isupper()
    first = word.lstrip("'’(\"")[:1]
    if not first.isalpha() or not first.isupper():
        return False
    if printed and word[-1:].isdigit() and word[-2:-1].isalpha():
        word = word[:-1]  # "Name1": a digit printed at full size (see clean_name)
    return all(c.isalpha() or c in "'’-.‐" for c in word)


def _is_group_word(word: str) -> bool:
    """'Team', 'editors', 'Subcommittee': a word that names a group of people."""
    lower = word.lower()
    return any(lower == g or (lower.endswith(g) and len(g) > 6) for g in _GROUP_WORDS)


def looks_like_name(text: str, printed: bool = False) -> bool:
    """True when ``text`` reads as one person's name (or a group's, as 'R Core Team');
    ``printed`` as for ``clean_name``."""
    name = clean_name(text, printed)
    if not name or "@" in name or "http" in name.lower():
        return False
    if _CJK_RE.match(name.replace(" ", "")):
        return True
    words = name.split()
    if any(_is_group_word(w) for w in words) and len(words) <= MAX_NAME_WORDS:
        # the group's own name is capitalised ("R Core Team", "TUGboat editors",
        # "Online-Journal Subcommittee of JPSJ", "Equipe abnTeX2")
        return words[0][:1].isupper() and all(
            w != w.lower() or _is_group_word(w) or w in _GROUP_LINKS for w in words)
    if not 2 <= len(words) <= MAX_NAME_WORDS:
        return False
    if any(len(w.strip(".,")) > 1 and w.lower().strip(".,") in _NOT_NAME_WORDS for w in words):
        return False
    if words[0] in PARTICLES or words[-1] in PARTICLES:
        return False
    if not all(_word_ok(w, printed) for w in words):
        return False
    # at least one word is a full word (not all initials)
    return any(len(w.strip(".")) > 1 and "." not in w for w in words)


def split_names(text: str, printed: bool = False) -> list[str]:
    """The names of one byline string, in order; pieces that are no name are left out
    (``printed`` as for ``clean_name``)."""
    text = _ROLE_RE.sub("", text)
    text = LABEL_RE.sub("", text, count=1)
    names: list[str] = []
    for piece in _pieces(text):
        name = "" if _ASIDE_RE.match(piece) else clean_name(piece, printed)
        if name and looks_like_name(name, printed):
            names.append(name)
    return names


def leading_names(text: str, printed: bool = False) -> list[str]:
    """The names a byline string opens with, up to its first piece that is no name
    ("Sam U. Llaun, Academy of Lagado, Lagado" → the name only; ``printed`` as for
    ``clean_name``)."""
    text = _ROLE_RE.sub("", text)
    text = LABEL_RE.sub("", text, count=1)
    names: list[str] = []
    for piece in _pieces(text):
        if _ASIDE_RE.match(piece):
            continue  # "(MUSO Collaboration)", "(AAS Journals Data Editors)": an aside
        name = clean_name(piece, printed)
        if not name:
            continue
        if not looks_like_name(name, printed):
            break
        names.append(name)
    return names


def names_only(text: str, printed: bool = False) -> list[str]:
    """The names of a text that holds nothing but names (a line of a byline set apart);
    [] when any piece of it is no name."""
    names: list[str] = []
    for piece in _pieces(text):
        name = clean_name(piece, printed)
        if piece.strip() and not (name and looks_like_name(name, printed)):
            return []
        if name:
            names.append(name)
    return names


def ends_open(text: str) -> bool:
    """True when a byline line stops inside a name ('Ana Cristina Franco da')."""
    words = text.split()
    return bool(words) and (words[-1].lower() in PARTICLES or text.rstrip().endswith("-"))
