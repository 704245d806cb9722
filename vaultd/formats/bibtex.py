"""BibTeX export: one Work as a BibTeX entry, written by bibtexparser's writer.

What is written (docs/bibtex.md has the full tables):

- Entry types follow the CSL type: BibTeX's own types where BibTeX has one
  (``@article``, ``@inproceedings``, ``@incollection``, ``@book``, ``@phdthesis``,
  ``@mastersthesis``, ``@techreport``, ``@unpublished``, ``@booklet``, ``@misc``) and
  biblatex's where it has none (``@online``, ``@dataset``, ``@software``, ``@patent``,
  ``@periodical``, ``@thesis``, ``@inreference``); classic BibTeX styles print those as
  ``@misc``.
- Text is LaTeX: the ten specials are escaped and every non-ASCII character that has a
  LaTeX text command reading back to the same character is written as that command
  (``M{\\"u}ller``); characters without one (CJK, Arabic, …) stay UTF-8.
- Titles keep their case where readers would change it (BibTeX styles lowercase titles;
  pandoc and vaultd's import lower English titles to sentence case): words with an inner
  capital (``t-SNE``, ``LeCun``, ``DNA``), in a sentence-case title every capitalised word
  after the first (proper nouns: ``{Latin}``) and every word citeproc's sentence case would
  change, and the title's nocase spans are braced; a title-case title is left to be
  lowered. Rich text becomes ``\\textit``, ``\\textbf``, ``\\textsuperscript``,
  ``\\textsubscript``, ``\\textsc``. ``SentenceCase`` (formats/sentence_case.py) is
  citeproc's rule, shared with the import.
- Names are ``von Last, Jr., First``; organisations are braced whole. DOI, URL and eprint
  are verbatim.

Pure: no I/O.
"""

from __future__ import annotations

import re

from vaultd.formats import markup
from vaultd.formats.latex import latex, verbatim
from vaultd.formats.sentence_case import SentenceCase
from vaultd.models import Author, Work

# CSL type → BibTeX entry type, for the types whose entry type depends on nothing else.
ENTRY_TYPES: dict[str, str] = {
    "article-journal": "article",
    "article-magazine": "article",
    "article-newspaper": "article",
    "paper-conference": "inproceedings",
    "chapter": "incollection",
    "entry-encyclopedia": "inreference",
    "entry-dictionary": "inreference",
    "book": "book",
    "report": "techreport",
    "dataset": "dataset",
    "software": "software",
    "webpage": "online",
    "post": "online",
    "post-weblog": "online",
    "manuscript": "unpublished",
    "speech": "unpublished",  # read back as a talk when it names its event or venue
    "pamphlet": "booklet",
    "patent": "patent",
    "periodical": "periodical",
}
_SUBTYPES = {"article-magazine": "magazine", "article-newspaper": "newspaper"}
# The genres import gives a thesis entry without a type field (written without one).
PHD_GENRE = "PhD thesis"
MASTERS_GENRE = "Master's thesis"
_MONTHS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
# CSL language (BCP 47) → babel/polyglossia name for biblatex's langid.
LANGIDS = {
    "en": "english", "en-US": "american", "en-GB": "british", "en-AU": "australian",
    "en-CA": "canadian", "en-NZ": "newzealand", "de": "ngerman", "de-DE": "ngerman",
    "de-AT": "naustrian", "de-CH": "nswissgerman", "fr": "french", "fr-FR": "french",
    "es": "spanish", "it": "italian", "pt": "portuguese", "pt-BR": "brazilian",
    "nl": "dutch", "sv": "swedish", "da": "danish", "nb": "norsk", "nn": "nynorsk",
    "fi": "finnish", "pl": "polish", "ru": "russian", "uk": "ukrainian", "cs": "czech",
    "el": "greek", "tr": "turkish", "hu": "magyar", "la": "latin", "ar": "arabic",
    "he": "hebrew", "ja": "japanese", "ko": "korean", "zh": "chinese",
}

# --- titles: case protection and rich text ----------------------------------------------

# Words a title-case title leaves lowercase; any other word starting lowercase after the
# first word means the title is in sentence case.
_TITLE_CASE_SMALL = {
    "a", "an", "the", "and", "but", "or", "nor", "for", "so", "yet", "as", "at", "by", "in",
    "of", "on", "to", "up", "via", "vs", "v", "per", "with", "from", "into", "onto", "upon",
    "over", "than", "that", "without", "within", "between", "through", "among", "under",
    "about", "after", "before", "during", "against", "toward", "towards", "across", "along",
    "around", "behind", "beyond", "like", "near", "off", "out", "past", "since", "until",
    "versus", "et", "al", "etc", "e.g", "i.e", "de", "la", "le", "des", "du", "van", "von",
    "der", "den", "di", "da", "y", "und", "en",
}
_WORD_RE = re.compile(r"[^\s,;:?!()\[\]{}\"“”]+")
_EDGE = "'‘’.-–—*/"
_RICH_RE = re.compile(r"</?(i|b|sup|sub)>|<span (?:style=\"font-variant:small-caps;\"|"
                      r"class=\"nocase\")>|</span>")
_RICH_LATEX = {"i": r"\textit{", "b": r"\textbf{", "sup": r"\textsuperscript{",
               "sub": r"\textsubscript{", "sc": r"\textsc{", "nocase": "{"}


def is_sentence_case(title: str) -> bool:
    """True when a word after the first, other than the small words title case keeps
    lowercase, is all lowercase ('t-SNE' and 'iPhone' say nothing either way)."""
    words = [w.strip(_EDGE) for w in _WORD_RE.findall(title)][1:]
    return any(w[:1].islower() and w.lower() not in _TITLE_CASE_SMALL
               and not any(c.isupper() for c in w) for w in words)


def _needs_protection(word: str, sentence_case: bool, first: bool) -> bool:
    core = word.strip(_EDGE)
    if any(c.isupper() for c in core[1:]):
        return True  # inner capital: DNA, t-SNE, LeCun, iPhone, CO2
    return sentence_case and not first and core[:1].isupper()


def _adds_capital(word: str, cased: str) -> bool:
    return len(word) == len(cased) and any(
        a.islower() and b.isupper() for a, b in zip(word, cased, strict=True))


class _TitleWriter:
    """Writes the text runs of one title in order, bracing the words whose case a reader
    would change: BibTeX styles lowercase all but the first letter (so inner capitals, and
    in a sentence-case title every capital after the first word, are braced), and pandoc
    and vaultd's import apply citeproc's sentence case (so in a sentence-case title every
    word it would change is braced, and in a title-case one every word it would
    capitalise)."""

    def __init__(self, sentence_case: bool) -> None:
        self.sentence_case = sentence_case
        self.seen_word = False
        self.caser = SentenceCase()

    def run(self, text: str, *, protect: bool) -> str:
        out: list[str] = []
        pos = 0
        for m in _WORD_RE.finditer(text):
            out.append(latex(text[pos:m.start()], text[pos - 1:pos]))
            self.caser.apply(text[pos:m.start()])
            word = m.group()
            encoded = latex(word, text[m.start() - 1:m.start()])
            if protect and self.protects(word):
                # A group that opens with a command is a "special character" to BibTeX and
                # is case-changed; a second brace makes it a protected group.
                encoded = "{{" + encoded + "}}" if encoded.startswith("\\") else \
                    "{" + encoded + "}"
            else:
                self.caser.apply(word)
            self.seen_word = True
            out.append(encoded)
            pos = m.end()
        out.append(latex(text[pos:], text[pos - 1:pos]))
        self.caser.apply(text[pos:])
        return "".join(out)

    def protects(self, word: str) -> bool:
        """Whether ``word`` (the next word) is braced; the caser moves past it if so."""
        if _needs_protection(word, self.sentence_case, not self.seen_word):
            self.caser.apply(word)
            return True
        before = self.caser.state
        cased = self.caser.apply(word)
        # A title-case title is meant to be lowered; only a capital a reader would add
        # (a lowercase word opening the title or a sentence) is kept out.
        if cased != word and (self.sentence_case or _adds_capital(word, cased)):
            return True
        self.caser.state = before
        return False

    def any_protected(self, node: _Node) -> bool:
        """Whether a word in ``node`` would be braced (the writer's place is unchanged)."""
        seen, state = self.seen_word, self.caser.state
        try:
            for text in _texts(node):
                pos = 0
                for m in _WORD_RE.finditer(text):
                    self.caser.apply(text[pos:m.start()])
                    if self.protects(m.group()):
                        return True
                    self.caser.apply(m.group())
                    self.seen_word = True
                    pos = m.end()
                self.caser.apply(text[pos:])
            return False
        finally:
            self.seen_word, self.caser.state = seen, state


# Rich text as a tree: a string, or (kind, children) for <i>, <b>, <sup>, <sub>, small
# caps and nocase.
_Node = str | tuple[str, list["_Node"]]


def _tree(rich: str) -> list[_Node]:
    root: list[_Node] = []
    stack: list[list[_Node]] = [root]
    pos = 0
    for m in _RICH_RE.finditer(rich):
        stack[-1].append(rich[pos:m.start()].replace("\uff1c", "<"))
        pos = m.end()
        if m.group().startswith("</"):
            if len(stack) > 1:
                stack.pop()
            continue
        children: list[_Node] = []
        stack[-1].append((m.group(1) or ("sc" if "small-caps" in m.group() else "nocase"),
                          children))
        stack.append(children)
    stack[-1].append(rich[pos:].replace("\uff1c", "<"))
    return root


def _texts(node: _Node) -> list[str]:
    if isinstance(node, str):
        return [node]
    return [t for child in node[1] for t in _texts(child)]


def _render(nodes: list[_Node], writer: _TitleWriter, protect: bool) -> str:
    out: list[str] = []
    for node in nodes:
        if isinstance(node, str):
            out.append(writer.run(node, protect=protect))
            continue
        kind, children = node
        if kind == "nocase":
            inner = _render(children, writer, False)
            # A group opening with a command is a "special character": double braces.
            out.append("{{" + inner + "}}" if inner.startswith("\\") else "{" + inner + "}")
        elif protect and writer.any_protected(node):
            # pandoc does not protect braces inside a command's argument, and BibTeX
            # case-changes a group that opens with a command: {{\textit{…}}} holds for both.
            out.append("{{" + _RICH_LATEX[kind] + _render(children, writer, False) + "}}}")
        else:
            out.append(_RICH_LATEX[kind] + _render(children, writer, protect) + "}")
    return "".join(out)


def _rich_for(work: Work) -> str | None:
    """The rich title when it is the title marked up (a stale one is ignored)."""
    rich = work.title_rich
    if not rich or work.title is None:
        return None
    text = markup.to_plain(rich).replace("\uff1c", "<")
    return rich if " ".join(text.split()) == " ".join(work.title.split()) else None


def title_latex(work: Work) -> str:
    """The title field: rich text as LaTeX commands, case protected (module docstring)."""
    title = " ".join((work.title or "").split())
    writer = _TitleWriter(is_sentence_case(title))
    rich = _rich_for(work)
    if rich is None:
        return writer.run(title, protect=True)
    return " ".join(_render(_tree(rich), writer, True).split())


# --- names ------------------------------------------------------------------------------


_TOP_ESCAPE_RE = re.compile(r"\\[^A-Za-z]")


def _word_safe(word: str) -> str:
    # Inside a name, "and" is the name separator and a comma splits the parts; a word
    # with an escaped symbol ('\\&') outside braces is braced too, or bibtexparser's name
    # splitter misreads an ' and ' next to it.
    encoded = latex(word)
    unbraced = re.sub(r"\{[^{}]*\}", "", re.sub(r"\{[^{}]*\}", "", encoded))
    if word.lower() == "and" or "," in word or encoded.startswith("\\") \
            or _TOP_ESCAPE_RE.search(unbraced):
        return "{" + encoded + "}"
    return encoded


def _words(text: str) -> str:
    return " ".join(_word_safe(w) for w in text.split())


def _family(family: str) -> str:
    # A family name of several words is braced whole ({de la Mare}, {García Márquez}):
    # BibTeX would read a lowercase word as a "von" part, and bibtexparser misjudges the
    # case of a word opening with a special character ({\\L}ukasiewicz).
    if " " in family:
        return "{" + latex(family) + "}"
    return _words(family)


def name(author: Author) -> str | None:
    """One name as BibTeX reads it: ``van der Maaten, Laurens``, ``King, Jr., Martin
    Luther``, ``{World Health Organization}``; None for an empty name."""
    family = " ".join((author.family or "").split())
    given = " ".join((author.given or "").split())
    suffix = " ".join((author.suffix or "").split())
    particles = " ".join(p for p in (author.dropping_particle, author.non_dropping_particle)
                         if p)
    if not family or (not given and not suffix and (particles or " " in family)):
        # One braced group: BibTeX reads it as a last name, vaultd's import as a literal
        # (both print it as written). A mononym or organisation, or a family name with no
        # given name that BibTeX would split into First and Last.
        whole = " ".join(x for x in (author.literal if not family else None, particles, family,
                                     given if not family else None) if x)
        encoded = latex(whole)
        return ("{{" + encoded + "}}" if encoded.startswith("\\") else
                "{" + encoded + "}") if whole else None
    last = _family(family)
    if particles:
        # A von part is recognised by its lowercase first letter; a capitalised particle
        # ('De', 'La') can only be written as part of the last name.
        von = " ".join(particles.split())
        last = f"{_words(von)} {last}" if von[:1].islower() else \
            "{" + latex(f"{von} {family}") + "}"
    if suffix:
        return f"{last}, {_words(suffix)}, {_words(given) if given else '{}'}"
    return f"{last}, {_words(given)}" if given else last


def names(authors: list[Author]) -> str:
    return " and ".join(n for n in (name(a) for a in authors) if n)


def _useprefix(work: Work) -> str | None:
    """biblatex's ``useprefix``: true prints and sorts a name with its particle ('van der
    Maaten'), which is what CSL's non-dropping particle means; false drops it."""
    people = [*work.authors, *work.editors, *work.translators]
    if any(a.non_dropping_particle and a.non_dropping_particle[:1].islower() for a in people):
        return "useprefix=true"
    if any(a.dropping_particle for a in people):
        return "useprefix=false"
    return None


# --- the entry --------------------------------------------------------------------------


def entry_type(work: Work) -> str:
    if work.type == "thesis":
        genre = (work.genre or "").lower()
        if "master" in genre:
            return "mastersthesis"
        if genre and any(w in genre for w in ("phd", "ph.d", "doctor", "dissertation")):
            return "phdthesis"
        return "thesis"
    return ENTRY_TYPES.get(work.type, "misc")


def _date(parts: list[int] | None) -> str | None:
    if not parts:
        return None
    return "-".join([f"{parts[0]:04d}", *(f"{p:02d}" for p in parts[1:3])])


def fields(work: Work) -> list[tuple[str, str]]:
    """The entry's fields as (name, LaTeX value), in the order they are written."""
    etype = entry_type(work)
    out: list[tuple[str, str]] = []

    def add(key: str, value: str | None, *, raw: bool = False) -> None:
        if value is not None and value.strip():
            out.append((key, verbatim(value) if raw else latex(" ".join(value.split()))))

    def title_like(key: str, value: str | None) -> None:
        text = " ".join((value or "").split())
        if text:
            out.append((key, _TitleWriter(is_sentence_case(text)).run(text, protect=True)))

    for key, people in (("author", work.authors), ("editor", work.editors),
                        ("translator", work.translators)):
        written = names(people)
        if written:
            out.append((key, written))
    if work.title is not None and work.title.strip():
        out.append(("title", title_latex(work)))
    container_key = {"article": "journal", "inproceedings": "booktitle",
                     "incollection": "booktitle", "inreference": "booktitle"}.get(etype,
                                                                                  "journaltitle")
    if container_key == "booktitle":
        title_like("booktitle", work.container_title)  # styles change a book title's case
    else:
        add(container_key, work.container_title)
    add("shortjournal", work.container_title_short)
    add("entrysubtype", _SUBTYPES.get(work.type))
    title_like("series", work.collection_title)
    title_like("eventtitle", work.event)
    add("venue", work.event_place)
    add("edition", work.edition)
    add("version", work.version)
    add("volume", work.volume)
    if etype == "article":
        add("number", work.issue)
        add("eid", work.number)  # an article number is not a page range
    elif etype in ("book", "incollection", "inproceedings", "inreference"):
        add("number", work.collection_number)
    else:
        add("number", work.number)
    if work.page and work.page.strip():
        parts = re.split(r"\s*[-‐‑‒–—]+\s*", " ".join(work.page.split()))
        out.append(("pages", "--".join(latex(p) for p in parts)))
    publisher_key = {"phdthesis": "school", "mastersthesis": "school", "thesis": "institution",
                     "techreport": "institution"}.get(etype, "publisher")
    if work.type == "motion_picture":
        publisher_key = "howpublished"  # BibTeX's @misc names the platform here
    add(publisher_key, work.publisher)
    add("address", work.publisher_place)
    if work.genre != {"phdthesis": PHD_GENRE, "mastersthesis": MASTERS_GENRE}.get(etype):
        add("type", work.genre)
    if work.type == "article" and not work.arxiv_id:
        add("pubstate", "prepublished")
    if work.issued:
        out.append(("year", str(work.issued[0])))
        if len(work.issued) >= 2 and 1 <= work.issued[1] <= 12:
            out.append(("month", _MONTHS[work.issued[1] - 1]))
        if len(work.issued) >= 3:
            # BibTeX has no day; biblatex and pandoc read it from `date` (biber does not
            # warn when year and month agree with it).
            add("date", _date(work.issued))
    if work.arxiv_id:
        add("eprint", work.arxiv_id, raw=True)
        out.append(("archivePrefix", "arXiv"))
        add("primaryClass", work.arxiv_primary_class, raw=True)
    add("doi", work.doi, raw=True)
    add("url", work.url, raw=True)
    add("urldate", _date(work.accessed))
    add("isbn", work.isbn)
    add("issn", work.issn)
    if work.language:
        add("langid", LANGIDS.get(work.language) or LANGIDS.get(work.language.split("-")[0]))
    add("options", _useprefix(work))
    add("note", work.journal_ref and f"Published in {work.journal_ref}")
    add("abstract", work.abstract)
    return out


def to_bibtex(work: Work, cite_key: str) -> str:
    """The BibTeX entry of ``work`` keyed ``cite_key`` (ends with a newline)."""
    # lazy: bibtexparser costs 113 ms at import
    from bibtexparser.entrypoint import write_string

    # lazy: bibtexparser costs 113 ms at import
    from bibtexparser.library import Library

    # lazy: bibtexparser costs 113 ms at import
    from bibtexparser.model import Entry, Field

    # lazy: bibtexparser costs 113 ms at import
    from bibtexparser.writer import BibtexFormat

    # A month macro (jan, feb, …) is written bare: braced it would be the text "may".
    entry_fields = [Field(k, v, enclosing="no-enclosing" if k == "month" else None)
                    for k, v in fields(work)]
    library = Library([Entry(entry_type(work), cite_key, entry_fields)])
    fmt = BibtexFormat()  # type: ignore[no-untyped-call]
    fmt.indent = "  "
    return write_string(library, bibtex_format=fmt)
