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

import json
from typing import Any

from vaultd.citekey import key_to_filename
from vaultd.models import NOTE_FORMAT, Chunk, Note, NoteMeta, Provenance
from vaultd.notes.escape import escape
from vaultd.notes.folds import fold_header
from vaultd.notes.highlights import highlight_lines
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
    MY_NOTES_BLOCK,
    OPTIONAL_FLAGS,
    PROVENANCE_FIELDS,
    QUOTES_BEGIN,
    QUOTES_END,
    STYLE_HEADINGS,
    USER_HEADING_RE,
    USUAL_TYPE,
    YAML_FENCE_RE,
    fence,
)
from vaultd.notes.pages import chunk_warnings, outward, page_links, ref_link
from vaultd.notes.places import linked_place, next_range, stored_place
from vaultd.notes.provenance_yaml import (
    BlockDumper,
    FrontDumper,
    dump_yaml,
    fast_block_yaml,
)
from vaultd.notes.reader import (
    LINE_QUOTE_MARK,
    LINE_QUOTE_RE,
    parse_meta,
    parse_note,
    quote_lines,
    split_frontmatter,
    split_user_blocks,
    yaml_mapping,
)
from vaultd.sentences import key_sentence_text
from vaultd.trust import entered_label, unverified_label

# --- links ---------------------------------------------------------------------------

# What callers import from the note format: rendering here, parsing (notes/reader) and
# the markers (notes/layout) re-exported.
__all__ = [
    "ADVISORY",
    "ADVISORY_CALLOUT",
    "CARRIED",
    "CHUNK_BEGIN_RE",
    "CHUNK_END",
    "CHUNK_EXTRAS",
    "CITATIONS_BEGIN",
    "CITATIONS_END",
    "HEADING_STYLES",
    "LINE_QUOTE_MARK",
    "LINE_QUOTE_RE",
    "META_FIELDS",
    "MY_NOTES_BLOCK",
    "OPTIONAL_FLAGS",
    "PROVENANCE_FIELDS",
    "QUOTES_BEGIN",
    "QUOTES_END",
    "STYLE_HEADINGS",
    "USER_HEADING_RE",
    "USUAL_TYPE",
    "YAML_FENCE_RE",
    "annotation_text",
    "fence",
    "heading_level",
    "parse_meta",
    "parse_note",
    "quote_lines",
    "render_chunk",
    "render_note",
    "replace_citations",
    "split_frontmatter",
    "split_user_blocks",
    "trust_callouts",
    "yaml_mapping",
]


# --- render --------------------------------------------------------------------------


def _inline(value: str) -> str:
    """One-line form of advisory text: raw when unambiguous, else a JSON string."""
    raw_ok = bool(value) and value == value.strip() and "\n" not in value and "\r" not in value
    return value if raw_ok and not value.startswith('"') else json.dumps(value, ensure_ascii=False)


def _render_frontmatter(note: Note) -> str:
    data = {k: v for k, v in note.meta.model_dump(mode="json").items()
            if v is not None and not (k in OPTIONAL_FLAGS and not v)}
    data["note_format"] = NOTE_FORMAT  # render writes the current layout, whatever was read
    if isinstance(data.get("raw"), str) and "]" not in data["raw"] and "|" not in data["raw"]:
        data["raw"] = f"[[{data['raw']}]]"  # a link property: Obsidian opens the PDF
    data.update(note.frontmatter_extra)
    return "---\n" + dump_yaml(data, FrontDumper) + "---\n"


def trust_callouts(meta: NoteMeta) -> list[str]:
    """Obsidian callouts for a retracted work, its notices and unverified metadata."""
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
        body = fence(text + "\n", "bibtex").rstrip("\n") if style == "bibtex" else text
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
        if key in CARRIED and prev is not _INHERIT:
            continue
        if key in data and data[key] == default and type(data[key]) is type(default):
            del data[key]
    if prev is not _INHERIT:
        for key in CARRIED:
            if data.get(key) == (getattr(prev, key) if prev is not None else None):
                del data[key]
        if data.get("chunk_type") == USUAL_TYPE:
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
    extras = chunk.model_dump(mode="json", include=set(CHUNK_EXTRAS))
    for key in CHUNK_EXTRAS:
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
    out += ["%%", fence(_chunk_yaml(chunk, prev, linked=linked), "yaml") + "%%", CHUNK_END]
    return "\n".join(out) + "\n"




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
