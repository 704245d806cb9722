"""What a .bib entry does to the vault's records: its key kept as written (or why not),
the record of the same work completed with what it gives, and the messages that say so.
An entry of a RIS, CSL-JSON or Better BibTeX JSON file is captured the same way
(``library_entries``: each as a .bib entry, with the PDF the file names).

A .bib entry for a work already in the vault (same key, DOI, arXiv id, or same title,
first author and year) completes that record as the user's metadata (source ``user``,
from the file) and keeps its key and note; an entry whose key belongs to another work is
saved under a new key, and the message names the work that holds the key.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from vaultd import citekey, record_store
from vaultd.capture.bib import BibEntry
from vaultd.capture.detect import normalise_doi
from vaultd.errors import InputError
from vaultd.importers import read_library_file
from vaultd.models import Work
from vaultd.pipeline.capture_store import CaptureResult, CaptureRun
from vaultd.pipeline.record_edit import complete_record

TITLE_CHARS = 60  # longest title a message quotes


def bib_cite_key(key: str, kind: str = ".bib") -> tuple[str | None, str | None]:
    """A .bib entry's key, kept byte for byte when it is a cite key (``citekey.key_problem``:
    Unicode letters, ``.``, ``/`` and the rest are kept; the file name encodes them), and
    a warning when it is not. A key no BibTeX could have written (whitespace, a comma)
    falls back to the configured pattern (None): the user's \\cite could not name it.
    """
    if not key and kind != ".bib":  # a library entry without one: the pattern chooses
        return None, None
    problem = citekey.key_problem(key)
    if problem is None:
        return key, None
    return None, (f"{kind} key {key!r} is not a cite key ({problem}); the configured "
                  "pattern chose the key")


def complete_from_bib(run: CaptureRun, res: CaptureResult, given: Work, origin: str) -> None:
    """Complete the record ``res`` found for a .bib entry: the fields the record lacks or
    only read off the PDF become the user's (from ``origin``); ``res`` then says so, and
    names the fields where the entry differs from what the record keeps."""
    meta, completed, kept = complete_record(run.vault, res.cite_key, given, origin=origin)
    if completed:
        res.meta, res.status = meta, "completed"
        res.notes.append(f"completed from {origin}: {', '.join(completed)} (entered by you; "
                         f"`vaultd meta {res.cite_key}` shows the record)")
    if kept:
        res.notes.append(f"kept the record's {', '.join(kept)}: {origin} gives other values "
                         f"(`vaultd meta {res.cite_key} --set FIELD=VALUE` enters yours)")


def bib_key_warnings(run: CaptureRun, entry: BibEntry, key: str | None,
                     key_warning: str | None, res: CaptureResult, kind: str = ".bib"
                     ) -> list[str]:
    """What became of the entry's key: not a cite key, already another key's record, or
    another work's key (named) so the entry got a new one."""
    out = [key_warning] if key_warning else []
    if key and citekey.fold_key(res.cite_key) != citekey.fold_key(key):
        if res.status in ("existing", "completed"):
            out.append(f"{kind} key {key!r}: {entry.doi or entry.arxiv_id or 'this entry'}"
                       f" is already captured as {res.cite_key!r}; kept that record")
        else:
            out.append(f"{kind} key {key!r} already belongs to a different paper, "
                       f"{named(run, key)}; this entry was saved as {res.cite_key!r}")
    return out


def named(run: CaptureRun, key: str) -> str:
    """The work a key holds, as a message names it: its title and id."""
    meta = record_store.get(run.vault, key)
    if meta is None:
        return "another record"
    ident = f"doi:{meta.work.doi}" if meta.work.doi else \
        f"arXiv:{meta.work.arxiv_id}" if meta.work.arxiv_id else None
    title = meta.work.title or "untitled"
    if len(title) > TITLE_CHARS:
        title = title[: TITLE_CHARS - 3] + "..."
    return f'"{title}"' + (f" ({ident})" if ident else "")


#: How messages name an entry's key, by the reader that read it.
_KINDS = {"ris": "RIS", "csl-json": "CSL-JSON", "better-bibtex-json": "Better BibTeX JSON"}


@dataclass(frozen=True)
class LibraryEntry:
    """One item of a library file, as capture takes a .bib entry, with its PDF."""

    entry: BibEntry
    pdf: Path | None
    label: str  # how messages name it
    kind: str  # how messages name its key: 'RIS key', 'CSL-JSON key'


def library_entries(path: Path) -> tuple[list[LibraryEntry], list[tuple[str, str]]]:
    """The entries of a RIS, CSL-JSON or Better BibTeX JSON file, and (entry, why) for
    each that could not be read; InputError when the file cannot be read or holds none."""
    result = read_library_file(path)
    failed = [(p.item, p.reason) for p in result.problems if p.skipped]
    entries = [LibraryEntry(BibEntry(item.key or "", item.work,
                                     normalise_doi(item.work.doi) if item.work.doi else None,
                                     item.work.arxiv_id),
                            next((a.path for a in item.pdfs), None), item.origin.label,
                            _KINDS.get(str(item.key_source), "library"))
               for item in result.items]
    if not entries:
        why = "; ".join(f"{item}: {reason}" for item, reason in failed) or "it holds none"
        raise InputError(f"{path.name}: no entry could be read ({why}); fix the file")
    return entries, failed
