"""Front matter: the first page's banners, dates, licences and notes are not paragraphs."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from vaultd.parse.bylines import is_byline
from vaultd.parse.front import is_article_type, is_front_matter


@pytest.mark.parametrize("text", [
    "Received: 19 July 2022 Revised: 27 September 2022 Accepted: 22 October 2022",
    "published: 15 January 2015 doi: 10.3389/fpsyg.2014.01582",
    "Received: May 17, 2014",
    "© 2015 Légaré et al.; licensee BioMed Central. This is an Open Access article distributed",
    "This work is licensed under a Creative Commons Attribution International 4.0 License.",
    "Content from this work may be used under the terms of the Creative Commons Attribution 3.0",
    "* Correspondence: France.Legare@mfa.ulaval.ca 1 Research Centre of the CHU de Québec",
    "* Author to whom correspondence should be addressed; E-Mail: someone@example.org",
    "* indicates corresponding author",
    "Competing Interests: The authors have declared that no competing interests exist.",
    "ISSN 1999-5903 www.mdpi.com/journal/futureinternet Article",
    "ACM Reference Format:",
    "Este é um artigo publicado em acesso aberto (Open Access) sob a licença Creative Commons",
    "Este es un artículo publicado en acceso abierto bajo una licencia Creative Commons",
    "Correspondência: Cláudia Meurer Souza. E-mail: claudia@example.org",
    "Fonte de financiamento: Coordenação de Aperfeiçoamento de Pessoal de Nível Superior",
    "Conflito de interesses: nada a declarar.",
    "Recebido em: Mar. 27, 2020. Aprovado em: Abr. 10, 2021",
    "Como citar: Neves, A.M., Morais, S.M. 2022. Prospecção química.",
    "Proceedings of the 58th Annual Meeting of the Association for Computational Linguistics, pages 4969–4983",
    "STOC’07, June 11–13, 2007, San Diego, California, USA.",  # ACM's conference line
    "KDD ’19, August 4–8, 2019, Anchorage, AK, USA",
    "Abbreviations: AMR, antimicrobial resistance; DAH, development assistance for health;",
])
def test_journal_front_matter_is_recognised_anywhere_on_the_first_page(text: str) -> None:
    assert is_front_matter(text, at_edge=False)


@pytest.mark.parametrize("text", ["STUDY PROTOCOL Open Access", "RESEARCH ARTICLE", "Artigo", "Review"])
def test_article_type_banners_count_only_at_the_top_of_the_first_page(text: str) -> None:
    assert is_front_matter(text, at_edge=False, banner=True)
    assert not is_front_matter(text, at_edge=False, banner=False)


@pytest.mark.parametrize("text", [
    "Received wisdom holds that dogs were domesticated once, but the evidence is mixed.",
    "Published work on this question is scarce, and we review it in Section 2.",
    "Copying behaviour was scored by two observers blind to the condition.",
    "Research on microservices in cyber-physical systems is still young.",
    "The code is available at https://github.com/allenai/s2orc and under a licence.",
    "Introduction",
    "Methods",
    "Data",
    "Open questions remain about the role of attention in this task.",
    "Este estudo avaliou a prevalência do diabetes gestacional no Brasil.",
    "Recebemos os dados da pesquisa em 2020 e os analisamos em seguida.",
    "STOC papers of 2007, June and July issues, were read by two of us.",
    "Abbreviations are spelled out at their first use in the text.",
])
def test_sentences_of_the_paper_are_not_front_matter(text: str) -> None:
    assert not is_front_matter(text, at_edge=False)
    assert not is_front_matter(text, at_edge=False, banner=True)


def test_an_identifier_banner_counts_only_at_the_top_or_foot_of_the_page() -> None:
    footer = "790 wileyonlinelibrary.com/journal/spe Softw: Pract Exper. 2023;53:790–810."
    assert is_front_matter(footer, at_edge=True)
    assert not is_front_matter(footer, at_edge=False)
    sentence = "All data and the analysis scripts used in this study are openly available at https://osf.io/x7k2p."
    assert not is_front_matter(sentence, at_edge=True)  # prose with a link stays a paragraph


def test_a_copyright_footer_counts_when_set_small_at_the_page_foot() -> None:
    footer = "July 5 - 10, 2020. c\u20dd2020 Association for Computational Linguistics"
    assert is_front_matter(footer, at_edge=True, small=True)
    assert not is_front_matter(footer, at_edge=True, small=False)
    assert not is_front_matter(footer, at_edge=False, small=True)


def test_article_type_banners_are_only_their_own_words() -> None:
    assert is_article_type("ORIGINAL RESEARCH ARTICLE")
    assert is_article_type("Review")
    assert not is_article_type("A review of methods for detecting events in text")
    assert not is_article_type("")


_prose_word = st.sampled_from([
    "the", "a", "of", "model", "data", "we", "show", "that", "results", "method", "paper",
    "study", "attention", "dogs", "cells", "significant", "increase", "decreased", "across"])


@given(st.lists(_prose_word, min_size=8, max_size=40))
def test_ordinary_prose_is_never_front_matter(words: list[str]) -> None:
    text = " ".join(words).capitalize() + "."
    assert not is_front_matter(text, at_edge=True)
    assert not is_front_matter(text, at_edge=False, small=True)


@pytest.mark.parametrize("text", [
    "Keng-Wit Lim and José E. Andrade*,†",
    "Anders Ödeen1*, Olle Håstad2 and Per Alström3",
    "Jan van der Berg1 and Ana da Silva2",
    "R. Verfürth",
])
def test_a_list_of_authors_names_is_a_byline(text: str) -> None:
    assert is_byline(text)


@pytest.mark.parametrize("text", [
    "Results and Discussion", "Materials and Methods", "I. INTRODUCTION", "2.1 Setup",
    "Figure 1", "Hadley Wickham",  # two names without a mark or an initial: undecidable
])
def test_headings_are_no_byline(text: str) -> None:
    assert not is_byline(text)


@pytest.mark.parametrize("text", [
    "† Yujie Hua, Xikang Fan and Mengshi Yang contributed equally to this work and are joint first authors.",
    "These authors contributed equally to this work.",
    "Full list of author information is available at the end of the article",
    "Keywords Socioeconomic status, Chronic obstructive pulmonary disease, COPD",
])
def test_bmc_2024_author_notes_and_keywords_are_front_matter(text: str) -> None:
    assert is_front_matter(text, at_edge=False)


@pytest.mark.parametrize("text", [
    "Both factors contributed equally to the variance we saw in the first cohort of the trial.",
    "Keywords are extracted from each paper by the tool and ranked by their weight.",
])
def test_body_sentences_about_equal_contributions_or_keywords_are_not(text: str) -> None:
    assert not is_front_matter(text, at_edge=False)


@pytest.mark.parametrize("text", [
    "This content was downloaded from IP address 112.133.244.33 on 31/08/2021 at 06:37",
    "View the article online for updates and enhancements.",
    "To cite this article: V V Kazina et al 2021 IOP Conf. Ser.: Earth Environ. Sci. 640 022090",
    "Published under licence by IOP Publishing Ltd",
    "IOP Conference Series: Earth and Environmental Science",
    "See discussions, stats, and author profiles for this publication at: https://www.researchgate.net/publication/1",
])
def test_a_publisher_s_cover_page_and_licence_lines_are_front_matter(text: str) -> None:
    assert is_front_matter(text, at_edge=False)


@pytest.mark.parametrize("text", ["S. L. Graham, R. L. Rivest Editors", "Programming Languages J. J. Horning Editor"])
def test_a_journal_department_s_editors_over_the_article_are_front_matter(text: str) -> None:
    assert is_front_matter(text, at_edge=False)
    assert not is_front_matter("The editors of this volume asked us to write it.", at_edge=False)
