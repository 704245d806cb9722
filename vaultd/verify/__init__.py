"""Verify: that what the vault and a draft say still matches the sources.

* ``notes``: every quote in ``wiki/`` against its recorded SHA-256 (drift);
* ``source``: every note's chunks against a fresh reading of its PDF or subtitles;
* ``draft``: the quotes and citations of a manuscript against the vault.
"""

from vaultd.verify.notes import finding, scan_chunks, verify_notes, verify_text

__all__ = ["finding", "scan_chunks", "verify_notes", "verify_text"]
