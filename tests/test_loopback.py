"""What every loopback server (the bridge, MCP over HTTP) checks before a request runs."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from vaultd.loopback.guard import Refusal, check_host, check_token


@given(st.text(max_size=60))
def test_only_loopback_hosts_with_the_port_pass(host: str) -> None:
    ok = check_host(host, 7600, "the bridge") is None
    assert ok == (host.lower() in {"127.0.0.1:7600", "localhost:7600"})


def test_a_foreign_host_is_refused_with_421_naming_the_server() -> None:
    assert check_host("evil.example", 7601, "vaultd's MCP endpoint") == Refusal(
        421, "vaultd's MCP endpoint answers only to 127.0.0.1:7601 and localhost:7601")
    assert check_host(None, 7601, "the bridge") is not None


def test_only_the_bearer_token_passes_and_a_refusal_says_where_to_get_it() -> None:
    assert check_token("Bearer s3cret", "s3cret", "get one") is None
    assert check_token("bearer s3cret ", "s3cret", "get one") is None
    for given_header in (None, "", "Bearer", "Bearer wrong", "Basic s3cret", "s3cret"):
        assert check_token(given_header, "s3cret", "get one") == Refusal(401, "get one")
