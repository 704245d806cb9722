from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from vaultd.cli import main_group
from vaultd.config import default_config_toml, load_settings
from vaultd.errors import ConfigError


def test_defaults_give_the_documented_citekey_pattern() -> None:
    assert load_settings(None, environ={}).citekey.pattern == "[auth:lower][year][shorttitle:1:nopunct]"


def test_the_commented_default_file_loads_to_the_defaults(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text(default_config_toml())
    assert load_settings(path, environ={}) == load_settings(None, environ={})


def test_layers_apply_file_then_env_then_flags(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text('[enrich]\nmodel = "from-file"\nbatch_size = 4\n')
    assert load_settings(path, environ={}).enrich.model == "from-file"
    env = {"VAULTD_OLLAMA_MODEL": "from-env"}
    s = load_settings(path, environ=env)
    assert (s.enrich.model, s.enrich.batch_size) == ("from-env", 4)
    s = load_settings(path, environ=env, overrides={"enrich": {"model": "from-flag"}})
    assert s.enrich.model == "from-flag"


def test_generic_env_names_reach_every_field() -> None:
    s = load_settings(None, environ={"VAULTD_DAEMON_DEBOUNCE_SECONDS": "0.5"})
    assert s.daemon.debounce_seconds == 0.5


def test_ollama_host_without_scheme_gets_http() -> None:
    assert load_settings(None, environ={"OLLAMA_HOST": "127.0.0.1:5555"}).enrich.ollama_host == "http://127.0.0.1:5555"


def test_unknown_key_names_file_key_and_allowed_keys(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text("[daemon]\ndebounce = 3\n")
    with pytest.raises(ConfigError) as err:
        load_settings(path, environ={})
    msg = str(err.value)
    assert str(path) in msg and "daemon.debounce" in msg and "debounce_seconds" in msg
    assert "\n" not in msg


def test_bad_literal_value_lists_the_allowed_values(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text('[parse]\nparser = "grobid"\n')
    with pytest.raises(ConfigError, match=r"parse\.parser.*'auto', 'pymupdf', 'marker' or 'pdftotext'"):
        load_settings(path, environ={})


def test_invalid_toml_is_one_line_naming_the_file(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text("[capture\n")
    with pytest.raises(ConfigError, match=r"config\.toml: not valid TOML"):
        load_settings(path, environ={})


def test_bad_value_from_the_environment_names_the_variable_and_lists_allowed_values_once() -> None:
    with pytest.raises(ConfigError) as err:
        load_settings(None, environ={"VAULTD_PARSE_PARSER": "bad"})
    msg = str(err.value)
    assert msg.startswith("VAULTD_PARSE_PARSER=bad: ") and "'parse.parser'" in msg
    assert msg.count("'pymupdf'") == 1 and "allowed: 'auto', 'pymupdf', 'marker' or 'pdftotext'" in msg


def test_bad_value_from_an_established_env_name_names_that_variable(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text('[parse]\nparser = "pymupdf"\n')
    with pytest.raises(ConfigError, match=r"^VAULTD_PARSER=grobid: bad value 'grobid' for 'parse\.parser'"):
        load_settings(path, environ={"VAULTD_PARSER": "grobid"})
    with pytest.raises(ConfigError, match=r"^VAULTD_DAEMON_DEBOUNCE_SECONDS=soon: bad value for 'daemon\.debounce_seconds'"):
        load_settings(path, environ={"VAULTD_DAEMON_DEBOUNCE_SECONDS": "soon"})


def test_bad_value_in_the_file_still_names_the_file_when_env_is_set(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text("[daemon]\nconcurrency = 99\n")
    with pytest.raises(ConfigError, match=rf"^{path}: bad value for 'daemon\.concurrency'"):
        load_settings(path, environ={"VAULTD_OLLAMA_MODEL": "x"})


def test_a_field_check_failure_names_the_layer_the_value_came_from(tmp_path: Path) -> None:
    def no_x(value: object) -> None:
        if "x" in str(value):
            raise ValueError("no x allowed")

    checks = {("enrich", "model"): no_x}
    path = tmp_path / "config.toml"
    path.write_text('[enrich]\nmodel = "x1"\n')
    with pytest.raises(ConfigError, match=rf"^{path}: bad value for 'enrich\.model': no x allowed$"):
        load_settings(path, environ={}, checks=checks)
    with pytest.raises(ConfigError, match=r"^VAULTD_OLLAMA_MODEL=x2: bad value for 'enrich\.model'"):
        load_settings(None, environ={"VAULTD_OLLAMA_MODEL": "x2"}, checks=checks)
    with pytest.raises(ConfigError, match=r"^command-line flags: bad value for 'enrich\.model'"):
        load_settings(None, environ={}, overrides={"enrich": {"model": "x3"}}, checks=checks)


def _vault_with_config(tmp_path: Path, text: str) -> Path:
    root = tmp_path / "v"
    CliRunner().invoke(main_group, ["init", str(root)], catch_exceptions=False)
    (root / ".vaultd" / "config.toml").write_text(text)
    return root


def test_a_malformed_citekey_pattern_stops_status_with_file_key_and_position(tmp_path: Path) -> None:
    root = _vault_with_config(tmp_path, '[citekey]\npattern = "[auth:lowr]"\n')
    result = CliRunner().invoke(main_group, ["--vault", str(root), "status", "--no-probe"], env={})
    assert isinstance(result.exception, ConfigError)
    msg = str(result.exception)
    assert msg.startswith(f"{root / '.vaultd' / 'config.toml'}: bad value for 'citekey.pattern'")
    assert "unknown modifier 'lowr'" in msg and "position 6" in msg and "\n" not in msg


def test_a_malformed_citekey_pattern_from_the_environment_names_the_variable(tmp_path: Path) -> None:
    root = _vault_with_config(tmp_path, "")
    result = CliRunner().invoke(main_group, ["--vault", str(root), "status", "--no-probe"],
                                env={"VAULTD_CITEKEY_PATTERN": "[year"})
    assert isinstance(result.exception, ConfigError)
    assert str(result.exception).startswith("VAULTD_CITEKEY_PATTERN=[year: bad value for 'citekey.pattern'")
    assert "never closed at position 0" in str(result.exception)
