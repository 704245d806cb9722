"""Parse wiki notes (pure: strings in, a ``Note`` out): the frontmatter, the citations
region, the quotes region's chunk blocks and the user's own text around them. The format
is written by ``notes/markdown`` and documented in docs/note-format.md."""

from __future__ import annotations

import datetime as _dt
import json
import re
from typing import Any

import yaml
from pydantic import ValidationError

from vaultd.errors import NoteFormatError
from vaultd.models import Chunk, Note, NoteMeta, Provenance
from vaultd.notes.escape import unescape
from vaultd.notes.folds import unfolded
from vaultd.notes.layout import (
    ADVISORY,
    ADVISORY_CALLOUT,
    CARRIED,
    CHUNK_BEGIN_RE,
    CHUNK_END,
    CHUNK_EXTRAS,
    CITATIONS_BEGIN,
    CITATIONS_END,
    HEADING_STYLES,
    META_FIELDS,
    QUOTES_BEGIN,
    QUOTES_END,
    USER_HEADING_RE,
    USUAL_TYPE,
    YAML_FENCE_RE,
)
from vaultd.notes.places import linked_place, next_range
from vaultd.notes.provenance_yaml import (
    SAFE_LOADER,
    fast_block_mapping,
)

# --- parse ---------------------------------------------------------------------------


def _fail(source: str, what: str) -> NoteFormatError:
    return NoteFormatError(f"{source}: {what}; fix the note by hand or recompile it")


def yaml_mapping(text: str, source: str, what: str) -> dict[str, Any]:
    fast = fast_block_mapping(text)  # the usual flat blocks, read without PyYAML
    if fast is not None:
        return fast
    try:
        data = yaml.load(text, Loader=SAFE_LOADER)
    except yaml.YAMLError as exc:
        first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise _fail(source, f"invalid YAML in {what} ({first})") from exc
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise _fail(source, f"{what} is not a YAML mapping")
    return {str(k): v.isoformat() if isinstance(v, _dt.date) else v for k, v in data.items()}


def split_frontmatter(text: str, source: str = "<note>") -> tuple[str, int]:
    """The frontmatter YAML and the offset where the body starts."""
    if not text.startswith("---\n"):
        raise _fail(source, "no YAML frontmatter (the note must start with a '---' line)")
    end = re.compile(r"^---[ \t]*$\n?", re.MULTILINE).search(text, 4)
    if end is None:
        raise _fail(source, "frontmatter is not closed by a '---' line")
    return text[4 : end.start()], end.end()


def parse_meta(yaml_text: str, source: str) -> tuple[NoteMeta, dict[str, Any]]:
    data = yaml_mapping(yaml_text, source, "frontmatter")
    known = {k: v for k, v in data.items() if k in META_FIELDS}
    known.setdefault("note_format", 1)  # notes written before the field existed
    raw = known.get("raw")
    if isinstance(raw, str) and raw.startswith("[[") and raw.endswith("]]"):
        known["raw"] = raw[2:-2]
    try:
        meta = NoteMeta.model_validate(known)
    except ValidationError as exc:
        err = exc.errors()[0]
        loc = ".".join(str(p) for p in err["loc"])
        raise _fail(source, f"frontmatter field {loc!r}: {err['msg']}") from exc
    return meta, {k: v for k, v in data.items() if k not in META_FIELDS}


def _parse_inline(value: str) -> str:
    return str(json.loads(value)) if value.startswith('"') else value


def _parse_citations(lines: list[str], source: str) -> dict[str, str]:
    citations: dict[str, str] = {}
    style: str | None = None
    body: list[str] = []

    def flush() -> None:
        if style is None:
            return
        text = "\n".join(body).strip("\n")
        fence = re.fullmatch(r"(`{3,})bibtex\n(.*)\n\1", text, re.DOTALL)
        citations[style] = fence.group(2) if fence else text

    for line in lines:
        if line.startswith("### "):
            flush()
            heading = line[4:]
            style, body = HEADING_STYLES.get(heading, heading), []
        elif style is not None:
            body.append(line)
    flush()
    return citations


#: A one-line quote in format 2: a heading chunk's heading line, a reference entry's list item.
LINE_QUOTE_MARK = r"(?:#{1,6}|-) "
LINE_QUOTE_RE = re.compile(LINE_QUOTE_MARK + "(.*)")


def quote_lines(block: list[str], fmt: int = 1) -> list[str] | None:
    """The quote of a chunk block, as written (None: no quote): the first run of '>'
    lines, unprefixed, or (format 2) a heading line or list item standing before them."""
    for i, line in enumerate(block):
        if fmt >= 2 and (m := LINE_QUOTE_RE.fullmatch(line)) is not None:
            return [m.group(1)]
        if line.startswith(">"):
            out = []
            for quoted in block[i:]:
                if not quoted.startswith(">"):
                    break
                out.append(quoted[2:] if quoted.startswith("> ") else quoted[1:])
            return unfolded(out) if fmt >= 2 else out
    return None


def _advisory(line: str, fmt: int) -> tuple[str, str] | None:
    """``(field, written value)`` of a line carrying LLM text: format 1's
    ``**Paraphrase:** _(LLM, advisory)_ …``, format 2's callout line ``> **Paraphrase:** …``."""
    for label in ("Paraphrase", "Implication"):
        if fmt >= 2:
            prefix = f"> **{label}:** "
            if line.startswith(prefix):
                return label.lower(), line[len(prefix):]
        else:
            prefix = f"**{label}:** "
            if line.startswith(prefix) and line[len(prefix):].startswith(ADVISORY):
                return label.lower(), line[len(prefix) + len(ADVISORY):]
    return None


def _parse_chunk(chunk_id: str, block: list[str], source: str, fmt: int = 1,
                 prev: Provenance | None = None) -> Chunk:
    where = f"chunk {chunk_id}"
    quote = quote_lines(block, fmt)
    if quote is None:
        raise _fail(source, f"{where} has no '>' quote")
    if fmt >= 2:
        quote = [unescape(line) for line in quote]
    text = "\n".join(quote)
    fields: dict[str, Any] = {"paraphrase": None, "implication": None}
    prov: dict[str, Any] | None = None
    if fmt >= 2 and ADVISORY_CALLOUT not in block:  # no LLM text: only the provenance
        for i, line in enumerate(block):
            if line[:1] == "`" and (fence := YAML_FENCE_RE.fullmatch(line)):
                prov = _provenance(block, i, fence.group(1), source, where)
                break
    else:
        i = 0
        in_callout = False
        while i < len(block):
            line = block[i]
            in_callout = (in_callout and line.startswith(">")) or line == ADVISORY_CALLOUT
            found = _advisory(line, fmt) if (in_callout or fmt < 2) else None
            if found is not None:
                try:
                    fields[found[0]] = _parse_inline(found[1])
                except ValueError as exc:
                    raise _fail(source, f"{where}: unreadable {found[0]}") from exc
            fence = YAML_FENCE_RE.fullmatch(line) if prov is None and line[:1] == "`" else None
            if fence:
                prov = _provenance(block, i, fence.group(1), source, where)
                i = block.index(fence.group(1), i + 1)
            i += 1
    if prov is None:
        raise _fail(source, f"{where} has no ```yaml provenance block")
    if not prov.keys().isdisjoint(CHUNK_EXTRAS):
        for key in CHUNK_EXTRAS:
            if key in prov:
                fields[key] = prov.pop(key)
    if fmt >= 2:  # written only where they change (see _chunk_data)
        for key in CARRIED:
            if key not in prov:
                prov[key] = getattr(prev, key) if prev is not None else None
        prov.setdefault("chunk_type", USUAL_TYPE)
    if fmt >= 3 and "char_range" not in prov:  # written only where it does not follow
        prov["char_range"] = next_range(text, prev)
    if fmt >= 3 and "page" not in prov:  # carried by the page links (see _chunk_data)
        prov.update(linked_place(block))
    try:  # one validation for the chunk and its provenance
        return Chunk.model_validate({"id": chunk_id, "text": text, "provenance": prov,
                                     **fields})
    except ValidationError as exc:
        first = exc.errors()[0]
        loc = ".".join(str(p) for p in first["loc"][
            1 if first["loc"][:1] == ("provenance",) else 0:])
        raise _fail(source, f"{where}: bad provenance {loc} ({first['msg']})") from exc


def _provenance(block: list[str], i: int, ticks: str, source: str,
                where: str) -> dict[str, Any]:
    """The provenance block whose fence opens at ``block[i]``."""
    try:
        close = block.index(ticks, i + 1)
    except ValueError as exc:
        raise _fail(source, f"{where}: provenance block is not closed") from exc
    return yaml_mapping("\n".join(block[i + 1 : close]) + "\n", source, where)


def _skip_blank(lines: list[str], i: int) -> int:
    """``i`` past one blank line at ``i`` (the separator render writes), if there is one."""
    return i + 1 if i < len(lines) and lines[i] == "" else i


def _parse_quotes(lines: list[str], source: str, notes: dict[str, str], fmt: int = 1) -> list[Chunk]:
    """Chunks of the quotes region; any other line (blank ones too) is the user's, kept
    verbatim in ``notes`` under the id of the chunk it follows ('' before the first one),
    except the lines render itself writes: the ``## Quotes`` heading with its blank line
    and the blank line after each chunk. Whitespace-only text is not kept."""
    chunks: list[Chunk] = []
    after = ""
    i = _skip_blank(lines, 1) if lines and lines[0] == "## Quotes" else 0
    while i < len(lines):
        m = CHUNK_BEGIN_RE.fullmatch(lines[i])
        if m is None:
            notes[after] = notes.get(after, "") + lines[i] + "\n"
            i += 1
            continue
        after = m.group(1)
        try:
            end = lines.index(CHUNK_END, i + 1)
        except ValueError as exc:
            raise _fail(source, f"chunk {m.group(1)} is not closed by {CHUNK_END}") from exc
        prev = chunks[-1].provenance if chunks else None
        chunks.append(_parse_chunk(m.group(1), lines[i + 1 : end], source, fmt, prev))
        i = _skip_blank(lines, end + 1)
    if len({c.id for c in chunks}) != len(chunks):
        raise _fail(source, "two chunks share an id")
    for key in [k for k, text in notes.items() if not text.strip()]:
        del notes[key]
    return chunks


def split_user_blocks(text: str) -> list[str]:
    """User text split before each level-1/2 heading line (concatenation is the text)."""
    blocks: list[str] = []
    for line in re.findall(r"[^\n]*\n|[^\n]+$", text):
        if not blocks or USER_HEADING_RE.match(line):
            blocks.append(line)
        else:
            blocks[-1] += line
    return blocks


def _title_line(lines: list[str], meta: NoteMeta) -> int | None:
    """Index of the generated ``# Title`` line: before the first generated region, the
    line render would write for this title, else the first ``# `` line (the title was
    edited). Text the user typed above it does not hide it."""
    end = next((i for i, line in enumerate(lines) if line in (CITATIONS_BEGIN, QUOTES_BEGIN)), len(lines))
    rendered = "# " + (meta.title or meta.cite_key).replace("\r", " ").replace("\n", " ")
    head = lines[:end]
    if rendered in head:
        return head.index(rendered)
    return next((i for i, line in enumerate(head) if line.startswith("# ")), None)


def parse_note(text: str, source: str = "<note>") -> Note:
    """Read a note back; raises NoteFormatError naming ``source`` for a broken note."""
    text = text.replace("\r\n", "\n")  # an editor that saved CRLF line ends
    fm, pos = split_frontmatter(text, source)
    meta, extra = parse_meta(fm, source)
    lines = text[pos:].split("\n")
    user_text: list[str] = []
    citations: dict[str, str] = {}
    chunks: list[Chunk] = []
    notes: dict[str, str] = {}
    title_at = _title_line(lines, meta)
    i = _skip_blank(lines, 0)  # the blank line render writes after the frontmatter
    while i < len(lines):
        line = lines[i]
        region = {CITATIONS_BEGIN: CITATIONS_END, QUOTES_BEGIN: QUOTES_END}.get(line)
        if region is not None:
            try:
                end = lines.index(region, i + 1)
            except ValueError as exc:
                raise _fail(source, f"{line} is not closed by {region}") from exc
            inner = lines[i + 1 : end]
            if line == CITATIONS_BEGIN:
                citations = _parse_citations(inner, source)
            else:
                chunks = _parse_quotes(inner, source, notes, meta.note_format)
            # The blank line render puts after a region is the separator, not user text.
            i = end + (2 if end + 1 < len(lines) and lines[end + 1] == "" else 1)
            continue
        if i == title_at:
            if not "".join(user_text).strip():
                user_text = []  # only blank lines above the title: nothing of the user's
            i = _skip_blank(lines, i + 1)
            continue
        last = i == len(lines) - 1
        user_text.append(line if last else line + "\n")
        i += 1
    user = "".join(user_text)
    blocks = split_user_blocks(user) if user.strip() else []
    return Note(meta=meta, citations=citations, chunks=chunks, user_blocks=blocks,
                annotations=notes, frontmatter_extra=extra)
