"""Data models shared by every part of vaultd (pure: no I/O, nothing else of vaultd).

- ``work``: ``Work``, bibliographic metadata that maps losslessly to CSL-JSON, its authors
  and notices;
- ``note``: ``Chunk`` and ``Provenance`` (one extracted passage and where it came from),
  highlights, ``NoteMeta`` (a wiki note's frontmatter), ``Note``, verify's findings;
- ``record``: ``MetaFile``, the on-disk ``raw/<key>.meta.json``, with the user's values.
"""

from vaultd.models.note import (
    NOTE_FORMAT,
    Chunk,
    ChunkHighlight,
    Finding,
    FindingKind,
    Highlight,
    HighlightKind,
    HighlightSource,
    HighlightStatus,
    Note,
    NoteMeta,
    Provenance,
    VerifyReport,
)
from vaultd.models.record import ImportOrigin, MetaFile, UserValue
from vaultd.models.work import (
    Author,
    ChunkType,
    CSLType,
    EnrichmentState,
    Notice,
    NoticeKind,
    PageLabelSource,
    PageLabelStatus,
    Work,
)

__all__ = ['NOTE_FORMAT', 'Author', 'CSLType', 'Chunk', 'ChunkHighlight', 'ChunkType', 'EnrichmentState', 'Finding', 'FindingKind', 'Highlight', 'HighlightKind', 'HighlightSource', 'HighlightStatus', 'ImportOrigin', 'MetaFile', 'Note', 'NoteMeta', 'Notice', 'NoticeKind', 'PageLabelSource', 'PageLabelStatus', 'Provenance', 'UserValue', 'VerifyReport', 'Work']
