"""Every style name the docs, the generated config and the help texts show resolves."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from vaultd.cli import main_group
from vaultd.config import default_config_toml
from vaultd.formats.styles import pick, resolve

ROOT = Path(__file__).resolve().parents[1]
# Formats that are not CSL styles; a path names the user's own .csl file.
NOT_STYLES = {"bibtex", "csl-json"}
_FLAG_RE = re.compile(r"vaultd (?:cite|bib)\b[^`\n#]*?(?:-f|--format)[ =]([A-Za-z][\w.-]*)")
_LIST_RE = re.compile(r"styles = \[([^\]]*)\]")
_PARENS_RE = re.compile(r"(?:short names|style names) \(([^)]*)\)")


def _help(*args: str) -> str:
    return CliRunner().invoke(main_group, [*args, "--help"], catch_exceptions=False).output


def shown_style_names() -> set[str]:
    texts = [p.read_text(encoding="utf-8") for p in [*sorted((ROOT / "docs").glob("*.md")), ROOT / "README.md"]]
    texts += [default_config_toml(), _help("cite"), _help("bib"), _help("styles")]
    names: set[str] = set()
    for text in texts:
        names.update(_FLAG_RE.findall(text))  # examples are one line each
        text = " ".join(text.split())  # lists wrap across lines
        for group in [*_LIST_RE.findall(text), *_PARENS_RE.findall(text)]:
            names.update(n.strip(" \"'") for n in group.split(","))
    return {n for n in names
            if n and n != "…" and n.lower() not in NOT_STYLES and "/" not in n and not n.endswith(".csl")}


def test_the_docs_and_config_show_the_names_users_try() -> None:
    assert {"vancouver", "nature", "apa", "chicago"} <= {n.lower() for n in shown_style_names()}


@pytest.mark.parametrize("name", sorted(shown_style_names()))
def test_every_style_name_the_docs_config_and_help_show_resolves(name: str) -> None:
    assert resolve(name).path.is_file()


@pytest.mark.parametrize(("name", "stem"), [
    ("vancouver", "nlm-citation-sequence"),
    ("chicago-note-bibliography", "chicago-shortened-notes-bibliography"),
    ("Harvard", "harvard-cite-them-right"),
])
def test_common_short_and_former_style_names_resolve_to_the_official_file(name: str, stem: str) -> None:
    assert resolve(name).path.stem == stem


def test_cite_format_vancouver_is_picked_although_no_vault_configures_it() -> None:
    assert pick((), "Vancouver").path.stem == "nlm-citation-sequence"
