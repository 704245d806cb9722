from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from vaultd.canonical import canonical_text, text_sha256
from vaultd.models import Author, MetaFile, Work

_text = st.text(st.characters(blacklist_categories=("Cs",)), min_size=1, max_size=30)


def test_author_display_keeps_particles_and_suffix() -> None:
    a = Author(given="Laurens", family="Maaten", **{"non-dropping-particle": "van der"})
    assert a.display == "Laurens van der Maaten"
    assert a.family_full == "van der Maaten"
    assert Author(given="Martin", family="King", suffix="Jr.").display == "Martin King Jr."
    assert Author(literal="The CMS Collaboration").display == "The CMS Collaboration"


@given(
    title=_text,
    family=_text,
    given_name=st.none() | _text,
    issued=st.none() | st.lists(st.integers(1, 3000), min_size=1, max_size=3),
    arxiv=st.none() | st.from_regex(r"\d{4}\.\d{4,5}", fullmatch=True),
    warnings=st.lists(_text, max_size=3),
    reconciled=st.booleans(),
)
def test_work_round_trips_through_csl_json(
    title: str, family: str, given_name: str | None, issued: list[int] | None,
    arxiv: str | None, warnings: list[str], reconciled: bool,
) -> None:
    work = Work(
        type="article", title=title, authors=[Author(family=family, given=given_name)],
        issued=issued, arxiv_id=arxiv, warnings=warnings, reconciled=reconciled,
        doi="10.1000/x(1)", volume="3", page="1-9",
    )
    csl = work.to_csl("k")
    assert csl["id"] == "k" and csl["DOI"] == "10.1000/x(1)"
    assert Work.from_csl(csl) == work


def test_meta_file_carries_flat_fields_scripts_read_and_the_full_work() -> None:
    work = Work(title="Attention Is All You Need", authors=[Author(given="Ashish", family="Vaswani")],
                issued=[2017, 6], arxiv_id="1706.03762", sources=["arxiv"], container_title="NeurIPS")
    meta = MetaFile.from_work("vaswani2017attention", work)
    data = meta.model_dump(mode="json")
    for key in ("cite_key", "title", "authors", "year", "arxiv_id", "doi", "container_title",
                "sources", "reconciled", "warnings"):
        assert key in data
    assert data["authors"] == ["Ashish Vaswani"] and data["year"] == 2017
    assert MetaFile.model_validate_json(meta.model_dump_json()).work == work


def test_canonical_text_ignores_wrapping_but_not_characters() -> None:
    assert canonical_text("  a\n b\t\u00a0c ") == "a b c"
    assert text_sha256("a b") == text_sha256("a\n   b")
    assert text_sha256("a b") != text_sha256("a c")
    # NFC: a decomposed é hashes like the composed one
    assert text_sha256("Pare\u0301") == text_sha256("Par\u00e9")
