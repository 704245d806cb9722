"""The CLI twins: vaultd index / search / cite / quote / bib."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time

from click.testing import CliRunner
from test_index_support import sample_vault

from vaultd.cli import main_group
from vaultd.vault import Vault, atomic_write_text

KEY = "vaswani2017attention"


def _run(vault: Vault, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "vaultd", "--vault", str(vault.root), *args],
                          capture_output=True, text=True, timeout=60,
                          env={"PATH": "/usr/bin:/bin", "HOME": str(vault.root.parent),
                               "VAULTD_EMBEDDING_PROVIDER": "none"})


def test_index_then_search_json_lists_the_chunk_with_page_and_link(vault: Vault) -> None:
    sample_vault(vault)
    runner = CliRunner()
    env = {"VAULTD_EMBEDDING_PROVIDER": "none"}
    out = runner.invoke(main_group, ["--vault", str(vault.root), "index", "--json"], env=env)
    assert out.exit_code == 0, out.output
    assert json.loads(out.stdout)["chunks_total"] == 8
    out = runner.invoke(main_group, ["--vault", str(vault.root), "search",
                                     "scaled dot-product attention", "--json", "--limit", "2"],
                        env=env)
    hits = json.loads(out.stdout)["hits"]
    assert len(hits) <= 2 and hits[0]["chunk_id"] == "p3s2c1"
    assert hits[0]["link"] == f"raw/{KEY}.pdf#page=3"
    plain = runner.invoke(main_group, ["--vault", str(vault.root), "search", "zebra-striped"],
                          env=env)
    assert "Projects/thesis.md:10" in plain.stdout


def test_cite_quote_and_bib_print_to_stdout(vault: Vault) -> None:
    sample_vault(vault)
    apa = _run(vault, "cite", KEY, "--format", "apa")
    assert apa.returncode == 0 and "Vaswani" in apa.stdout and "(2017)" in apa.stdout
    quote = _run(vault, "quote", KEY, "p3s2c1")
    assert quote.returncode == 0
    assert "Scaled Dot-Product Attention" in quote.stdout and "p. 103" in quote.stdout
    bib = _run(vault, "bib", KEY, "srivastava2014dropout")
    assert bib.returncode == 0 and bib.stdout.count("@") == 2
    # The sample records were never confirmed by a source: each named once, on stderr.
    assert bib.stderr.splitlines() == [f"warning: {k}: UNVERIFIED (no source confirmed it)"
                                       for k in (KEY, "srivastava2014dropout")]


def test_cite_and_bib_export_csl_json_that_reads_back_as_the_same_record(vault: Vault) -> None:
    from vaultd.models import Work

    sample_vault(vault)
    runner = CliRunner()
    one = runner.invoke(main_group, ["--vault", str(vault.root), "cite", KEY, "-f", "csl-json"])
    assert one.exit_code == 0, one.output
    [item] = json.loads(one.stdout)
    assert item["id"] == KEY and item["title"] == "Attention Is All You Need"
    assert item["author"][0]["family"] == "Vaswani"
    assert Work.from_csl(item).title == "Attention Is All You Need"
    both = runner.invoke(main_group, ["--vault", str(vault.root), "bib", "-f", "csl-json", KEY,
                                      "srivastava2014dropout", KEY])
    assert both.exit_code == 0, both.output
    assert [i["id"] for i in json.loads(both.stdout)] == [KEY, "srivastava2014dropout"]


def test_unknown_key_exits_1_with_suggestions_and_bib_lists_it(vault: Vault) -> None:
    sample_vault(vault)
    cite = _run(vault, "cite", "vaswani2017")
    assert cite.returncode == 1
    hints = cite.stderr.split("did you mean: ", 1)[1].strip().split("; ")
    assert hints[0] == f"{KEY} — Attention Is All You Need"
    bib = _run(vault, "bib", KEY, "nosuch1999", "--json")
    assert bib.returncode == 1
    data = json.loads(bib.stdout)
    assert data["unknown"][0]["cite_key"] == "nosuch1999" and "@" in data["text"]


def test_search_before_index_and_bad_limit_fail_cleanly(vault: Vault) -> None:
    sample_vault(vault)
    no_index = _run(vault, "search", "attention")
    assert no_index.returncode == 1 and "vaultd index" in no_index.stderr
    bad = _run(vault, "search", "attention", "--limit", "0")
    assert bad.returncode == 2


def test_no_recency_flag_ranks_own_notes_by_relevance_alone(vault: Vault) -> None:
    atomic_write_text(vault.root / "old.md", "# Idea\n\nquokka habitat, quokka habitat survey\n")
    atomic_write_text(vault.root / "new.md", "# Idea\n\nquokka habitat and other survey notes\n")
    old = time.time() - 400 * 86400
    os.utime(vault.root / "old.md", (old, old))
    runner = CliRunner()
    env = {"VAULTD_EMBEDDING_PROVIDER": "none"}
    base = ["--vault", str(vault.root)]
    assert runner.invoke(main_group, [*base, "index"], env=env).exit_code == 0

    def first(*flags: str) -> str:
        out = runner.invoke(main_group, [*base, "search", "quokka habitat", "--json", *flags],
                            env=env)
        assert out.exit_code == 0, out.output
        return str(json.loads(out.stdout)["hits"][0]["path"])

    assert first() == "new.md"  # recently edited notes are boosted by default
    assert first("--no-recency") == "old.md"
    # The vault's own setting (the line `vaultd init` wrote, uncommented): no boost at all.
    config = vault.config_path.read_text(encoding="utf-8")
    assert "# recency_half_life_days = 90.0\n" in config
    vault.config_path.write_text(config.replace("# recency_half_life_days = 90.0\n",
                                                "recency_half_life_days = 0\n"), encoding="utf-8")
    assert first() == "old.md"
