"""The record store: every reader and writer of ``raw/<key>.meta.json`` goes through here.

A record is a ``MetaFile`` (the reconciled Work, its provenance, the user's fields). One
error type, ``RecordError`` (an InputError: one line naming the file and what to do), for
a record that is missing or unreadable; readers that can do without one use ``get``
(None) or ``iter_records`` (the readable ones; an unreadable file is logged, never
fatal). Reads are cached by file identity (path, mtime, size), so a recall answering
twenty hits from one work parses its record once; a write replaces the file atomically
and the next read sees it.
"""

from __future__ import annotations

import json
import logging
import re
import threading
from collections.abc import Iterator
from pathlib import Path

from pydantic import ValidationError

from vaultd.citekey import filename_to_key
from vaultd.errors import InputError
from vaultd.models import MetaFile
from vaultd.vault import Vault, atomic_write_text

log = logging.getLogger(__name__)

META_SUFFIX = ".meta.json"
_CACHE_SIZE = 512


class RecordError(InputError):
    """A record that is missing or cannot be read."""


_cache: dict[Path, tuple[tuple[int, int, int], MetaFile]] = {}
_lock = threading.Lock()


def _read(path: Path) -> MetaFile:
    """The record at ``path``; OSError when it cannot be opened, ValueError when it is not
    a valid record."""
    st = path.stat()
    stamp = (st.st_ino, st.st_mtime_ns, st.st_size)
    with _lock:
        hit = _cache.get(path)
    if hit is not None and hit[0] == stamp:
        return hit[1]
    meta = MetaFile.model_validate_json(path.read_bytes())
    with _lock:
        if len(_cache) >= _CACHE_SIZE:
            _cache.clear()
        _cache[path] = (stamp, meta)
    return meta


def exists(vault: Vault, cite_key: str) -> bool:
    return bool(cite_key) and vault.meta_path(cite_key).is_file()


def load(vault: Vault, cite_key: str) -> MetaFile:
    """The record of ``cite_key``; RecordError when there is none or it cannot be read."""
    path = vault.meta_path(cite_key)
    if not path.is_file():
        where = vault.rel(path) if path.parent.exists() else path
        raise RecordError(f"{where}: no such record; capture it first (`vaultd capture ...`)")
    try:
        return _read(path)
    except OSError as exc:
        raise RecordError(f"cannot read {vault.rel(path)}: {exc.strerror or exc}; check the "
                          "file's permissions") from exc
    except (ValidationError, ValueError) as exc:
        raise RecordError(f"cannot read {vault.rel(path)}: not a valid record "
                          f"({exc.__class__.__name__}); re-capture it with "
                          f"`vaultd capture --refresh {cite_key}`") from exc


def get(vault: Vault, cite_key: str) -> MetaFile | None:
    """The record of ``cite_key``, or None when there is none or it cannot be read."""
    if not cite_key:
        return None
    return read_path(vault.meta_path(cite_key))


def read_path(path: Path) -> MetaFile | None:
    """The record stored at ``path`` (a ``raw/*.meta.json``), or None."""
    try:
        return _read(path)
    except FileNotFoundError:
        return None
    except (OSError, ValidationError, ValueError) as exc:
        log.warning("%s: unreadable record (%s); skipped", path.name, exc.__class__.__name__)
        return None


def paths(vault: Vault) -> list[Path]:
    """Every record file of the vault, in key order."""
    if not vault.raw.is_dir():
        return []
    return sorted(vault.raw.glob(f"*{META_SUFFIX}"))


def iter_records(vault: Vault) -> Iterator[MetaFile]:
    """Every readable record of the vault, in key order."""
    for path in paths(vault):
        meta = read_path(path)
        if meta is not None:
            yield meta


#: A record that keeps aliases (the rest are told apart by their bytes, not parsed).
_HAS_ALIASES = re.compile(rb'"aliases":\s*\[\s*"')


def aliases(vault: Vault) -> dict[str, str]:
    """Every alias a record keeps (a library's other key for its work) → the record's key.
    Only records that have some are parsed: the rest are told apart by their bytes."""
    out: dict[str, str] = {}
    for path in paths(vault):
        try:
            data = path.read_bytes()
        except OSError:
            continue
        if _HAS_ALIASES.search(data) is None:
            continue
        meta = read_path(path)
        for alias in meta.aliases if meta is not None else ():
            out.setdefault(alias, meta.cite_key if meta is not None else "")
    return out


def resolve(vault: Vault, key: str) -> str | None:
    """The cite key ``key`` names: itself when it has a record, else the key of the record
    that keeps it as an alias (a library's other key for the work), else None."""
    if exists(vault, key):
        return key
    return aliases(vault).get(key) if key else None


def key_of(path: Path) -> str:
    """The cite key a record file stands for."""
    return filename_to_key(path.name[: -len(META_SUFFIX)])


def write(vault: Vault, meta: MetaFile) -> Path:
    """Write ``meta`` atomically as its key's record."""
    path = vault.meta_path(meta.cite_key)
    data = meta.model_dump(mode="json", by_alias=True, exclude_none=False)
    atomic_write_text(path, json.dumps(data, indent=2, ensure_ascii=False) + "\n")
    with _lock:
        _cache.pop(path, None)
    return path
