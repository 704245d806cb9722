"""`vaultd cite`/`bib`/`quote`/`styles` as a user runs them: formats in any case, the
in-text citation with a page, unverified and retracted works labelled, styles from the
vault's config, and every note re-rendered after a style change."""

from __future__ import annotations

import json

from click.testing import CliRunner
from test_index_support import sample_vault

from vaultd.cli import main_group
from vaultd.models import MetaFile, Notice
from vaultd.notes.reader import parse_note
from vaultd.vault import Vault, atomic_write_text

KEY = "vaswani2017attention"


def _cli(vault: Vault, *args: str) -> tuple[int, str, str]:
    out = CliRunner().invoke(main_group, ["--vault", str(vault.root), *args])
    # run_command prints a VaultdError as one "Error:" line; CliRunner hands it back.
    err = out.stderr + (f"Error: {out.exception}\n" if out.exception else "")
    return out.exit_code, out.stdout, err


def _edit_meta(vault: Vault, key: str, **work: object) -> None:
    meta = MetaFile.model_validate_json(vault.meta_path(key).read_text(encoding="utf-8"))
    meta.work = meta.work.model_copy(update=work)
    meta.reconciled = bool(work.get("reconciled", meta.reconciled))
    atomic_write_text(vault.meta_path(key), meta.model_dump_json(indent=2, by_alias=True))


def test_cite_takes_any_case_and_gives_the_in_text_form_for_a_page(vault: Vault) -> None:
    sample_vault(vault)
    code, out, err = _cli(vault, "cite", KEY, "-f", "APA")
    assert code == 0
    assert out.strip() == ("Vaswani, A., & Shazeer, N. (2017). Attention Is All You Need. "
                           "Proceedings of Tests. https://doi.org/10.1234/vaswani2017attention")
    assert err.strip() == f"warning: {KEY}: UNVERIFIED (no source confirmed it)"
    code, out, _ = _cli(vault, "cite", KEY, "-f", "Chicago", "--page", "4")
    assert (code, out.strip()) == (0, "(Vaswani and Shazeer 2017, 4)")
    code, out, _ = _cli(vault, "cite", KEY, "--format", "MLA", "--json")
    data = json.loads(out)
    assert (data["format"], data["verified"], data["intext"]) == ("mla", False,
                                                                  "(Vaswani and Shazeer)")
    assert data["labels"] == ["UNVERIFIED (no source confirmed it)"]


def test_a_retracted_work_is_named_as_such_before_anything_else(vault: Vault) -> None:
    sample_vault(vault)
    _edit_meta(vault, KEY, retracted=True, reconciled=True,
               notices=[Notice(kind="retraction", doi="10.1234/retraction", source="crossref",
                               date=[2020, 1, 2])])
    code, out, err = _cli(vault, "cite", KEY, "-f", "bibtex")
    assert code == 0 and out.startswith("@")
    assert err.strip() == (f"warning: {KEY}: RETRACTED (Retraction: "
                           "https://doi.org/10.1234/retraction (crossref, 2020-01-02))")


def test_an_unknown_format_is_one_line_naming_the_choices(vault: Vault) -> None:
    sample_vault(vault)
    code, _, err = _cli(vault, "cite", KEY, "-f", "harvrd")
    assert code == 1 and len(err.strip().splitlines()) == 1
    assert "unknown citation style 'harvrd'" in err and "bibtex" in err and "csl-json" in err


def test_bib_in_a_style_prints_plain_entries_rendered_in_one_batch(vault: Vault) -> None:
    sample_vault(vault)
    code, out, _ = _cli(vault, "bib", "-f", "ieee", KEY, "srivastava2014dropout")
    assert code == 0
    assert out.split("\n\n")[1].startswith("N. Srivastava and G. Hinton, “Dropout: A Simple Way")


def test_styles_refresh_rerenders_every_note_in_the_configured_styles(vault: Vault) -> None:
    sample_vault(vault)
    config = vault.config_path.read_text(encoding="utf-8")
    atomic_write_text(vault.config_path, config.replace(
        '# styles = ["apa", "mla", "chicago", "ieee"]', 'styles = ["apa", "nature"]'))
    _, out, _ = _cli(vault, "styles", "--json")
    assert [s["name"] for s in json.loads(out)["styles"]] == ["apa", "nature"]
    code, out, _ = _cli(vault, "styles", "refresh", "--json")
    report = json.loads(out)
    assert (code, report["works"], report["notes_updated"]) == (0, 2, 2)
    note = parse_note(vault.note_path(KEY).read_text(encoding="utf-8"))
    assert list(note.citations) == ["apa", "Nature", "bibtex"]
    assert note.citations["Nature"].startswith("Vaswani, A. & Shazeer, N. Attention Is All")
    assert [c.id for c in note.chunks] == ["p1s1c1", "p3s2c1", "p5s3c1"]  # rest untouched
    text = vault.note_path(KEY).read_text(encoding="utf-8")
    assert "> [!warning] UNVERIFIED (no source confirmed it)" in text


def test_quote_carries_the_in_text_citation_with_the_printed_page(vault: Vault) -> None:
    sample_vault(vault)
    _, out, _ = _cli(vault, "quote", KEY, "p3s2c1", "--json")
    data = json.loads(out)
    assert data["citation"] == "(Vaswani & Shazeer, 2017, p. 103)"  # page label 103
    assert data["metadata_verified"] is False and data["verified"] is True


def test_search_hits_of_a_retracted_work_carry_the_warning(vault: Vault) -> None:
    from vaultd.index.hits import Hit, hit_json

    sample_vault(vault)
    _edit_meta(vault, KEY, retracted=True,
               notices=[Notice(kind="retraction", doi="10.1234/r", source="openalex")])
    hit = Hit(kind="paper", cite_key=KEY, title="Attention Is All You Need", authors=None,
              year=2017, page=3, page_label="103", section=None, chunk_id="p3s2c1",
              chunk_type="paragraph", path=f"wiki/{KEY}.md", line_start=None, line_end=None,
              excerpt="…", score=1.0)
    data = hit_json(vault, hit)
    assert list(data)[:2] == ["warning", "retracted"]
    assert data["warning"] == "RETRACTED (Retraction: https://doi.org/10.1234/r (openalex))"
    other = hit_json(vault, Hit(**{**hit.to_dict(), "cite_key": "srivastava2014dropout"}))
    assert "warning" not in other and "retracted" not in other
