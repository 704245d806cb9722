"""`vaultd notes upgrade`: notes written in the first layout move to the current one, losing nothing."""

from __future__ import annotations

import json

from click.testing import CliRunner

from vaultd.canonical import text_sha256
from vaultd.cli import main_group
from vaultd.models import NOTE_FORMAT, MetaFile, Work
from vaultd.notes.reader import parse_note
from vaultd.vault import Vault, atomic_write_text
from vaultd.verify import verify_notes

QUOTE = "Click on the box saying <your name> then press *save*: 1. done"

V1 = (
    "---\ncite_key: k2020x\ntitle: A Study\nraw: raw/k2020x.pdf\nchunks: 1\n---\n\n"
    "Typed above the title.\n\n# A Study\n\n"
    "<!-- vaultd:quotes -->\n## Quotes\n\n<!-- chunk id=p1s0c1 -->\n"
    f"> {QUOTE}\n\n**Paraphrase:** _(LLM, advisory)_ The user names the box.\n\n"
    "**Implication:** _pending_\n\n```yaml\npage: 1\npage_label: '12'\nsection: null\n"
    "bbox: null\npdf_rect: null\n"
    f"text_sha256: {text_sha256(QUOTE)}\nchar_range: [0, {len(QUOTE)}]\n"
    "chunk_type: paragraph\nparser: pymupdf\nocr: false\nocr_confidence: null\n"
    "enrichment: done\n```\n\n[[raw/k2020x.pdf#page=1]]\n<!-- /chunk -->\n"
    "My comment on that quote.\n\n<!-- /vaultd:quotes -->\n\n## My notes\n\nMine, kept.\n"
)


def _cli(vault: Vault, *args: str) -> tuple[int, str]:
    out = CliRunner().invoke(main_group, ["--vault", str(vault.root), *args])
    return out.exit_code, out.output


def test_upgrade_rewrites_first_layout_notes_and_keeps_everything(vault: Vault) -> None:
    meta = MetaFile.from_work("k2020x", Work(title="A Study"), pdf="raw/k2020x.pdf")
    atomic_write_text(vault.meta_path("k2020x"), meta.model_dump_json(by_alias=True))
    path = vault.note_path("k2020x")
    atomic_write_text(path, V1)
    before = parse_note(V1)
    assert before.meta.note_format == 1 and verify_notes(vault).ok

    code, out = _cli(vault, "notes", "upgrade", "--json")
    assert code == 0, out
    assert json.loads(out) == {"upgraded": ["wiki/k2020x.md"], "current": 0, "failed": []}
    text = path.read_text(encoding="utf-8")
    after = parse_note(text)
    assert after.meta.note_format == NOTE_FORMAT
    assert after.chunks == before.chunks and after.annotations == before.annotations
    assert after.user_blocks == before.user_blocks
    assert "> Click on the box saying \\<your name\\> then press \\*save\\*: 1. done\n" in text
    assert "Typed above the title." in text and "My comment on that quote." in text
    assert verify_notes(vault).ok

    code, out = _cli(vault, "notes", "upgrade", "--json")  # a second run finds it current
    assert code == 0 and json.loads(out)["current"] == 1
    assert path.read_text(encoding="utf-8") == text


def test_an_unreadable_note_is_reported_and_left_as_it_was(vault: Vault) -> None:
    meta = MetaFile.from_work("bad2020x", Work(title="Bad"), pdf="raw/bad2020x.pdf")
    atomic_write_text(vault.meta_path("bad2020x"), meta.model_dump_json(by_alias=True))
    broken = "---\ncite_key: [\n---\n"
    atomic_write_text(vault.note_path("bad2020x"), broken)
    code, out = _cli(vault, "notes", "upgrade")
    assert code == 1 and "wiki/bad2020x.md" in out
    assert vault.note_path("bad2020x").read_text(encoding="utf-8") == broken


def _v2(quote: str) -> str:
    """A note as format 2 wrote it: every chunk's page, bbox, pdf_rect and char_range."""
    return (
        "---\ncite_key: k2021y\ntitle: B\nraw: '[[raw/k2021y.pdf]]'\nchunks: 1\nnote_format: 2\n---\n\n"
        "# B\n\n<!-- vaultd:quotes -->\n## Quotes\n\n<!-- chunk id=p3s1c2 -->\n"
        f"> {quote}\n\n[[raw/k2021y.pdf#page=3&rect=71,650,302,693|p. 112]]\n\n%%\n```yaml\n"
        "page: 3\npage_label: '112'\nsection: 1 Intro\nbbox: [71.6, 99.4, 301.2, 141.7]\n"
        f"pdf_rect: [71.6, 650.3, 301.2, 692.6]\ntext_sha256: {text_sha256(quote)}\n"
        f"char_range: [0, {len(quote)}]\nparser: pymupdf\n```\n%%\n<!-- /chunk -->\n\n"
        "<!-- /vaultd:quotes -->\n\n## My notes\n\nMine.\n")


def test_a_format_2_note_moves_to_the_leaner_layout_with_the_same_page_and_region(vault: Vault) -> None:
    quote = "We measure recall at five."
    meta = MetaFile.from_work("k2021y", Work(title="B"), pdf="raw/k2021y.pdf")
    atomic_write_text(vault.meta_path("k2021y"), meta.model_dump_json(by_alias=True))
    path = vault.note_path("k2021y")
    atomic_write_text(path, _v2(quote))
    before = parse_note(path.read_text(encoding="utf-8"))
    code, out = _cli(vault, "notes", "upgrade", "--json")
    assert code == 0 and json.loads(out)["upgraded"] == ["wiki/k2021y.md"], out
    text = path.read_text(encoding="utf-8")
    after = parse_note(text)
    prov = after.chunks[0].provenance
    # the page and region now come from the link; the rect widened to whole points
    assert (prov.page, prov.page_label, prov.section) == (3, "112", "1 Intro")
    assert prov.pdf_rect == [71, 650, 302, 693] and prov.char_range == [0, len(quote)]
    assert "bbox" not in text and "pdf_rect" not in text and "\npage: 3" not in text
    def block(note: str) -> str:
        return note[note.index("<!-- chunk id="):note.index("<!-- /chunk -->")]
    assert len(block(text)) <= len(block(_v2(quote))) - 90  # page, bbox, pdf_rect, char_range
    assert after.chunks[0].text == before.chunks[0].text and after.user_blocks == before.user_blocks
    assert verify_notes(vault).ok
