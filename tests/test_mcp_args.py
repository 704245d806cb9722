"""MCP tool arguments checked against the tool's schema, in sentences (vaultd.mcp.args)."""

from __future__ import annotations

from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from vaultd.mcp.args import check_arguments, expected

SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "query": {"type": "string"},
        "limit": {"type": "integer", "default": 5},
        "cite_key": {"anyOf": [{"type": "string"}, {"type": "null"}], "default": None},
        "keys": {"type": "array", "items": {"type": "string"}},
        "recency": {"type": "boolean", "default": True},
    },
    "required": ["query"],
}


def test_what_a_schema_expects_reads_as_words() -> None:
    assert expected({"type": "string"}) == "a string"
    assert expected({"anyOf": [{"type": "integer"}, {"type": "null"}]}) == "an integer or null"
    assert expected({"type": "array", "items": {"type": "string"}}) == "a list of strings"


def test_good_arguments_pass() -> None:
    assert check_arguments("recall", SCHEMA, {"query": "x", "limit": 3, "cite_key": None,
                                              "keys": ["a"], "recency": False}) is None


def test_a_boolean_is_not_an_integer_and_an_integer_not_a_string() -> None:
    assert check_arguments("recall", SCHEMA, {"query": "x", "limit": True}) == \
        "recall: 'limit' must be an integer, not true"
    assert check_arguments("recall", SCHEMA, {"query": 7}) == "recall: 'query' must be a string, not 7"


json_values = st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False)
                           | st.text(max_size=50), lambda inner: st.lists(inner, max_size=3)
                           | st.dictionaries(st.text(max_size=5), inner, max_size=3), max_leaves=6)


@given(st.dictionaries(st.sampled_from(["query", "limit", "cite_key", "keys", "recency", "other"]),
                       json_values, max_size=5))
def test_any_arguments_get_none_or_one_short_sentence(arguments: dict[str, Any]) -> None:
    problem = check_arguments("recall", SCHEMA, arguments)
    if problem is None:
        assert "query" in arguments and "other" not in arguments
    else:
        assert problem.startswith("recall") and "\n" not in problem and len(problem) < 200


def test_a_cite_key_outside_the_key_grammar_is_refused_before_any_file_is_read() -> None:
    schema = {"properties": {"cite_key": {"type": "string"}, "chunk_id": {"type": "string"}},
              "required": ["cite_key"]}
    problem = check_arguments("quote", schema, {"cite_key": "a b", "chunk_id": "x"})
    assert problem is not None and problem.startswith("quote: 'a b' is not a cite key (a cite key "
                                                      "cannot hold whitespace")
    keys = {"properties": {"cite_keys": {"type": "array", "items": {"type": "string"}}}}
    assert check_arguments("bibliography", keys, {"cite_keys": ["ok2020x", "a{b}"]}) is not None
    assert check_arguments("bibliography", keys, {"cite_keys": ["ok2020x", "Smith:2020-a_b"]}) is None
    # Keys BibTeX accepts are taken as written; their file names keep them inside raw/.
    for key in ("Sen.2016.BV", "Lüscher_2011_ÜberAmbivalenz", "baez/article", "../../etc/passwd"):
        assert check_arguments("quote", schema, {"cite_key": key, "chunk_id": "x"}) is None
