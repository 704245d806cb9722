"""Render and parse wiki notes (pure: strings in, strings out).

A note is YAML frontmatter, a generated ``# Title``, a generated citations region, a
generated quotes region of chunk blocks, and the user's own text. Generated parts sit
between HTML-comment markers on their own lines (invisible in Obsidian's reading view), so
parsing does not depend on headings or blank lines the user may edit around them::

    <!-- vaultd:citations -->  ...  <!-- /vaultd:citations -->
    <!-- vaultd:quotes -->  ...  <!-- /vaultd:quotes -->
    <!-- chunk id=p4s32c1 -->  ...  <!-- /chunk -->

Everything outside the markers (except the frontmatter and the title line) is the user's,
kept byte-for-byte and re-rendered after the generated regions. The format is documented
in docs/note-format.md.
"""

from __future__ import annotations

import datetime as _dt
import json
import re
from typing import Any

import yaml
from pydantic import ValidationError

from vaultd.citekey import key_to_filename
from vaultd.errors import NoteFormatError
from vaultd.models import NOTE_FORMAT, Chunk, Note, NoteMeta, Provenance
from vaultd.notes.escape import escape, unescape
from vaultd.notes.folds import fold_header, unfolded
from vaultd.notes.highlights import highlight_lines
from vaultd.notes.pages import chunk_warnings, outward, page_links, ref_link
from vaultd.notes.places import linked_place, next_range, stored_place
from vaultd.notes.provenance_yaml import (
    SAFE_LOADER,
    BlockDumper,
    FrontDumper,
    dump_yaml,
    fast_block_mapping,
    fast_block_yaml,
)
from vaultd.sentences import key_sentence_text

CITATIONS_BEGIN = "<!-- vaultd:citations -->"
CITATIONS_END = "<!-- /vaultd:citations -->"
QUOTES_BEGIN = "<!-- vaultd:quotes -->"
QUOTES_END = "<!-- /vaultd:quotes -->"
CHUNK_END = "<!-- /chunk -->"
CHUNK_BEGIN_RE = re.compile(r"<!-- chunk id=(\S+) -->")
YAML_FENCE_RE = re.compile(r"(`{3,})yaml")
MY_NOTES_BLOCK = "## My notes\n\n"
ADVISORY = "_(LLM, advisory)_ "


STYLE_HEADINGS = {"apa": "APA", "mla": "MLA", "chicago": "Chicago", "ieee": "IEEE", "bibtex": "BibTeX"}
_HEADING_STYLES = {v: k for k, v in STYLE_HEADINGS.items()}
_OPTIONAL_FLAGS = frozenset({"retracted", "notices"})  # written only when set
_PROVENANCE_FIELDS = tuple(Provenance.model_fields)
_CHUNK_EXTRAS = ("figure", "markdown", "refs", "linked_notes", "enrichment", "enrichment_note",
                 "key_sentence", "highlights")
_META_FIELDS = frozenset(NoteMeta.model_fields)
_USER_HEADING_RE = re.compile(r"#{1,2} ")
def _fence(body: str, info: str) -> str:
    """A code fence longer than any backtick run inside ``body`` (CommonMark rule)."""
    longest = max((len(run) for run in re.findall(r"`+", body)), default=0)
    ticks = "`" * max(3, longest + 1)
    return f"{ticks}{info}\n{body}{'' if body.endswith(chr(10)) or not body else chr(10)}{ticks}\n"


# --- links ---------------------------------------------------------------------------


# --- render --------------------------------------------------------------------------


def _inline(value: str) -> str:
    """One-line form of advisory text: raw when unambiguous, else a JSON string."""
    raw_ok = bool(value) and value == value.strip() and "\n" not in value and "\r" not in value
    return value if raw_ok and not value.startswith('"') else json.dumps(value, ensure_ascii=False)


def _render_frontmatter(note: Note) -> str:
    data = {k: v for k, v in note.meta.model_dump(mode="json").items()
            if v is not None and not (k in _OPTIONAL_FLAGS and not v)}
    data["note_format"] = NOTE_FORMAT  # render writes the current layout, whatever was read
    if isinstance(data.get("raw"), str) and "]" not in data["raw"] and "|" not in data["raw"]:
        data["raw"] = f"[[{data['raw']}]]"  # a link property: Obsidian opens the PDF
    data.update(note.frontmatter_extra)
    return "---\n" + dump_yaml(data, FrontDumper) + "---\n"


def trust_callouts(meta: NoteMeta) -> list[str]:
    """Obsidian callouts for a retracted work, its notices and unverified metadata."""
    from vaultd.trust import entered_label, unverified_label

    out: list[str] = []
    if meta.retracted:
        out += ["> [!danger] RETRACTED", "> A source reports this work retracted. Do not cite "
                "it as valid work without saying so."]
        out += [f"> - {line}" for line in meta.notices]
        out.append("")
    elif meta.notices:
        out += ["> [!note] Notices", *(f"> - {line}" for line in meta.notices), ""]
    verified = meta.reconciled if meta.verified is None else meta.verified
    if not verified and meta.title:
        again = (f"`vaultd capture --refresh {meta.raw}` asks the sources again; "
                 f"`--doi DOI` gives the id if you know it." if meta.raw else
                 f"`vaultd capture --refresh --cite-key {meta.cite_key} DOI` asks them again "
                 "with its id.")
        out += [f"> [!warning] {unverified_label(meta.sources, meta.warnings)}",
                "> Title, first author and year were not confirmed by two sources: check them "
                f"before citing. {again} `vaultd meta {meta.cite_key}` shows and corrects "
                "them.", ""]
    if meta.entered:
        out += [f"> [!info] {entered_label(meta.entered)}",
                f"> No source replaces these fields; `vaultd meta {meta.cite_key} --unset "
                "FIELD` returns one to the sources.", ""]
    return out


def _render_citations(citations: dict[str, str], meta: NoteMeta) -> str:
    cite_key = meta.cite_key
    out = [CITATIONS_BEGIN, *trust_callouts(meta), "## Citations", ""]
    ident = meta.doi or (f"arXiv:{meta.arxiv_id}" if meta.arxiv_id else None)
    if not citations and ident:
        # It has an id: the sources were down or do not know it yet; asking again is the fix.
        out += [f"*No citation yet: this record has no title, as no metadata source has "
                f"answered for {ident} yet; `vaultd capture --retry-pending` asks them again.*",
                ""]
    elif not citations:
        how = (f"vaultd capture {meta.raw} --doi DOI --refresh" if meta.raw else
               f"vaultd capture DOI --cite-key {cite_key} --refresh")
        out += [f"*No citation yet: this record has no title. Give it an id with `{how}`, "
                f"or enter it: `vaultd meta {cite_key} --set title=\"…\"`.*", ""]
    for style, text in citations.items():
        out += [f"### {STYLE_HEADINGS.get(style, style)}", ""]
        body = _fence(text + "\n", "bibtex").rstrip("\n") if style == "bibtex" else text
        out += [body, ""]
    out.append(CITATIONS_END)
    return "\n".join(out) + "\n"


def replace_citations(text: str, citations: dict[str, str], meta: NoteMeta) -> str | None:
    """``text`` with its generated citations region rendered anew (the rest untouched);
    None when the note has no such region (a hand-made or damaged note)."""
    start = text.find(CITATIONS_BEGIN)
    end = text.find(CITATIONS_END, start + 1)
    if start < 0 or end < 0:
        return None
    region_end = end + len(CITATIONS_END)
    if text[region_end : region_end + 1] == "\n":
        region_end += 1
    return text[:start] + _render_citations(citations, meta) + text[region_end:]


#: Provenance fields written only when they differ from their default (the model fills
#: the default back in when the note is read).
_DEFAULTED = {"page_label": None, "section": None, "bbox": None, "pdf_rect": None,
              "regions": None, "ocr": False, "ocr_confidence": None, "text_layer": None,
              "start": None, "end": None, "transcript": None,
              "page_label_source": None, "page_label_status": None}


#: Marks "the section of the chunk before" while a note's chunks are read back.
_INHERIT = object()


#: Provenance fields that repeat from chunk to chunk: in a note, each is written only
#: where it changes from the chunk before (the first chunk compares with null).
_CARRIED = ("section", "parser", "transcript", "page_label_source", "page_label_status")
#: The chunk type written only when it is not this one.
_USUAL_TYPE = "paragraph"


def _chunk_data(chunk: Chunk, prev: Any = _INHERIT, *, linked: bool = False) -> dict[str, Any]:
    """The provenance block's mapping. ``prev``: the provenance of the chunk before in the
    note (None for the first chunk); ``section`` and ``parser`` are then written only where
    they change (null included), ``chunk_type`` only when not a paragraph, ``char_range``
    only when it does not follow from the chunk before (``next_range``), rects in whole
    points (widened, as the page links are) and no top-left ``bbox`` (format 3); with
    ``linked`` (the chunk's page links are written above the block) no ``page``,
    ``pdf_rect`` or ``regions`` either: the links carry exactly those. Left out, every
    field is written."""
    data: dict[str, Any] = chunk.provenance.model_dump(mode="json")
    for key, default in _DEFAULTED.items():
        if key in _CARRIED and prev is not _INHERIT:
            continue
        if key in data and data[key] == default and type(data[key]) is type(default):
            del data[key]
    if prev is not _INHERIT:
        for key in _CARRIED:
            if data.get(key) == (getattr(prev, key) if prev is not None else None):
                del data[key]
        if data.get("chunk_type") == _USUAL_TYPE:
            del data["chunk_type"]
        if data["char_range"] == next_range(chunk.text, prev):
            del data["char_range"]
        data.pop("bbox", None)
        if data.get("pdf_rect"):
            data["pdf_rect"] = outward(data["pdf_rect"])
        if data.get("regions"):
            data["regions"] = [[int(r[0]), *outward(r[1:])] for r in data["regions"]]
        if linked:
            for key in ("page", "pdf_rect", "regions"):
                data.pop(key, None)
    extras = chunk.model_dump(mode="json", include=set(_CHUNK_EXTRAS))
    for key in _CHUNK_EXTRAS:
        if extras[key] not in (None, [], "pending"):
            data[key] = extras[key]
    if chunk.highlights:  # fields at their default are left out, as for provenance
        data["highlights"] = [h.model_dump(mode="json", exclude_defaults=True)
                              for h in chunk.highlights]
    return data


def _chunk_yaml(chunk: Chunk, prev: Any = _INHERIT, *, linked: bool = False) -> str:
    data = _chunk_data(chunk, prev, linked=linked)
    fast = fast_block_yaml(data)
    return fast if fast is not None else dump_yaml(data, BlockDumper)


def render_chunk(cite_key: str, chunk: Chunk, prev: Any = _INHERIT, *,
                 video_id: str | None = None) -> str:
    """One chunk block in the current format (see module doc and docs/note-format.md).
    ``prev``: the provenance of the chunk before it in the note, None for the first (the
    fields it shares are then left out, see ``_chunk_data``); left out, every field is
    written."""
    prov = chunk.provenance
    out = [f"<!-- chunk id={chunk.id} -->"]
    for _, sentence in chunk_warnings(prov):
        out += [f"⚠ *{sentence}*", ""]
    # Derived views (not parsed back, not hashed): shown only when they cannot be mistaken
    # for a marker, a quote or a fence line. A table's cells show as their table, the
    # quote folded under it (vaultd.notes.folds).
    table = chunk.markdown.split("\n") if chunk.markdown else []
    table = table if table and all(line.startswith("|") and "\r" not in line for line in table) else []
    if table and prov.chunk_type == "table":
        out += [*table, ""]
    if prov.chunk_type == "heading" and chunk.text and "\n" not in chunk.text:
        out.append("#" * heading_level(prov.section) + " " + escape(chunk.text))
    elif prov.chunk_type == "reference" and chunk.text and "\n" not in chunk.text:
        out.append("- " + escape(chunk.text))  # the bibliography reads as a list
    else:
        if (header := fold_header(prov.chunk_type, bool(table))) is not None:
            out.append(header)  # front matter, a table's cells: a collapsed callout
        out += [f"> {line}" if line else ">" for line in escape(chunk.text).split("\n")]
    out.append("")
    if chunk.figure:
        out += [f"![[{chunk.figure}]]", ""]
    if table and prov.chunk_type != "table":
        out += [*table, ""]
    links = " · ".join([ref_link(r) for r in chunk.refs] + [f"[[{key_to_filename(k)}]]" for k in chunk.linked_notes])
    if links and "\n" not in links and "\r" not in links:
        out += ["**Links:** " + links, ""]
    linked = False
    if prov.chunk_type != "heading":  # a heading is read as a heading, not cited
        links = page_links(cite_key, chunk, video_id=video_id)
        # the links say it all (one line, read back exactly)
        linked = "\n" not in links and linked_place([links]) == stored_place(prov)
        out += [links, ""]
    out += highlight_lines(chunk)  # the user's highlights (vaultd.notes.highlights)
    out += _advisory_callout(chunk)
    out += ["%%", _fence(_chunk_yaml(chunk, prev, linked=linked), "yaml") + "%%", CHUNK_END]
    return "\n".join(out) + "\n"


#: The folded callout that holds a chunk's LLM text (only when there is some).
ADVISORY_CALLOUT = "> [!note]- LLM notes (advisory, not the authors' words)"


def _advisory_callout(chunk: Chunk) -> list[str]:
    lines = [f"> **{label}:** {_inline(value)}"
             for label, value in (("Paraphrase", chunk.paraphrase), ("Implication", chunk.implication))
             if value is not None]
    key = key_sentence_text(chunk.text, chunk.key_sentence)
    if key is not None:
        # The LLM chose only the index; the words are looked up in the verbatim quote.
        lines.append(f"> **Key sentence** _(chosen by LLM, words from the quote)_: “{' '.join(key.split())}”")
    return [ADVISORY_CALLOUT, *lines, ""] if lines else []


def heading_level(section: str | None) -> int:
    """Markdown level of a heading chunk: ``###`` for a top-level section (the note's
    ``## Quotes`` is above), one more for each level of its path (``A › B``), at most 6."""
    depth = section.count(" › ") if section else 0
    return min(3 + depth, 6)


def annotation_text(text: str) -> str:
    """The user's text between chunk blocks as typed, ending its last line (so the next
    marker stays alone on its line)."""
    return text if not text or text.endswith("\n") else text + "\n"


def render_note(note: Note) -> str:
    """The note's Markdown. ``parse_note(render_note(n)) == n``."""
    title = (note.meta.title or note.meta.cite_key).replace("\r", " ").replace("\n", " ")
    parts = [_render_frontmatter(note), "\n", f"# {title}\n", "\n"]
    parts += [_render_citations(note.citations, note.meta), "\n", QUOTES_BEGIN + "\n", "## Quotes\n", "\n"]
    notes = dict(note.annotations)
    parts.append(annotation_text(notes.pop("", "")))
    prev: Provenance | None = None
    for c in note.chunks:
        parts += [render_chunk(note.meta.cite_key, c, prev, video_id=note.meta.video_id) + "\n",
                  annotation_text(notes.pop(c.id, ""))]
        prev = c.provenance
    parts += [annotation_text(text) for text in notes.values()]  # of no chunk here: kept at the end
    parts += [QUOTES_END + "\n", "\n"]
    parts += note.user_blocks
    return "".join(parts)


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
    known = {k: v for k, v in data.items() if k in _META_FIELDS}
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
    return meta, {k: v for k, v in data.items() if k not in _META_FIELDS}


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
            style, body = _HEADING_STYLES.get(heading, heading), []
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
    fields: dict[str, Any] = {"paraphrase": None, "implication": None}
    prov: dict[str, Any] | None = None
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
        fence = YAML_FENCE_RE.fullmatch(line)
        if fence and prov is None:
            try:
                close = block.index(fence.group(1), i + 1)
            except ValueError as exc:
                raise _fail(source, f"{where}: provenance block is not closed") from exc
            prov = yaml_mapping("\n".join(block[i + 1 : close]) + "\n", source, where)
            i = close
        i += 1
    if prov is None:
        raise _fail(source, f"{where} has no ```yaml provenance block")
    for key in _CHUNK_EXTRAS:
        if key in prov:
            fields[key] = prov.pop(key)
    if fmt >= 2:  # written only where they change (see _chunk_data)
        for key in _CARRIED:
            prov.setdefault(key, getattr(prev, key) if prev is not None else None)
        prov.setdefault("chunk_type", _USUAL_TYPE)
    if fmt >= 3 and "char_range" not in prov:  # written only where it does not follow
        prov["char_range"] = next_range("\n".join(quote), prev)
    if fmt >= 3 and "page" not in prov:  # carried by the page links (see _chunk_data)
        prov.update(linked_place(block))
    try:
        return Chunk(id=chunk_id, text="\n".join(quote), provenance=Provenance(**prov), **fields)
    except (ValidationError, TypeError) as exc:
        first = exc.errors()[0] if isinstance(exc, ValidationError) else {"loc": (), "msg": str(exc)}
        loc = ".".join(str(p) for p in first["loc"])
        raise _fail(source, f"{where}: bad provenance {loc} ({first['msg']})") from exc


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
        if not blocks or _USER_HEADING_RE.match(line):
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
