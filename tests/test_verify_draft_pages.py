"""`vaultd verify --draft` and printed pages: a locator names the page as printed when the
note knows it (confirmed or inferred), the PDF page when it does not, and says which.

Notes are compiled from real fixture PDFs, then given the labels the page reader finds
(S2ORC, ACL 2020, prints pp. 4969–4983: PDF page ``n`` prints ``4968 + n``)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from _papers import stage_pdf
from click.testing import CliRunner

from vaultd.cli import main_group
from vaultd.config import Settings, default_config_toml
from vaultd.models import Chunk, Work
from vaultd.notes.markdown import render_note
from vaultd.notes.reader import parse_note
from vaultd.pipeline.compile import compile_note
from vaultd.vault import Vault
from vaultd.verify.draft import DraftReport, check_text

S2ORC, DOGS, LEGACY = "lo2020s2orc", "range2015dogs", "lo2020legacy"
FIRST_PAGE = 4969
PDFS = {S2ORC: "acl_2020_s2orc_corpus.pdf", DOGS: "frontiers_psychol_2014_dog_cognition.pdf",
        LEGACY: "acl_2020_s2orc_corpus.pdf"}


def _relabel(vault: Vault, key: str, label: dict[str, object]) -> None:
    """Rewrite the note with ``label`` (a function of the PDF page) on every chunk."""
    path = vault.note_path(key)
    note = parse_note(path.read_text(encoding="utf-8"))
    chunks = [c.model_copy(update={"provenance": c.provenance.model_copy(update={
        "page_label": label["page_label"](c.provenance.page),  # type: ignore[operator]
        "page_label_source": label["source"], "page_label_status": label["status"]})})
        for c in note.chunks]
    path.write_text(render_note(note.model_copy(update={"chunks": chunks})), encoding="utf-8")


@pytest.fixture(scope="module")
def vault(fixtures_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Vault]:
    v = Vault(tmp_path_factory.mktemp("pages") / "vault")
    v.init(default_config_toml())
    for key, pdf in PDFS.items():
        stage_pdf(v, key, fixtures_dir / "pdfs-eval" / "pdfs" / pdf,
                  Work(title=key, issued=[2020], reconciled=True, sources=["crossref", "openalex"]))
        compile_note(v, Settings(), key)
    _relabel(v, S2ORC, {"page_label": lambda p: str(FIRST_PAGE - 1 + p), "source": "folio",
                        "status": "confirmed"})
    _relabel(v, DOGS, {"page_label": lambda p: None, "source": "pdf", "status": None})
    # a note written before labels were reconciled: /PageLabels, unchecked
    _relabel(v, LEGACY, {"page_label": lambda p: str(FIRST_PAGE - 1 + p), "source": None,
                         "status": None})
    yield v


def chunk_on(vault: Vault, key: str, page: int) -> Chunk:
    note = parse_note(vault.note_path(key).read_text(encoding="utf-8"))
    return next(c for c in note.chunks if c.provenance.page == page and not c.provenance.regions
                and c.provenance.chunk_type == "paragraph" and len(c.text) > 200
                and note.chunks.count(c) == 1)


def quote(c: Chunk) -> str:
    return " ".join(c.text.split()[3:17])


def check(vault: Vault, text: str, fmt: str = "latex") -> DraftReport:
    return check_text(vault, text, fmt)


def test_the_printed_page_is_ok(vault: Vault) -> None:
    c = chunk_on(vault, S2ORC, 2)
    [f] = check(vault, f"\\enquote{{{quote(c)}}}~\\cite[p.~4970]{{{S2ORC}}}\n").findings
    assert (f.kind, f.chunk_id) == ("OK", c.id) and "is on p. 4970" in f.message


def test_the_pdf_page_where_a_printed_one_is_confirmed_is_the_wrong_page(vault: Vault) -> None:
    c = chunk_on(vault, S2ORC, 2)
    [f] = check(vault, f"\\enquote{{{quote(c)}}}~\\cite[p.~2]{{{S2ORC}}}\n").findings
    assert f.kind == "WRONG PAGE" and f.chunk_id == c.id
    assert f.message.endswith(": p. 2 is the PDF page; the printed page is 4970")
    assert f.fix == "cite p. 4970"


def test_a_page_the_quote_is_not_on_names_the_printed_and_the_pdf_page(vault: Vault) -> None:
    c = chunk_on(vault, S2ORC, 2)
    [f] = check(vault, f"“{quote(c)}” [@{S2ORC}, p. 4975]\n", "markdown").findings
    assert f.kind == "WRONG PAGE"
    assert f.message.endswith("is on p. 4970 (PDF page 2), not p. 4975") and f.fix == "cite p. 4970"


@pytest.mark.parametrize("fmt, cite, fixed", [
    ("latex", f"\\cite[p.~2]{{{S2ORC}}}", f"\\cite[p.~4970]{{{S2ORC}}}"),
    ("latex", f"\\citep[see][pp.~2--2]{{{S2ORC}}}", f"\\citep[see][pp.~4970--4970]{{{S2ORC}}}"),
    ("markdown", f"[@{S2ORC}, p. 2]", f"[@{S2ORC}, p. 4970]"),
])
def test_fix_writes_the_printed_page_into_the_draft(vault: Vault, tmp_path: Path, fmt: str,
                                                    cite: str, fixed: str) -> None:
    c = chunk_on(vault, S2ORC, 2)
    body = (f"As they say, \\enquote{{{quote(c)}}}~{cite}.\n" if fmt == "latex"
            else f"As they say, “{quote(c)}” {cite}.\n")
    draft = tmp_path / ("paper.tex" if fmt == "latex" else "paper.md")
    draft.write_text(f"Intro.\n\n{body}\nEnd.\n", encoding="utf-8")
    out = CliRunner().invoke(main_group, ["--vault", str(vault.root), "verify", "--draft",
                                          str(draft), "--fix"])
    assert out.exit_code == 0, out.output
    after = draft.read_text(encoding="utf-8")
    assert after.startswith(f"Intro.\n\n{body.replace(cite, fixed)}")
    assert [f.kind for f in check(vault, after, fmt).findings] == ["OK"]


def test_a_key_with_digits_keeps_them_when_the_page_is_fixed(vault: Vault) -> None:
    c = chunk_on(vault, S2ORC, 2)
    text = f"\\enquote{{{quote(c)}}}~\\cite[p.~2]{{{S2ORC}}}\n"
    report = check(vault, text)
    [edit] = [e for e in report.edits if e.end > e.start]
    assert text[edit.start:edit.end] == f"\\cite[p.~2]{{{S2ORC}}}"
    assert edit.new == f"\\cite[p.~4970]{{{S2ORC}}}"  # lo2020s2orc's 2s untouched


def test_without_a_confirmed_label_the_page_is_named_as_the_pdfs(vault: Vault) -> None:
    c = chunk_on(vault, DOGS, 2)
    [ok] = check(vault, f"“{quote(c)}” [@{DOGS}, p. 2]\n", "markdown").findings
    assert ok.kind == "OK" and ok.message.endswith("is on p. 2 of the PDF")
    report = check(vault, f"“{quote(c)}” [@{DOGS}, p. 37]\n", "markdown")
    [f] = report.findings
    assert f.kind == "WRONG PAGE" and "is on p. 2 of the PDF" in f.message
    assert f.fix == "cite the page printed on PDF page 2"  # never "cite p. 2": it may be p. 37
    assert [e for e in report.edits if e.end > e.start] == []


def test_a_label_from_an_older_note_counts_beside_the_pdf_page(vault: Vault) -> None:
    c = chunk_on(vault, LEGACY, 2)
    for page in ("2", "4970"):
        [f] = check(vault, f"“{quote(c)}” [@{LEGACY}, p. {page}]\n", "markdown").findings
        assert f.kind == "OK", f.line_text()
