from __future__ import annotations

from pathlib import Path

import pytest

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
