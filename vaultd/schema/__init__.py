"""The schema home: every table of vaultd's two databases and the migrations that build
them, listed explicitly in the order they apply.

- ``state``: the machine's ``state.db`` (job queue, HTTP and citation caches, capture
  records, the LLM cache), built-in ``sqlite3``;
- ``index``: the rebuildable search index ``index.db`` (FTS5 + sqlite-vec), apsw;
- ``migrate``: the one registrar both use (names checked, pending ones found).

A migration only adds (tables, columns, indexes); its name is recorded in the database's
``migrations`` table once applied, so a name never changes. Nothing registers itself on
import: a new table is one function and one line in the list of its database.
"""
