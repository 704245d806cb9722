"""`vaultd enrich` end to end: a real note, the official client, a fake Ollama on loopback."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from _chunks import make_chunk
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.fake_ollama import ChunkSpec, FakeOllama, closed_port_url, good_answer
from vaultd.cli import main_group
from vaultd.config import Settings, load_settings
from vaultd.models import Note, NoteMeta
from vaultd.notes.markdown import render_note
from vaultd.notes.reader import parse_note
from vaultd.pipeline.enrich import enrich_note, enrich_pending
from vaultd.vault import Vault

MODEL = "llama3.2:3b"
KEY = "vaswani2017attention"

PARAGRAPHS = [
    "The dominant sequence transduction models are based on complex recurrent or "
    "convolutional neural networks. We propose a new simple network architecture, the "
    "Transformer, based solely on attention mechanisms.",
    "Experiments on two machine translation tasks show these models to be superior in "
    "quality while being more parallelizable and requiring significantly less time to train.",
    "An attention function can be described as mapping a query and a set of key-value pairs "
    "to an output, where the query, keys, values, and output are all vectors.",
]


def make_note(paragraphs: list[str] = PARAGRAPHS) -> Note:
    chunks = [make_chunk("p1s0c0", "Attention Is All You Need", "heading")]
    chunks += [make_chunk(f"p1s1c{n}", text) for n, text in enumerate(paragraphs)]
    chunks.append(
        make_chunk(
            "p9s9c0", "[1] J. Ba, J. Kiros, G. Hinton. Layer normalization. 2016.", "reference"
        )
    )
    return Note(
        meta=NoteMeta(
            cite_key=KEY,
            title="Attention Is All You Need",
            chunks=len(chunks),
            enrichment="pending",
        ),
        chunks=chunks,
        user_blocks=["## My notes\n\nMy own thoughts stay here.\n"],
    )


def write_note(vault: Vault, note: Note) -> str:
    text = render_note(note)
    vault.note_path(KEY).parent.mkdir(parents=True, exist_ok=True)
    vault.note_path(KEY).write_text(text, encoding="utf-8")
    return text


def settings_for(vault: Vault, host: str, **enrich: Any) -> Settings:
    return load_settings(
        vault.config_path, environ={}, overrides={"enrich": {"ollama_host": host, **enrich}}
    )


def quote_blocks(text: str) -> list[str]:
    """The `>` lines of every quote, exactly as bytes in the file (not those of callouts:
    the trust warnings and the LLM's folded notes)."""
    out: list[str] = []
    in_callout = False
    for line in text.split("\n"):
        in_callout = line.startswith("> [!") or (in_callout and line.startswith(">"))
        if line.startswith(">") and not in_callout:
            out.append(line)
    return out


@pytest.fixture
def fake() -> Iterator[FakeOllama]:
    with FakeOllama(MODEL) as server:
        yield server


def test_enrich_fills_paraphrase_and_implication_of_content_chunks_only(
    vault: Vault, fake: FakeOllama
) -> None:
    before = write_note(vault, make_note())
    result = enrich_note(vault, settings_for(vault, fake.url), KEY)
    assert (result.content_chunks, result.enriched, result.skipped, result.pending) == (3, 3, 2, 0)
    assert result.requests == 1 and result.hint is None
    after = vault.note_path(KEY).read_text(encoding="utf-8")
    note = parse_note(after)
    content = [c for c in note.chunks if c.provenance.chunk_type == "paragraph"]
    assert all(c.enrichment == "done" and c.paraphrase and c.implication for c in content)
    assert content[0].key_sentence == 1  # the fake picks the last sentence
    assert [c.enrichment for c in note.chunks if c.provenance.chunk_type != "paragraph"] == [
        "skipped"
    ] * 2
    assert note.meta.enrichment == f"{MODEL} enrich-v1"
    assert quote_blocks(after) == quote_blocks(before)
    assert "My own thoughts stay here." in after
    assert "> [!note]- LLM notes (advisory, not the authors' words)\n" \
        "> **Paraphrase:** In short, chunk p1s1c0 explains its point." in after


def test_ollama_down_leaves_the_note_written_with_pending_chunks_and_a_hint(vault: Vault) -> None:
    before = write_note(vault, make_note())
    result = enrich_note(vault, settings_for(vault, closed_port_url()), KEY)
    assert result.pending == 3 and result.enriched == 0
    assert result.hint is not None and "run `ollama serve`" in result.hint
    after = vault.note_path(KEY).read_text(encoding="utf-8")
    assert quote_blocks(after) == quote_blocks(before)
    note = parse_note(after)
    assert all(
        c.enrichment == "pending" for c in note.chunks if c.provenance.chunk_type == "paragraph"
    )


def test_model_not_pulled_tells_which_model_to_pull(vault: Vault, fake: FakeOllama) -> None:
    write_note(vault, make_note())
    fake.models = ["mistral:latest"]
    result = enrich_note(vault, settings_for(vault, fake.url), KEY)
    assert result.hint is not None and f"run `ollama pull {MODEL}`" in result.hint
    assert fake.chat_requests() == []


def test_pending_fills_later_when_the_llm_is_back(vault: Vault, fake: FakeOllama) -> None:
    write_note(vault, make_note())
    enrich_note(vault, settings_for(vault, closed_port_url()), KEY)
    results = enrich_pending(vault, settings_for(vault, fake.url))
    assert [(r.cite_key, r.enriched, r.pending) for r in results] == [(KEY, 3, 0)]
    assert enrich_pending(vault, settings_for(vault, fake.url)) == []


def test_recompiled_note_asks_only_for_changed_chunks_and_force_asks_again(
    vault: Vault, fake: FakeOllama
) -> None:
    write_note(vault, make_note())
    enrich_note(vault, settings_for(vault, fake.url), KEY)
    # A recompile rewrites the note fresh (every chunk pending), with one paragraph changed.
    changed = [*PARAGRAPHS[:2], PARAGRAPHS[2].replace("vectors", "vectors of reals")]
    write_note(vault, make_note(changed))
    fake.requests.clear()
    result = enrich_note(vault, settings_for(vault, fake.url), KEY)
    assert (result.cached, result.enriched) == (2, 1)
    asked = fake.chat_requests()[0]["messages"][-1]["content"]
    assert "p1s1c2" in asked and "p1s1c0" not in asked
    result = enrich_note(vault, settings_for(vault, fake.url), KEY, force=True)
    assert result.enriched == 3 and result.cached == 0


def test_changing_the_model_misses_the_cache(vault: Vault, fake: FakeOllama) -> None:
    write_note(vault, make_note())
    enrich_note(vault, settings_for(vault, fake.url), KEY)
    fake.models.append("qwen2.5:7b")
    write_note(vault, make_note())
    result = enrich_note(vault, settings_for(vault, fake.url, model="qwen2.5:7b"), KEY)
    assert result.cached == 0 and result.enriched == 3


def test_switching_model_without_force_keeps_the_label_of_the_model_that_wrote_the_text(
    vault: Vault, fake: FakeOllama
) -> None:
    from vaultd.notes.merge import merge_for_recompile

    other = "qwen2.5:7b"
    fake.models.append(other)
    write_note(vault, make_note())
    enrich_note(vault, settings_for(vault, fake.url), KEY)
    fake.requests.clear()
    result = enrich_note(vault, settings_for(vault, fake.url, model=other), KEY)
    assert result.requests == 0 and result.already == 3
    note = parse_note(vault.note_path(KEY).read_text(encoding="utf-8"))
    assert note.meta.enrichment == f"{MODEL} enrich-v1"

    # A recompile changes one paragraph; the new model writes only that one.
    changed = [*PARAGRAPHS[:2], PARAGRAPHS[2].replace("vectors", "vectors of reals")]
    write_note(vault, merge_for_recompile(note, make_note(changed)))
    result = enrich_note(vault, settings_for(vault, fake.url, model=other), KEY)
    assert (result.enriched, result.already) == (1, 2)
    note = parse_note(vault.note_path(KEY).read_text(encoding="utf-8"))
    assert note.meta.enrichment == f"{MODEL} enrich-v1; {other} enrich-v1"

    enrich_note(vault, settings_for(vault, fake.url, model=other), KEY, force=True)
    note = parse_note(vault.note_path(KEY).read_text(encoding="utf-8"))
    assert note.meta.enrichment == f"{other} enrich-v1"


def test_answer_with_quote_text_leaves_chunks_pending_with_the_reason(
    vault: Vault, fake: FakeOllama
) -> None:
    before = write_note(vault, make_note())
    fake.mode = "quote"
    result = enrich_note(vault, settings_for(vault, fake.url), KEY)
    assert result.pending == 3 and result.requests == 2 and result.hint is None
    note = parse_note(vault.note_path(KEY).read_text(encoding="utf-8"))
    para = [c for c in note.chunks if c.provenance.chunk_type == "paragraph"]
    assert all(c.paraphrase is None and "quote text" in (c.enrichment_note or "") for c in para)
    assert quote_blocks(vault.note_path(KEY).read_text(encoding="utf-8")) == quote_blocks(before)


def test_cli_enrich_reports_progress_on_stderr_and_json_on_stdout(
    vault: Vault, fake: FakeOllama
) -> None:
    write_note(vault, make_note())
    runner = CliRunner()
    env = {"OLLAMA_HOST": fake.url}
    res = runner.invoke(main_group, ["--vault", str(vault.root), "enrich", KEY], env=env)
    assert res.exit_code == 0, res.output
    assert f"{KEY}: 3/3 chunks" in res.stderr
    assert f"{KEY}: 3 enriched" in res.stdout
    res = runner.invoke(main_group, ["--vault", str(vault.root), "enrich", KEY, "--json"], env=env)
    data = json.loads(res.stdout)
    assert data["results"][0]["already"] == 3 and data["hint"] is None


def test_cli_enrich_with_ollama_down_exits_1_with_the_hint(vault: Vault) -> None:
    write_note(vault, make_note())
    res = CliRunner().invoke(
        main_group,
        ["--vault", str(vault.root), "enrich", KEY],
        env={"OLLAMA_HOST": closed_port_url()},
    )
    assert res.exit_code == 1
    assert "Error: Ollama is not reachable at" in res.stderr and "`ollama serve`" in res.stderr
    assert f"{KEY}: 0 enriched" in res.stdout and "3 pending" in res.stdout


def test_cli_enrich_needs_a_key_or_pending(vault: Vault) -> None:
    res = CliRunner().invoke(main_group, ["--vault", str(vault.root), "enrich"])
    assert res.exit_code == 2


_answers = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 9) | st.text(max_size=60),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3)
    ),
    max_leaves=8,
)
_nasty = st.sampled_from(
    [
        "<!-- /chunk -->",
        "\n> an injected quote",
        "<!-- chunk id=p1s1c0 -->",
        "```yaml\nx: 1\n```",
        "-->",
        "<!-- /vaultd:quotes -->",
        '"quoted"',
        "---\ntitle: x\n---",
    ]
)
_advisory = (
    st.text(max_size=80) | _nasty | st.builds(lambda a, b: a + b, _nasty, st.text(max_size=20))
)
_entry = st.fixed_dictionaries(
    {"paraphrase": _advisory, "implication": _advisory},
    optional={
        "key_sentence": st.integers(-2, 5) | st.text(max_size=40) | st.none(),
        "quote": st.text(max_size=20),
    },
)


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(data=st.data())
def test_quotes_are_byte_identical_whatever_the_llm_answers(
    vault: Vault, fake: FakeOllama, data: st.DataObject
) -> None:
    mode = data.draw(st.sampled_from(["garbage", "entries"]))
    garbage = data.draw(_answers)
    entries = data.draw(st.lists(_entry, min_size=3, max_size=3))

    def answer(chunks: list[ChunkSpec]) -> Any:
        if mode == "garbage":
            return json.dumps(garbage)
        merged = good_answer(chunks)["answers"]
        return {"answers": [{**m, **e} for m, e in zip(merged, entries, strict=False)]}

    fake.answer = answer
    # A fresh cache each example: otherwise later examples are answered from state.db and
    # the arbitrary answer drawn for them is never rendered.
    for leftover in vault.state_db.parent.glob(vault.state_db.name + "*"):
        leftover.unlink()
    fake.requests.clear()
    before = write_note(vault, make_note())
    result = enrich_note(vault, settings_for(vault, fake.url), KEY)
    assert fake.chat_requests() and result.cached == 0
    after = vault.note_path(KEY).read_text(encoding="utf-8")
    assert quote_blocks(after) == quote_blocks(before)
    assert [c.text for c in parse_note(after).chunks] == [c.text for c in make_note().chunks]


def test_note_recompiled_during_enrichment_keeps_its_new_text(
    vault: Vault, fake: FakeOllama
) -> None:
    write_note(vault, make_note())
    changed = [*PARAGRAPHS[:2], PARAGRAPHS[2].replace("vectors", "vectors of reals")]

    def recompile_meanwhile(chunks: list[ChunkSpec]) -> Any:
        write_note(vault, make_note(changed))
        return good_answer(chunks)

    fake.answer = recompile_meanwhile
    enrich_note(vault, settings_for(vault, fake.url), KEY)
    note = parse_note(vault.note_path(KEY).read_text(encoding="utf-8"))
    para = {c.id: c for c in note.chunks if c.provenance.chunk_type == "paragraph"}
    assert para["p1s1c2"].text == changed[2] and para["p1s1c2"].enrichment == "pending"
    assert para["p1s1c0"].enrichment == "done" and para["p1s1c1"].enrichment == "done"
    assert note.meta.enrichment == "pending"


def test_compiled_sample_paper_enriches_content_and_captions_and_still_verifies(
    vault: Vault, fake: FakeOllama
) -> None:
    from vaultd.models import Author, MetaFile, Work
    from vaultd.pipeline.compile import compile_note
    from vaultd.samplepdf import write_sample_paper
    from vaultd.vault import atomic_write_text
    from vaultd.verify import verify_notes

    key = "sample2024paper"
    paper = write_sample_paper(vault.pdf_path(key))
    work = Work(
        title=paper.title, authors=[Author(literal=a) for a in paper.authors], issued=[2024]
    )
    meta = MetaFile.from_work(key, work, pdf=vault.rel(vault.pdf_path(key)))
    atomic_write_text(vault.meta_path(key), meta.model_dump_json())
    compile_note(vault, load_settings(vault.config_path, environ={}), key)
    before = vault.note_path(key).read_text(encoding="utf-8")

    result = enrich_note(vault, settings_for(vault, fake.url), key)

    after = vault.note_path(key).read_text(encoding="utf-8")
    assert quote_blocks(after) == quote_blocks(before)
    assert result.pending == 0 and result.enriched == result.content_chunks > 0
    chunks = parse_note(after).chunks
    kinds = {c.provenance.chunk_type: c.enrichment for c in chunks if c.enrichment == "done"}
    assert "figure" in kinds  # the caption is enriched
    assert all(
        c.enrichment == "skipped"
        for c in chunks
        if c.provenance.chunk_type in ("heading", "reference")
    )
    assert verify_notes(vault, key).ok


def test_llm_timing_out_leaves_chunks_pending_with_a_timeout_hint(
    vault: Vault, fake: FakeOllama
) -> None:
    before = write_note(vault, make_note())
    fake.mode = "hang"
    result = enrich_note(vault, settings_for(vault, fake.url, timeout_seconds=0.3), KEY)
    assert result.pending == 3 and result.hint is not None
    assert "did not answer within 0.3s" in result.hint
    assert quote_blocks(vault.note_path(KEY).read_text(encoding="utf-8")) == quote_blocks(before)


def test_cli_pending_fills_every_note_with_pending_chunks(vault: Vault, fake: FakeOllama) -> None:
    runner = CliRunner()
    args = ["--vault", str(vault.root), "enrich", "--pending"]
    res = runner.invoke(main_group, args, env={"OLLAMA_HOST": fake.url})
    assert res.exit_code == 0 and "No notes with pending chunks." in res.stdout
    write_note(vault, make_note())
    res = runner.invoke(main_group, [*args, "--json"], env={"OLLAMA_HOST": fake.url})
    assert res.exit_code == 0
    assert [(r["cite_key"], r["enriched"]) for r in json.loads(res.stdout)["results"]] == [(KEY, 3)]


def _sample_paper_captured(vault: Vault, key: str) -> None:
    from vaultd.models import Author, MetaFile, Work
    from vaultd.samplepdf import write_sample_paper
    from vaultd.vault import atomic_write_text

    paper = write_sample_paper(vault.pdf_path(key))
    work = Work(
        title=paper.title, authors=[Author(literal=a) for a in paper.authors], issued=[2024]
    )
    meta = MetaFile.from_work(key, work, pdf=vault.rel(vault.pdf_path(key)))
    atomic_write_text(vault.meta_path(key), meta.model_dump_json())


def test_compile_leaving_chunks_pending_says_what_to_run_and_json_counts_them(
    vault: Vault, fake: FakeOllama
) -> None:
    key = "sample2024paper"
    _sample_paper_captured(vault, key)
    runner = CliRunner()
    args = ["--vault", str(vault.root), "compile", key]
    res = runner.invoke(main_group, args, env={"OLLAMA_HOST": fake.url})
    assert res.exit_code == 0, res.output
    hints = [line for line in res.stderr.splitlines() if "await enrichment" in line]
    assert len(hints) == 1 and f"run `vaultd enrich {key}`" in hints[0]
    assert "agent (`vaultd run`) fills them when Ollama is up" in hints[0]
    assert fake.chat_requests() == []  # compiling never waits for the LLM
    res = runner.invoke(main_group, [*args, "--json"], env={"OLLAMA_HOST": fake.url})
    pending = json.loads(res.stdout)["enrichment_pending"]
    assert pending > 0 and f"{pending} chunks of {key} await enrichment" in res.stderr
    from vaultd.enrich.contract import skip_reason
    from vaultd.notes.reader import parse_note

    written = parse_note(vault.note_path(key).read_text(encoding="utf-8")).chunks
    assert pending == sum(1 for c in written if c.enrichment == "pending" and skip_reason(c) is None)

    enrich_note(vault, settings_for(vault, fake.url), key)
    res = runner.invoke(main_group, [*args, "--json"], env={"OLLAMA_HOST": fake.url})
    assert json.loads(res.stdout)["enrichment_pending"] == 0
    assert "await enrichment" not in res.stderr


def test_capture_of_a_pdf_says_what_fills_its_pending_chunks(
    vault: Vault, tmp_path: Any
) -> None:
    from replay_server import ReplayServer

    from vaultd.samplepdf import write_sample_paper

    pdf = tmp_path / "paper.pdf"
    write_sample_paper(pdf)
    with ReplayServer() as nothing:  # every metadata source answers 404, fast
        env = {
            var: nothing.url
            for var in ("VAULTD_CROSSREF_URL", "VAULTD_OPENALEX_URL", "VAULTD_UNPAYWALL_URL",
                        "VAULTD_ARXIV_API_URL", "VAULTD_ARXIV_PDF_URL")
        }
        env["OLLAMA_HOST"] = closed_port_url()
        args = ["--vault", str(vault.root), "capture", str(pdf), "--cite-key", "sample2024paper"]
        res = CliRunner().invoke(main_group, [*args, "--json"], env=env)
    assert res.exit_code == 0, res.output
    compiled = json.loads(res.stdout)[0]["compile"]
    assert compiled["enrichment_pending"] > 0
    hints = [line for line in res.stderr.splitlines() if "await enrichment" in line]
    assert len(hints) == 1 and "run `vaultd enrich sample2024paper`" in hints[0]



def test_a_note_with_nothing_to_enrich_names_no_model(vault: Vault, fake: FakeOllama) -> None:
    note = make_note(paragraphs=[])  # a heading and a reference entry: no content chunk
    note.meta.enrichment = "qwen2.5:7b enrich-v0"  # what an earlier run claimed
    write_note(vault, note)
    result = enrich_note(vault, settings_for(vault, fake.url), KEY)
    assert result.requests == 0
    assert parse_note(vault.note_path(KEY).read_text(encoding="utf-8")).meta.enrichment is None
