"""`vaultd verify --draft`: drafts built from fixture papers' notes, checked against them."""

from __future__ import annotations

import json
import random
import re
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from vaultd.cli import main_group
from vaultd.cli.common import run_command
from vaultd.config import Settings, default_config_toml
from vaultd.models import Chunk, MetaFile, Notice, Work
from vaultd.notes.pages import page_locator
from vaultd.notes.reader import parse_note
from vaultd.pipeline.compile import compile_note
from vaultd.vault import Vault
from vaultd.verify.draft import DraftReport, check_text

PAPERS = {"cohan2020specter": ("two_column/2020.acl-main.207_specter.pdf",
                               "SPECTER: Document-level Representation Learning", 2020),
          "ammar2018construction": ("two_column/N18-3011_naacl2018_literature_graph.pdf",
                                    "Construction of the Literature Graph in Semantic Scholar",
                                    2018)}
A, B = PAPERS


@pytest.fixture(scope="module")
def papers(fixtures_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Vault]:
    vault = Vault(tmp_path_factory.mktemp("draft") / "vault")
    vault.init(default_config_toml())
    for key, (pdf, title, year) in PAPERS.items():
        shutil.copy(fixtures_dir / "pdfs" / pdf, vault.pdf_path(key))
        work = Work(title=title, issued=[year], reconciled=True, sources=["crossref", "openalex"])
        meta = MetaFile.from_work(key, work, pdf=f"raw/{key}.pdf",
                                  captured_at="2024-01-01T00:00:00+00:00")
        vault.meta_path(key).write_text(meta.model_dump_json(), encoding="utf-8")
        compile_note(vault, Settings(), key)
    yield vault


def chunks(vault: Vault, key: str) -> list[Chunk]:
    note = parse_note(vault.note_path(key).read_text(encoding="utf-8"))
    return [c for c in note.chunks if c.provenance.chunk_type == "paragraph" and len(c.text) > 200]


def sentence(c: Chunk, words: int = 14, skip: int = 3) -> str:
    """A run of ``words`` words from inside the chunk (not its start)."""
    return " ".join(c.text.split()[skip:skip + words])


_LATEX = {"\\": r"\textbackslash{}", "%": r"\%", "&": r"\&", "_": r"\_", "$": r"\$",
          "#": r"\#", "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}", "^": r"\^{}"}


def latex(text: str) -> str:
    """The text as someone pasting it into LaTeX writes it (specials escaped, dashes as
    ligatures)."""
    out = "".join(_LATEX.get(ch, ch) for ch in text)
    return out.replace("—", "---").replace("–", "--")


def check(vault: Vault, text: str, fmt: str = "latex") -> DraftReport:
    return check_text(vault, text, fmt)


def kinds(report: DraftReport) -> list[str]:
    return [f.kind for f in report.findings]


def test_an_exact_quote_is_ok_with_its_page_and_chunk(papers: Vault) -> None:
    c = chunks(papers, A)[2]
    page = page_locator(c.provenance)
    report = check(papers, f"As they put it, \\enquote{{{latex(sentence(c))}}}~\\cite[p.~{page}]{{{A}}}.\n")
    [f] = report.findings
    assert (f.kind, f.chunk_id, f.page) == ("OK", c.id, page)


def test_one_changed_word_is_misquoted_with_the_word_shown(papers: Vault) -> None:
    c = chunks(papers, A)[3]
    words = sentence(c).split()
    i = next(i for i, w in enumerate(words) if w.isalpha() and len(w) > 4)
    original = words[i]
    words[i] = "zebra"
    report = check(papers, f"``{latex(' '.join(words))}'' \\citep{{{A}}}\n")
    [f] = report.findings
    assert f.kind == "MISQUOTED" and f.chunk_id == c.id
    assert f"[-{original}-]" in f.message and "{+zebra+}" in f.message


def test_an_ellipsis_skips_text_and_each_part_must_be_there(papers: Vault) -> None:
    c = chunks(papers, A)[4]
    w = c.text.split()
    quote = f"{latex(' '.join(w[2:8]))} \\ldots{{}} {latex(' '.join(w[14:20]))}"
    assert kinds(check(papers, f"\\enquote{{{quote}}} \\cite{{{A}}}\n")) == ["OK"]
    swapped = f"{latex(' '.join(w[14:20]))} \\ldots{{}} {latex(' '.join(w[2:8]))}"
    assert kinds(check(papers, f"\\enquote{{{swapped}}} \\cite{{{A}}}\n")) != ["OK"]


def test_a_quote_broken_across_lines_and_a_hyphenated_word_still_matches(papers: Vault) -> None:
    c = chunks(papers, A)[5]
    words = sentence(c, 16).split()
    i = next(i for i, w in enumerate(words) if w.isalpha() and len(w) >= 8)
    words[i] = f"{words[i][:4]}-\n{words[i][4:]}"
    wrapped = " ".join(words[:5]) + "\n" + " ".join(words[5:])
    report = check(papers, f"\\begin{{quote}}\n{latex(wrapped)}\n\\end{{quote}}\n\\cite{{{A}}}\n")
    assert kinds(report) == ["OK"]


def test_a_quote_of_one_paper_cited_to_another_is_the_wrong_source(papers: Vault) -> None:
    c = chunks(papers, B)[2]
    [f] = check(papers, f"“{sentence(c)}” [@{A}]\n", "markdown").findings
    assert f.kind == "WRONG SOURCE" and B in f.message and f.fix == f"cite {B}"


def test_a_wrong_page_names_the_right_one(papers: Vault) -> None:
    c = next(c for c in chunks(papers, A) if c.provenance.page > 2)
    page = page_locator(c.provenance)
    [f] = check(papers, f"> {sentence(c)}\n\n[@{A}, p. 1]\n", "markdown").findings
    assert f.kind == "WRONG PAGE" and f.fix == f"cite p. {page}"


def test_unknown_keys_get_a_suggestion(papers: Vault) -> None:
    [f] = check(papers, "As shown before [@cohan2020spectre].\n", "markdown").findings
    assert f.kind == "UNKNOWN KEY" and f.fix is not None and A in f.fix


def test_a_stale_provenance_comment_is_drifted(papers: Vault) -> None:
    c = chunks(papers, A)[1]
    good = f"\\enquote{{{latex(sentence(c))}}} \\cite{{{A}}}\n% vaultd: {A} {c.id} sha256={c.provenance.text_sha256}\n"
    assert kinds(check(papers, good)) == ["OK"]
    stale = good.replace(c.provenance.text_sha256, "0" * 64)
    assert "DRIFTED" in kinds(check(papers, stale))
    other = chunks(papers, A)[2]  # the comment names a chunk the quote beside it is not in
    moved = good.replace(c.id, other.id).replace(c.provenance.text_sha256, other.provenance.text_sha256)
    assert "DRIFTED" in kinds(check(papers, moved))


def test_retracted_notice_and_unverified_works_are_named(papers: Vault, tmp_path: Path) -> None:
    vault = Vault(tmp_path / "v")
    vault.init(default_config_toml())
    works = {"gone2019x": Work(title="Gone", retracted=True, reconciled=True,
                               notices=[Notice(kind="retraction", source="crossref")]),
             "concern2019y": Work(title="Concern", reconciled=True,
                                  notices=[Notice(kind="expression_of_concern", source="crossref")]),
             "loose2019z": Work(title="Loose")}
    for key, work in works.items():
        meta = MetaFile.from_work(key, work)
        vault.meta_path(key).write_text(meta.model_dump_json(), encoding="utf-8")
    report = check(vault, "See \\cite{gone2019x,concern2019y} and \\citet{loose2019z}.\n")
    assert sorted(kinds(report)) == ["NOTICE", "RETRACTED", "UNVERIFIED"]


def test_the_drafts_own_bib_is_compared_with_the_vaults_records(papers: Vault, tmp_path: Path) -> None:
    (tmp_path / "refs.bib").write_text(
        f"@inproceedings{{{A}, title = {{SPECTER: Document-level Representation Learning}},"
        f" year = {{2019}}}}\n@misc{{{B}, title = {{Construction of the Literature Graph in"
        f" Semantic Scholar}}, year = {{2018}}}}\n", encoding="utf-8")
    draft = tmp_path / "paper.tex"
    draft.write_text(f"See \\cite{{{A},{B}}}.\n\\bibliography{{refs}}\n", encoding="utf-8")
    out = CliRunner().invoke(main_group, ["--vault", str(papers.root), "verify", "--draft",
                                          str(draft), "--json"])
    assert out.exit_code == 1
    data = json.loads(out.stdout)
    [f] = data["findings"]
    assert f["kind"] == "BIB MISMATCH" and f["keys"] == [A] and "year 2019, vault 2020" in f["message"]


def test_cli_prints_findings_and_a_summary_and_exits_by_the_result(
        papers: Vault, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    c = chunks(papers, A)[2]
    ok = tmp_path / "ok.md"
    ok.write_text(f"“{sentence(c)}” [@{A}]\n", encoding="utf-8")
    out = CliRunner().invoke(main_group, ["--vault", str(papers.root), "verify", "--draft", str(ok)])
    assert out.exit_code == 0 and out.stdout.strip().endswith("1 OK")
    bad = tmp_path / "bad.md"
    bad.write_text("Known [@nobody2020x].\n", encoding="utf-8")
    out = CliRunner().invoke(main_group, ["--vault", str(papers.root), "verify", "--draft", str(bad)])
    assert out.exit_code == 1 and f"{bad}:1: UNKNOWN KEY nobody2020x" in out.stdout
    monkeypatch.setattr("sys.argv", ["vaultd", "--vault", str(papers.root), "verify", "--draft",
                                     str(tmp_path / "missing.tex")])
    assert run_command(main_group) == 1
    assert capsys.readouterr().err == (f"Error: {tmp_path / 'missing.tex'}: no such draft; give a "
                                       ".tex, .md or .qmd file or a folder\n")


def test_quotes_pasted_from_quote_answers_are_never_reported_and_changed_words_always_are(
        papers: Vault) -> None:
    """The false-alarm check: 200 quotes as an agent would paste them from `quote()` into
    LaTeX or Markdown; then the same quotes with one word changed."""
    rng = random.Random(20261124)
    pool = [(key, c) for key in PAPERS for c in chunks(papers, key)]
    picks = [rng.choice(pool) for _ in range(200)]
    drafts, changed = [], []
    for n, (key, c) in enumerate(picks):
        words = c.text.split()
        start = rng.randrange(0, max(1, len(words) - 12))
        quote = " ".join(words[start:start + rng.randint(8, 24)])
        quote = quote.replace("“", "‘").replace("”", "’")  # nested, as a writer sets it
        page = page_locator(c.provenance)
        if n % 2:
            drafts.append(("latex", f"\\enquote{{{latex(quote)}}}~\\cite[p.~{page}]{{{key}}}\n"))
        else:
            drafts.append(("markdown", f"“{quote}” [@{key}, p. {page}]\n"))
        swap = [i for i, w in enumerate(quote.split()) if re.fullmatch(r"[A-Za-z]{5,}", w)]
        if swap:
            ws = quote.split()
            ws[rng.choice(swap)] = "zebra"
            changed.append(f"“{' '.join(ws)}” [@{key}]\n")
    false_alarms = [(fmt, text, f.line_text()) for fmt, text in drafts
                    for f in check(papers, text, fmt).findings if f.kind != "OK"]
    assert false_alarms == []
    missed = [(text, kinds(check(papers, text, "markdown"))) for text in changed]
    missed = [m for m in missed if m[1] != ["MISQUOTED"]]
    assert missed == [] and len(changed) >= 150


def test_mcp_verify_draft_answers_the_same_report(papers: Vault) -> None:
    import anyio
    from mcp import Client

    from vaultd.mcp.server import build_server

    c = chunks(papers, A)[2]

    async def go() -> dict[str, object]:
        async with Client(build_server(papers, Settings())) as client:
            result = await client.call_tool("verify_draft", {
                "text": f"“{sentence(c)}” [@{A}] and [@nobody2020x]", "format": "markdown"})
            return dict(result.structured_content or json.loads(result.content[0].text))

    data = anyio.run(go)
    assert data["ok"] is False and data["counts"] == {"OK": 1, "UNKNOWN KEY": 1}


_ACCENTS = {"é": r"\'e", "è": r"\`e", "ö": r'\"o', "ü": r'\"u', "ä": r'\"a', "á": r"\'a",
            "í": r"\'{\i}", "ñ": r"\~n", "ç": r"\c{c}"}


def test_latex_accents_and_dash_ligatures_read_as_the_source_characters(papers: Vault) -> None:
    note = parse_note(papers.note_path(B).read_text(encoding="utf-8"))
    c = next(c for c in note.chunks if c.provenance.chunk_type == "paragraph"
             and re.search("[éèöüäáíñç]", c.text))
    i = next(m.start() for m in re.finditer("[éèöüäáíñç]", c.text))
    quote = c.text[max(0, i - 60):i + 60].split(" ", 1)[1].rsplit(" ", 1)[0]
    written = "".join(_ACCENTS.get(ch, ch) for ch in latex(quote))
    assert written != latex(quote)  # the accent is written as a LaTeX command
    [f] = check(papers, f"\\enquote{{{written}}}~\\cite{{{B}}}\n").findings
    assert (f.kind, f.chunk_id) == ("OK", c.id)
    d = next(c for c in chunks(papers, A) if "–" in c.text or "—" in c.text)
    j = max(d.text.find("–"), d.text.find("—"))
    dashed = d.text[max(0, j - 50):j + 50].split(" ", 1)[1].rsplit(" ", 1)[0]
    assert "--" in latex(dashed)
    assert kinds(check(papers, f"\\enquote{{{latex(dashed)}}}~\\cite{{{A}}}\n")) == ["OK"]


def test_fix_rewrites_a_misquote_adds_provenance_and_touches_nothing_else(
        papers: Vault, tmp_path: Path) -> None:
    wrong, right = chunks(papers, A)[3], chunks(papers, A)[2]
    words = sentence(wrong).split()
    i = next(i for i, w in enumerate(words) if w.isalpha() and len(w) > 4)
    words[i] = "zebra"
    original = (f"Intro. % my own comment\n\\enquote{{{latex(' '.join(words))}}} \\citep{{{A}}}.\n"
                f"Middle text.\n\\enquote{{{latex(sentence(right))}}}~\\cite{{{A}}}\nEnd.\n")
    draft = tmp_path / "paper.tex"
    draft.write_text(original, encoding="utf-8")
    out = CliRunner().invoke(main_group, ["--vault", str(papers.root), "verify", "--draft",
                                          str(draft), "--fix"])
    assert out.exit_code == 0, out.output
    assert (tmp_path / "paper.tex.bak").read_text(encoding="utf-8") == original
    after = draft.read_text(encoding="utf-8")
    assert "zebra" not in after and f"\\enquote{{{latex(sentence(wrong))}}}" in after
    comment = f"% vaultd: {A} {right.id} sha256={right.provenance.text_sha256}"
    assert after == original.replace(latex(" ".join(words)), latex(sentence(wrong))).replace(
        f"\\cite{{{A}}}\n", f"\\cite{{{A}}}\n{comment}\n")
    assert kinds(check(papers, after)) == ["OK", "OK"]
