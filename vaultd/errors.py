"""The exception hierarchy of vaultd.

    VaultdError                 base: every expected failure; message is one line saying
    │                           what failed, for which input, and what to do
    ├── ConfigError             bad config file, key or value
    ├── VaultError              no vault, not a vault, locked by another process
    ├── InputError              an input vaultd cannot recognise (bad id, unreadable file)
    ├── SourceNotFoundError     a metadata source knows nothing of this id
    ├── FetchError              network / HTTP failure talking to a source (transient)
    ├── ParseError              a PDF or other source document could not be parsed
    ├── NoteFormatError         a wiki note that cannot be read back
    ├── CiteKeyPatternError     malformed cite-key pattern (carries the position)
    ├── LLMUnavailableError     the local LLM is down, missing the model, or timing out
    ├── CitationError           the citation processor (pandoc citeproc) is missing or failed
    └── StoreError              the state or index database failed

Library code raises these (mapping third-party errors at the boundary with
``raise XError(msg) from exc``); only entry points print and exit.
"""

from __future__ import annotations


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


class NoMetadataError(InputError):
    """No source knows the item and nothing in it names the work (no DOI, arXiv id or a
    title the sources match): it cannot get a cite key unless the user gives one."""


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
