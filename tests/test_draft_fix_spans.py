"""`vaultd verify --draft --fix` gives a misquote back the source's words for exactly the
span the draft quoted, never one word short (``vaultd.verify.match.source_span``)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from _papers import stage_pdf
from click.testing import CliRunner
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from vaultd.cli import main_group
from vaultd.config import Settings, default_config_toml
from vaultd.errors import VaultdError
from vaultd.mcp.memory import remember
from vaultd.models import Chunk, Work
from vaultd.notes.escape import escape
from vaultd.notes.reader import parse_note
from vaultd.pipeline.compile import compile_note
from vaultd.vault import Vault
from vaultd.verify.draft import Works, check_text
from vaultd.verify.match import match_form, source_words

DOGS = "range2015dogs"
PAPERS = {DOGS: "frontiers_psychol_2014_dog_cognition.pdf",
          "lo2020s2orc": "acl_2020_s2orc_corpus.pdf"}
# Range and Virányi (2015), KEY CONCEPT 3, the end of its paragraph
SOURCE_END = ("Many of these hypotheses imply that wolves are socially less tolerant and less "
              "attentive than dogs.")
REPLACEMENTS = ("zebra", "marble", "quietly", "lantern")


@pytest.fixture(scope="module")
def vault(fixtures_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Vault]:
    v = Vault(tmp_path_factory.mktemp("spans") / "vault")
    v.init(default_config_toml())
    for key, pdf in PAPERS.items():
        stage_pdf(v, key, fixtures_dir / "pdfs-eval" / "pdfs" / pdf,
                  Work(title=key, issued=[2015], reconciled=True, sources=["crossref", "openalex"]))
        compile_note(v, Settings(), key)
    yield v


@pytest.fixture(scope="module")
def paragraphs(vault: Vault) -> list[tuple[str, Chunk]]:
    out = []
    for key in PAPERS:
        note = parse_note(vault.note_path(key).read_text(encoding="utf-8"))
        out += [(key, c) for c in note.chunks
                if c.provenance.chunk_type == "paragraph" and len(c.text.split()) >= 12]
    return out


def test_a_misquote_ending_where_the_source_sentence_ends_keeps_its_last_word(vault: Vault) -> None:
    """The report of issue 32: the suggestion read "… less attentive than", one word short."""
    note = parse_note(vault.note_path(DOGS).read_text(encoding="utf-8"))
    [c] = [c for c in note.chunks if c.text.endswith(SOURCE_END)]
    changed = SOURCE_END.replace("imply", "suggest")
    assert source_words(c.text, changed.removesuffix(".")) == SOURCE_END.removesuffix(".")
    assert source_words(c.text, changed) == SOURCE_END
    report = check_text(vault, f"“{changed.removesuffix('.')}” [@{DOGS}]\n", "markdown")
    [f] = report.findings
    assert f.kind == "MISQUOTED" and f.message.endswith(": [-imply-] {+suggest+}")
    assert f.fix == f"quote the source: “{SOURCE_END.removesuffix('.')}”"


def test_fix_writes_the_whole_span_and_the_draft_then_checks_ok(vault: Vault, tmp_path: Path) -> None:
    changed = SOURCE_END.replace("imply", "suggest").removesuffix(".")
    draft = tmp_path / "paper.md"
    draft.write_text(f"They write that “{changed}” [@{DOGS}].\n", encoding="utf-8")
    out = CliRunner().invoke(main_group, ["--vault", str(vault.root), "verify", "--draft",
                                          str(draft), "--fix"])
    assert out.exit_code == 0, out.output
    after = draft.read_text(encoding="utf-8")
    assert after.startswith(f"They write that “{SOURCE_END.removesuffix('.')}” [@{DOGS}].")
    assert [f.kind for f in check_text(vault, after, "markdown").findings] == ["OK"]


def test_remember_shows_the_changed_word_not_the_next_passage(vault: Vault) -> None:
    changed = SOURCE_END.replace("imply", "suggest").removesuffix(".")
    with pytest.raises(VaultdError) as err:
        remember(vault, f"Range and Virányi note that “{changed}”.", about=[DOGS])
    message = str(err.value)
    assert "[-imply-] {+suggest+}" in message and "Canine" not in message and "[-dogs" not in message
    assert f"quote the source: “{SOURCE_END.removesuffix('.')}”" in message


def _cut(words: list[str], data: st.DataObject) -> tuple[int, int]:
    """[i, j) of a quote: its end anywhere, at a sentence's end or at the paragraph's."""
    size = data.draw(st.integers(10, min(40, len(words))), label="words")
    where = data.draw(st.sampled_from(["anywhere", "sentence", "paragraph"]), label="end")
    ends = [j for j in range(size, len(words) + 1)
            if where == "anywhere" or (where == "paragraph" and j == len(words))
            or (where == "sentence" and re.search(r"[.!?][\"'”’)]*$", words[j - 1]))]
    assume(ends)
    j = data.draw(st.sampled_from(ends), label="j")
    return j - size, j


@settings(max_examples=200, deadline=None)
@given(st.data())
def test_fix_gives_back_exactly_the_source_span_of_a_quote_with_one_word_changed(
        vault: Vault, paragraphs: list[tuple[str, Chunk]], data: st.DataObject) -> None:
    key, c = paragraphs[data.draw(st.integers(0, len(paragraphs) - 1), label="chunk")]
    words = c.text.split()
    i, j = _cut(words, data)
    span = " ".join(words[i:j])
    assume(not re.search(r"[\[\]…*_`<>\\@]|\.\.\.", span))  # no ellipsis, insertion or markup
    works = Works(vault)
    work = works.get(key)
    assert work is not None
    assume(work.passages.text.count(match_form(span)) == 1)  # a passage the work holds once
    changeable = [k for k in range(i, j) if re.search(r"[A-Za-z]{3,}", words[k])]
    assume(changeable)
    k = data.draw(st.sampled_from(changeable), label="changed word")
    # the words left unchanged name one passage (else the quote is as close to another:
    # "… senior researcher at the Messerli Research Institute at the University of" and
    # "… senior position at …" with "researcher"/"position" changed)
    rest = max(" ".join(words[i:k]), " ".join(words[k + 1:j]), key=len)
    assume(work.passages.text.count(match_form(rest)) == 1)
    old = re.search(r"[A-Za-z]{3,}", words[k])[0]  # type: ignore[index]
    new = data.draw(st.sampled_from([w for w in REPLACEMENTS if w != old.lower()]), label="new")
    quoted = [*words[i:k], words[k].replace(old, new, 1), *words[k + 1:j]]
    quote = " ".join(quoted)

    assert source_words(c.text, quote) == span

    draft = quote.replace("“", "‘").replace("”", "’")  # nested marks, as a writer sets them
    report = check_text(vault, f"“{draft}” [@{key}]\n", "markdown", works=works)
    [f] = report.findings
    assert f.kind == "MISQUOTED", f.line_text()
    [edit] = report.edits
    assert edit.new == escape(span)
