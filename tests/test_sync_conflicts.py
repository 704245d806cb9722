"""Sync tools' conflict copies are recognised by name, never indexed, and listed by status."""

from __future__ import annotations

import json

from hypothesis import given
from hypothesis import strategies as st
from test_index_support import sample_vault

from vaultd.config import Settings
from vaultd.index.search import hybrid_search
from vaultd.index.store import open_index
from vaultd.pipeline.index import index_vault
from vaultd.sync_conflicts import conflict_original
from vaultd.vault import Vault

stems = st.text(st.characters(exclude_characters="/\\\0()", exclude_categories=["Cs"]),
                min_size=1, max_size=30).filter(lambda s: s.strip() and not s.startswith("."))


@given(stems, st.integers(0, 99999999), st.integers(0, 999999))
def test_syncthing_and_dropbox_copies_name_their_original(stem: str, day: int, clock: int) -> None:
    syncthing = f"{stem}.sync-conflict-{day:08d}-{clock:06d}-ABCDEF7.md"
    dropbox = f"{stem} (Ada's conflicted copy 2024-05-01).md"
    generic = f"{stem} (conflict {day}).md"
    assert conflict_original(syncthing) == f"{stem}.md"
    assert conflict_original(dropbox) == f"{stem}.md"
    assert conflict_original(generic) == f"{stem}.md"


@given(stems)
def test_ordinary_names_are_not_conflict_copies(stem: str) -> None:
    for name in (f"{stem}.md", f"{stem} 2.md", f"{stem}-LAPTOP.md", f"Conflict theory {stem}.md",
                 f"{stem} (draft).md"):
        if "conflict" not in stem.lower():
            assert conflict_original(name) is None, name


def test_a_synced_conflict_copy_is_not_indexed_and_status_names_it(vault: Vault) -> None:
    from click.testing import CliRunner

    from vaultd.cli import main_group

    sample_vault(vault)
    note = vault.note_path("vaswani2017attention")
    text = note.read_text(encoding="utf-8")
    copies = [note.with_name("vaswani2017attention.sync-conflict-20240501-101500-ABCDEF7.md"),
              note.with_name("vaswani2017attention (Ada's conflicted copy 2024-05-01).md")]
    for copy in copies:
        copy.write_text(text, encoding="utf-8")
    index_vault(vault, Settings(), embedder=None)
    db = open_index(vault.index_db)
    hits = hybrid_search(db, "scaled dot-product attention")
    assert {h.path for h in hits if "attention" in h.path} == {"wiki/vaswani2017attention.md"}
    assert db.scalar("SELECT count(*) FROM docs WHERE path LIKE '%conflict%'") == 0
    db.close()
    out = CliRunner().invoke(main_group, ["--vault", str(vault.root), "status", "--json"])
    listed = json.loads(out.output)["sync_conflicts"]
    assert listed == sorted([{"copy": f"wiki/{c.name}", "of": "wiki/vaswani2017attention.md"}
                             for c in copies], key=lambda d: d["copy"])
    out = CliRunner().invoke(main_group, ["--vault", str(vault.root), "status"])
    assert "sync conflict: wiki/vaswani2017attention.sync-conflict-" in out.output
