"""The lab library: a PostgreSQL + pgvector database that members' vaults publish their
works to (record, verbatim chunks with their hashes, printed pages and regions, embeddings)
and that every member can recall, cite and quote from (docs/library.md).

- ``connect``: a connection from the configured URL, every failure one line;
- ``schema``: the versioned schema (``vaultd_lab``), its migrations, roles and row-level
  security by group;
- ``publish``: a work's payload written in one transaction (COPY), idempotent by PDF hash
  and DOI/arXiv id;
- ``search_sql``: the SECURITY DEFINER search functions, per schema version;
- ``search``: full text (``tsvector``, BM25) fused with pgvector HNSW as the local index
  fuses them (``vaultd.index.fusion``), filters that never cut the hits short (iterative
  index scans);
- ``read``: a work by any member's key, a chunk, members, what a member published.

Storage and search only: what to publish and how a library answer is cited live in
``pipeline.publish`` and ``lookup.library``.
"""
