"""Verify a draft: every quote and citation of a LaTeX or Markdown manuscript against the
vault (docs/verify.md, "Drafts").

Each quote is looked for in the works its citation names (``vaultd.verify.match``):
found → ``OK`` with the page and chunk, or ``WRONG PAGE`` when the citation's page is not
one the quote is on; close to a passage of the cited work → ``MISQUOTED`` with the words
that differ; found in another work of the vault only → ``WRONG SOURCE``; nowhere →
``NOT IN SOURCE``. Provenance comments left by agents (``% vaultd: key chunk
sha256=…``) must still match the chunk and the quote beside them (``DRIFTED``). Every
cited key must exist (``UNKNOWN KEY``), and its record is reported when retracted, under
a notice or unverified; entries of the draft's own ``.bib`` that disagree with the
vault's record are ``BIB MISMATCH``.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Literal

import yaml

from vaultd.capture.bib import read_bib_library
from vaultd.draft.extract import draft_format, extract
from vaultd.errors import InputError
from vaultd.formats.latex import latex
from vaultd.lookup import known_works, suggest
from vaultd.models import Chunk, MetaFile
from vaultd.notes.escape import escape
from vaultd.notes.pages import page_locator
from vaultd.trust import record_verified
from vaultd.vault import Vault, atomic_write_text
from vaultd.verify.draft_works import Works as Works  # callers import it from here
from vaultd.verify.highlight_quotes import STORED_BY, described, marking, stored_only
from vaultd.verify.locators import on_page, pdf_index, rewrite_pages, where
from vaultd.verify.match import Passages, match_form, quote_parts, source_words, word_diff

DraftKind = Literal["OK", "MISQUOTED", "WRONG SOURCE", "NOT IN SOURCE", "DRIFTED",
                    "WRONG PAGE", "UNKNOWN KEY", "RETRACTED", "NOTICE", "UNVERIFIED",
                    "BIB MISMATCH"]
KINDS: tuple[DraftKind, ...] = ("OK", "MISQUOTED", "WRONG SOURCE", "NOT IN SOURCE", "DRIFTED",
                                "WRONG PAGE", "UNKNOWN KEY", "RETRACTED", "NOTICE",
                                "UNVERIFIED", "BIB MISMATCH")
DRAFT_SUFFIXES = (".tex", ".ltx", ".md", ".markdown", ".qmd", ".rmd")


@dataclass
class DraftFinding:
    kind: DraftKind
    file: str
    line: int
    keys: list[str]
    message: str
    fix: str | None = None
    chunk_id: str | None = None
    page: str | None = None
    highlight: str | None = None  # an OK quote that is the words of this highlight (its key)

    def line_text(self) -> str:
        keys = ",".join(self.keys)
        fix = f" → {self.fix}" if self.fix else ""
        return f"{self.file}:{self.line}: {self.kind} {keys}: {self.message}{fix}"


@dataclass(frozen=True)
class Edit:
    """A change ``--fix`` makes: ``text[start:end]`` of ``file`` becomes ``new``."""

    file: str
    start: int
    end: int
    new: str


@dataclass
class DraftReport:
    files: list[str] = field(default_factory=list)
    quotes: int = 0
    citations: int = 0
    findings: list[DraftFinding] = field(default_factory=list)
    edits: list[Edit] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return all(f.kind == "OK" for f in self.findings)

    def counts(self) -> dict[str, int]:
        seen = Counter(f.kind for f in self.findings)
        return {k: seen[k] for k in KINDS if seen[k]}

    def summary(self) -> str:
        counts = self.counts()
        parts = ", ".join(f"{n} {k}" for k, n in counts.items()) or "nothing to check"
        return (f"{len(self.files)} file(s), {self.quotes} quote(s), {self.citations} "
                f"citation(s): {parts}")

    def to_json(self) -> dict[str, Any]:
        return {"ok": self.ok, "files": self.files, "quotes": self.quotes,
                "citations": self.citations, "counts": self.counts(),
                "findings": [asdict(f) for f in self.findings]}


# --- the checks --------------------------------------------------------------------------

class _Checker:
    def __init__(self, vault: Vault, works: Works, report: DraftReport, file: str,
                 text: str, fmt: str) -> None:
        self.vault, self.works, self.report, self.file = vault, works, report, file
        self.text, self.fmt = text, fmt

    def edit(self, start: int, end: int, new: str) -> None:
        self.report.edits.append(Edit(self.file, start, end, new))

    def comment_after(self, q: Any, key: str, chunk: Chunk) -> None:
        """A provenance comment for an OK quote that has none, at the end of its line."""
        if q.provenance:
            return
        eol = self.text.find("\n", q.span[1])
        eol = len(self.text) if eol < 0 else eol
        body = f"vaultd: {key} {chunk.id} sha256={chunk.provenance.text_sha256}"
        if self.fmt == "latex":
            self.edit(eol, eol, f"\n% {body}")
        else:
            self.edit(eol, eol, f" <!-- {body} -->")

    def add(self, kind: DraftKind, line: int, keys: Sequence[str], message: str, **kw: Any) -> None:
        self.report.findings.append(DraftFinding(kind, self.file, line, list(keys), message, **kw))

    def quote(self, q: Any) -> None:
        keys = [k for c in q.cites for k in c.keys]
        locator = next((c.locator for c in q.cites if c.locator), None)
        parts = quote_parts(q.parts)
        shown = _short(q.text)
        if not parts or not keys:
            return
        known = [k for k in keys if self.works.get(k) is not None]
        for key in known:
            work = self.works.get(key)
            assert work is not None
            places = [work.chunks[f.first:f.last + 1] for f in work.passages.find_all(parts)]
            if not places:
                continue
            chunks = places[0]
            prov = chunks[0].provenance
            page = page_locator(prov) if prov.start is None else None
            inserted = f"; insertions: {', '.join(f'[{i}]' for i in q.insertions)}" \
                if q.insertions else ""
            if locator and prov.start is None and not any(on_page(locator, c) for c in places):
                self.wrong_page(q, key, locator, places)
            else:
                marked = marking(chunks, parts)
                mark = f"; the words of {described(*marked)}" if marked else ""
                self.add("OK", q.line, [key], f"“{shown}” is on {where(prov)}{inserted}{mark}"
                         if page else f"“{shown}” found{inserted}{mark}", chunk_id=chunks[0].id,
                         page=page, highlight=(marked[1].key or "") if marked else None)
                if len(chunks) == 1:
                    self.comment_after(q, key, chunks[0])
            return
        if not known:
            return  # UNKNOWN KEY is reported with the references
        # As the parts (bracketed insertions left out) and as written: square brackets in a
        # quote may be the source's own ("[50, 100, 200]"), not the writer's insertion.
        forms = dict.fromkeys((" ".join(parts), match_form(q.text)))
        near, whole = max(((n, form) for k in known if (w := self.works.get(k)) for form in forms
                           if (n := w.passages.nearest(form))),
                          key=lambda nf: nf[0].score, default=(None, " ".join(parts)))
        elsewhere = [k for k in self.works.candidates(parts, keys)
                     if (w := self.works.get(k)) is not None and w.passages.find(parts)]
        if elsewhere and (near is None or near.score < 95):
            work = self.works.get(elsewhere[0])
            assert work is not None
            found = work.passages.find(parts)
            assert found is not None
            chunk = work.chunks[found.first]
            self.add("WRONG SOURCE", q.line, keys,
                     f"“{shown}” is not in {', '.join(keys)} but in {elsewhere[0]}"
                     f" (p. {page_locator(chunk.provenance)})",
                     fix=f"cite {elsewhere[0]}", chunk_id=chunk.id)
        elif near is not None:
            key = next(k for k in known if (w := self.works.get(k)) and near.chunk < len(w.chunks)
                       and w.passages.forms[near.chunk] and near.source in w.passages.forms[near.chunk])
            chunk = self.works.get(key).chunks[near.chunk]  # type: ignore[union-attr]
            exact = source_words(chunk.text, q.text)  # the source's own words, not match form
            whole_quote = len(q.parts) == 1 and not q.insertions  # gaps are the writer's
            if whole_quote:
                self.edit(q.span[0], q.span[1], _written(exact, self.fmt))
            # the words the quote stands for, not the context the near passage holds
            differs = word_diff(whole, match_form(exact) if whole_quote else near.source)
            stored = stored_only([chunk], parts)
            if stored is not None:  # the reader's stored text, which the PDF does not print
                differs += (f" (the text {STORED_BY.get(stored[1].source, 'the reader')} "
                            f"stored for {described(*stored)}, not the PDF's)")
            self.add("MISQUOTED", q.line, [key],
                     f"differs from {key} {where(chunk.provenance)}: {differs}",
                     fix=f"quote the source: “{_short(exact, 300)}”", chunk_id=chunk.id,
                     page=page_locator(chunk.provenance))
        else:
            empty = [k for k in known if not self.works.get(k).chunks]  # type: ignore[union-attr]
            why = (f"{', '.join(empty)} has no text in the vault (metadata only): drop its PDF "
                   "into Inbox/ to check quotes" if empty == known else
                   f"not found in {', '.join(known)} nor elsewhere in the vault")
            self.add("NOT IN SOURCE", q.line, keys, f"“{shown}”: {why}")

    def wrong_page(self, q: Any, key: str, locator: str, places: Sequence[Sequence[Chunk]]) -> None:
        """WRONG PAGE: the PDF page index cited where the printed page is known (``--fix``
        writes the printed page), or a page the quote is not on."""
        chunks = places[0]
        prov = chunks[0].provenance
        shown = _short(q.text)
        pdf = next((p for c in places if (p := pdf_index(locator, c))), None)
        if pdf is not None:
            cite = next(c for c in q.cites if c.locator)
            self.add("WRONG PAGE", q.line, [key], f"“{shown}”: {pdf.message()}",
                     fix=f"cite {pdf.cited()}", chunk_id=chunks[0].id, page=pdf.printed)
            at = self.text.find(cite.raw, _line_start(self.text, cite.line))
            new = rewrite_pages(cite.raw, cite.keys, pdf) if at >= 0 else None
            if new is not None:
                self.edit(at, at + len(cite.raw), new)
            return
        if prov.page_label is None:  # the vault knows no printed page: never push the index
            self.add("WRONG PAGE", q.line, [key], f"“{shown}” is on {where(prov)} (no printed "
                     f"page is confirmed for it), not p. {locator}",
                     fix=f"cite the page printed on PDF page {prov.page}", chunk_id=chunks[0].id,
                     page=page_locator(prov))
            return
        page = page_locator(prov)
        self.add("WRONG PAGE", q.line, [key],
                 f"“{shown}” is on {where(prov)} (PDF page {prov.page}), not p. {locator}",
                 fix=f"cite p. {page}", chunk_id=chunks[0].id, page=page)

    def provenance(self, p: Any, quote_text: str | None) -> None:
        work = self.works.get(p.key)
        chunk = next((c for c in work.chunks if c.id == p.chunk_id), None) if work else None
        if chunk is None:
            self.add("DRIFTED", p.line, [p.key], f"chunk {p.chunk_id} is no longer in {p.key}'s "
                     "note", fix="find the passage again (vaultd search) and re-quote it")
            return
        if chunk.provenance.text_sha256 != p.sha256:
            self.add("DRIFTED", p.line, [p.key], f"{p.key} {p.chunk_id} changed since it was "
                     f"quoted (sha256 {p.sha256[:12]}… now {chunk.provenance.text_sha256[:12]}…)",
                     fix=f"re-quote it: vaultd quote {p.key} {p.chunk_id}", chunk_id=chunk.id)
        elif quote_text is not None and match_form(quote_text) not in match_form(chunk.text):
            parts = quote_parts([quote_text])
            if Passages([chunk.text]).find(parts) is None:
                self.add("DRIFTED", p.line, [p.key], f"the quote beside it no longer matches "
                         f"{p.key} {p.chunk_id}: {word_diff(' '.join(parts), match_form(chunk.text))[:300]}",
                         fix=f"vaultd quote {p.key} {p.chunk_id}", chunk_id=chunk.id)

    def references(self, cites: Sequence[Any]) -> None:

        first: dict[str, int] = {}
        for c in cites:
            for key in c.keys:
                first.setdefault(key, c.line)
        names: dict[str, tuple[str, str]] | None = None
        for key, line in first.items():
            work = self.works.get(key)
            if work is None:
                names = names if names is not None else known_works(self.vault, self.works.index_db)
                hints = suggest(key, names, vault=self.vault)
                self.add("UNKNOWN KEY", line, [key], f"{key} is not in the vault",
                         fix=f"did you mean {hints[0].split(' — ')[0]}?" if hints else
                         f"capture it: vaultd capture <its DOI or arXiv id> --cite-key {key}")
                continue
            meta = work.meta
            if meta.work.retracted:
                self.add("RETRACTED", line, [key], f"{key} is retracted",
                         fix="do not cite it as evidence; see its note's notice")
            notices = [n for n in meta.work.notices if n.kind != "retraction"]
            for n in notices:
                self.add("NOTICE", line, [key], f"{key} has a {n.kind.replace('_', ' ')}"
                         + (f" (doi:{n.doi})" if n.doi else ""), fix="read it before citing")
            if not record_verified(meta):
                self.add("UNVERIFIED", line, [key], f"{key}'s metadata was not confirmed by two "
                         "sources", fix=f"check it, or vaultd capture --refresh for {key}")

    def bib(self, bib_files: Sequence[Path], cited: set[str]) -> None:

        for path in bib_files:
            if not path.is_file():
                continue
            for entry in read_bib_library(path).entries:
                work = self.works.get(entry.key) if entry.key in cited else None
                if work is None:
                    continue
                differs = _bib_differences(entry.work, work.meta)
                if differs:
                    self.add("BIB MISMATCH", 1, [entry.key], f"{path.name} differs from the "
                             f"vault's record: {'; '.join(differs)}",
                             fix=f"vaultd bib {entry.key} (the vault's entry)")


def _norm_title(title: str | None) -> str:
    return re.sub(r"[\W_]+", " ", match_form(title or "")).strip().lower()


def _bib_differences(bib: Any, meta: MetaFile) -> list[str]:
    out = []
    vault = meta.work
    if bib.title and vault.title and _norm_title(bib.title) != _norm_title(vault.title):
        out.append(f"title “{_short(bib.title, 80)}”, vault “{_short(vault.title, 80)}”")
    if bib.year and vault.year and bib.year != vault.year:
        out.append(f"year {bib.year}, vault {vault.year}")
    if bib.doi and vault.doi and bib.doi.lower() != vault.doi.lower():
        out.append(f"DOI {bib.doi}, vault {vault.doi}")
    bib_first = bib.authors[0] if bib.authors else None
    vault_first = vault.authors[0] if vault.authors else None
    if bib_first and vault_first:
        a, b = (match_form(x.family or x.literal or "").lower() for x in (bib_first, vault_first))
        if a and b and a != b:
            out.append(f"first author {a}, vault {b}")
    return out


def _written(text: str, fmt: str) -> str:
    """Source text as the draft's format writes it."""
    if fmt == "latex":

        return latex(text)

    return escape(text)


def _line_start(text: str, line: int) -> int:
    """Offset of 1-based line ``line`` of ``text``."""
    at = 0
    for _ in range(line - 1):
        at = text.find("\n", at) + 1
        if at == 0:
            return len(text)
    return at


def _short(text: str, n: int = 70) -> str:
    text = " ".join(text.split())
    return text if len(text) <= n else text[: n - 1] + "…"


# --- entry points ---------------------------------------------------------------------------

def _bib_files(text: str, fmt: str, base: Path) -> list[Path]:
    names: list[str] = []
    if fmt == "latex":
        for m in re.finditer(r"\\(?:bibliography|addbibresource)(?:\[[^\]]*\])?\{([^}]*)\}", text):
            names += [n.strip() for n in m.group(1).split(",") if n.strip()]
    else:
        front_matter = re.match(r"---\n(.*?)\n---", text, re.S)
        if front_matter:
            try:
                front = yaml.safe_load(front_matter.group(1)) or {}
            except yaml.YAMLError:
                front = {}
            value = front.get("bibliography") if isinstance(front, dict) else None
            names = [value] if isinstance(value, str) else [v for v in value or [] if isinstance(v, str)]
    return [base / (n if n.endswith(".bib") else n + ".bib") for n in names]


def check_text(vault: Vault, text: str, fmt: str, *, file: str = "<draft>",
               base: Path | None = None, works: Works | None = None,
               report: DraftReport | None = None) -> DraftReport:
    """Check one draft's text (``fmt``: ``latex`` or ``markdown``)."""

    report = report if report is not None else DraftReport()
    works = works or Works(vault)
    draft = extract(text, fmt)  # type: ignore[arg-type]
    report.files.append(file)
    report.quotes += len(draft.quotes)
    report.citations += len(draft.cites)
    check = _Checker(vault, works, report, file, text, fmt)
    attached = set()
    for q in draft.quotes:
        check.quote(q)
        for p in q.provenance:
            attached.add((p.key, p.chunk_id, p.line))
            check.provenance(p, q.text)
    for p in draft.provenance:
        if (p.key, p.chunk_id, p.line) not in attached:
            check.provenance(p, None)
    check.references(draft.cites)
    if base is not None:
        check.bib(_bib_files(text, fmt, base), {k for c in draft.cites for k in c.keys})
    report.findings.sort(key=lambda f: (f.file, f.line))
    return report


def draft_files(paths: Sequence[Path]) -> list[Path]:
    """The drafts named: files, and the .tex/.md/.qmd files in a named directory."""
    out: list[Path] = []
    for path in paths:
        if path.is_dir():
            out += sorted(p for p in path.rglob("*") if p.suffix.lower() in DRAFT_SUFFIXES
                          and not any(part.startswith(".") for part in p.parts))
        elif path.is_file():
            out.append(path)
        else:
            raise InputError(f"{path}: no such draft; give a .tex, .md or .qmd file or a folder")
    return out


def check_drafts(vault: Vault, paths: Sequence[Path], *, index_db: Any = None) -> DraftReport:

    report = DraftReport()
    works = Works(vault, index_db)
    for path in draft_files(paths):
        try:
            fmt = draft_format(path.name)
        except ValueError as exc:
            raise InputError(f"{path}: {exc}") from exc
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError as exc:
            raise InputError(f"{path}: not UTF-8 text ({exc.reason}); save it as UTF-8") from exc
        check_text(vault, text, fmt, file=str(path), base=path.parent, works=works, report=report)
    return report


def apply_fixes(report: DraftReport) -> list[tuple[Path, Path]]:
    """Make the report's edits: each draft is copied to ``<name>.bak`` first (an existing
    backup is kept: ``.bak2``, …), then rewritten atomically; nothing but the edited spans
    changes. Returns (draft, backup) for each file changed."""

    done = []
    for file in sorted({e.file for e in report.edits}):
        path = Path(file)
        text = path.read_text(encoding="utf-8")
        edits = sorted((e for e in report.edits if e.file == file), key=lambda e: (e.start, e.end))
        out, pos = [], 0
        for e in edits:
            if e.start < pos:  # overlapping edits: keep the first
                continue
            out += [text[pos:e.start], e.new]
            pos = e.end
        out.append(text[pos:])
        backup = path.with_name(path.name + ".bak")
        n = 2
        while backup.exists():
            backup = path.with_name(f"{path.name}.bak{n}")
            n += 1
        backup.write_bytes(path.read_bytes())
        atomic_write_text(path, "".join(out))
        done.append((path, backup))
    return done
