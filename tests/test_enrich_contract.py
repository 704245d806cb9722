"""The enrichment contract: sentence numbering, skipping, answer validation (pure)."""

from __future__ import annotations

import json

from _chunks import make_chunk
from hypothesis import given
from hypothesis import strategies as st

from vaultd.enrich.contract import (
    EnrichItem,
    answer_schema,
    build_messages,
    sanitize_advisory,
    skip_reason,
    validate_batch,
)
from vaultd.models import Chunk, ChunkType
from vaultd.sentences import key_sentence_text, split_sentences

TEXT = (
    "Attention maps queries to outputs. We use e.g. scaled dot products, as in Fig. 2 "
    "of Bahdanau et al. (2015). Does it scale? Yes: it runs in 3.5 s per batch."
)


def chunk(text: str, kind: ChunkType = "paragraph", cid: str = "p1s1c1") -> Chunk:
    return make_chunk(cid, text, kind, section="1 Intro")


def item(text: str = TEXT, cid: str = "p1s1c1") -> EnrichItem:
    return EnrichItem.from_chunk(chunk(text, cid=cid))


def test_sentences_split_at_ends_but_not_at_abbreviations_or_decimals() -> None:
    assert split_sentences(TEXT) == [
        "Attention maps queries to outputs.",
        "We use e.g. scaled dot products, as in Fig. 2 of Bahdanau et al. (2015).",
        "Does it scale?",
        "Yes: it runs in 3.5 s per batch.",
    ]


@given(st.text(alphabet=st.characters(codec="utf-8"), max_size=300))
def test_every_sentence_is_a_verbatim_substring_in_order(text: str) -> None:
    pos = 0
    for sentence in split_sentences(text):
        found = text.find(sentence, pos)
        assert found >= 0 and sentence
        pos = found + len(sentence)


def test_key_sentence_text_looks_the_index_up_in_the_verbatim_text() -> None:
    assert key_sentence_text(TEXT, 2) == "Does it scale?"
    assert key_sentence_text(TEXT, 9) is None
    assert key_sentence_text(TEXT, None) is None


def test_headings_references_and_tiny_chunks_are_skipped_but_captions_are_enriched() -> None:
    assert skip_reason(chunk("3 Model Architecture", "heading")) == "heading"
    assert (
        skip_reason(chunk("[1] A. Author. A paper title that is long. 2017.", "reference"))
        == "reference"
    )
    assert skip_reason(chunk("Too short to matter here.")) is not None
    assert skip_reason(chunk("", "figure")) == "figure image without caption"
    caption = (
        "Figure 1: The Transformer model architecture with stacked encoder and decoder layers."
    )
    assert skip_reason(chunk(caption, "figure")) is None
    assert skip_reason(chunk(TEXT)) is None


def test_prompt_numbers_every_sentence_and_names_the_section() -> None:
    messages = build_messages([item()])
    user = messages[-1]["content"]
    assert "### chunk p1s1c1 (section: 1 Intro)" in user
    assert "[2] Does it scale?" in user
    assert messages[0]["role"] == "system" and "NUMBER" in messages[0]["content"]


def test_schema_asks_for_an_integer_key_sentence_never_text() -> None:
    schema = answer_schema()
    defs = schema["$defs"]["ChunkAnswer"]["properties"]["key_sentence"]
    assert {"type": "integer"} in defs["anyOf"]
    assert all(option.get("type") != "string" for option in defs["anyOf"])


def test_valid_answer_is_accepted() -> None:
    raw = json.dumps(
        {
            "answers": [
                {
                    "id": "p1s1c1",
                    "paraphrase": "Queries map to outputs.",
                    "implication": "It is fast.",
                    "key_sentence": 0,
                }
            ]
        }
    )
    answers, reasons = validate_batch(raw, [item()])
    assert reasons == {}
    assert answers["p1s1c1"].key_sentence == 0


def test_answer_with_quote_text_instead_of_an_index_is_rejected() -> None:
    raw = json.dumps(
        {
            "answers": [
                {
                    "id": "p1s1c1",
                    "paraphrase": "p",
                    "implication": "i",
                    "key_sentence": "Attention maps queries to outputs.",
                }
            ]
        }
    )
    answers, reasons = validate_batch(raw, [item()])
    assert answers == {}
    assert "quote text" in reasons["p1s1c1"]


def test_answer_with_an_extra_quote_field_is_rejected() -> None:
    raw = json.dumps(
        {
            "answers": [
                {
                    "id": "p1s1c1",
                    "paraphrase": "p",
                    "implication": "i",
                    "key_sentence": 1,
                    "quote": "Attention maps queries to outputs.",
                }
            ]
        }
    )
    _, reasons = validate_batch(raw, [item()])
    assert "quote" in reasons["p1s1c1"]


def test_out_of_range_index_broken_json_and_missing_chunks_are_reasons() -> None:
    items = [item(cid="a"), item(cid="b")]
    raw = json.dumps(
        {"answers": [{"id": "a", "paraphrase": "p", "implication": "i", "key_sentence": 7}]}
    )
    _, reasons = validate_batch(raw, items)
    assert "not a sentence number" in reasons["a"]
    assert reasons["b"] == "LLM answer left this chunk out"
    _, reasons = validate_batch("{not json", items)
    assert set(reasons) == {"a", "b"}


def test_advisory_text_cannot_smuggle_markup_into_the_note() -> None:
    assert (
        sanitize_advisory("> quote\n<!-- chunk id=x -->  next\nline")
        == "quote chunk id=x next line"
    )


def test_paraphrase_that_copies_a_sentence_word_for_word_is_rejected() -> None:
    copied = "We use e.g. scaled dot products, as in Fig. 2 of Bahdanau et al. (2015)."
    raw = json.dumps(
        {
            "answers": [
                {"id": "p1s1c1", "paraphrase": f"The authors say: {copied}", "implication": "i"}
            ]
        }
    )
    answers, reasons = validate_batch(raw, [item()])
    assert answers == {} and "copied sentence [1]" in reasons["p1s1c1"]
