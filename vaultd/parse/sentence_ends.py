"""How a text ends and opens: whether its last words end a sentence (a stop, a note's
mark or a citation after it), leave it open (an article, a preposition, a comma), and
whether a text opens a list's item or is a formula's scrap. Pure: strings in, yes or no
out; used by ``vaultd.parse.continuation`` and the rules that join pieces.
"""

from __future__ import annotations

import re

from vaultd.parse.classify import FRAGMENT_MAX
from vaultd.parse.paras import SENT_END, Para

#: A number that goes on with a sentence: a quantity in lowercase words or a clause's
#: end (``100 ml of``, ``601-700 for``, ``10000. Use``), not a footer's ``37th Conference``
#: or a running header's ``318 IEEE``.
QUANTITY_RE = re.compile(r"\d[\d.,\u2009-]*(?:\s+[a-zµ°%]|[.,;:)])")


#: Widest hang (ems) of an item's lines under its first, from its mark (a tab stop's).
ENUM_HANG_EMS = 4.0


#: A list item's or a numbered statement's opening (``(ii)``, ``2)``, ``3.``, ``a.``,
#: ``•``), which starts anew even after a ``;``.
ITEM_RE = re.compile(r"(?:\(?(?:\d{1,3}|[ivxlc]{1,5}|[a-zA-Z])\)|(?:\d{1,3}|[a-zA-Z])\.|[•◦▪‣●∙·–-])(?:\s|$)")


#: Words no sentence ends on (articles, prepositions, conjunctions; English, Portuguese,
#: Spanish, German): a paragraph's piece ending on one goes on into a next piece that
#: opens with an acronym (``LC-DAD-TOF``), which a new paragraph rarely does (``The …``,
#: ``3.1 Encoding module`` and names are left to the other rules).
OPEN_WORDS = frozenset({
    "a", "an", "the", "of", "to", "in", "for", "with", "and", "or", "by", "from", "on", "at",
    "as", "that", "than", "into", "between", "is", "are", "was", "were", "be", "this", "these",
    "during", "since", "until", "through", "via", "per", "within", "among", "across", "against",
    "toward", "towards", "upon", "versus",
    "de", "da", "do", "das", "dos", "del", "para", "com", "con", "el", "la", "los", "las", "em", "en",
    "que", "por", "der", "die", "und", "mit", "von", "zu", "für",
})


def open_end(text: str) -> bool:
    """Whether ``text`` ends where no sentence or name does: on a comma, a hyphen or a word
    such as ``the`` or ``and`` (``Trinity College Dublin and Lero - the`` | ``Irish
    Software Research Centre``)."""
    tail = text.rstrip()
    return tail.endswith((",", "-", "–", "&")) or tail.rsplit(None, 1)[-1].casefold() in OPEN_WORDS


#: A page number and a running head in capitals (an OCR layer keeps them in the text).
RUNNING_HEAD_RE = re.compile(r"\d+\s+(?:[A-Z][A-Z&.,:-]+\s+){2}")
#: The articles of ``OPEN_WORDS``: a sentence goes on after one into any word, a number too.
ARTICLES = frozenset({"a", "an", "the", "el", "la", "los", "las", "der", "die"})
#: Words that start a sentence when capitalised (``The``, ``We``, ``However``): after a
#: piece ending on an open word, a next piece opening with one is a new paragraph, not
#: the sentence's rest (a name, ``South Africa``, is).
OPENERS = OPEN_WORDS | frozenset({
    "we", "it", "its", "our", "they", "their", "there", "here", "however", "thus", "also",
    "although", "while", "when", "if", "after", "before", "since", "finally", "first",
    "o", "os", "um", "uma", "les", "le", "une", "un", "ein", "eine",
    "now", "then", "hence", "therefore", "so", "next", "let", "consider", "note", "each",
    "all", "both", "such", "one", "two", "most", "many", "some", "no", "not", "other",
    "further", "furthermore", "moreover", "similarly", "what", "how", "why", "which", "who",
    "where", "table", "figure", "fig", "section", "see", "using", "given", "based",
    "because", "without", "only",
})
ACRONYM_RE = re.compile(r"[A-Z][A-Z0-9-]*[A-Z]\w*\b")


#: A para opening with a one- or two-digit number and then a lowercase word (``2 the
#: scheme is…``, ``0 and xj…``) goes on from the one before: the number is a fraction's
#: denominator or an index set below the line, split off with it.
INDEX_LEAD_RE = re.compile(r"\d{1,2} +[a-z]")


def is_scrap(text: str) -> bool:
    """A few symbols without a word of two different letters (``d``, ``, 0``, ``2 1``), which
    no sentence has on its own: the pieces of a display formula MuPDF set as blocks, a
    plot's markers drawn as letters (``GG``, ``G G``); or, of any length, numbers and
    nothing else (a plot's tick labels ``0.0 0.5 1.0 1.5 2.0 2.5``, a table's rows of
    figures without its caption)."""
    chars = "".join(text.split())
    if len(text.split()) >= 2 and NUMBERS_RE.fullmatch(chars) and any(c.isdigit() for c in chars):
        return True
    return 0 < len(chars) <= FRAGMENT_MAX and not any(
        len({c for c in word.casefold() if c.isalpha()}) >= 2 for word in text.split())


#: Digits and what numbers are written with, and nothing else.
NUMBERS_RE = re.compile(r"[\d.,−\-–+±%]+")


#: Signs a note opens with, a table's or a page's (``∗Rsymm = …``, ``†Deceased``).
NOTE_MARKS = "*∗†‡§¶"
#: A sentence's end with a note's mark after it (``evolvability.3``, ``interviews.33``).
NOTE_END_RE = re.compile(r"[.!?][)\]”\"’]?(?:\d{1,3}|[*†‡§¶])$")
#: A sentence's end with its source cited after the stop (``… minimax search. [Knuth and
#: Moore 1975]``).
CITED_END_RE = re.compile(r"[.!?][)”\"’]?\s*(?:\[[^\[\]]{1,80}\]|\([^()]{1,80}\))$")



def closed_sentence(text: str) -> bool:
    """Whether ``text`` ends a sentence: with a stop, or a stop and a note's mark or a
    citation after it."""
    tail = text.rstrip()
    return tail.endswith(SENT_END) or bool(NOTE_END_RE.search(tail) or CITED_END_RE.search(tail))


#: The words a sentence announces a web address or identifier with, ending its line
#: (before a colon or none).
_ANNOUNCING_WORDS = frozenset({"at", "visit", "see", "from", "via", "to", "on", "in", "url", "link", "website",
                               "site", "page", "address", "here", "online", "doi"})


def announces_address(text: str) -> bool:
    """Whether a paragraph's text ends announcing the address on the line after it (``More
    information … is available at`` | ``http://www.cdc.gov/…``, the address set atop the
    next page, where a bare address is otherwise a banner; ``… the following URL:``): its
    last word, before a colon or none, one that announces one, its sentence open."""
    tail = text.rstrip()
    if tail.endswith(SENT_END) and not tail.endswith(":"):
        return False
    words = tail.rstrip(":").split()  # (a sentence's, no label's: ``View the article online``)
    return len(words) >= ANNOUNCING_MIN_WORDS and words[-1].lower() in _ANNOUNCING_WORDS


#: Fewest words of a sentence announcing an address.
ANNOUNCING_MIN_WORDS = 6


def two_heads(prev: Para, cur: Para) -> bool:
    """Whether ``prev`` and ``cur`` are both a line or two in title case, ``cur`` ending no
    sentence: two heads, no sentence left open going on (PLOS 2012's ``Exome Sequencing
    Reveals Three Variants in`` | ``genes Known to Cause Autosomal Dominant Disease`` over
    a table, and the next page's ``Other Rare Variants in the Candidate Gene Set``)."""
    return title_lines(prev) and title_lines(cur) and not cur.text.rstrip().endswith(SENT_END)


def title_lines(para: Para) -> bool:
    """A line or two (or three: PLOS 2012's ``Rule 1: A Great Product or Service Alone Is
    Not Enough to Make a Successful Business`` in a narrow column) in title case: most of
    its words of four letters or more capitalised, three at least."""
    if len(para.lines) > 3:
        return False
    words = [w for w in para.text.split() if len(w) >= 4 and w[:1].isalpha()]
    return len(words) >= 3 and sum(w[:1].isupper() for w in words) >= TITLE_SHARE * len(words)


#: Share of a title's long words that are capitalised.
TITLE_SHARE = 0.75
