"""What goes into the index: rows from paper notes and user notes, and applying them.

A note whose frontmatter says ``author: agent`` (written by MCP ``remember``) is indexed
with kind ``"agent"``: searched as a note, shown as agent-written.

``sync_doc`` replaces one source file's rows incrementally: rows whose chunk id, hash and
searchable fields are unchanged stay (with their FTS entry and vector; other metadata such
as the enrichment state is updated in place); only the rest are deleted and inserted. Vectors live in a cache keyed by text hash, so a renamed note
reuses them.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import astuple, dataclass

from vaultd.canonical import text_sha256
from vaultd.index.store import CHUNK_COLUMNS, IndexDB
from vaultd.index.usernotes import Section
from vaultd.models import Note


@dataclass(frozen=True)
class Row:
    hash: str
    path: str
    kind: str  # "paper" | "note" | "agent" (a note an agent wrote)
    cite_key: str | None
    chunk_id: str
    title: str | None
    authors: str | None
    year: int | None
    page: int | None
    page_label: str | None
    section: str | None
    chunk_type: str | None
    heading: str | None
    line_start: int | None
    line_end: int | None
    mtime: float | None
    text: str
    enrichment: str | None = None


def paper_rows(note: Note, path: str, mtime: float) -> list[Row]:
    """One row per chunk of a paper note, plus the user's own text in it: what they typed
    after a chunk (with that chunk's page and section) and their sections."""
    m = note.meta
    authors = "; ".join(m.authors) or None
    rows = [
        Row(hash=c.provenance.text_sha256 or text_sha256(c.text), path=path, kind="paper",
            cite_key=m.cite_key, chunk_id=c.id, title=m.title, authors=authors, year=m.year,
            page=c.provenance.page, page_label=c.provenance.page_label,
            section=c.provenance.section, chunk_type=c.provenance.chunk_type, heading=None,
            line_start=None, line_end=None, mtime=mtime, text=c.text, enrichment=c.enrichment)
        for c in note.chunks if c.text.strip()
    ]
    by_id = {c.id: c for c in note.chunks}
    for after, text in note.annotations.items():
        if not text.strip():
            continue
        chunk = by_id.get(after)  # the user's note on this quote: found with its page
        rows.append(Row(hash=text_sha256(text), path=path, kind="note", cite_key=m.cite_key,
                        chunk_id=f"u-{after or 'start'}", title=m.title, authors=authors,
                        year=m.year, page=chunk.provenance.page if chunk else None,
                        page_label=chunk.provenance.page_label if chunk else None,
                        section=chunk.provenance.section if chunk else None, chunk_type=None,
                        heading=_first_heading(text), line_start=None, line_end=None,
                        mtime=mtime, text=text))
    for i, block in enumerate(note.user_blocks):
        if _has_body(block):  # not an empty "## My notes" template
            rows.append(Row(hash=text_sha256(block), path=path, kind="note",
                            cite_key=m.cite_key, chunk_id=f"u{i + 1}", title=m.title,
                            authors=authors, year=m.year, page=None, page_label=None,
                            section=None, chunk_type=None, heading=_first_heading(block),
                            line_start=None, line_end=None, mtime=mtime, text=block))
    return rows


def _has_body(block: str) -> bool:
    """Whether a block of the user's text has anything besides headings."""
    return any(line.strip() and not line.lstrip().startswith("#") for line in block.splitlines())


def _first_heading(block: str) -> str | None:
    for line in block.splitlines():
        if line.startswith("#"):
            return line.lstrip("#").strip() or None
    return None


AGENT_AUTHOR = "agent"
_AGENT_AUTHOR_RE = re.compile(rf"^author:[ \t]*(['\"]?){AGENT_AUTHOR}\1[ \t]*$", re.M)


def agent_written(text: str) -> bool:
    """Whether a Markdown note's frontmatter says an agent wrote it (``author: agent``)."""
    if not text.startswith("---"):
        return False
    end = text.find("\n---", 3)
    return end > 0 and _AGENT_AUTHOR_RE.search(text, 0, end) is not None


def note_rows(sections: Sequence[Section], path: str, title: str, mtime: float, *,
              kind: str = "note") -> list[Row]:
    return [
        Row(hash=text_sha256(s.text), path=path, kind=kind, cite_key=None,
            chunk_id=f"L{s.line_start}-{s.line_end}", title=title, authors=None, year=None,
            page=None, page_label=None, section=s.heading, chunk_type=None, heading=s.heading,
            line_start=s.line_start, line_end=s.line_end, mtime=mtime, text=s.text)
        for s in sections
    ]


def sync_doc(db: IndexDB, path: str, rows: Sequence[Row]) -> tuple[int, int]:
    """Make ``path``'s rows equal ``rows``; returns (inserted, deleted). Caller wraps in a
    transaction.

    A row whose chunk id, text hash and searchable fields (title, section, heading, text)
    are unchanged keeps its rowid, FTS entry and vector: any other column that changed
    (mtime, enrichment state, page label, year, …) is updated in place.
    """
    existing: dict[str, tuple[int, tuple[object, ...]]] = {}
    cols = ", ".join(CHUNK_COLUMNS)
    for r in db.conn.execute(f"SELECT rowid, {cols} FROM chunks WHERE path = ?", (path,)):
        existing[str(r[1 + _CHUNK_ID])] = (int(r[0]), tuple(r[1:]))
    wanted = {row.chunk_id: row for row in rows}
    deleted = 0
    for chunk_id, (rowid, values) in existing.items():
        new = wanted.get(chunk_id)
        if new is not None:
            fresh = astuple(new)
            if all(values[i] == fresh[i] for i in _SEARCHED):
                del wanted[chunk_id]
                changed = [i for i, (a, b) in enumerate(zip(values, fresh, strict=True))
                           if a != b]
                if changed:
                    sets = ", ".join(f"{CHUNK_COLUMNS[i]} = ?" for i in changed)
                    db.conn.execute(f"UPDATE chunks SET {sets} WHERE rowid = ?",
                                    (*(fresh[i] for i in changed), rowid))
                continue
        delete_row(db, rowid)
        deleted += 1
    for row in wanted.values():
        insert_row(db, row)
    return len(wanted), deleted


_CHUNK_ID = CHUNK_COLUMNS.index("chunk_id")
# Columns that feed the FTS entry or the vector (by hash): a change there re-indexes the row.
_SEARCHED = tuple(CHUNK_COLUMNS.index(c) for c in
                  ("hash", "chunk_id", "title", "section", "heading", "text"))


def insert_row(db: IndexDB, row: Row) -> int:
    marks = ", ".join("?" for _ in CHUNK_COLUMNS)
    db.conn.execute(f"INSERT INTO chunks({', '.join(CHUNK_COLUMNS)}) VALUES ({marks})",
                    astuple(row))
    rowid = int(db.conn.last_insert_rowid())
    db.conn.execute("INSERT INTO chunks_fts(rowid, title, section, text) VALUES (?, ?, ?, ?)",
                    (rowid, row.title or "", row.section or row.heading or "", row.text))
    return rowid


def delete_row(db: IndexDB, rowid: int) -> None:
    db.conn.execute("DELETE FROM chunks WHERE rowid = ?", (rowid,))
    db.conn.execute("DELETE FROM chunks_fts WHERE rowid = ?", (rowid,))
    if db.vec_available and db.vec_table_dim():
        db.conn.execute("DELETE FROM vec_chunks WHERE rowid = ?", (rowid,))


def delete_doc(db: IndexDB, path: str) -> int:
    rowids = [int(r[0]) for r in db.conn.execute("SELECT rowid FROM chunks WHERE path = ?",
                                                 (path,))]
    for rowid in rowids:
        delete_row(db, rowid)
    db.conn.execute("DELETE FROM docs WHERE path = ?", (path,))
    db.conn.execute("DELETE FROM papers WHERE path = ?", (path,))
    return len(rowids)
