"""Agents' own notes: ``remember`` writes one, its quotes checked first; ``forget`` archives it.

An agent note is a dated Markdown file in ``[mcp] notes_dir`` (default ``Notes/agent``)
whose frontmatter says ``author: agent``; the index labels its passages agent-written
(``vaultd.index.rows.agent_written``). Nothing is written until every quotation in the
text checks out against the vault (``vaultd.verify.draft``): a quotation citing nothing
is checked against the works the note is ``about``. ``forget`` moves a note to
``<notes_dir>/.archive/`` (hidden, so never indexed) and drops it from the index: a note
is never deleted, and only notes an agent wrote can be forgotten.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING, Any

from vaultd.citekey import key_to_filename
from vaultd.errors import ConfigError, InputError, VaultdError
from vaultd.index.rows import AGENT_AUTHOR, agent_written, delete_doc
from vaultd.index.store import open_index
from vaultd.notes.escape import escape, unescape
from vaultd.notes.pages import page_locator, time_locator
from vaultd.vault import Vault, atomic_write_text, safe_stem

if TYPE_CHECKING:
    from vaultd.config import Settings
    from vaultd.models import Chunk
    from vaultd.verify.draft import DraftFinding, DraftReport, Works

NOTES_DIR_DEFAULT = "Notes/agent"
ARCHIVE_DIR = ".archive"
AGENT_NOTE_TAG = "agent-note"
MAX_NOTE_CHARS = 20_000
MAX_TITLE_CHARS = 120
TITLE_WORDS = 8  # an untitled note is named by its first words
SOURCE_EXCERPT_CHARS = 160
# A phrase in quotation marks with no citation of its own is checked against the note's
# `about` works only from this many words on: a shorter one is a term or a scare quote.
MIN_QUOTE_WORDS = 3
# Draft findings that do not stop a note: a retracted or noticed work is reported back as
# a warning; unconfirmed citation metadata does not matter to a note that cites nothing.
WARNING_KINDS = frozenset({"RETRACTED", "NOTICE"})
PASSING_KINDS = frozenset({"OK", "UNVERIFIED", *WARNING_KINDS})


class AgentNoteError(InputError):
    """A refused ``remember`` or ``forget``: the message says why and what to do."""


@dataclass(frozen=True)
class Source:
    """One checked ``about`` item: a work, and for ``key#chunk_id`` that chunk."""

    cite_key: str
    title: str
    chunk: Chunk | None = None


# --- remember ------------------------------------------------------------------------------

def remember(vault: Vault, text: str, about: Sequence[str] = (), title: str | None = None,
             *, agent: str = "agent", notes_dir: str = NOTES_DIR_DEFAULT,
             index_db: Any = None, settings: Settings | None = None,
             now: datetime | None = None) -> dict[str, Any]:
    """Write ``text`` as a dated agent note about the ``about`` items (``cite_key`` or
    ``cite_key#chunk_id``) once its quotes check out, and index it; AgentNoteError if not."""
    # lazy: vaultd.verify.draft costs 134 ms at import (pulls in yaml, sqlite3, subprocess)
    from vaultd.verify.draft import Works

    vault.require()
    body = text.strip()
    if not body:
        raise AgentNoteError("nothing to remember: the text is empty")
    if len(body) > MAX_NOTE_CHARS:
        raise AgentNoteError(f"the text is {len(body):,} characters; remember at most "
                             f"{MAX_NOTE_CHARS:,} per note (split it into several notes)")
    works = Works(vault, index_db)
    items = [about] if isinstance(about, str) else list(about)
    sources = [_source(vault, works, item) for item in dict.fromkeys(i.strip() for i in items)]
    keys = list(dict.fromkeys(s.cite_key for s in sources))
    report = check_quotes(vault, body, keys, works)
    folder = notes_folder(vault, notes_dir)
    when = now or datetime.now(UTC)
    name = _title(title, body)
    path = _reserve(folder / f"{when:%Y-%m-%d} {safe_stem(name, 'agent note')}.md")
    try:
        atomic_write_text(path, render_note(name, body, sources, agent=_agent(agent),
                                            created=when.isoformat(timespec="seconds"),
                                            about=keys))
    except BaseException:
        path.unlink(missing_ok=True)
        raise
    warnings = [_problem(f) for f in report.findings if f.kind in WARNING_KINDS]
    warnings += _index(vault, settings, path)
    out: dict[str, Any] = {"path": vault.rel(path), "title": name, "about": keys,
                           "quotes_checked": report.quotes}
    return {**out, "warnings": list(dict.fromkeys(warnings))} if warnings else out


def _source(vault: Vault, works: Works, item: str) -> Source:
    """The work (and chunk) an ``about`` item names; AgentNoteError with hints if none."""
    # lazy: vaultd.lookup costs 48 ms at import (pulls in sqlite3, subprocess)
    from vaultd.lookup import known_works, suggest

    key, _, chunk_id = item.removeprefix("@").partition("#")
    work = works.get(key)
    if work is None or not vault.note_path(key).is_file():
        hints = suggest(key, known_works(vault, works.index_db), vault=vault) if key else []
        tail = f"; did you mean: {'; '.join(hints)}" if hints else "; use keys from recall"
        raise AgentNoteError(f"about item {item!r}: no paper note for cite key {key!r}{tail}")
    title = work.meta.title or key
    if not chunk_id:
        return Source(key, title)
    chunk = next((c for c in work.chunks if c.id == chunk_id), None)
    if chunk is None:
        ids = [c.id for c in work.chunks]
        sample = ", ".join(ids[:8]) + (" …" if len(ids) > 8 else "")
        raise AgentNoteError(f"about item {item!r}: no chunk {chunk_id!r} in {key} (or it was "
                             f"edited); its chunks are {sample or 'none (metadata only)'}")
    return Source(key, title, chunk)


def check_quotes(vault: Vault, text: str, keys: Sequence[str], works: Works) -> DraftReport:
    """The draft checker's report on ``text`` (Markdown), quotations citing nothing checked
    against ``keys``; AgentNoteError naming every finding that is not OK or a warning."""
    # lazy: vaultd.verify.draft costs 134 ms at import (pulls in yaml, sqlite3, subprocess)
    from vaultd.verify.draft import check_text

    checked = attributed(text, keys)
    report = check_text(vault, checked, "markdown", file="<remember>", works=works)
    exact = _source_words(report, checked)
    problems = [_problem(f, exact.get(f.line) if f.kind == "MISQUOTED" else None)
                for f in report.findings if f.kind not in PASSING_KINDS]
    if problems:
        raise AgentNoteError("not remembered, nothing was written: " + "; ".join(problems))
    return report


_BLANKS_RE = re.compile(r"[ \t]*")


def attributed(text: str, keys: Sequence[str]) -> str:
    """``text`` with ``[@key1; @key2]`` after each quotation that cites nothing (a bare
    ``[p. 4]`` after it becomes ``[@key1, p. 4; …]``), so the checker tests it against them."""
    # lazy: vaultd.draft.extract costs 88 ms at import (pulls in sqlite3, subprocess)
    from vaultd.draft.extract import extract

    # lazy: vaultd.draft.markdown costs 17 ms at import
    from vaultd.draft.markdown import scan

    if not keys:
        return text
    cited = {q.span for q in extract(text, "markdown").quotes}
    found = scan(text)
    edits: list[tuple[int, int, str]] = []
    last_end = -1
    for cand in sorted(found.candidates, key=lambda c: (c.start, -c.end)):
        if cand.start < last_end:
            continue  # inside another quotation
        last_end = cand.end
        if cand.span in cited or len(cand.text.split()) < MIN_QUOTE_WORDS:
            continue
        after = _BLANKS_RE.match(text, cand.end)
        loc = found.locators.get(after.end() if after else cand.end)
        if loc is not None:
            edits.append((loc.start, loc.end,
                          "[" + "; ".join(f"@{k}, p. {loc.locator}" for k in keys) + "]"))
        else:
            edits.append((cand.end, cand.end, " [" + "; ".join(f"@{k}" for k in keys) + "]"))
    for start, end, new in sorted(edits, reverse=True):
        text = text[:start] + new + text[end:]
    return text


def _source_words(report: DraftReport, text: str) -> dict[int, str]:
    """Line → the source's own words for the misquote there: the checker's ``--fix`` edit
    (its ``fix`` message shows the passage in match form, hyphens dropped)."""
    return {text.count("\n", 0, e.start) + 1: unescape(e.new)
            for e in report.edits if e.end > e.start}  # not a provenance comment's insertion


def _problem(f: DraftFinding, exact: str | None = None) -> str:
    fix = f"quote the source: “{exact}”" if exact else f.fix
    return f"{f.kind} {','.join(f.keys)}: {f.message}" + (f" → {fix}" if fix else "")


def _title(title: str | None, body: str) -> str:
    if title and title.strip():
        return " ".join(title.split())[:MAX_TITLE_CHARS]
    words = [w for w in (w.strip("#>*_`“”‘’\"'()[]") for w in body.split()) if w]
    more = "…" if len(words) > TITLE_WORDS else ""
    return (" ".join(words[:TITLE_WORDS]) + more)[:MAX_TITLE_CHARS] or "Agent note"


def _agent(agent: str) -> str:
    return " ".join(str(agent).split())[:100] or "agent"


def render_note(title: str, body: str, sources: Sequence[Source], *, agent: str,
                created: str, about: Sequence[str]) -> str:
    """The note's Markdown: frontmatter, the text, then a "## Sources" list."""
    # lazy: yaml costs 26 ms at import
    import yaml

    front = yaml.safe_dump(
        {"title": title, "author": AGENT_AUTHOR, "agent": agent, "created": created,
         "about": list(about), "tags": [AGENT_NOTE_TAG]},
        sort_keys=False, allow_unicode=True, default_flow_style=None, width=1_000_000)
    out = f"---\n{front}---\n\n{body}\n"
    if sources:
        out += "\n## Sources\n\n" + "".join(f"- {_source_line(s)}\n" for s in sources)
    return out


def _source_line(s: Source) -> str:
    """``[[key]]: Title``, or for a chunk ``[[key]], p. 4 (p4s2c1): “excerpt…”``."""
    if s.chunk is None:
        return f"[[{key_to_filename(s.cite_key)}]]: {escape(s.title)}"
    return f"[[{key_to_filename(s.cite_key)}]], {_locator(s.chunk)} ({s.chunk.id}): “{escape(_excerpt(s.chunk.text))}”"


def _locator(chunk: Chunk) -> str:
    prov = chunk.provenance
    if prov.start is not None:
        return f"at {time_locator(prov.start, prov.end)}"
    page = page_locator(prov)
    return f"{'pp' if '–' in page else 'p'}. {page}"


def _excerpt(text: str) -> str:
    flat = " ".join(text.split())
    if len(flat) <= SOURCE_EXCERPT_CHARS:
        return flat
    return flat[:SOURCE_EXCERPT_CHARS].rsplit(" ", 1)[0] + "…"


def _reserve(path: Path) -> Path:
    """``path``, or ``<stem> 2.md``, … : created empty so no other writer takes the name."""
    path.parent.mkdir(parents=True, exist_ok=True)
    candidate, n = path, 2
    while True:
        try:
            candidate.open("x").close()
            return candidate
        except FileExistsError:
            candidate = path.with_name(f"{path.stem} {n}{path.suffix}")
            n += 1


def _index(vault: Vault, settings: Settings | None, path: Path) -> list[str]:
    """Index the new note now (when the vault has an index); warnings, never an error."""
    if not vault.index_db.is_file():
        return []
    # lazy: vaultd.config costs 47 ms at import
    from vaultd.config import Settings

    # lazy: vaultd.pipeline.index costs 37 ms at import
    from vaultd.pipeline.index import index_paths

    try:
        stats = index_paths(vault, settings or Settings(), [path],
                            embedder="settings" if settings is not None else None)
    except VaultdError as exc:
        return [f"the note is written but not indexed yet: {exc}; `vaultd index` adds it"]
    return stats.warnings


# --- forget --------------------------------------------------------------------------------

def forget(vault: Vault, note: str, *, notes_dir: str = NOTES_DIR_DEFAULT) -> dict[str, Any]:
    """Move an agent note (vault-relative path, file name or title inside ``notes_dir``) to
    ``<notes_dir>/.archive/`` and drop it from the index; AgentNoteError for anything else."""
    vault.require()
    folder = notes_folder(vault, notes_dir)
    path = _find(vault, folder, note.strip(), notes_dir)
    rel = vault.rel(path)
    if not agent_written(path.read_text(encoding="utf-8", errors="replace")):
        raise AgentNoteError(f"{rel} was not written by an agent (its frontmatter has no "
                             "`author: agent`): only agents' notes can be forgotten")
    archived = _archive(path, folder / ARCHIVE_DIR)
    out: dict[str, Any] = {"archived": vault.rel(archived), "path": rel}
    warning = _unindex(vault, rel)
    return {**out, "warnings": [warning]} if warning else out


def notes_folder(vault: Vault, notes_dir: str) -> Path:
    """The agent notes' folder: a visible, indexed folder inside the vault."""
    rel = PurePosixPath(notes_dir.strip())
    reserved = {vault.state_dir.name, vault.raw.name, vault.inbox.name}
    if (rel.is_absolute() or not rel.parts or ".." in rel.parts or rel.parts[0] in reserved
            or any(p.startswith(".") for p in rel.parts)):
        raise ConfigError(f"[mcp] notes_dir {notes_dir!r} must be a visible folder inside the "
                          "vault, outside .vaultd/, raw/ and Inbox/, e.g. Notes/agent")
    return vault.root / rel


def _find(vault: Vault, folder: Path, ref: str, notes_dir: str) -> Path:
    """The note ``ref`` names: a vault-relative path, or a file name or title in ``folder``."""
    if not ref:
        raise AgentNoteError(f"which note? give its path ({notes_dir}/…md), file name or title")
    if "/" in ref or "\\" in ref:
        tried = [vault.root / ref]
    else:
        tried = [folder / ref, folder / f"{ref}.md"]
    for path in tried:
        if path.is_file() or path.is_symlink():
            return _inside(path, folder, ref, notes_dir)
    if len(tried) == 1:
        _inside(tried[0], folder, ref, notes_dir)  # outside: say so
    titled = [p for p in _agent_notes(folder) if _front_title(p) == ref.casefold()]
    if len(titled) == 1:
        return titled[0]
    if titled:
        names = ", ".join(vault.rel(p) for p in titled)
        raise AgentNoteError(f"{len(titled)} notes are titled {ref!r}: {names}; give the path")
    raise AgentNoteError(f"no note {ref!r} in {notes_dir}/; give a path, file name or title "
                         "that remember returned")


def _inside(path: Path, folder: Path, ref: str, notes_dir: str) -> Path:
    """``path`` resolved, when it is a Markdown file in ``folder`` (not in its archive)."""
    real, home = path.resolve(), folder.resolve()
    if (not real.is_relative_to(home) or real.is_relative_to(home / ARCHIVE_DIR)
            or real.suffix.lower() != ".md" or not real.is_file()):
        raise AgentNoteError(f"{ref!r} is not a note in {notes_dir}/: forget only archives "
                             "notes an agent wrote there")
    return real


def _agent_notes(folder: Path) -> list[Path]:
    if not folder.is_dir():
        return []
    return sorted(p for p in folder.rglob("*.md")
                  if not any(part.startswith(".") for part in p.relative_to(folder).parts))


_FRONT_RE = re.compile(r"---[ \t]*\n(.*?)\n(?:---|\.\.\.)[ \t]*(?:\n|$)", re.S)


def _front_title(path: Path) -> str | None:
    # lazy: yaml costs 26 ms at import
    import yaml

    m = _FRONT_RE.match(path.read_text(encoding="utf-8", errors="replace"))
    try:
        front = yaml.safe_load(m.group(1)) if m else None
    except yaml.YAMLError:
        return None
    title = front.get("title") if isinstance(front, dict) else None
    return " ".join(str(title).split()).casefold() if title else None


def _archive(path: Path, archive: Path) -> Path:
    """Move ``path`` into ``archive`` under a name no other file there has."""
    target = _reserve(archive / path.name)
    path.replace(target)
    return target


def _unindex(vault: Vault, rel: str) -> str | None:
    """Drop the note's passages from the index, as reconciling a deleted file does."""
    if not vault.index_db.is_file():
        return None

    try:
        db = open_index(vault.index_db)
        try:
            with db.transaction():
                delete_doc(db, rel)
        finally:
            db.close()
    except VaultdError as exc:
        return f"archived, but still in the index: {exc}; `vaultd index` drops it"
    return None
