"""Capture: any input → ``raw/<cite_key>.pdf`` + ``raw/<cite_key>.meta.json``.

Detect the input, ask arXiv/CrossRef/OpenAlex/Unpaywall, reconcile, pick the cite key,
fetch a PDF (given file, arXiv, Unpaywall, OpenAlex; HTML landing pages are refused by
sniffing ``%PDF-``), write both files atomically. Idempotent by arXiv id, DOI and PDF
SHA-256; ``refresh`` re-asks the sources and keeps the key. Where a work lands (key,
record, files) is vaultd.pipeline.capture_store.
"""

from __future__ import annotations

import asyncio
import tempfile
import weakref
from collections.abc import Callable
from functools import partial
from pathlib import Path

import httpx

from vaultd import citekey, record_store
from vaultd.capture import records
from vaultd.capture.bib import BibEntry, read_bib_library
from vaultd.capture.detect import (
    Detected,
    detect,
    detect_id,
    links_in_text,
    links_in_url_file,
    links_in_webloc,
)
from vaultd.capture.http import Fetcher, new_client, shared_limiter
from vaultd.capture.metadata import Gathered, gather
from vaultd.capture.pdfmeta import PdfMeta, read_pdf_meta
from vaultd.capture.reconcile import reconcile, titles_roughly_match
from vaultd.config import Settings
from vaultd.errors import FetchError, InputError, NoMetadataError
from vaultd.models import Work
from vaultd.pipeline.bib_records import (
    bib_cite_key,
    bib_key_warnings,
    complete_from_bib,
    library_entries,
)
from vaultd.pipeline.capture_results import CaptureResults as CaptureResults
from vaultd.pipeline.capture_results import ItemsFailedError as ItemsFailedError
from vaultd.pipeline.capture_results import each
from vaultd.pipeline.capture_store import (
    CaptureResult,
    CaptureRun,
    existing_record,
    new_key,
    same_paper,
    same_work,
    unique,
    write_record,
)
from vaultd.pipeline.pdf_hint import MAX_PRINTED_IDS, pdf_hint, printed_ids, printed_ids_warning
from vaultd.statedb import open_state_db
from vaultd.vault import Vault, file_sha256

FILE_SUFFIXES = (".pdf", ".bib", ".url", ".webloc", ".txt", ".md", ".json")



# Cite-key assignment must see every earlier key: one lock per event loop (captures in
# one loop run concurrently; the daemon serialises its threads with its own lock).
_KEY_LOCKS: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, asyncio.Lock] = \
    weakref.WeakKeyDictionary()


_ITEM_LOCKS: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, dict[str, asyncio.Lock]] = \
    weakref.WeakKeyDictionary()


async def capture(vault: Vault, settings: Settings, input: str, *, doi: str | None = None,
                  cite_key: str | None = None, refresh: bool = False,
                  client: httpx.AsyncClient | None = None,
                  on_wait: Callable[[str], None] | None = None) -> list[CaptureResult]:
    """Capture ``input`` (path, id, URL, link file or .bib); one result per item."""
    found = detect(input)
    if found is None and "://" not in input and _is_file(input):
        raise InputError(_unsupported_file(Path(input.strip())))
    if found is None and Path(input.strip()).suffix.lower() in FILE_SUFFIXES \
            and "://" not in input:
        raise InputError(f"{input}: no such file; check the path")
    if found is None:
        raise InputError(f"cannot recognise {input!r} as a PDF, arXiv id, DOI, URL, link file "
                         "or .bib; check the spelling or the path")
    if cite_key is not None and (problem := citekey.key_problem(cite_key)) is not None:
        raise InputError(f"--cite-key {cite_key!r} is not a valid cite key: {problem}")
    if doi is not None:
        flag_doi = detect_id(doi)
        if flag_doi is None or flag_doi.kind != "doi":
            raise InputError(f"--doi {doi!r} is not a DOI; give it as 10.NNNN/...")
        doi = flag_doi.value
    cfg = settings.capture
    own_client = client is None
    http = client or new_client()
    limiters = {"arxiv": shared_limiter("arxiv", cfg.arxiv_interval_seconds,
                                       vault.machine_dir)}
    key_lock = _KEY_LOCKS.setdefault(asyncio.get_running_loop(), asyncio.Lock())
    db = open_state_db(vault.state_db)
    try:
        fetcher = Fetcher(http, email=cfg.email, max_retries=cfg.max_retries,
                          timeout_seconds=cfg.timeout_seconds, cache=db, refresh=refresh,
                          limiters=limiters, max_bytes=cfg.max_download_mb * 2**20,
                          error_ttl_seconds=cfg.error_cache_minutes * 60,
                          allow_private=cfg.allow_private_addresses, on_wait=on_wait)
        run = CaptureRun(vault, settings, fetcher, db, refresh, key_lock)
        records.sync(vault, db)
        return await _dispatch(run, found, doi, cite_key)
    finally:
        db.close()
        if own_client:
            await http.aclose()


def _is_file(text: str) -> bool:
    try:
        return len(text) < 4096 and Path(text.strip()).expanduser().is_file()
    except (OSError, ValueError, RuntimeError):  # RuntimeError: '~user' with no such home
        return False


def _unsupported_file(path: Path) -> str:
    """Why an existing file is not captured: it is there, its kind is not read."""
    return (f"cannot capture {path.name}: vaultd reads PDFs, link files (.url, .webloc, .txt, "
            ".md), .bib, .ris and CSL-JSON or Better BibTeX JSON files and yt-dlp .info.json "
            "files; save it as one of those")


def pending_retries(vault: Vault) -> list[str]:
    """Cite keys of records saved with ``needs_retry`` (a local PDF captured while every
    metadata source was down) whose PDF is still under raw/."""
    keys: list[str] = []
    for path in record_store.paths(vault):
        meta = record_store.read_path(path)
        if meta is not None and meta.needs_retry and vault.pdf_path(meta.cite_key).is_file():
            keys.append(meta.cite_key)
    return keys


async def retry_pending(vault: Vault, settings: Settings, *,
                        client: httpx.AsyncClient | None = None) -> CaptureResults:
    """Ask the sources again for every ``needs_retry`` record, keeping its cite key; a
    record whose sources are still down stays pending (and is listed in ``failed`` only
    when its capture raised)."""
    keys = pending_retries(vault)
    if not keys:
        return CaptureResults()

    async def one(key: str) -> list[CaptureResult]:
        return await capture(vault, settings, str(vault.pdf_path(key)), refresh=True,
                             client=client)
    return await each([(key, partial(one, key)) for key in keys])


def capture_sync(vault: Vault, settings: Settings, input: str, *, doi: str | None = None,
                 cite_key: str | None = None, refresh: bool = False,
                 on_wait: Callable[[str], None] | None = None) -> list[CaptureResult]:
    return asyncio.run(capture(vault, settings, input, doi=doi, cite_key=cite_key,
                               refresh=refresh, on_wait=on_wait))


async def _dispatch(run: CaptureRun, found: Detected, doi: str | None,
                    cite_key: str | None) -> list[CaptureResult]:
    if found.kind in ("url_file", "webloc", "link_list"):
        path = Path(found.value)
        if found.kind == "webloc":
            links = links_in_webloc(path.read_bytes())
        elif found.kind == "url_file":
            links = links_in_url_file(path.read_text(encoding="utf-8", errors="replace"))
        else:
            links = links_in_text(path.read_text(encoding="utf-8", errors="replace"))
        items = [d for d in (detect_id(link) for link in links) if d is not None]
        if not items:
            raise InputError(f"{path.name} holds no URL, DOI or arXiv id; add one per line")
        if cite_key and len(items) > 1:
            raise InputError(f"--cite-key needs a single item but {path.name} holds "
                             f"{len(items)}; capture them one by one")
        one_doi = doi if len(items) == 1 else None
        return await each([(item.value, partial(_dispatch_item, run, item, one_doi, cite_key))
                            for item in items])
    if found.kind == "bib":
        return await _capture_bib(run, Path(found.value))
    if found.kind == "library":
        return await _capture_library(run, Path(found.value))
    if found.kind in ("youtube", "video_info"):
        # lazy: vaultd.pipeline.video_capture costs 15 ms at import
        from vaultd.pipeline import video_capture

        if doi is not None:
            raise InputError("--doi is for papers; a video is identified by its URL")
        # Synchronous: the state database connection belongs to this thread, and a
        # capture runs its items one at a time anyway.
        if found.kind == "video_info":
            return video_capture.capture_video_input(run, Path(found.value), cite_key)
        return video_capture.capture_video_url(run, found.value, cite_key)
    return [await _capture_one(run, found, doi, cite_key)]


async def _dispatch_item(run: CaptureRun, item: Detected, doi: str | None,
                         cite_key: str | None) -> list[CaptureResult]:
    return await _dispatch(run, item, doi, cite_key)


async def _capture_bib(run: CaptureRun, path: Path) -> CaptureResults:
    library = read_bib_library(path)
    out = await each([(f"@{entry.key}", partial(_capture_bib_entry, run, entry, path.name))
                       for entry in library.entries])
    out.failed.extend(library.failed)  # entries the file's syntax errors left out
    return out


async def _capture_library(run: CaptureRun, path: Path) -> CaptureResults:
    """A RIS, CSL-JSON or Better BibTeX JSON file: each entry as a .bib entry is captured
    (an entry for a work already in the vault completes its record), with its PDF when the
    file names one."""
    entries, failed = library_entries(path)
    out = await each([(f"@{e.entry.key}" if e.entry.key else e.label,
                        partial(_capture_bib_entry, run, e.entry, path.name, pdf=e.pdf,
                                kind=e.kind)) for e in entries])
    out.failed.extend(failed)
    return out


async def _capture_bib_entry(run: CaptureRun, entry: BibEntry, origin: str = ".bib", *,
                             pdf: Path | None = None, kind: str = ".bib") -> list[CaptureResult]:
    key, key_warning = bib_cite_key(entry.key, kind)
    item: Detected | None = None
    if entry.arxiv_id or entry.doi:
        item = Detected("arxiv", entry.arxiv_id) if entry.arxiv_id else \
            Detected("doi", entry.doi or "")
    if pdf is not None:  # the entry's own PDF: captured with its id, as a dropped PDF is
        item = Detected("pdf", str(pdf))
    res = await _capture_one(run, item, entry.doi if item else None, key,
                             hint=entry.work, bib=True)
    if res.status in ("existing", "refreshed"):
        complete_from_bib(run, res, entry.work, origin)
    res.warnings = unique([*bib_key_warnings(run, entry, key, key_warning, res, kind),
                           *res.warnings])
    return [res]


async def _capture_one(run: CaptureRun, found: Detected | None, doi: str | None,
                       cite_key: str | None, *, hint: Work | None = None,
                       bib: bool = False) -> CaptureResult:
    arxiv_id = found.value if found and found.kind == "arxiv" else None
    doi = doi or (found.value if found and found.kind == "doi" else None)
    warnings: list[str] = []
    pdf_file: Path | None = None
    tmp: tempfile.TemporaryDirectory[str] | None = None
    try:
        if found and found.kind == "pdf_url":
            tmp = tempfile.TemporaryDirectory(prefix="vaultd-capture-")
            pdf_file = await _download_input_pdf(run, found.value, Path(tmp.name))
        elif found and found.kind == "pdf":
            pdf_file = Path(found.value)
        return await _capture_resolved(run, arxiv_id, doi, cite_key, pdf_file, hint, warnings,
                                       arxiv_version=found.version if found else None,
                                       bib=bib)
    finally:
        if tmp is not None:
            tmp.cleanup()


async def _download_input_pdf(run: CaptureRun, url: str, into: Path) -> Path:
    resp = await run.fetcher.get(url, source="PDF URL", use_cache=False, untrusted=True)
    if resp.status != 200 or not resp.body.startswith(b"%PDF-"):
        what = f"HTTP {resp.status}" if resp.status != 200 else "a web page, not a PDF"
        raise InputError(f"{url} answered {what}; pass the DOI or arXiv id instead")
    path = into / "download.pdf"
    path.write_bytes(resp.body)
    return path


async def _from_pdf(run: CaptureRun, meta: PdfMeta, warnings: list[str]) -> tuple[
        str | None, str | None, Gathered | None]:
    """The arXiv id / DOI printed in the PDF whose record's title matches the page."""
    page_title = meta.first_page_title or meta.info_title
    candidates = [("arxiv", a) for a in meta.arxiv_ids] + [("doi", d) for d in meta.dois]
    for kind, value in candidates[:MAX_PRINTED_IDS]:
        got = await gather(run.fetcher, run.settings.capture,
                           arxiv_id=value if kind == "arxiv" else None,
                           doi=value if kind == "doi" else None)
        titles = [w.title for w in got.works if w.title]
        if any(titles_roughly_match(t, page_title) for t in titles):
            return (value if kind == "arxiv" else None), (value if kind == "doi" else None), got
        if titles:
            warnings.append(f'{kind} {value} printed in the PDF belongs to "{titles[0]}", '
                            "not this paper; ignored")
            meta.rejected_ids.append(f"{kind}:{value}")
        elif got.missing:
            warnings.extend(got.missing)
    return None, None, None


async def _capture_resolved(run: CaptureRun, arxiv_id: str | None, doi: str | None,
                            cite_key: str | None, pdf_file: Path | None, hint: Work | None,
                            warnings: list[str], *, arxiv_version: int | None,
                            bib: bool = False) -> CaptureResult:
    pdf_sha = file_sha256(pdf_file) if pdf_file else None
    # The same item captured twice at once: the second waits and finds the first's record
    # (instead of asking arXiv twice).
    ident = f"arxiv:{arxiv_id}" if arxiv_id else f"doi:{doi}" if doi else f"sha:{pdf_sha}"
    locks = _ITEM_LOCKS.setdefault(asyncio.get_running_loop(), {})
    lock = locks.setdefault(ident, asyncio.Lock())
    try:
        async with lock:
            return await _capture_item(run, arxiv_id, doi, cite_key, pdf_file, pdf_sha, hint,
                                       warnings, arxiv_version=arxiv_version, bib=bib)
    finally:
        if not lock.locked():
            locks.pop(ident, None)


async def _capture_item(run: CaptureRun, arxiv_id: str | None, doi: str | None,
                        cite_key: str | None, pdf_file: Path | None, pdf_sha: str | None,
                        hint: Work | None, warnings: list[str], *,
                        arxiv_version: int | None, bib: bool = False) -> CaptureResult:
    existing = records.find(run.db, doi=doi, arxiv_id=arxiv_id, pdf_sha256=pdf_sha)
    if existing and not run.refresh:
        result = existing_record(run, existing, pdf_file, pdf_sha)
        if result is not None:
            return result
    pdf_meta = read_pdf_meta(pdf_file) if pdf_file else None
    got: Gathered | None = None
    if arxiv_id or doi:
        got = await gather(run.fetcher, run.settings.capture, arxiv_id=arxiv_id, doi=doi,
                           arxiv_version=arxiv_version)
        page_title = pdf_meta.first_page_title if pdf_meta else None
        titles = [w.title for w in got.works if w.title]
        if page_title and titles and not any(titles_roughly_match(t, page_title)
                                             for t in titles):
            warnings.append(f'pdf: first page reads "{page_title}", not the title of '
                            f"{arxiv_id or doi}; check that the PDF and the id match")
    elif pdf_meta is not None:
        arxiv_id, doi, got = await _from_pdf(run, pdf_meta, warnings)
    works = list(got.works) if got else []
    if not works:
        # Embedded PDF metadata and .bib fields are hints, used only when no source answered.
        works = [h for h in (hint, pdf_hint(pdf_meta) if pdf_meta else None) if h is not None]
    merged = reconcile(works)
    work = merged.work
    if arxiv_id and not work.arxiv_id:
        work.arxiv_id = arxiv_id
    if arxiv_version and work.arxiv_id == arxiv_id:
        work.arxiv_version = arxiv_version
    work.doi = work.doi or doi
    if got:
        warnings = [*warnings, *got.missing]
    all_down = any(" unavailable: " in w for w in warnings) and not (got and got.works)
    if not (got and got.works) and not (work.doi or work.arxiv_id) and (
            printed := printed_ids(pdf_meta, pdf_meta.rejected_ids if pdf_meta else None)):
        # Unconfirmed: a PDF prints its references' ids too. Kept (never cited), whether the
        # sources were down or answered 404, so the retry pass asks about them again.
        work.printed_ids = printed
        warnings.append(printed_ids_warning(printed, all_down))
    work.warnings = unique([*work.warnings, *warnings])
    # A record the user entered fields in is refreshed even when no source knows it.
    entered = existing is not None and bool(
        (meta := record_store.get(run.vault, existing)) and meta.user)
    if not work.title and not work.authors and not cite_key and not entered:
        what = arxiv_id or doi or (pdf_file.name if pdf_file else "this item")
        if all_down:
            raise FetchError(f"no metadata source answered for {what}; retry later, or pass "
                             "--cite-key KEY to save it now")
        raise NoMetadataError(f"no metadata found for {what}; pass --cite-key KEY "
                              "(and --doi DOI if you know it)", subject=what)
    # Fetch the PDF before taking the key lock, so concurrent captures download in parallel.
    downloaded: bytes | None = None
    fetch_warnings: list[str] = []
    if pdf_file is None and not (existing and run.vault.pdf_path(existing).is_file()):
        downloaded = await _fetch_pdf(run, got.pdf_urls if got else [], fetch_warnings)
    async with run.key_lock:
        with records.capture_lock(run.vault):
            existing = records.find(run.db, doi=work.doi or doi, arxiv_id=work.arxiv_id,
                                    pdf_sha256=pdf_sha) or existing
            if existing and not run.refresh:
                result = existing_record(run, existing, pdf_file, pdf_sha)
                if result is not None:
                    return result
            if not existing and bib:
                # A .bib entry for a work already in the vault completes its record: the
                # record under its key (same title, or a title only read off the PDF), or
                # another key's with the same title, first author and year. When the
                # sources answered, that record is refreshed with their answer.
                existing = (same_paper(run, cite_key, work, guessed=True) if cite_key
                            else None) or same_work(run, work)
                if existing and not run.refresh and not (got and got.works) \
                        and (result := existing_record(run, existing, pdf_file, pdf_sha)):
                    return result
            elif not existing and cite_key and not (work.doi or work.arxiv_id):
                # An id-less record captured before: under its key, or under a suffixed
                # key when the key belonged to another paper.
                existing = same_paper(run, cite_key, work)
                if existing and not run.refresh \
                        and (result := existing_record(run, existing, pdf_file, pdf_sha)):
                    return result
            key = existing or new_key(run, work, cite_key, suffix_if_taken=bib)
            return write_record(run, key, work, pdf_file, pdf_sha, (downloaded, fetch_warnings),
                          got, merged.notes, refreshed=existing is not None,
                          needs_retry=all_down or bool(work.printed_ids), field_sources=merged.field_sources,
                          agreed=merged.agreed)


async def _fetch_pdf(run: CaptureRun, urls: list[str], warnings: list[str]) -> bytes | None:
    for url in urls:
        try:
            resp = await run.fetcher.get(url, source="PDF host", use_cache=False,
                                         limiter="arxiv" if "arxiv" in url else None,
                                         untrusted=not url.startswith(run.settings.capture.arxiv_pdf_url))
        except FetchError as exc:
            warnings.append(f"PDF not fetched from {url}: {exc}")
            continue
        if resp.status == 200 and resp.body.startswith(b"%PDF-"):
            return resp.body
        if resp.status == 200:
            warnings.append(f"{url} served a web page instead of a PDF; skipped")
        else:
            warnings.append(f"{url} answered HTTP {resp.status}; no PDF there")
    return None
