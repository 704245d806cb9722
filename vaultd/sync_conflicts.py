"""Sync tools' conflict copies: told apart from real notes by their names. Pure.

When two machines change one file before a sync tool reconciles them, the tool keeps both
and names the loser after the file:

* Syncthing: ``note.sync-conflict-20240501-101500-ABCDEF7.md``
* Dropbox: ``note (Ada's conflicted copy 2024-05-01).md``, ``note (conflicted copy
  2024-05-01).md``; Nextcloud and ownCloud: ``note (conflicted copy 2024-05-01
  101500).md``
* Google Drive, Resilio and others: ``note (conflict 2024-05-01).md``,
  ``note (Conflict).md``

vaultd never indexes such a copy (it would show a paper's quotes twice, the second time
as the user's own note) and ``vaultd status`` lists each with the file it is a copy of,
so the user keeps one. iCloud's ``note 2.md`` and OneDrive's ``note-LAPTOP.md`` are not
recognised: those names are also names people choose.
"""

from __future__ import annotations

import re

_SYNCTHING_RE = re.compile(
    r"^(?P<stem>.+)\.sync-conflict-\d{8}-\d{6}(?:-[A-Z0-9]{7})?(?P<ext>\.[^.]+)?$", re.DOTALL)
_BRACKETED_RE = re.compile(
    r"^(?P<stem>.+?) \((?:[^()]*'s )?(?:conflicted copy|conflict)\b[^()]*\)(?P<ext>\.[^.]+)?$",
    re.IGNORECASE | re.DOTALL)


def conflict_original(name: str) -> str | None:
    """The name of the file ``name`` is a sync conflict copy of, or None for any other
    name: ``note (conflict 2024-05-01).md`` → ``note.md``."""
    for pattern in (_SYNCTHING_RE, _BRACKETED_RE):
        m = pattern.match(name)
        if m is not None and m.group("stem").strip():
            return m.group("stem") + (m.group("ext") or "")
    return None
