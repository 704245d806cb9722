"""The MCP server: agents cite by key, recall passages and quote only verbatim text.

Tools with short schemas (tool schemas cost agents context): cite, recall, quote,
bibliography, verify, verify_draft, remember, forget, status (and browser when the
user turned agent actions on). Startup touches nothing but the index database (opened on
the first call), so the first answer is fast however large the vault is. Logs go to
stderr; stdout belongs to the protocol in stdio mode.
"""

from __future__ import annotations

import contextlib
import logging
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

from vaultd import __version__
from vaultd.errors import CitationError, VaultdError, disk_error
from vaultd.index.embed import make_embedder
from vaultd.mcp.agent_state import agent_state
from vaultd.mcp.args import check_arguments, coerce_arguments
from vaultd.vault import Vault

if TYPE_CHECKING:
    from mcp.server.mcpserver import MCPServer

    from vaultd.config import Settings
    from vaultd.index.embed import Embedder
    from vaultd.index.store import IndexDB

log = logging.getLogger("vaultd.mcp")

INSTRUCTIONS = """\
vaultd serves a research vault whose citations are never wrong.
- recall(query) finds passages in the user's papers and their own notes.
- cite(cite_key, format, page?) gives a citation (apa, mla, chicago, ieee or any configured
  CSL style, bibtex, csl-json; page: the in-text form pointing at it); bibliography(cite_keys)
  gives many at once. A citation of unverified metadata starts with "UNVERIFIED (…)", of a
  retracted work with "RETRACTED (…)": pass that on to the user. "ENTERED BY YOU (…)"
  names fields the user entered (no source confirmed them).
- Quoting contract: to quote a source, call quote(cite_key, chunk_id) and copy its `text`
  exactly, with its page. Only `text` from quote() is verbatim and hash-verified. Recall
  excerpts may be trimmed; paraphrase and implication are advisory summaries by a local
  LLM: never put them in quotation marks or attribute them to the authors.
- Never invent a cite key: use keys returned by recall/cite; an unknown key returns close
  matches.
- verify(cite_key?) reports drift between notes and their sources; verify_draft(text)
  checks a draft's quotes and citations before you hand it over; status() reports health.
- remember(text, about) keeps what you learned as your own note (agent-written, quotes
  checked against the sources first); forget(note) archives one of your notes.
"""


_CITER_LOCK = threading.Lock()


@dataclass
class _State:
    vault: Vault
    settings: Settings | None
    embedder: Embedder | bool | None = False  # False: not built yet
    db: IndexDB | None = None
    notes: list[str] = field(default_factory=list)
    renderer: Any = None
    lab: Any = None  # mcp.library.LibraryLink, made on first use

    def library(self) -> Any:
        from vaultd.mcp.library import LibraryLink  # lazy: psycopg only with a library

        self.lab = self.lab or LibraryLink(self.settings)
        return self.lab

    def citer(self) -> Any:
        """The vault's citation renderer (configured styles, stored renderings), built once
        even when tools run at the same time in worker threads."""
        with _CITER_LOCK:
            if self.renderer is None:
                # lazy: vaultd.pipeline.citations costs 239 ms at import (pulls in pydantic, sqlite3, subprocess)
                from vaultd.pipeline.citations import renderer_for

                self.renderer = renderer_for(self.vault, self.settings)
            return self.renderer

    def require_vault(self) -> Vault:
        # lazy: mcp costs 1292 ms at import
        from mcp.server.mcpserver.exceptions import ToolError

        try:
            return self.vault.require()
        except VaultdError as exc:
            raise ToolError(f"{exc}. Ask the user to create or point vaultd at a vault "
                            "(VAULTD_VAULT).") from exc

    def index(self) -> IndexDB:
        # lazy: mcp costs 1292 ms at import
        from mcp.server.mcpserver.exceptions import ToolError

        # lazy: vaultd.index.store costs 7 ms at import (pulls in apsw)
        from vaultd.index.store import open_index

        vault = self.require_vault()
        if self.db is not None and not self.db.current():  # `vaultd index --rebuild` ran
            self.db.close()
            self.db = None
        if self.db is None:
            if not vault.index_db.is_file():
                raise ToolError(f"the vault {vault.root} has no search index yet; ask the user "
                                "to run `vaultd index` (or start `vaultd run`)")
            self.db = open_index(vault.index_db)
        return self.db

    def index_if_any(self) -> IndexDB | None:
        """The index for fuzzy key suggestions, if there is one (never an error)."""
        if (self.db is None or not self.db.current()) and self.vault.index_db.is_file():
            try:
                return self.index()
            except Exception:  # suggestions are a nicety; the files still answer
                return None
        return self.db

    def query_embedder(self) -> Embedder | None:
        if self.embedder is False:
            s = self.settings
            self.embedder = None if s is None else make_embedder(
                s.index.embedding_provider, s.index.embedding_model,
                ollama_host=s.enrich.ollama_host)
        return self.embedder if not isinstance(self.embedder, bool) else None


def _tool_error(exc: VaultdError) -> Exception:
    # lazy: mcp costs 1292 ms at import
    from mcp.server.mcpserver.exceptions import ToolError

    return ToolError(str(exc))


@contextlib.contextmanager
def _writing_tool() -> Iterator[None]:
    """For a tool that writes into the vault: vaultd's errors, and a read-only or full
    disk, reach the agent as their one sentence, not a traceback."""
    try:
        yield
    except VaultdError as exc:
        raise _tool_error(exc) from exc
    except OSError as exc:
        disk = disk_error(exc)
        if disk is None:
            raise
        raise _tool_error(disk) from exc


def build_server(vault: Vault, settings: Settings | None) -> MCPServer:
    """The MCP server over ``vault`` (``settings`` None: keywords only, no embeddings)."""
    # lazy: mcp costs 1292 ms at import
    from mcp.server.mcpserver import MCPServer

    # lazy: mcp costs 1292 ms at import
    from mcp.server.mcpserver.exceptions import ToolError


    class CheckedServer(MCPServer):
        """Arguments checked against each tool's schema first (``vaultd.mcp.args``): a
        wrong, missing or unknown argument gets one sentence, not pydantic's report."""

        schemas: dict[str, dict[str, Any]] | None = None

        async def list_tools(self) -> list[Any]:
            """As the SDK's, each description one line: the docstring without the runs
            of spaces its source indentation leaves."""
            return [t.model_copy(update={"description": " ".join(t.description.split())})
                    if t.description else t for t in await super().list_tools()]

        async def call_tool(self, name: str, arguments: dict[str, Any],
                            context: Any = None) -> Any:
            if self.schemas is None:
                self.schemas = {t.name: dict(t.input_schema) for t in await self.list_tools()}
            schema = self.schemas.get(name)
            if schema is not None:
                arguments = coerce_arguments(schema, arguments)
            problem = check_arguments(name, schema, arguments) if schema is not None else None
            if problem is not None:
                raise ToolError(problem)
            return await super().call_tool(name, arguments, context)

    state = _State(vault=vault, settings=settings)
    # The SDK gives the root logger a Rich handler when it has none (`vaultd run`): vaultd's
    # own handler already prints every line, so a second one would print each line twice.
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    server: MCPServer = CheckedServer("vaultd", instructions=INSTRUCTIONS, version=__version__,
                                      log_level="WARNING")
    for handler in [h for h in root.handlers if h not in handlers]:
        root.removeHandler(handler)
    root.setLevel(level)

    @server.tool()
    def cite(cite_key: str, format: str = "apa", page: str | int | None = None,
             time: str | None = None) -> str:
        """Citation for one cite key: format apa, mla, chicago, ieee (any configured CSL
        style), bibtex or csl-json. page: the in-text citation pointing at that page (4,
        "xii", "e123", "S12"), range ("4-5") or list ("4, 7-9"), within the work's pages;
        time (videos, e.g. "3:15"): pointing at that time."""
        # lazy: vaultd.lookup costs 285 ms at import (pulls in pydantic, apsw, sqlite3, subprocess)
        from vaultd.lookup import UnknownKeyError, citation

        state.require_vault()
        origin = None
        try:
            try:
                c = citation(vault, cite_key, format, index_db=state.index_if_any(),
                             renderer=state.citer(), page=None if page is None else str(page),
                             time=time)
            except UnknownKeyError:
                if not state.library().configured or time:
                    raise
                c, origin = state.library().cite(cite_key, format, state.citer(),
                                                 None if page is None else str(page))
        except VaultdError as exc:
            raise _tool_error(exc) from exc
        # A BibTeX answer stays a valid .bib: its labels are BibTeX comments.
        lines = [f"% {label}" if c.format == "bibtex" else label for label in c.labels]
        if origin:
            told = f"From the lab library, published by {', '.join(origin['published_by'])}"
            lines.append(f"% {told}" if c.format == "bibtex" else told)
        if (page is not None or time) and c.intext:
            lines.append(f"In text: {c.intext}")
        lines.append(c.text.rstrip("\n"))
        return "\n".join(lines)

    @server.tool()
    def recall(query: str, limit: int = 5, cite_key: str | None = None,
               author: str | None = None, year_min: int | None = None,
               year_max: int | None = None, kind: str | None = None,
               chunk_type: str | None = None, recency: bool = True,
               scope: Literal["vault", "library"] = "vault") -> dict[str, Any]:
        """Find passages in papers and the user's notes. kind: paper|note. limit 1-20.
        chunk_type: only paragraph|figure|table|reference|heading|… passages.
        recency=false: no boost for recently edited notes. scope=library: the lab
        library's works, published by the user's lab members."""
        # lazy: vaultd.index.search costs 289 ms at import (pulls in pydantic, apsw)
        from vaultd.index.search import RECENCY_HALF_LIFE_DAYS, RESCORE, Filters

        # lazy: vaultd.lookup.recall costs 285 ms at import (pulls in pydantic, apsw, sqlite3, subprocess)
        from vaultd.lookup.recall import recall as do_recall

        if scope == "library":
            from vaultd.lab.search import LibraryFilters  # lazy: psycopg only with a library

            wanted = LibraryFilters(cite_key, author, year_min, year_max, chunk_type, kind)
            try:
                return state.library().recall(query, limit=limit, filters=wanted,  # type: ignore[no-any-return]
                                              embedder=state.query_embedder())
            except VaultdError as exc:
                raise _tool_error(exc) from exc
        db = state.index()
        index_settings = state.settings.index if state.settings is not None else None
        half_life = (index_settings.recency_half_life_days if index_settings is not None
                     else RECENCY_HALF_LIFE_DAYS)
        rescore = index_settings.rescore if index_settings is not None else RESCORE
        filters = Filters(cite_key=cite_key, author=author, year_min=year_min,
                          year_max=year_max, kind=kind, chunk_type=chunk_type,
                          recency_half_life_days=(half_life or None) if recency else None)
        embedder = state.query_embedder()
        try:
            found = do_recall(vault, db, query, limit=limit, filters=filters,
                              embedder=embedder, warm=True, rescore=rescore)
        except VaultdError as exc:
            raise _tool_error(exc) from exc
        if found.embedder_failed:
            state.embedder = None
        out: dict[str, Any] = {"query": query, "hits": found.rows,
                               "note": "Excerpts may be trimmed: quote via quote()."}
        if found.warning:
            out["warning"] = found.warning
        return out

    @server.tool()
    def quote(cite_key: str, chunk_id: str) -> dict[str, Any]:
        """Verbatim, hash-verified text of one chunk with page and provenance."""
        # lazy: vaultd.lookup costs 285 ms at import (pulls in pydantic, apsw, sqlite3, subprocess)
        from vaultd.lookup import UnknownKeyError

        # lazy: vaultd.lookup costs 285 ms at import (pulls in pydantic, apsw, sqlite3, subprocess)
        from vaultd.lookup import quote as do_quote

        state.require_vault()
        try:
            try:
                citer = state.citer()
            except CitationError:  # no citation processor: the verbatim text is still served
                citer = None
            try:
                data = do_quote(vault, cite_key, chunk_id, index_db=state.index_if_any(),
                                renderer=citer)
            except UnknownKeyError:
                if not state.library().configured:
                    raise
                data = state.library().quote(cite_key, chunk_id, citer)
            return ({"warning": "; ".join(data["labels"]), **data} if data.get("labels")
                    else data)
        except VaultdError as exc:
            raise _tool_error(exc) from exc

    @server.tool()
    def bibliography(cite_keys: list[str], format: str = "bibtex") -> dict[str, Any]:
        """Citations for many keys at once (e.g. a references.bib); unknown keys listed."""
        # lazy: vaultd.lookup costs 285 ms at import (pulls in pydantic, apsw, sqlite3, subprocess)
        from vaultd.lookup import bibliography_of

        state.require_vault()
        if not cite_keys:
            raise ToolError("no cite keys given; pass a list such as [\"vaswani2017attention\"]")
        try:
            bib = bibliography_of(vault, cite_keys, format, index_db=state.index_if_any(),
                                  renderer=state.citer())
        except VaultdError as exc:
            raise _tool_error(exc) from exc
        warnings = [f"{c.cite_key}: {label}" for c in bib.citations for label in c.labels]
        out: dict[str, Any] = {"warnings": warnings} if warnings else {}
        return {**out, "format": bib.format, "text": bib.text, "unknown": bib.unknown}

    @server.tool()
    def verify(cite_key: str | None = None) -> dict[str, Any]:
        """Drift report: do notes' quotes still match their hashes and sources?"""
        # lazy: vaultd.verify costs 329 ms at import (pulls in pydantic, yaml, sqlite3, subprocess)
        from vaultd.verify import verify_notes

        state.require_vault()
        try:
            report = verify_notes(vault, cite_key)
        except VaultdError as exc:
            raise _tool_error(exc) from exc
        return {"ok": report.ok, **report.model_dump(mode="json")}

    @server.tool()
    def verify_draft(text: str, format: Literal["latex", "markdown"] = "markdown") -> dict[str, Any]:
        """Check a draft's quotes and citations against the vault before you hand it over:
        each quote against the work it cites (OK with page and chunk, MISQUOTED with the
        words that differ, WRONG SOURCE, NOT IN SOURCE, WRONG PAGE), provenance comments
        (DRIFTED) and cited keys (UNKNOWN KEY, RETRACTED, NOTICE, UNVERIFIED)."""
        # lazy: vaultd.verify.draft costs 665 ms at import (pulls in pydantic, yaml, sqlite3, subprocess)
        from vaultd.verify.draft import Works, check_text

        v = state.require_vault()
        try:
            report = check_text(v, text, format, works=Works(v, state.index_if_any()))
        except VaultdError as exc:
            raise _tool_error(exc) from exc
        return report.to_json()

    @server.tool()
    def status() -> dict[str, Any]:
        """Vault and index health: notes, chunks, pending jobs, vectors, embedding provider."""
        # lazy: vaultd.index.store costs 7 ms at import (pulls in apsw)
        from vaultd.index.store import index_status

        # lazy: vaultd.statedb costs 15 ms at import (pulls in sqlite3)
        from vaultd.statedb import job_counts

        v = state.require_vault()
        try:
            data = index_status(v)
        except VaultdError as exc:
            raise _tool_error(exc) from exc
        jobs = job_counts(v.state_db)
        data["jobs"] = {k: jobs.get(k, 0) for k in ("queued", "running", "failed")}
        data["jobs_pending"] = data["jobs"]["queued"] + data["jobs"]["running"]
        data["agent"] = agent_state(v, settings)
        data["vault"] = str(v.root)
        if settings is not None:
            data["configured_provider"] = settings.index.embedding_provider
        return data

    _memory_tools(server, state)
    if settings is not None and settings.bridge.agent_actions:
        # lazy: only with [bridge] agent_actions; the tool's client pulls in httpx and uvicorn
        from vaultd.mcp.browser import browser_tool

        browser_tool(server, vault, settings)
    return server


def _memory_tools(server: MCPServer, state: _State) -> None:
    """remember/forget: the agent's own notes in ``[mcp] notes_dir`` (vaultd.mcp.memory)."""
    # lazy: mcp costs 1292 ms at import
    from mcp.server.mcpserver import Context

    def notes_dir() -> str:
        # lazy: vaultd.mcp.memory costs 437 ms at import (pulls in pydantic, apsw)
        from vaultd.mcp.memory import NOTES_DIR_DEFAULT

        return state.settings.mcp.notes_dir if state.settings is not None else NOTES_DIR_DEFAULT

    def searched_again() -> None:
        if state.db is not None:  # the note changed the index under the warm caches
            state.db.cache.clear()

    def remember(text: str, about: list[str] | None = None, title: str | None = None,
                 ctx: Context | None = None) -> dict[str, Any]:
        """Save your own note in the vault (shown as agent-written in recall). about: cite
        keys or cite_key#chunk_id it draws on. Quotes in text are checked first (a quote
        citing nothing is checked against about): a misquote is refused, nothing written."""
        # lazy: vaultd.mcp.memory costs 437 ms at import (pulls in pydantic, apsw)
        from vaultd.mcp.memory import remember as write_note

        v = state.require_vault()
        with _writing_tool():
            out = write_note(v, text, about or (), title, agent=_client_name(ctx),
                             notes_dir=notes_dir(), index_db=state.index_if_any(),
                             settings=state.settings)
        searched_again()
        return out

    def forget(note: str) -> dict[str, Any]:
        """Archive one of your notes (its path, file name or title from remember); only
        agent-written notes, never the user's. It leaves recall; the file is kept."""
        # lazy: vaultd.mcp.memory costs 437 ms at import (pulls in pydantic, apsw)
        from vaultd.mcp.memory import forget as archive_note

        v = state.require_vault()
        with _writing_tool():
            out = archive_note(v, note, notes_dir=notes_dir())
        searched_again()
        return out

    # This module has `from __future__ import annotations` and imports the SDK lazily: the
    # SDK finds the Context parameter by resolving annotations, so give it the class.
    remember.__annotations__["ctx"] = Context | None
    server.tool()(remember)
    server.tool()(forget)


def _client_name(ctx: Any) -> str:
    """The MCP client's name from its initialize request ("agent" when it gave none)."""
    params = getattr(getattr(ctx, "session", None), "client_params", None)
    info = getattr(params, "client_info", None)
    return str(getattr(info, "name", None) or "agent")
