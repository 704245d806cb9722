"""The user's own Markdown notes, split into sections by headings.

Which files count: every ``*.md`` in the vault except ``.vaultd/``, ``raw/``, ``Inbox/``
and hidden directories (``.obsidian/``, ``.trash/``). Paper notes (``wiki/<key>.md``) are
indexed from their parsed chunks instead; only their user blocks count as the user's own.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from vaultd.sync_conflicts import conflict_original
from vaultd.vault import Vault

_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
_FENCE = re.compile(r"^\s*(```|~~~)")
MAX_SECTION_CHARS = 4000


@dataclass(frozen=True)
class Section:
    heading: str | None
    line_start: int  # 1-based, inclusive
    line_end: int
    text: str


def iter_markdown_files(vault: Vault) -> Iterator[Path]:
    """Every Markdown file the index looks at, sorted by path."""
    skip = {vault.state_dir.name, vault.raw.name, vault.inbox.name}
    out: list[Path] = []
    for path in vault.root.rglob("*.md"):
        parts = path.relative_to(vault.root).parts
        if parts[0] in skip or any(p.startswith(".") for p in parts):
            continue
        if conflict_original(path.name) is not None:
            continue  # a sync tool's conflict copy: listed by `vaultd status`, never indexed
        out.append(path)
    yield from sorted(out)


def _strip_frontmatter(lines: list[str]) -> int:
    """Index of the first body line (after a leading ``---`` YAML block)."""
    if lines and lines[0].strip() == "---":
        for i in range(1, len(lines)):
            if lines[i].strip() in ("---", "..."):
                return i + 1
    return 0


def split_sections(text: str, *, first_line: int = 1) -> list[Section]:
    """Split Markdown into (heading, line range, text) sections; empty sections dropped.

    Headings inside fenced code blocks do not split. Very long sections are cut at
    paragraph boundaries so one passage stays a useful recall unit.
    """
    lines = text.splitlines()
    start = _strip_frontmatter(lines)
    sections: list[Section] = []
    heading: str | None = None
    buf: list[str] = []
    buf_start = start
    in_fence = False

    def flush(end: int) -> None:
        body = "\n".join(buf).strip()
        if body:
            sections.extend(_cut(heading, buf_start + first_line, body, buf))
        buf.clear()

    for i in range(start, len(lines)):
        line = lines[i]
        if _FENCE.match(line):
            in_fence = not in_fence
        m = None if in_fence else _HEADING.match(line)
        if m:
            flush(i)
            heading = m.group(2).strip() or None
            buf_start = i + 1
            continue
        buf.append(line)
    flush(len(lines))
    return sections


def _cut(heading: str | None, line_start: int, body: str, raw: list[str]) -> list[Section]:
    # Leading blank lines do not belong to the section's range.
    lead = 0
    while lead < len(raw) and not raw[lead].strip():
        lead += 1
    first = line_start + lead
    if len(body) <= MAX_SECTION_CHARS:
        return [Section(heading, first, first + body.count("\n"), body)]
    out: list[Section] = []
    cur: list[str] = []
    cur_start = first
    line_no = first
    for line in raw[lead:]:
        if not line.strip() and sum(len(x) + 1 for x in cur) >= MAX_SECTION_CHARS // 2:
            chunk = "\n".join(cur).strip()
            if chunk:
                out.append(Section(heading, cur_start, line_no - 1, chunk))
            cur = []
            cur_start = line_no + 1
        else:
            cur.append(line)
        line_no += 1
    chunk = "\n".join(cur).strip()
    if chunk:
        out.append(Section(heading, cur_start, line_no - 1, chunk))
    return out
