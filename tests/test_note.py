# mypy: disable-error-code="call-arg"
"""Wiki note render / parse: round trip, the user's blocks, recompile merge, deep links."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from pydantic import BaseModel

from vaultd.canonical import text_sha256
from vaultd.errors import NoteFormatError
from vaultd.models import NOTE_FORMAT, Chunk, MetaFile, Note, NoteMeta, Provenance
from vaultd.notes.layout import CHUNK_END, MY_NOTES_BLOCK
from vaultd.notes.markdown import render_note
from vaultd.notes.merge import merge_for_recompile
from vaultd.notes.places import as_stored
from vaultd.notes.reader import parse_note, split_frontmatter

# Any character but surrogates and carriage returns (files are written with \n line ends).
_chars = st.characters(exclude_categories=["Cs"], exclude_characters="\r")
text = st.text(_chars, max_size=40)
tricky = st.lists(
    st.sampled_from([">", "<!--", "-->", "```", "---", "\n", "> ", "# ", "## x", "\n\n", "**Paraphrase:** x",
                     "<!-- /chunk -->", "<!-- chunk id=x -->", "```yaml", " ", "\u2028", "\x85", "é", "e\u0301"])
    | text,
    max_size=6,
).map("".join)
finite = st.floats(allow_nan=False, allow_infinity=False, width=32)
ident = st.from_regex(r"[A-Za-z0-9_:-]{1,12}", fullmatch=True)


@st.composite
def provenances(draw: st.DrawFn) -> Provenance:
    return Provenance(
        page=draw(st.integers(1, 999)),
        page_label=draw(st.none() | text),
        section=draw(st.none() | tricky),
        bbox=draw(st.none() | st.lists(finite, min_size=4, max_size=4)),
        pdf_rect=draw(st.none() | st.lists(finite, min_size=4, max_size=4)),
        regions=draw(st.none() | st.lists(
            st.tuples(st.integers(1, 999), finite, finite, finite, finite).map(list), min_size=2, max_size=3)),
        text_sha256=draw(st.from_regex(r"[0-9a-f]{64}", fullmatch=True) | text),
        char_range=draw(st.lists(st.integers(0, 10**7), min_size=2, max_size=2)),
        chunk_type=draw(st.sampled_from(["heading", "paragraph", "table", "figure", "reference"])),
        parser=draw(st.sampled_from(["pymupdf", "pdftotext", "ocr"])),
        ocr=draw(st.booleans()),
        ocr_confidence=draw(st.none() | st.floats(0, 1)),
        text_layer=draw(st.none() | st.just("unreliable")),
    )


@st.composite
def chunks(draw: st.DrawFn, chunk_id: str) -> Chunk:
    return Chunk(
        id=chunk_id,
        text=draw(tricky),
        provenance=draw(provenances()),
        markdown=draw(st.none() | tricky),
        figure=draw(st.none() | st.from_regex(r"raw/figs/[a-z0-9]{1,8}\.png", fullmatch=True)),
        refs=draw(st.lists(text, max_size=2)),
        paraphrase=draw(st.none() | tricky),
        implication=draw(st.none() | tricky),
        key_sentence=draw(st.none() | st.integers(0, 20)),
        enrichment=draw(st.sampled_from(["pending", "done", "skipped", "failed"])),
        enrichment_note=draw(st.none() | tricky),
    )


def _no_marker_lines(s: str, *, extra: tuple[str, ...] = ()) -> bool:
    markers = ("<!-- vaultd:", "<!-- /vaultd:", *extra)
    return not any(line.startswith(markers) for line in s.split("\n"))


citation_text = tricky.map(lambda s: s.strip("\n")).filter(
    lambda s: _no_marker_lines(s, extra=("### ",))
)
user_body = tricky.filter(lambda s: _no_marker_lines(s, extra=("# ", "## ")))
user_block = st.builds(lambda h, b: f"## {h}\n{b}\n", text.map(lambda s: s.replace("\n", " ")), user_body)


typed_text = tricky.filter(
    lambda s: s.strip() != "" and _no_marker_lines(s, extra=("# ", "<!-- chunk", CHUNK_END))
).map(lambda s: s + "\n")


@st.composite
def notes(draw: st.DrawFn) -> Note:
    ids = draw(st.lists(ident, max_size=4, unique=True))
    meta = NoteMeta(
        cite_key=draw(ident),
        title=draw(st.none() | tricky),
        authors=draw(st.lists(text, max_size=3)),
        year=draw(st.none() | st.integers(1000, 2100)),
        doi=draw(st.none() | text),
        tags=draw(st.lists(text, max_size=2)),
        warnings=draw(st.lists(tricky, max_size=2)),
        captured=draw(st.none() | st.just("2024-05-01")),
        chunks=len(ids),
    )
    styles = st.sampled_from(["apa", "mla", "chicago", "ieee", "bibtex", "custom"])
    return Note(
        meta=meta,
        citations=draw(st.dictionaries(styles, citation_text, max_size=6)),
        chunks=[draw(chunks(i)) for i in ids],
        user_blocks=draw(st.lists(user_block, max_size=3)),
        annotations=draw(st.dictionaries(st.sampled_from(["", *ids]), typed_text, max_size=2)),
        frontmatter_extra=draw(st.dictionaries(st.sampled_from(["status", "rating"]), text, max_size=2)),
    )


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(notes())
def test_parse_of_rendered_note_gives_back_the_same_note(note: Note) -> None:
    # as stored: rects in whole points (widened), no top-left bbox; then a fixed point
    md = render_note(note)
    assert parse_note(md) == as_stored(note)
    assert render_note(parse_note(md)) == md


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(notes(), typed_text, typed_text)
def test_text_typed_above_the_title_and_between_chunks_is_kept_byte_for_byte(
    note: Note, above: str, between: str
) -> None:
    outside = [*note.user_blocks, *note.citations.values()]
    assume(not any("<!-- chunk id=" in s or CHUNK_END in s for s in outside))  # the edit's anchor
    md = render_note(note)
    _, pos = split_frontmatter(md)
    md = md[:pos] + "\n" + above + md[pos + 1 :]
    if note.chunks:
        end_line = "\n" + CHUNK_END + "\n\n"  # the first chunk's closing marker line
        md = md.replace(end_line, end_line + between, 1)
    parsed = parse_note(md)
    assert parsed.meta == note.meta and parsed.chunks == as_stored(note).chunks
    assert parsed.citations == note.citations
    assert "".join(parsed.user_blocks) == above + "".join(note.user_blocks)
    if note.chunks:  # stays after the chunk it was typed after
        first = note.chunks[0].id
        assert parsed.annotations == {**note.annotations,
                                      first: between + note.annotations.get(first, "")}
    again = render_note(parsed)
    assert parse_note(again) == parsed  # stable from the first re-render on
    if note.chunks:
        assert end_line + between in again


def _sample_note(**chunk_kw: object) -> Note:
    quote = "Attention is all\nyou need."
    prov = Provenance(page=4, bbox=[72.0, 100.5, 300.2, 140.0], pdf_rect=[72.0, 651.9, 300.2, 691.5],
                      text_sha256=text_sha256(quote), char_range=[0, 26], chunk_type="paragraph",
                      parser="pymupdf")
    chunk = Chunk(id="p4s2c1", text=quote, provenance=prov, **chunk_kw)  # type: ignore[arg-type]
    meta = NoteMeta(cite_key="vaswani2017attention", title="Attention Is All You Need", year=2017)
    return Note(meta=meta, citations={"apa": "Vaswani, A. (2017)."}, chunks=[chunk])


def test_rendered_note_shows_quote_labels_and_provenance_like_the_format_doc() -> None:
    md = render_note(merge_for_recompile(None, _sample_note()))
    assert md.startswith("---\ncite_key: vaswani2017attention\ntitle: Attention Is All You Need\n")
    assert "\n# Attention Is All You Need\n" in md
    assert "## Citations\n\n### APA\n\nVaswani, A. (2017).\n" in md
    assert "<!-- chunk id=p4s2c1 -->\n> Attention is all\n> you need.\n" in md
    # no machine text in reading view: nothing pending is shown, provenance is an Obsidian
    # comment (%% … %%), the page link reads as the page
    assert "pending" not in md.split("<!-- vaultd:quotes -->")[1]
    # the page link carries page and rect, so the provenance does not repeat them
    assert ("[[raw/vaswani2017attention.pdf#page=4&rect=72,651,301,692|p. 4]]\n\n%%\n```yaml\n"
            f"text_sha256: {text_sha256('Attention is all you need.')}\nparser: pymupdf\n```") in md
    assert parse_note(md).chunks[0].provenance.pdf_rect == [72, 651, 301, 692]
    assert "```\n%%\n<!-- /chunk -->" in md
    assert md.endswith("<!-- /vaultd:quotes -->\n\n## My notes\n\n")


def test_ocr_chunk_is_marked_as_lower_trust_quote() -> None:
    note = _sample_note()
    prov = note.chunks[0].provenance.model_copy(update={"ocr": True, "ocr_confidence": 0.81})
    note.chunks[0] = note.chunks[0].model_copy(update={"provenance": prov})
    md = render_note(note)
    assert "OCR text, confidence 0.81: lower-trust quote" in md
    assert parse_note(md) == as_stored(note)


def test_deep_link_without_rect_opens_the_page() -> None:
    from vaultd.notes.pages import chunk_link

    chunk = _sample_note().chunks[0]
    chunk.provenance.pdf_rect = None
    assert chunk_link("k", chunk) == "[[raw/k.pdf#page=4]]"


def test_user_text_around_generated_regions_survives_rerender_byte_for_byte() -> None:
    md = render_note(merge_for_recompile(None, _sample_note()))
    mine = "## My notes\n\nThis contradicts [[lecun2015deep]].\n- [ ] read §3\n\n## Questions\n\n> my own quote\n"
    md = md.replace("## My notes\n\n", mine)
    md = md.replace("<!-- /vaultd:citations -->\n", "<!-- /vaultd:citations -->\n\n## Aside\nhello\n")
    old = parse_note(md)
    fresh = _sample_note()
    fresh.citations["mla"] = "Vaswani, Ashish. 2017."
    out = render_note(merge_for_recompile(old, fresh))
    # Blocks keep their order; the aside (first in the note) now follows the quotes.
    assert out.endswith("<!-- /vaultd:quotes -->\n\n## Aside\nhello\n\n" + mine)
    assert "### MLA\n\nVaswani, Ashish. 2017.\n" in out


def test_paragraphs_typed_between_chunks_keep_their_blank_lines() -> None:
    note = _sample_note()
    second = note.chunks[0].model_copy(update={"id": "p5s1c1"})
    note.chunks.append(second)
    md = render_note(merge_for_recompile(None, note))
    mine = "First thought.\n\nSecond thought,\nwrapped.\n\n"
    md = md.replace("<!-- /chunk -->\n\n", "<!-- /chunk -->\n\n" + mine, 1)
    out = render_note(merge_for_recompile(parse_note(md), note))
    assert out == md  # in place, byte for byte, right after the first chunk
    assert "<!-- /chunk -->\n\n" + mine + "<!-- chunk id=p5s1c1 -->" in out
    assert render_note(merge_for_recompile(parse_note(out), note)) == out


def test_text_typed_above_the_title_does_not_duplicate_the_title() -> None:
    md = render_note(merge_for_recompile(None, _sample_note()))
    md = md.replace("\n# Attention Is All You Need\n", "\n# Reading list\nTyped on top.\n\n# Attention Is All You Need\n")
    out = render_note(merge_for_recompile(parse_note(md), _sample_note()))
    assert out.count("# Attention Is All You Need\n") == 1
    assert out.endswith("<!-- /vaultd:quotes -->\n\n# Reading list\nTyped on top.\n\n" + MY_NOTES_BLOCK)


def test_user_frontmatter_properties_and_tags_survive_recompile() -> None:
    md = render_note(_sample_note()).replace("tags: []\n", "tags:\n- toread\nstatus: reading\n")
    md = md.replace("year: 2017\n", "year: 2017\nreviewed: 2024-05-01\n")
    old = parse_note(md)
    merged = merge_for_recompile(old, _sample_note())
    assert merged.meta.tags == ["toread"]
    assert merged.frontmatter_extra == {"status": "reading", "reviewed": "2024-05-01"}
    assert "status: reading\n" in render_note(merged)


def test_recompile_keeps_enrichment_only_of_chunks_whose_text_is_unchanged() -> None:
    old = _sample_note(paraphrase="Attention suffices.", implication="Drop RNNs.", enrichment="done",
                       key_sentence=0)
    same = merge_for_recompile(old, _sample_note())
    assert same.chunks[0].paraphrase == "Attention suffices."
    assert same.chunks[0].enrichment == "done"
    old.meta.enrichment = "qwen2.5:7b / v1"
    fresh = _sample_note()
    fresh.meta.enrichment = "pending"
    assert merge_for_recompile(old, fresh).meta.enrichment == "qwen2.5:7b / v1"
    changed = _sample_note()
    changed.chunks[0].provenance.text_sha256 = text_sha256("something else")
    assert merge_for_recompile(old, changed).chunks[0].enrichment == "pending"
    assert merge_for_recompile(old, changed).chunks[0].paraphrase is None


def test_first_render_creates_an_empty_my_notes_section() -> None:
    assert merge_for_recompile(None, _sample_note()).user_blocks == [MY_NOTES_BLOCK]


def test_enriched_advisory_text_is_labelled_and_round_trips() -> None:
    note = _sample_note(paraphrase='"Quoted" start', implication="line\nbreak", enrichment="done")
    md = render_note(note)
    # in a folded callout that says what it is, not the authors' words
    assert ('> [!note]- LLM notes (advisory, not the authors\' words)\n'
            '> **Paraphrase:** "\\"Quoted\\" start"\n> **Implication:** "line\\nbreak"\n') in md
    assert parse_note(md) == as_stored(note)


def test_a_note_in_the_first_format_reads_and_is_rewritten_in_the_current_one() -> None:
    v1 = (
        "---\ncite_key: k2020x\ntitle: T\nraw: raw/k2020x.pdf\nchunks: 1\n---\n\n# T\n\n"
        "<!-- vaultd:quotes -->\n## Quotes\n\n<!-- chunk id=p1s0c1 -->\n> a *b* <c>\n\n"
        "**Paraphrase:** _(LLM, advisory)_ An advisory line.\n\n**Implication:** _pending_\n\n"
        "```yaml\npage: 1\npage_label: null\nsection: null\nbbox: null\npdf_rect: null\n"
        f"text_sha256: {text_sha256('a *b* <c>')}\nchar_range: [0, 9]\nchunk_type: paragraph\n"
        "parser: pymupdf\nocr: false\nocr_confidence: null\nenrichment: done\n```\n\n"
        "[[raw/k2020x.pdf#page=1]]\n<!-- /chunk -->\n\n<!-- /vaultd:quotes -->\n\n## My notes\n\nMine.\n")
    old = parse_note(v1)
    assert old.meta.note_format == 1 and old.meta.raw == "raw/k2020x.pdf"
    assert old.chunks[0].text == "a *b* <c>" and old.chunks[0].paraphrase == "An advisory line."
    new = render_note(old)
    assert "> a \\*b\\* \\<c\\>\n" in new and "raw: '[[raw/k2020x.pdf]]'" in new
    assert new.endswith("## My notes\n\nMine.\n")
    again = parse_note(new)
    assert again.meta.note_format == NOTE_FORMAT
    assert again.chunks == old.chunks and again.user_blocks == old.user_blocks


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (lambda s: s[4:], "no YAML frontmatter"),
        (lambda s: s.replace("cite_key: vaswani2017attention\n", "cite_key: [\n"), "invalid YAML"),
        (lambda s: s.replace("cite_key: vaswani2017attention\n", ""), "cite_key"),
        (lambda s: s.replace("```yaml\n", "```\n"), "no ```yaml provenance block"),
        (lambda s: s.replace("<!-- /chunk -->\n", ""), "not closed"),
        (lambda s: s.replace("text_sha256:", "text_sha:"), "bad provenance"),
        (lambda s: s.replace("> Attention is all\n> you need.\n", ""), "no '>' quote"),
    ],
)
def test_broken_note_raises_note_format_error_naming_the_file(edit, message) -> None:  # type: ignore[no-untyped-def]
    md = edit(render_note(_sample_note()))
    with pytest.raises(NoteFormatError, match=message) as info:
        parse_note(md, "wiki/vaswani2017attention.md")
    assert str(info.value).startswith("wiki/vaswani2017attention.md: ")
    assert "\n" not in str(info.value)


# --- docs/note-format.md stays in sync with the models and the renderer ---------------

DOC = Path(__file__).resolve().parents[1] / "docs" / "note-format.md"
_GENERATED_RE = re.compile(r"(<!-- BEGIN GENERATED: (\w+) -->\n)(.*?)(<!-- END GENERATED: \2 -->)", re.DOTALL)


def _schema_block(name: str) -> str:
    models: dict[str, type[BaseModel]] = {"NoteMeta": NoteMeta, "MetaFile": MetaFile}
    model = models[name]
    return "```json\n" + json.dumps(model.model_json_schema(), indent=2, ensure_ascii=False) + "\n```\n"


def _regenerated(doc: str) -> str:
    return _GENERATED_RE.sub(lambda m: m.group(1) + _schema_block(m.group(2)) + m.group(4), doc)


def test_schema_sections_of_the_format_doc_match_the_models() -> None:
    doc = DOC.read_text(encoding="utf-8")
    assert {m.group(2) for m in _GENERATED_RE.finditer(doc)} == {"NoteMeta", "MetaFile"}
    assert doc == _regenerated(doc), "docs/note-format.md is stale: run python3 tests/test_note.py"


def test_example_note_in_the_format_doc_round_trips_and_verifies() -> None:
    doc = DOC.read_text(encoding="utf-8")
    example = re.search(r"<!-- BEGIN EXAMPLE -->\n````markdown\n(.*?)````\n", doc, re.DOTALL)
    assert example is not None
    note = parse_note(example.group(1))
    assert render_note(note) == example.group(1)
    assert all(c.provenance.text_sha256 == text_sha256(c.text) for c in note.chunks)
    assert note.chunks[1].provenance.ocr and "lower-trust quote" in example.group(1)


if __name__ == "__main__":  # regenerate the schema sections of docs/note-format.md
    DOC.write_text(_regenerated(DOC.read_text(encoding="utf-8")), encoding="utf-8")


def test_key_sentence_is_shown_from_the_verbatim_quote_by_index() -> None:
    from vaultd.canonical import text_sha256
    from vaultd.models import Chunk, Note, NoteMeta, Provenance
    from vaultd.notes.markdown import render_note
    from vaultd.notes.reader import parse_note

    text = "We propose a model. It beats the baseline by 2 points. We release code."
    chunk = Chunk(
        id="p1s1c1", text=text, paraphrase="A new model.", implication="It is better.",
        key_sentence=1, enrichment="done",
        provenance=Provenance(page=1, text_sha256=text_sha256(text), char_range=[0, len(text)],
                              chunk_type="paragraph", parser="pymupdf"),
    )
    note = Note(meta=NoteMeta(cite_key="k2020x", chunks=1), chunks=[chunk])
    rendered = render_note(note)
    assert "“It beats the baseline by 2 points.”" in rendered
    assert parse_note(rendered) == note


# --- fast provenance YAML: byte-identical to PyYAML ------------------------------------

plainish = st.from_regex(r"[A-Za-z0-9_][A-Za-z0-9_./() :#'-]{0,20}", fullmatch=True)
yaml_values = st.none() | st.booleans() | st.integers(-(10**12), 10**12) | st.floats(width=64) | text | plainish | st.lists(
    st.integers() | st.floats(), max_size=4) | st.lists(text | plainish, max_size=3) | st.lists(
    st.lists(st.integers() | st.floats(), max_size=5), max_size=3)


def _pyyaml_block(data: dict[str, object]) -> str:
    from vaultd.notes import provenance_yaml as note_mod

    return str(note_mod.dump_yaml(data, note_mod.BlockDumper))


@given(chunks("p1s1c1"))
def test_provenance_block_is_written_exactly_as_pyyaml_would_write_it(chunk: Chunk) -> None:
    from vaultd.notes.markdown import _chunk_data
    from vaultd.notes.provenance_yaml import fast_block_yaml

    data = _chunk_data(chunk)
    fast = fast_block_yaml(data)
    assert fast is None or fast == _pyyaml_block(data)


@given(st.dictionaries(st.from_regex(r"[a-z_][a-z0-9_]{0,8}", fullmatch=True) | text, yaml_values, min_size=1, max_size=6))
def test_fast_yaml_writer_and_reader_agree_with_pyyaml_on_arbitrary_values(data: dict[str, object]) -> None:
    import math

    import yaml

    from vaultd.notes.provenance_yaml import fast_block_mapping, fast_block_yaml

    fast = fast_block_yaml(data)
    expected = _pyyaml_block(data)
    if fast is not None:
        assert fast == expected
    read = fast_block_mapping(expected)
    if read is not None:
        loaded = yaml.safe_load(expected)
        assert list(read) == list(loaded)
        for key, value in read.items():
            other = loaded[key]
            assert type(value) is type(other)
            if isinstance(value, float) and math.isnan(value):
                assert math.isnan(other)
            elif not isinstance(value, list) or not any(isinstance(v, float) and math.isnan(v) for v in value):
                assert value == other


def test_typical_provenance_block_takes_the_fast_path() -> None:
    from vaultd.notes.markdown import _chunk_data
    from vaultd.notes.provenance_yaml import fast_block_mapping, fast_block_yaml

    chunk = _sample_note().chunks[0]
    chunk.provenance.section = "3.2 Scaled Dot-Product Attention"
    chunk.provenance.page_label = "12"
    data = _chunk_data(chunk)
    fast = fast_block_yaml(data)
    assert fast == _pyyaml_block(data)
    assert "page_label: '12'" in fast
    assert fast_block_mapping(fast) == data
    chunk.refs = ["doi:10.1093/nar/gkw343", "arxiv:1706.03762"]
    with_refs = fast_block_yaml(_chunk_data(chunk))
    assert with_refs is not None and "refs:\n- doi:10.1093/nar/gkw343\n" in with_refs
    assert fast_block_mapping(with_refs) == _chunk_data(chunk)


def _two_chunk_note(first: str, second: str) -> Note:
    note = _sample_note()
    chunks = []
    for cid, quote in (("p4s2c1", first), ("p4s2c2", second)):
        prov = note.chunks[0].provenance.model_copy(update={"text_sha256": text_sha256(quote)})
        chunks.append(Chunk(id=cid, text=quote, provenance=prov))
    return note.model_copy(update={"chunks": chunks})


def test_a_note_typed_after_a_chunk_stays_after_that_quote_on_recompile() -> None:
    note = _two_chunk_note("Attention is all you need.", "Recurrence is not needed.")
    md = render_note(merge_for_recompile(None, note))
    mine = "My take: compare with [[lecun2015deep]].\n\n"
    md = md.replace("<!-- /chunk -->\n\n", "<!-- /chunk -->\n\n" + mine, 1)
    # Same quotes: in place, byte for byte.
    assert render_note(merge_for_recompile(parse_note(md), note)) == md
    # New extraction rules renumber the chunks: the note follows its quote, not its old id.
    moved = _two_chunk_note("Recurrence is not needed.", "Attention is all you need.")
    out = render_note(merge_for_recompile(parse_note(md), moved))
    assert "you need.\n" in out.split(mine)[0].rsplit("<!-- chunk id=", 1)[1]
    assert out.index("<!-- chunk id=p4s2c2 -->") < out.index(mine)
    # The quote is gone from the PDF: the note is kept, after the quotes region.
    gone = _two_chunk_note("Recurrence is not needed.", "Convolutions are enough.")
    out = render_note(merge_for_recompile(parse_note(md), gone))
    assert out.endswith("<!-- /vaultd:quotes -->\n\n" + MY_NOTES_BLOCK + mine)


def test_notes_on_two_quotes_with_the_same_text_stay_with_their_own_quote() -> None:
    old = _two_chunk_note("Figure 1: Overview.", "Figure 1: Overview.")
    old = old.model_copy(update={"annotations": {"p4s2c1": "first\n", "p4s2c2": "second\n"}})
    renumbered = old.model_copy(update={"chunks": [
        old.chunks[0].model_copy(update={"id": "p4s2c3"}),
        old.chunks[1].model_copy(update={"id": "p4s2c4"})]})
    merged = merge_for_recompile(old, renumbered.model_copy(update={"annotations": {}}))
    assert merged.annotations == {"p4s2c3": "first\n", "p4s2c4": "second\n"}


def test_a_note_whose_quote_is_gone_gets_its_own_paragraph_after_the_users_text() -> None:
    old = _two_chunk_note("Attention is all you need.", "Recurrence is not needed.")
    old = old.model_copy(update={"annotations": {"p4s2c1": "my note on attention\n"},
                                 "user_blocks": ["## My notes\n\nlast line, no newline"]})
    gone = _two_chunk_note("Convolutions are enough.", "Recurrence is not needed.")
    merged = merge_for_recompile(old, gone)
    assert "".join(merged.user_blocks) == (
        "## My notes\n\nlast line, no newline\n\nmy note on attention\n")


def test_reading_view_shows_every_quote_and_no_provenance() -> None:
    """A note rendered as Obsidian's reading view does (CommonMark, with %% comments
    hidden): every quote's characters are visible, no provenance is."""
    import html as html_mod

    from markdown_it import MarkdownIt

    quotes = ["Click on the box saying “<your name> — <date>” and press *save*.",
              "1. The first item is #important and costs $5 = 50 % of ==all==."]
    chunks = []
    for i, quote in enumerate(quotes):
        prov = Provenance(page=i + 1, page_label=str(i + 10), pdf_rect=[72.0, 600.0, 300.0, 640.0],
                          text_sha256=text_sha256(quote), char_range=[0, len(quote)],
                          chunk_type="paragraph", parser="pymupdf")
        chunks.append(Chunk(id=f"p{i + 1}s0c1", text=quote, provenance=prov,
                            paraphrase="An advisory paraphrase." if i else None))
    md = render_note(Note(meta=NoteMeta(cite_key="k2020x", title="T"), chunks=chunks))
    shown = re.sub(r"^%%\n.*?^%%\n", "", md.split("<!-- vaultd:quotes -->")[1], flags=re.S | re.M)
    text = html_mod.unescape(re.sub(r"<[^>]+>", "", MarkdownIt("commonmark").render(shown)))
    for quote in quotes:
        assert quote in text
    for machine in ("text_sha256", "char_range", "pymupdf", "chunk_type", "chunk id="):
        assert machine not in text
    assert "p. 10" in md and "p. 11" in md  # the page links read as printed pages


def test_reference_entries_read_as_a_list_and_back_as_quotes() -> None:
    from markdown_it import MarkdownIt

    entry = "[1] J. Ba, J. Kiros, G. Hinton. Layer normalization. arXiv:1607.06450, 2016."
    prov = Provenance(page=9, text_sha256=text_sha256(entry), char_range=[0, len(entry)],
                      chunk_type="reference", parser="pymupdf")
    note = Note(meta=NoteMeta(cite_key="k2020x"),
                chunks=[Chunk(id="p9s9c1", text=entry, provenance=prov, refs=["arxiv:1607.06450"])])
    md = render_note(note)
    assert "\n- \\[1\\] J. Ba, J. Kiros, G. Hinton. Layer normalization. arXiv:1607.06450, 2016.\n" in md
    assert parse_note(md) == note
    html = MarkdownIt("commonmark").render(md.split("<!-- vaultd:quotes -->")[1])
    assert "<li>[1] J. Ba, J. Kiros, G. Hinton. Layer normalization." in html
