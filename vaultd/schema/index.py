"""The tables of ``index.db`` (the rebuildable search index: FTS5 + sqlite-vec) and the
migrations that build them, in the order they apply (apsw; see index/store.py for how
they are applied)."""

from __future__ import annotations

import apsw

from vaultd.schema.migrate import checked


def tables(db: apsw.Connection) -> None:
    db.execute(
        """
        CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
        CREATE TABLE docs (
            path TEXT PRIMARY KEY, kind TEXT NOT NULL, mtime_ns INTEGER NOT NULL,
            size INTEGER NOT NULL
        );
        CREATE TABLE chunks (
            rowid INTEGER PRIMARY KEY, hash TEXT NOT NULL, path TEXT NOT NULL,
            kind TEXT NOT NULL, cite_key TEXT, chunk_id TEXT NOT NULL, title TEXT,
            authors TEXT, year INTEGER, page INTEGER, page_label TEXT, section TEXT,
            chunk_type TEXT, heading TEXT, line_start INTEGER, line_end INTEGER,
            mtime REAL, text TEXT NOT NULL, UNIQUE(path, chunk_id)
        );
        CREATE INDEX chunks_hash ON chunks(hash);
        CREATE INDEX chunks_cite_key ON chunks(cite_key);
        CREATE TABLE papers (
            cite_key TEXT PRIMARY KEY, title TEXT, authors TEXT, year INTEGER,
            path TEXT NOT NULL, chunks INTEGER NOT NULL DEFAULT 0
        );
        CREATE TABLE vectors (
            hash TEXT NOT NULL, model TEXT NOT NULL, dim INTEGER NOT NULL,
            vec BLOB NOT NULL, PRIMARY KEY (hash, model)
        ) WITHOUT ROWID;
        CREATE VIRTUAL TABLE chunks_fts USING fts5(
            title, section, text, tokenize = 'porter unicode61'
        );
        CREATE VIRTUAL TABLE chunks_vocab USING fts5vocab(chunks_fts, 'row');
        """
    )


def chunk_enrichment(db: apsw.Connection) -> None:
    # Lets `status` count passages still waiting for the LLM without reading every note.
    db.execute("ALTER TABLE chunks ADD COLUMN enrichment TEXT")
    db.execute("DELETE FROM docs")  # next `vaultd index` re-reads notes to fill the column


INDEX_MIGRATIONS = checked("index.db", [
    ("index_m001_tables", tables),
    ("index_m002_chunk_enrichment", chunk_enrichment),
])
