from __future__ import annotations

import plistlib
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st

from vaultd.cli import main_group
from vaultd.daemon.rules import decide, default_rules_dir, extract_url, load_rules, read_facts
from vaultd.errors import ConfigError
from vaultd.vault import Vault


def _decide(path: Path, user_dir: Path | None = None) -> str | None:
    d = decide(load_rules(user_dir), read_facts(path))
    return d.rule.rule.name if d.rule else None


def test_shipped_rules_are_found_one_file_per_input_kind() -> None:
    names = sorted(p.name for p in default_rules_dir().glob("*.toml"))
    assert names == ["bib.toml", "links.toml", "pdf.toml", "video.toml", "web.toml",
                     "zotero.toml"]
    assert len(load_rules(None)) >= 6


def test_pdf_is_recognised_by_magic_even_without_the_extension(tmp_path: Path) -> None:
    renamed = tmp_path / "download"
    renamed.write_bytes(b"%PDF-1.7\n...")
    assert _decide(renamed) == "pdf"
    fake = tmp_path / "fake.pdf"
    fake.write_bytes(b"<html>not a pdf</html>")
    assert _decide(fake) is None


@pytest.mark.parametrize(("name", "content", "rule"), [
    ("a.url", "[InternetShortcut]\nURL=https://arxiv.org/abs/1706.03762\n", "arxiv-link"),
    ("b.txt", "see https://doi.org/10.1145/3292500.3330701 for details", "doi-link"),
    ("c.md", "# watch\nhttps://www.youtube.com/watch?v=abc", "youtube-link"),
    ("d.url", "[InternetShortcut]\nURL=https://example.org/paper.pdf\n", "pdf-link"),
    ("e.url", "[InternetShortcut]\nURL=https://example.org/blog\n", "other-link"),
    ("f.bib", "@article{x, title={T}, doi={10.1/2}}", "bibtex"),
])
def test_link_files_are_routed_by_url_host(tmp_path: Path, name: str, content: str,
                                           rule: str) -> None:
    path = tmp_path / name
    path.write_text(content, encoding="utf-8")
    assert _decide(path) == rule


def test_webloc_url_is_read_from_the_plist(tmp_path: Path) -> None:
    path = tmp_path / "x.webloc"
    path.write_bytes(plistlib.dumps({"URL": "https://arxiv.org/abs/2101.00001"}))
    assert extract_url(path) == "https://arxiv.org/abs/2101.00001"
    assert _decide(path) == "arxiv-link"


def test_url_file_without_url_matches_no_rule(tmp_path: Path) -> None:
    path = tmp_path / "empty.url"
    path.write_text("[InternetShortcut]\n", encoding="utf-8")
    assert _decide(path) is None


def test_user_rules_come_before_the_shipped_defaults(tmp_path: Path) -> None:
    user = tmp_path / "rules"
    user.mkdir()
    (user / "mine.toml").write_text(
        '[[rules]]\nname = "scans"\naction = "ignore"\nmatch = { glob = "scan-*.pdf" }\n',
        encoding="utf-8")
    scan = tmp_path / "scan-001.pdf"
    scan.write_bytes(b"%PDF-1.4")
    other = tmp_path / "paper.pdf"
    other.write_bytes(b"%PDF-1.4")
    assert _decide(scan, user) == "scans"
    assert _decide(other, user) == "pdf"


def test_invalid_rule_error_names_the_file_the_rule_and_the_field(tmp_path: Path) -> None:
    user = tmp_path / "rules"
    user.mkdir()
    bad = user / "bad.toml"
    bad.write_text('[[rules]]\nname = "oops"\naction = "explode"\nmatch = {}\n', encoding="utf-8")
    with pytest.raises(ConfigError) as err:
        load_rules(user)
    msg = str(err.value)
    assert "\n" not in msg
    assert str(bad) in msg and "'oops'" in msg and "'action'" in msg


def test_unknown_match_field_is_rejected_with_its_name(tmp_path: Path) -> None:
    user = tmp_path / "rules"
    user.mkdir()
    (user / "r.toml").write_text(
        '[[rules]]\nname = "r"\naction = "capture"\nmatch = { extention = [".pdf"] }\n',
        encoding="utf-8")
    with pytest.raises(ConfigError, match=r"rule 'r', field 'match.extention': unknown field"):
        load_rules(user)


def test_rules_test_command_explains_why(tmp_path: Path, vault: Vault) -> None:
    path = tmp_path / "a.url"
    path.write_text("[InternetShortcut]\nURL=https://arxiv.org/abs/1706.03762\n", encoding="utf-8")
    result = CliRunner().invoke(main_group, ["--vault", str(vault.root), "rules", "test",
                                             str(path)], catch_exceptions=False)
    assert result.exit_code == 0
    assert "rule 'arxiv-link'" in result.output
    assert "URL host 'arxiv.org' matches 'arxiv.org'" in result.output
    assert "skip pdf: content does not start with '%PDF-'" in result.output


def test_rules_test_exits_1_when_nothing_matches(tmp_path: Path, vault: Vault) -> None:
    path = tmp_path / "junk.xyz"
    path.write_bytes(b"junk")
    result = CliRunner().invoke(main_group, ["--vault", str(vault.root), "rules", "test",
                                             str(path), "--json"])
    assert result.exit_code == 1
    assert '"action": "none"' in result.output


@given(st.binary(max_size=300))
def test_url_extraction_never_crashes_on_arbitrary_bytes(data: bytes) -> None:
    import tempfile

    with tempfile.TemporaryDirectory() as d:
        for suffix in (".url", ".webloc", ".txt"):
            p = Path(d) / f"x{suffix}"
            p.write_bytes(data)
            url = extract_url(p)
            assert url is None or isinstance(url, str)
