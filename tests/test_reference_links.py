"""A reference whose DOI/arXiv id names a paper already in the vault links to its note."""

from __future__ import annotations

from pathlib import Path

from vaultd.canonical import text_sha256
from vaultd.capture.arxiv import parse_feed
from vaultd.config import Settings
from vaultd.models import Author, MetaFile, Work
from vaultd.notes.reader import parse_note
from vaultd.parse.pymupdf import load_pymupdf
from vaultd.pipeline.compile import compile_note, linked_keys
from vaultd.vault import Vault
from vaultd.verify import verify_notes

CITED_ID = "1707.08567"
CITED = "cited2017arxiv"
CITING = "citing2024paper"


def _citing_pdf(path: Path) -> None:
    pymupdf = load_pymupdf()
    doc = pymupdf.open()
    page = doc.new_page(width=595, height=842)
    page.insert_text((72, 90), "Citing the Cited", fontsize=18)
    page.insert_text((72, 130), "We build on earlier work on this problem [1].", fontsize=10)
    page.insert_text((72, 170), "References", fontsize=14)
    page.insert_text((72, 195), "[1] A. Author. An earlier paper. arXiv:1707.08567, 2017.", fontsize=10)
    page.insert_text((72, 215), "[2] B. Other. Not in this vault. doi:10.9999/absent.1, 2019.", fontsize=10)
    doc.save(path)
    doc.close()


def _write_meta(vault: Vault, key: str, work: Work, pdf: bool) -> None:
    meta = MetaFile.from_work(key, work, pdf=f"raw/{key}.pdf" if pdf else None,
                              captured_at="2024-01-15T12:00:00+00:00")
    vault.meta_path(key).write_text(meta.model_dump_json(by_alias=True), encoding="utf-8")


def _vault_with_two_papers(vault: Vault, fixtures_dir: Path) -> Vault:
    feed = (fixtures_dir / "arxiv" / f"{CITED_ID}.atom.xml").read_text(encoding="utf-8")
    cited = parse_feed(feed, CITED_ID)
    assert cited is not None and cited.arxiv_id is not None
    _write_meta(vault, CITED, cited, pdf=False)
    _citing_pdf(vault.pdf_path(CITING))
    citing = Work(title="Citing the Cited", authors=[Author(family="Lovelace", given="Ada")], issued=[2024])
    _write_meta(vault, CITING, citing, pdf=True)
    return vault


def test_reference_to_a_paper_in_the_vault_links_its_note(vault: Vault, fixtures_dir: Path) -> None:
    _vault_with_two_papers(vault, fixtures_dir)
    compile_note(vault, Settings(), CITED)
    compile_note(vault, Settings(), CITING)
    text = vault.note_path(CITING).read_text(encoding="utf-8")
    note = parse_note(text)
    refs = [c for c in note.chunks if c.provenance.chunk_type == "reference"]
    assert len(refs) == 2
    first, second = refs
    assert first.linked_notes == [CITED]
    assert f"[[{CITED}]]" in text
    assert "[arxiv:1707.08567](https://arxiv.org/abs/1707.08567)" in text
    assert second.linked_notes == []
    assert "[doi:10.9999/absent.1](https://doi.org/10.9999/absent.1)" in text


def test_the_wikilink_is_rendering_and_leaves_the_quote_and_hash_alone(
    vault: Vault, fixtures_dir: Path
) -> None:
    _vault_with_two_papers(vault, fixtures_dir)
    compile_note(vault, Settings(), CITING)
    note = parse_note(vault.note_path(CITING).read_text(encoding="utf-8"))
    ref = next(c for c in note.chunks if c.provenance.chunk_type == "reference")
    assert ref.text == "[1] A. Author. An earlier paper. arXiv:1707.08567, 2017."
    assert ref.provenance.text_sha256 == text_sha256(ref.text)
    assert "[[" not in ref.text
    assert verify_notes(vault).findings == []


def test_lookup_matches_arxiv_doi_and_version_suffix_but_never_the_note_itself() -> None:
    known = {"arxiv:1707.08567": "a", "doi:10.1/x": "b", "doi:10.2/self": "me"}
    assert linked_keys(["arxiv:1707.08567", "doi:10.1/x"], known, "me") == ["a", "b"]
    assert linked_keys(["doi:10.2/self"], known, "me") == []
    assert linked_keys(["arxiv:1707.08567v2", "doi:10.1/X"], known, "me") == ["a", "b"]
    assert linked_keys(["doi:10.3/none"], known, "me") == []


def test_a_paper_captured_after_the_first_compile_is_linked_on_the_next(
    vault: Vault, fixtures_dir: Path
) -> None:
    """Record ids are remembered between compiles (a daemon compiles many papers), but a
    new or changed record is seen by the next compile."""
    _vault_with_two_papers(vault, fixtures_dir)
    absent = Work(title="Not in this vault", doi="10.9999/absent.1",
                  authors=[Author(family="Other", given="B.")], issued=[2019])
    compile_note(vault, Settings(), CITING)
    refs = [c for c in parse_note(vault.note_path(CITING).read_text(encoding="utf-8")).chunks
            if c.refs]
    assert [c.linked_notes for c in refs] == [[CITED], []]
    _write_meta(vault, "other2019absent", absent, pdf=False)
    vault.meta_path(CITED).unlink()  # and one record leaves the vault
    compile_note(vault, Settings(), CITING)
    refs = [c for c in parse_note(vault.note_path(CITING).read_text(encoding="utf-8")).chunks
            if c.refs]
    assert [c.linked_notes for c in refs] == [[], ["other2019absent"]]
