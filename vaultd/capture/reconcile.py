"""Cross-check partial Works from several sources into one (pure).

A record is ``reconciled`` only when at least two metadata sources agree on all three of
normalised title, first author's family name and year. Every disagreement becomes one
specific warning (``year: arxiv 2017 vs crossref 2018``). A preprint and its published
version differing in year is expected: it is explained in ``notes``, not warned about.

Editorial notices (retractions, corrections, …) are merged from every source, and a work
any source reports retracted is retracted, with one warning line saying so.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from itertools import combinations

from rapidfuzz import fuzz

from vaultd.models import Author, Notice, NoticeKind, Work

# Independent sources whose answers count towards agreement. Unpaywall's metadata is
# CrossRef's, so it is not a second witness; embedded PDF metadata and .bib entries are
# hints, not witnesses.
WITNESSES = ("crossref", "openalex", "arxiv")
PRIORITY = ("crossref", "openalex", "unpaywall", "arxiv", "bib", "pdf")
TITLE_MATCH_RATIO = 95.0
# Notice kinds after which the work no longer stands.
RETRACTING: frozenset[NoticeKind] = frozenset({"retraction", "withdrawal"})

# \"a \'{e} \v{c} \c c; a letter accent never eats a command (\upsilon is not \u p).
_LATEX_ACCENT = re.compile(
    r"\\(?:([\"'`^~=.])\{?([A-Za-z])\}?|([uvHc])(?:\{([A-Za-z])\}|\s+([A-Za-z])(?![A-Za-z])))")
_COMBINING = {'"': "\u0308", "'": "\u0301", "`": "\u0300", "^": "\u0302", "~": "\u0303",
              "=": "\u0304", ".": "\u0307", "u": "\u0306", "v": "\u030c", "H": "\u030b",
              "c": "\u0327"}


def _accent(m: re.Match[str]) -> str:
    accent = m.group(1) or m.group(3)
    letter = m.group(2) or m.group(4) or m.group(5)
    return unicodedata.normalize("NFC", letter + _COMBINING[accent])
_LATEX_GREEK = (
    "alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta", "iota",
    "kappa", "lambda", "mu", "nu", "xi", "pi", "rho", "sigma", "tau", "upsilon",
    "phi", "chi", "psi", "omega",
)
# LaTeX commands CrossRef and PDFs print as one Unicode character.
_LATEX_SYMBOLS: dict[str, str] = {
    **dict(zip(_LATEX_GREEK, "αβγδεζηθικλμνξπρστυφχψω", strict=True)),
    **dict(zip((g.capitalize() for g in _LATEX_GREEK), "ΑΒΓΔΕΖΗΘΙΚΛΜΝΞΠΡΣΤΥΦΧΨΩ",
               strict=True)),
    "varepsilon": "ε", "vartheta": "θ", "varphi": "φ", "varpi": "π", "varrho": "ρ",
    "varsigma": "ς", "ell": "ℓ", "hbar": "ℏ", "partial": "∂", "nabla": "∇", "infty": "∞",
    "to": "→", "rightarrow": "→", "leftarrow": "←", "leftrightarrow": "↔", "mapsto": "↦",
    "times": "×", "pm": "±", "mp": "∓", "cdot": "·", "leq": "≤", "le": "≤", "geq": "≥",
    "ge": "≥", "neq": "≠", "ne": "≠", "approx": "≈", "sim": "∼", "simeq": "≃",
    "equiv": "≡", "propto": "∝", "in": "∈", "sqrt": "√", "sum": "∑", "prod": "∏",
    "int": "∫", "star": "⋆", "ast": "∗", "circ": "∘", "dagger": "†", "prime": "′",
    "minus": "−", "ss": "ß", "ae": "æ", "AE": "Æ", "o": "ø", "O": "Ø", "aa": "å", "AA": "Å",
    "l": "ł", "L": "Ł", "i": "ı",
}
# Formatting commands whose argument is kept as it is: \emph{Ab} → Ab.
_LATEX_WRAPPERS = (
    "emph", "textit", "textbf", "textrm", "textsf", "texttt", "textsc", "textup",
    "textnormal", "text", "mathrm", "mathit", "mathbf", "mathsf", "mathtt",
    "mathcal", "mathbb", "mathfrak", "mathscr", "boldsymbol", "bm", "operatorname",
    "mbox", "hbox", "ensuremath",
)
_LATEX_WRAP_RE = re.compile(r"\\(?:" + "|".join(_LATEX_WRAPPERS) + r")\s*\{([^{}]*)\}")
_LATEX_SYMBOL_RE = re.compile(r"\\([A-Za-z]+)(?![A-Za-z])\s*")
_LATEX_SPACING_RE = re.compile(r"\\[,;:! ]")


def latex_to_unicode(text: str) -> str:
    """LaTeX maths and formatting in a title as the Unicode CrossRef and PDFs print:
    ``$\\Lambda$CDM`` → ``ΛCDM``, ``$B^0_s\\to\\mu^+\\mu^-$`` → ``B0s→μ+μ−``,
    ``\\emph{Ab} initio`` → ``Ab initio``. Text without a backslash or ``$`` is returned
    unchanged."""
    if "\\" not in text and "$" not in text:
        return text
    t = _LATEX_ACCENT.sub(_accent, text)
    for _ in range(3):  # nested wrappers: \mathrm{\emph{x}}
        t, n = _LATEX_WRAP_RE.subn(r"\1", t)
        if not n:
            break
    t = _LATEX_SPACING_RE.sub(" ", t)
    t = _LATEX_SYMBOL_RE.sub(lambda m: _LATEX_SYMBOLS.get(m.group(1), m.group(1)), t)

    def maths(m: re.Match[str]) -> str:
        # Inside $...$: ^ and _ drop, a minus is the Unicode minus PDFs print.
        return m.group(1).replace("^", "").replace("_", "").replace("-", "−").replace(" ", "")
    t = re.sub(r"\$([^$]*)\$", maths, t)
    return t.replace("$", "").replace("{", "").replace("}", "")


def normalise_title(title: str | None) -> str:
    """Case, punctuation, Unicode and LaTeX (``$\\alpha$``, ``{BERT}``) folded away."""
    if not title:
        return ""
    t = latex_to_unicode(title).replace("{", "").replace("}", "")
    t = unicodedata.normalize("NFKD", t)
    t = "".join(c for c in t if not unicodedata.combining(c))
    t = t.casefold()
    t = re.sub(r"[^\w]+", " ", t)
    return " ".join(t.replace("_", " ").split())


def family_key(author: Author | None) -> str:
    if author is None:
        return ""
    name = author.family or author.literal or ""
    name = unicodedata.normalize("NFKD", name)
    return "".join(c for c in name.casefold() if c.isalnum())


def titles_match(a: str | None, b: str | None, ratio: float = TITLE_MATCH_RATIO) -> bool:
    na, nb = normalise_title(a), normalise_title(b)
    if not na or not nb:
        return False
    return na == nb or fuzz.ratio(na, nb) >= ratio


#: A main title shorter than this (normalised) is too generic to stand for the whole.
MIN_MAIN_TITLE_CHARS = 20


def titles_agree(a: str | None, b: str | None) -> bool:
    """Two sources' titles of one work agree: they match, or one is the other's main
    title without its subtitle (OpenAlex often drops what CrossRef gives after ": ")."""
    if titles_match(a, b):
        return True
    for whole, main in ((a, b), (b, a)):
        if whole and main and ":" in whole:
            head = normalise_title(whole.split(":", 1)[0])
            if len(head) >= MIN_MAIN_TITLE_CHARS and head == normalise_title(main):
                return True
    return False


def titles_roughly_match(a: str | None, b: str | None, ratio: float = 90.0) -> bool:
    """Looser check for a title read off a page (may carry a "Research Article" kicker)."""
    na, nb = normalise_title(a), normalise_title(b)
    if not na or not nb:
        return False
    return na == nb or fuzz.token_set_ratio(na, nb) >= ratio


@dataclass
class Reconciled:
    work: Work
    notes: list[str] = field(default_factory=list)
    #: Work field → the sources whose value the merged work holds
    field_sources: dict[str, list[str]] = field(default_factory=dict)
    #: of CORE_FIELDS, those two independent sources agree on
    agreed: list[str] = field(default_factory=list)


def _name(w: Work) -> str:
    return w.sources[0] if w.sources else "?"


def _is_preprint(w: Work) -> bool:
    """``w`` describes the arXiv preprint (arXiv's own record, or the arXiv DOI)."""
    return _name(w) == "arxiv" or bool(w.doi and w.doi.startswith("10.48550/arxiv.")) \
        or bool(w.arxiv_id and not w.doi)


def _is_published(w: Work) -> bool:
    """``w`` describes a published version: it carries a DOI that is not arXiv's."""
    return bool(w.doi and not w.doi.startswith("10.48550/arxiv.")) and _name(w) != "arxiv"


_JOURNAL_REF_NUMBERS = re.compile(r"\d+")


def _journal_ref_names(pre: Work, pub: Work) -> bool:
    """The preprint's arXiv ``journal_ref`` ("ActaAstron.56:1-50,2006") names the published
    record: same title, its year printed there, and its volume too when both carry one."""
    if not pre.journal_ref or pub.year is None or not titles_match(pre.title, pub.title):
        return False
    numbers = set(_JOURNAL_REF_NUMBERS.findall(pre.journal_ref))
    if str(pub.year) not in numbers:
        return False
    volume = (pub.volume or "").strip()
    return not volume.isdigit() or volume in numbers


def _is_pair(a: Work, b: Work) -> bool:
    """``a`` and ``b`` are the preprint and the published version of one paper."""
    pa, pb = {a.doi_preprint, a.doi_published}, {b.doi_preprint, b.doi_published}
    if a.arxiv_id and a.doi_published and b.doi == a.doi_published:
        return True
    if b.arxiv_id and b.doi_published and a.doi == b.doi_published:
        return True
    for pre, pub in ((a, b), (b, a)):
        if not (_is_preprint(pre) and _is_published(pub)):
            continue
        # A published record listing this arXiv id (OpenAlex's arXiv location), even when
        # arXiv itself does not know the published DOI.
        if pre.arxiv_id and pub.arxiv_id == pre.arxiv_id:
            return True
        if _journal_ref_names(pre, pub):
            return True
    return bool(a.doi and b.doi and a.doi != b.doi and (a.doi in pb or b.doi in pa))


def _short(title: str | None) -> str:
    t = title or ""
    return t if len(t) <= 80 else t[:77] + "..."


def reconcile(works: list[Work]) -> Reconciled:
    """Merge the partial Works (one per source) into one, with warnings and notes."""
    works = [w for w in works if w is not None]
    if not works:
        return Reconciled(Work.model_validate({}))
    ordered = sorted(works, key=lambda w: PRIORITY.index(_name(w))
                     if _name(w) in PRIORITY else len(PRIORITY))
    merged = _merge(ordered)
    warnings: list[str] = []
    notes: list[str] = []

    def first_with(attr: str) -> Work | None:
        for w in ordered:
            if attr == "title" and w.title is not None:
                return w
            if attr == "author" and w.authors:
                return w
            if attr == "year" and w.year is not None:
                return w
        return None

    ref_title, ref_author, ref_year = first_with("title"), first_with("author"), first_with("year")
    for w in ordered:
        if ref_title is not None and w is not ref_title and w.title is not None \
                and not titles_agree(ref_title.title, w.title):
            warnings.append(f'title: {_name(ref_title)} "{_short(ref_title.title)}" vs '
                            f'{_name(w)} "{_short(w.title)}"')
        if ref_author is not None and w is not ref_author and w.authors and \
                family_key(ref_author.authors[0]) != family_key(w.authors[0]):
            warnings.append(f"first author: {_name(ref_author)} "
                            f"{ref_author.authors[0].family_full} vs {_name(w)} "
                            f"{w.authors[0].family_full}")
        if ref_year is not None and w is not ref_year and w.year is not None \
                and w.year != ref_year.year:
            if _is_pair(ref_year, w):
                pre, pub = (w, ref_year) if (_is_preprint(w) and not _is_preprint(ref_year)) \
                    or (w.doi and w.doi == merged.doi_preprint) else (ref_year, w)
                notes.append(f"year: {_name(pre)} {pre.year} is the preprint, {_name(pub)} "
                             f"{pub.year} the published version (expected difference)")
            else:
                warnings.append(f"year: {_name(ref_year)} {ref_year.year} vs "
                                f"{_name(w)} {w.year}")
    witnesses = [w for w in ordered if _name(w) in WITNESSES]
    merged.reconciled = any(_agree(a, b) for a, b in combinations(witnesses, 2))
    sources = field_sources(ordered, merged)
    merged.warnings = _dedupe([*merged.warnings, *warnings])
    if not merged.reconciled and len(witnesses) < 2:
        answered = ", ".join(_name(w) for w in witnesses)
        merged.warnings.append(
            f"unreconciled: only {answered} answered; need two independent sources that "
            "agree (unpaywall repeats crossref)" if answered
            else "unreconciled: no metadata source answered; need two sources that agree")
    agreed = [f for f in CORE_FIELDS
              if len([s for s in sources.get(f, []) if s in WITNESSES]) >= 2]
    return Reconciled(merged, _dedupe(notes), sources, agreed)


#: The fields a citation must get right: title, first author, year.
CORE_FIELDS = ("title", "authors", "issued")
# Bookkeeping, not a field of the work.
_NOT_FIELDS = frozenset({"sources", "warnings", "reconciled", "notices", "retracted",
                         "title_rich", "rich", "csl_extra", "printed_ids"})


def field_sources(ordered: list[Work], merged: Work) -> dict[str, list[str]]:
    """Work field → the sources whose value is the merged one (a title as
    ``titles_agree`` compares, authors by first author, a year also when it is the
    preprint's of the published version). Authors that no answering source lists are
    agreed by each source that answered without any (a work without authors)."""
    out: dict[str, list[str]] = {}
    for name in Work.model_fields:
        if name in _NOT_FIELDS:
            continue
        value = getattr(merged, name)
        if name == "authors" and not value:
            names = [_name(w) for w in ordered if not w.authors and w.title is not None]
        elif value in (None, [], "", {}):
            continue
        else:
            names = [_name(w) for w in ordered if _same_value(name, w, merged)]
        if names:
            out[name] = _dedupe(names)
    return out


def _same_value(name: str, w: Work, merged: Work) -> bool:
    if name == "title":
        return titles_agree(w.title, merged.title)
    if name == "authors":
        return bool(w.authors) and family_key(w.authors[0]) == family_key(merged.authors[0])
    if name == "issued":
        return w.year is not None and (w.year == merged.year or _is_pair(w, merged))
    value, other = getattr(w, name), getattr(merged, name)
    if isinstance(value, str) and isinstance(other, str):
        return value.casefold() == other.casefold()
    return bool(value == other)


def merge_notices(notices: list[Notice]) -> list[Notice]:
    """The notices in order, one per notice DOI and kind (the first source's kept); a
    notice without a DOI (OpenAlex's ``is_retracted``) is one per source and kind."""
    seen: set[tuple[str, str]] = set()
    out: list[Notice] = []
    for n in notices:
        key = (n.doi.lower() if n.doi else f"source:{n.source}", n.kind)
        if key not in seen:
            seen.add(key)
            out.append(n)
    return out


def retraction_warning(notices: list[Notice], reporters: list[str]) -> str:
    """One line naming the retraction (or withdrawal) notice and who reports it
    (``reporters``: the sources that said retracted without a notice)."""
    retracting = [n for n in notices if n.kind in RETRACTING]
    doi = next((n.doi for n in retracting if n.doi), None)
    kind = next((n.kind for n in retracting if n.doi == doi), "retraction")
    sources = _dedupe([n.source for n in retracting] + reporters)
    what = doi or "no notice DOI"
    if kind != "retraction":
        what = f"{kind} {what}"
    return f"retracted: {what} ({', '.join(sources)})"


def _agree(a: Work, b: Work) -> bool:
    if not titles_agree(a.title, b.title):
        return False
    if bool(a.authors) != bool(b.authors):
        return False
    # A work without authors (a report, a standard) that both list without any agrees.
    if a.authors and family_key(a.authors[0]) != family_key(b.authors[0]):
        return False
    if a.year is None or b.year is None:
        return False
    return a.year == b.year or _is_pair(a, b)


def _dedupe(items: list[str]) -> list[str]:
    out: list[str] = []
    for i in items:
        if i not in out:
            out.append(i)
    return out


def _merge(ordered: list[Work]) -> Work:
    data: dict[str, object] = {}
    for name in Work.model_fields:
        if name in ("sources", "warnings", "reconciled", "title_rich", "notices", "retracted"):
            continue
        for w in ordered:
            value = getattr(w, name)
            if value not in (None, [], ""):
                data[name] = value
                break
    # The rich title goes with the plain title it marks up, from the same source.
    data["title_rich"] = next((w.title_rich for w in ordered if w.title not in (None, "")), None)
    data["notices"] = merge_notices([n for w in ordered for n in w.notices])
    data["retracted"] = any(w.retracted for w in ordered)
    warnings = [x for w in ordered for x in w.warnings]
    if data["retracted"]:
        warnings.append(retraction_warning(
            [n for w in ordered for n in w.notices],
            [_name(w) for w in ordered if w.retracted and not any(
                n.kind in RETRACTING for n in w.notices)]))
    data["sources"] = _dedupe([s for w in ordered for s in w.sources])
    data["warnings"] = _dedupe(warnings)
    merged = Work.model_validate(data)
    arxiv = next((w for w in ordered if w.arxiv_id and _name(w) == "arxiv"), None)
    if arxiv is not None:
        merged.doi_preprint = merged.doi_preprint or f"10.48550/arxiv.{arxiv.arxiv_id}"
        if arxiv.doi_published:
            merged.doi_published = arxiv.doi_published
            merged.doi = merged.doi or arxiv.doi_published
    return merged
