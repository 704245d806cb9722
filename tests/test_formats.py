"""Citation styles and the renderer: official CSL styles by name or path, formats in any
case, stored renderings, in-text citations with a page, title markup, and published
reference outputs from ../shared/fixtures/csl. (Every recorded work against the oracle:
tests/test_formats_oracle.py.)"""

from __future__ import annotations

import json
import re
import sqlite3
from pathlib import Path

import pytest
from hypothesis import Phase, given, settings
from hypothesis import strategies as st

from vaultd.errors import CitationError, ConfigError, InputError
from vaultd.formats import CitationRenderer, citeproc, to_csl_json
from vaultd.formats.styles import BUILTIN, resolve, resolve_all, styles_dir
from vaultd.models import Author, Work
from vaultd.statedb import apply_migrations

LECUN = Work(
    type="article-journal", title="Deep learning",
    authors=[Author(family="LeCun", given="Yann"), Author(family="Bengio", given="Yoshua"),
             Author(family="Hinton", given="Geoffrey")],
    issued=[2015, 5, 28], container_title="Nature", volume="521", issue="7553",
    page="436-444", doi="10.1038/nature14539",
)


@pytest.fixture(scope="module")
def renderer() -> CitationRenderer:
    return CitationRenderer()


def test_a_journal_article_reads_as_each_manual_shows_it(renderer: CitationRenderer) -> None:
    per = renderer.render({"lecun": LECUN})["lecun"]
    # Checked by hand against the APA 7, MLA 9, Chicago 18 and IEEE manuals' article forms.
    assert per["apa"].text == ("LeCun, Y., Bengio, Y., & Hinton, G. (2015). Deep learning. "
                               "Nature, 521(7553), 436–444. https://doi.org/10.1038/nature14539")
    assert per["apa"].markdown.startswith("LeCun, Y., Bengio, Y., & Hinton, G. (2015). Deep "
                                          "learning. *Nature*, *521*(7553), 436–444.")
    assert per["mla"].text == ("LeCun, Yann, et al. “Deep Learning.” Nature, vol. 521, no. 7553, "
                               "May 2015, pp. 436–44, https://doi.org/10.1038/nature14539.")
    assert per["chicago"].text.startswith("LeCun, Yann, Yoshua Bengio, and Geoffrey Hinton. "
                                          "2015. “Deep Learning.” Nature 521 (7553): 436–44.")
    assert per["ieee"].text == ("Y. LeCun, Y. Bengio, and G. Hinton, “Deep learning,” Nature, "
                                "vol. 521, no. 7553, pp. 436–444, May 2015, "
                                "doi: 10.1038/nature14539.")


def test_in_text_citations_point_at_the_page_in_each_style(renderer: CitationRenderer) -> None:
    per = renderer.render({"lecun": LECUN})["lecun"]
    assert per["apa"].cite() == "(LeCun et al., 2015)"
    assert per["apa"].cite("4") == "(LeCun et al., 2015, p. 4)"
    assert per["mla"].cite("437") == "(LeCun et al. 437)"
    assert per["chicago"].cite("xii") == "(LeCun et al. 2015, xii)"
    assert per["ieee"].cite("4") == "[1, p. 4]"


def test_a_book_chapter_names_its_editors_book_and_publisher(renderer: CitationRenderer) -> None:
    chapter = Work(type="chapter", title="A conservation law",
                   authors=[Author(family="Smith", given="Jean-Paul")],
                   editors=[Author(family="Doe", given="Jane")], issued=[1999],
                   container_title="Hyperbolic problems", page="113-118",
                   publisher="Birkhäuser Basel", edition="2")
    apa = renderer.render({"c": chapter})["c"]["apa"].text
    assert apa == ("Smith, J.-P. (1999). A conservation law. In J. Doe (Ed.), Hyperbolic problems "
                   "(2nd ed., pp. 113–118). Birkhäuser Basel.")


def test_title_markup_is_kept_as_italics_and_subscripts_never_as_tags(
        renderer: CitationRenderer) -> None:
    from vaultd.formats.markup import parse

    plain, rich = parse("Growth of <i>Escherichia coli</i> under CO<sub>2</sub> &amp; O<sub>2</sub>")
    work = LECUN.model_copy(update={"title": plain, "title_rich": rich})
    per = renderer.render({"k": work})["k"]
    for r in per.values():
        assert "<i>" not in r.text and "&amp;" not in r.text
    assert "*Escherichia coli*" in per["apa"].markdown and "CO<sub>2</sub>" in per["apa"].markdown
    assert "Growth of Escherichia coli under CO₂ & O₂" in per["apa"].text


def test_style_names_are_case_insensitive_and_any_installed_style_can_be_named(
        renderer: CitationRenderer) -> None:
    assert renderer.style("APA").name == "apa"
    assert renderer.style("Chicago").path.name == "chicago-author-date.csl"
    if styles_dir() is not None and (styles_dir() / "nature.csl").is_file():  # type: ignore[operator]
        nature = renderer.one(LECUN, "lecun", "Nature").text
        assert nature.startswith("LeCun, Y., Bengio, Y. & Hinton, G. Deep learning. Nature 521")


def test_an_unknown_style_fails_with_one_line_naming_the_choices() -> None:
    with pytest.raises(ConfigError) as exc:
        resolve("harvard-nope")
    message = str(exc.value)
    assert "\n" not in message and "unknown citation style 'harvard-nope'" in message
    assert all(name in message for name in BUILTIN)


def test_a_lab_style_is_read_from_a_csl_file_path(tmp_path: Path) -> None:
    lab = tmp_path / "lab.csl"
    lab.write_bytes(re.sub(rb"<title>[^<]*</title>", b"<title>Lab house style</title>",
                           resolve("ieee").path.read_bytes(), count=1))
    style = resolve("lab.csl", tmp_path)
    assert (style.name, style.title, style.label) == ("lab", "Lab house style", "Lab house style")
    text = CitationRenderer([style]).render({"k": LECUN})["k"]["lab"].text
    assert text.startswith("Y. LeCun, Y. Bengio, and G. Hinton, “Deep learning,”")
    (tmp_path / "bad.csl").write_text("not a style", encoding="utf-8")
    with pytest.raises(ConfigError, match="not a CSL style file"):
        resolve("bad.csl", tmp_path)


def test_unknown_format_for_a_work_is_an_input_error(renderer: CitationRenderer) -> None:
    with pytest.raises(InputError, match="unknown citation style 'harvrd'"):
        renderer.one(LECUN, "lecun", "harvrd")


def test_stored_renderings_answer_without_the_processor(monkeypatch: pytest.MonkeyPatch,
                                                        tmp_path: Path) -> None:
    db = sqlite3.connect(tmp_path / "state.db")
    apply_migrations(db)
    first = CitationRenderer(db=db).render({"lecun": LECUN})

    def no_processor(*args: object, **kwargs: object) -> None:
        raise AssertionError("the processor ran although every rendering was stored")

    monkeypatch.setattr(citeproc, "render", no_processor)
    assert CitationRenderer(db=db).render({"lecun": LECUN}) == first
    # A changed record is a different item: rendered afresh, not served stale.
    changed = LECUN.model_copy(update={"volume": "522"})
    with pytest.raises(AssertionError, match="processor ran"):
        CitationRenderer(db=db).render({"lecun": changed})


def test_a_missing_or_wrong_pandoc_is_a_clear_citation_error(tmp_path: Path) -> None:
    with pytest.raises(CitationError, match=r"no-pandoc .* not found or not executable; fix"):
        citeproc.find_pandoc(str(tmp_path / "no-pandoc"))
    fake = tmp_path / "true"
    fake.write_text("#!/bin/sh\nexit 0\n", encoding="utf-8")
    fake.chmod(0o755)
    with pytest.raises(CitationError, match=r"failed: exit 0, no output; it must be pandoc"):
        CitationRenderer(pandoc=fake).render({"lecun": LECUN})


def test_an_untitled_work_gets_no_citation(renderer: CitationRenderer) -> None:
    assert renderer.render({"k": Work(authors=[Author(family="X")])}) == {}
    assert renderer.for_note(Work(), "k") == {}


def test_csl_json_export_carries_rich_title_and_what_styles_expect_of_a_preprint() -> None:
    work = Work(type="article", title="Attention is all you need",
                authors=[Author(family="Kaiser", given="Łukasz")], issued=[2017, 6, 12],
                arxiv_id="1706.03762")
    item = to_csl_json(work, "v")
    assert (item["publisher"], item["number"]) == ("arXiv", "arXiv:1706.03762")
    assert item["DOI"] == "10.48550/arXiv.1706.03762" and "custom" not in item
    assert json.loads(json.dumps(item)) == item


# --- published reference outputs ------------------------------------------------------


def test_apa_and_ieee_match_crossrefs_own_renderings_up_to_markup(fixtures_dir: Path,
                                                                  renderer: CitationRenderer) -> None:
    base = fixtures_dir / "csl/crossref_content_negotiation/10.1126_science.169.3946.635"
    raw = json.loads(Path(f"{base}.csl.json").read_text(encoding="utf-8"))
    work = Work(type="article-journal", title=raw["title"],
                authors=[Author(family=a["family"], given=a["given"]) for a in raw["author"]],
                issued=raw["issued"]["date-parts"][0], container_title=raw["container-title"],
                volume=raw["volume"], issue=raw["issue"], page=raw["page"], doi=raw["DOI"])
    per = renderer.render({"k": work})["k"]
    assert per["apa"].text == Path(f"{base}.apa.txt").read_text(encoding="utf-8").strip()
    # CrossRef glues the list label to the entry ("[1]H. S."); a note has no list label.
    ieee = Path(f"{base}.ieee.txt").read_text(encoding="utf-8").strip()
    assert per["ieee"].text == re.sub(r"^\[1\]", "", ieee)


def test_apa7_corporate_author_books_match_citeprocs_own_suite(fixtures_dir: Path,
                                                               renderer: CitationRenderer) -> None:
    text = (fixtures_dir / "csl/jgm-citeproc/issue_126_apa7_bibliography.txt").read_text("utf-8")
    items = json.loads(re.search(r">>=+ INPUT =+>>(.*?)<<=+ INPUT", text, re.S).group(1))  # type: ignore[union-attr]
    result = re.search(r">>=+ RESULT =+>>(.*?)<<=+ RESULT", text, re.S).group(1)  # type: ignore[union-attr]
    expected = [re.sub(r"<[^>]+>", "", e).replace("&#38;", "&")
                for e in re.findall(r'<div class="csl-entry">(.*?)</div>', result)]
    books = {w.year: (str(i["id"]), w) for i in items
             if (w := Work.from_csl(i)).type == "book"}
    # 1975/2013/2018 are unique years; the 2021a/2021b suffixes need a whole reference list.
    chosen = {books[y][0]: books[y][1] for y in (1975, 2013, 2018)}
    per = renderer.render(chosen)
    for year, line in zip((1975, 2013, 2018), expected[:3], strict=True):
        assert per[books[year][0]]["apa"].text == line


# --- any work --------------------------------------------------------------------------

_text = st.text(st.characters(blacklist_categories=("Cs", "Cc")), min_size=1, max_size=40)
_part = st.text(st.characters(whitelist_categories=("L",)), min_size=1, max_size=12)
_works = st.builds(
    Work,
    type=st.sampled_from(["article-journal", "article", "paper-conference", "book", "chapter",
                          "thesis", "report", "webpage", "dataset", "manuscript",
                          "motion_picture", "entry-encyclopedia", "software", "patent"]),
    title=_text.filter(str.strip),  # an untitled work is never cited (has_title)
    authors=st.lists(st.one_of(st.builds(Author, family=_part, given=_part),
                               st.builds(Author, literal=_part)), max_size=25),
    editors=st.lists(st.builds(Author, family=_part, given=_part), max_size=3),
    issued=st.one_of(st.none(), st.tuples(st.integers(1500, 2030), st.integers(1, 12))
                     .map(list), st.integers(1500, 2030).map(lambda y: [y])),
    container_title=st.one_of(st.none(), _text), volume=st.one_of(st.none(), _part),
    page=st.one_of(st.none(), _part), publisher=st.one_of(st.none(), _part),
    edition=st.one_of(st.none(), st.sampled_from(["2", "3rd", "Revised"])),
)


@settings(max_examples=3, deadline=None, phases=[Phase.generate])
@given(works=st.lists(_works, min_size=25, max_size=25))
def test_any_work_renders_in_every_style_without_tags_or_missing_values(
        works: list[Work], renderer: CitationRenderer) -> None:
    batch = {f"w{i}": w for i, w in enumerate(works)}
    out = renderer.render(batch)
    assert set(out) == set(batch)
    for key, per in out.items():
        assert list(per) == list(renderer.style_names)
        for name, r in per.items():
            # Chicago gives encyclopedia entries no reference-list entry: in-text only.
            assert r.intext.strip()
            assert r.text.strip() or (name == "chicago" and batch[key].type.startswith("entry"))
            if "none" not in batch[key].model_dump_json().casefold():
                assert "None" not in r.text
            assert "<i>" not in r.text and "</span>" not in r.text


def test_a_batch_renders_each_work_exactly_as_it_renders_alone(
        renderer: CitationRenderer) -> None:
    # Two Smiths of 2020 and a work by both: in one reference list citeproc would add
    # year suffixes, initials or a repeated-author dash; alone, none of them.
    smith = Author(family="Smith", given="Ann")
    other = Author(family="Smith", given="Bob")
    batch = {
        "a": LECUN.model_copy(update={"authors": [smith], "issued": [2020], "title": "One"}),
        "b": LECUN.model_copy(update={"authors": [other], "issued": [2020], "title": "Two"}),
        "c": LECUN.model_copy(update={"authors": [smith, other], "issued": [2020]}),
        "d": LECUN.model_copy(update={"authors": [], "title": "Untitled report"}),
        "e": LECUN.model_copy(update={"authors": [], "title": "Untitled report"}),
        "lecun": LECUN,
    }
    together = renderer.render(batch)
    for key, work in batch.items():
        assert renderer.render({key: work})[key] == together[key], key
    assert together["a"]["apa"].text.startswith("Smith, A. (2020). One.")
    assert together["a"]["apa"].cite() == "(Smith, 2020)"
    assert together["b"]["ieee"].cite() == "[1]"


def test_protected_series_and_container_titles_keep_their_case(
        renderer: CitationRenderer) -> None:
    from vaultd.capture.bib import parse_bib

    [entry] = parse_bib("@book{k, title = {A Study of Things}, author = {Doe, Jane},"
                        " year = {2020}, publisher = {Press},"
                        " series = {{Lecture Notes in Multi-disciplinary Work}}}", "k.bib")
    assert entry.work.rich["collection-title"].startswith('<span class="nocase">')
    mla = renderer.render({"k": entry.work})["k"]["mla"].text
    assert "Lecture Notes in Multi-disciplinary Work" in mla  # not "Multi-Disciplinary"


def test_two_styles_never_share_a_note_heading_or_a_name(tmp_path: Path) -> None:
    nature = resolve("nature")
    lab = tmp_path / "lab.csl"
    lab.write_bytes(nature.path.read_bytes())  # a lab copy keeps Nature's title
    citer = CitationRenderer(resolve_all(["apa", "nature", "lab.csl"], tmp_path))
    assert citer.headings() == {"apa": "apa", "nature": "Nature", "lab": "Nature (lab)"}
    ieee = tmp_path / "ieee.csl"
    ieee.write_bytes(resolve("ieee").path.read_bytes())
    with pytest.raises(ConfigError, match="two citation styles are named 'ieee'"):
        resolve_all(["ieee", "ieee.csl"], tmp_path)


def test_a_page_range_and_a_locale_get_the_styles_own_locator(renderer: CitationRenderer) -> None:
    assert renderer.cite(LECUN, "lecun", "apa", "4-5") == "(LeCun et al., 2015, pp. 4–5)"
    assert renderer.cite(LECUN, "lecun", "apa", "12") == "(LeCun et al., 2015, p. 12)"
    german = CitationRenderer(renderer.styles, lang="de-DE")
    # The German page term (apa.csl keeps its own "et al." in every locale).
    assert german.cite(LECUN, "lecun", "apa", "12") == "(LeCun et al., 2015, S. 12)"
    assert german.cite(LECUN, "lecun", "ieee", "12") == "[1, S. 12]"


def test_the_same_person_spelled_two_ways_is_never_batched_into_year_suffixes(
        renderer: CitationRenderer) -> None:
    split = Author(family="Berg", given="Jan", **{"non-dropping-particle": "van der"})
    whole = Author(family="van der Berg", given="Jan")
    batch = {"a": LECUN.model_copy(update={"authors": [split], "issued": [2019], "title": "One"}),
             "b": LECUN.model_copy(update={"authors": [whole], "issued": [2019], "title": "Two"})}
    together = renderer.render(batch)
    assert together["a"]["apa"].cite() == "(van der Berg, 2019)"
    assert together["b"]["apa"].cite() == "(van der Berg, 2019)"


def test_a_note_style_cites_with_its_footnote_text(renderer: CitationRenderer) -> None:
    note_style = "chicago-notes-bibliography"
    if styles_dir() is None or not (styles_dir() / f"{note_style}.csl").is_file():  # type: ignore[operator]
        pytest.skip(f"{note_style} is not installed")
    cite = renderer.cite(LECUN, "lecun", note_style, "437")
    assert "[1]" not in cite and cite.startswith("Yann LeCun")
    assert "437" in cite


def test_a_style_without_an_entry_for_a_kind_of_work_says_so(renderer: CitationRenderer) -> None:
    entry = Work(type="entry-encyclopedia", title="Cat", container_title="Encyclopaedia Britannica",
                 issued=[2020])
    chicago = renderer.one(entry, "cat", "chicago")
    assert chicago.text == ""  # Chicago cites encyclopedia entries in the text only
    assert chicago.entry_text().startswith("No reference-list entry in this style; cite it in "
                                           "the text: (")


def test_a_blank_title_is_no_title(renderer: CitationRenderer) -> None:
    assert renderer.render({"k": LECUN.model_copy(update={"title": "   "})}) == {}
    with pytest.raises(InputError, match="has no title"):
        renderer.one(LECUN.model_copy(update={"title": " "}), "k", "apa")


def test_a_state_db_that_cannot_be_written_still_gives_citations(tmp_path: Path) -> None:
    path = tmp_path / "state.db"
    db = sqlite3.connect(path)
    apply_migrations(db)
    db.close()
    path.chmod(0o444)
    readonly = sqlite3.connect(f"{path.as_uri()}?mode=ro", uri=True)
    per = CitationRenderer(db=readonly).render({"lecun": LECUN})["lecun"]
    assert per["apa"].text.startswith("LeCun, Y., Bengio, Y., & Hinton, G. (2015).")


def test_a_title_cannot_hide_or_restyle_itself_in_obsidian(renderer: CitationRenderer) -> None:
    work = LECUN.model_copy(update={"title": "Pay $5 for %% comments %% and ==marks== [[x]]"})
    markdown = renderer.render({"k": work})["k"]["apa"].entry_markdown()
    assert r"Pay \$5 for \%\% comments \%\% and \=\=marks\=\=" in markdown
    assert "[[x]]" not in markdown and "<https://doi.org/10.1038/nature14539>" in markdown
