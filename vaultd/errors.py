"""The exception hierarchy of vaultd.

    VaultdError                 base: every expected failure; message is one line saying
    │                           what failed, for which input, and what to do
    ├── ConfigError             bad config file, key or value
    ├── VaultError              no vault, not a vault, locked by another process
    ├── InputError              an input vaultd cannot recognise (bad id, unreadable file)
    │   ├── LocatorError        a page locator that is malformed or outside the work's pages
    │   └── FieldValueError     a record field the user set that is unknown or malformed
    ├── SourceNotFoundError     a metadata source knows nothing of this id
    ├── FetchError              network / HTTP failure talking to a source (transient)
    ├── ParseError              a PDF or other source document could not be parsed
    ├── NoteFormatError         a wiki note that cannot be read back
    ├── CiteKeyPatternError     malformed cite-key pattern (carries the position)
    ├── LLMUnavailableError     the local LLM is down, missing the model, or timing out
    ├── CitationError           the citation processor (pandoc citeproc) is missing or failed
    ├── StoreError              the state or index database failed
    ├── LibraryError            the lab library (PostgreSQL) refused or is unreachable
    └── DiskError               a write refused by the disk: read-only, full, no permission

Library code raises these (mapping third-party errors at the boundary with
``raise XError(msg) from exc``); only entry points print and exit.
"""

from __future__ import annotations

import errno


class VaultdError(Exception):
    """Base of every expected vaultd failure."""

    #: True when retrying later may succeed (network down, LLM not running).
    transient: bool = False


class ConfigError(VaultdError):
    pass


class VaultError(VaultdError):
    pass


class InputError(VaultdError):
    pass


class LocatorError(InputError):
    """A page locator that is no page, range or list, or names a page the work does not
    have: a usage error (the CLI exits 2)."""


class FieldValueError(InputError):
    """A field of a record the user set (``vaultd meta --set/--edit``) that is no field
    or whose value cannot be read: a usage error (the CLI exits 2); ``field`` names it."""

    def __init__(self, message: str, field: str = "") -> None:
        super().__init__(message)
        self.field = field


class NoMetadataError(InputError):
    """No source knows the item and nothing in it names the work (no DOI, arXiv id or a
    title the sources match): it cannot get a cite key unless the user gives one."""

    def __init__(self, message: str, subject: str = "") -> None:
        super().__init__(message)
        self.subject = subject  # the id or file no source knew: each interface words its advice


class SourceNotFoundError(VaultdError):
    pass


class FetchError(VaultdError):
    transient = True


class ParseError(VaultdError):
    pass


class NoteFormatError(VaultdError):
    pass


class CiteKeyPatternError(VaultdError):
    def __init__(self, message: str, position: int) -> None:
        super().__init__(message)
        self.position = position


class LLMUnavailableError(VaultdError):
    transient = True


class CitationError(VaultdError):
    """The citation processor (pandoc's citeproc) is missing or failed."""


class StoreError(VaultdError):
    pass


class LibraryError(VaultdError):
    """The lab library (a PostgreSQL server) is unreachable, refused the credentials, lacks
    pgvector, or holds a schema this vaultd does not know. Transient when the server could
    not be reached (publishing is queued and retried)."""

    def __init__(self, message: str, *, transient: bool = False) -> None:
        super().__init__(message)
        self.transient = transient


class DiskError(VaultdError):
    """The disk refused a write: ``cause`` is ``read-only``, ``no space left``, ``quota
    exceeded`` or ``permission denied``. Transient for a full disk (space may come back)."""

    def __init__(self, message: str, cause: str) -> None:
        super().__init__(message)
        self.cause = cause
        self.transient = cause in ("no space left", "quota exceeded")


#: errno → (cause, what to do).
_DISK_CAUSES = {
    errno.EROFS: ("read-only", "make it writable (or move the vault to a writable disk) "
                                "and run the command again"),
    errno.ENOSPC: ("no space left", "free some space on that disk; nothing was half-written"),
    errno.EDQUOT: ("quota exceeded", "free some space in your quota; nothing was half-written"),
    errno.EACCES: ("permission denied", "give your user write permission there and run the "
                                        "command again"),
    errno.EPERM: ("permission denied", "give your user write permission there and run the "
                                       "command again"),
}


def disk_error(exc: OSError) -> DiskError | None:
    """The one-line ``DiskError`` for an ``OSError`` the disk raised on a write (the path
    and the cause named), or None for any other ``OSError``."""
    found = _DISK_CAUSES.get(exc.errno or 0)
    if found is None:
        return None
    cause, todo = found
    where = str(exc.filename or "the vault or vaultd's state directory")
    name = where.rsplit("/", 1)[-1]
    if name.startswith(".") and name.endswith(".tmp") and "/" in where:
        where = where.rsplit("/", 1)[0]  # an atomic write's temporary file: its folder
    return DiskError(f"{where}: {cause} ({exc.strerror or cause}); {todo}", cause)


def database_disk_error(path: object, message: str) -> DiskError | None:
    """The ``DiskError`` for an SQLite failure that is the disk's (read-only, full), from
    the message SQLite gives, or None."""
    text = message.lower()
    if "readonly" in text or "read-only" in text:
        cause = "read-only"
    elif "disk is full" in text or "database or disk is full" in text:
        cause = "no space left"
    else:
        return None
    todo = next(t for c, t in _DISK_CAUSES.values() if c == cause)
    return DiskError(f"{path}: {cause} ({message}); {todo}", cause)
