"""A varied batch of Works for the citation-format tests and bench (real papers where
possible; synthetic ones exercise edge cases: 22 authors, suffixes, particles, no date)."""

from __future__ import annotations

from vaultd.models import Author, Work


def _a(family: str, given: str, **kw: str) -> Author:
    return Author(family=family, given=given, **kw)


def _people(prefix: str, n: int) -> list[Author]:
    givens = ["Anna", "Bob", "Carl", "Dora", "Emil", "Fay", "Gus", "Hal", "Ivy", "Jo", "Kim", "Lee", "Max", "Ned", "Olga", "Pia", "Quinn", "Rita", "Sam", "Tom", "Uma", "Vic", "Wes", "Xia", "Yuri"]
    return [_a(f"{prefix}{i + 1}", givens[i % len(givens)]) for i in range(n)]


WORKS: dict[str, Work] = {
    "lecun": Work(
        type="article-journal", title="Deep learning",
        authors=[_a("LeCun", "Yann"), _a("Bengio", "Yoshua"), _a("Hinton", "Geoffrey")],
        issued=[2015, 5, 28], container_title="Nature", volume="521", issue="7553",
        page="436-444", doi="10.1038/nature14539",
    ),
    "vaswani": Work(
        type="article", title="Attention is all you need",
        authors=[_a("Vaswani", "Ashish"), _a("Shazeer", "Noam"), _a("Parmar", "Niki"),
                 _a("Uszkoreit", "Jakob"), _a("Jones", "Llion"), _a("Gomez", "Aidan N."),
                 _a("Kaiser", "Łukasz"), _a("Polosukhin", "Illia")],
        issued=[2017, 6, 12], arxiv_id="1706.03762", arxiv_version=7, arxiv_primary_class="cs.CL",
    ),
    "kim": Work(
        type="article", title="Why? A question: the answer", authors=[_a("Kim", "Yoon")],
        issued=[2014, 8], arxiv_id="1408.5882", doi=None, url="https://arxiv.org/abs/1408.5882",
    ),
    "tsne": Work(
        type="paper-conference", title="Visualizing data using t-SNE: A study",
        authors=[_a("Maaten", "Laurens", **{"non-dropping-particle": "van der"}), _a("Hinton", "Geoffrey")],
        issued=[2008], container_title="Advances in Neural Information Processing Systems",
        volume="30", page="5998-6008", publisher="Curran Associates", doi="10.5555/3295222.3295349",
    ),
    "pascanu": Work(
        type="paper-conference", title="On the difficulty of training recurrent neural networks",
        authors=[_a("Pascanu", "Razvan"), _a("Mikolov", "Tomas"), _a("Bengio", "Yoshua")],
        issued=[2013], container_title="Proceedings of the 30th International Conference on Machine Learning",
        page="1310-1318", publisher="PMLR",
    ),
    "goodfellow": Work(
        type="book", title="Deep learning",
        authors=[_a("Goodfellow", "Ian"), _a("Bengio", "Yoshua"), _a("Courville", "Aaron")],
        issued=[2016], publisher="MIT Press", publisher_place="Cambridge, MA",
    ),
    "bishop": Work(
        type="book", title="Pattern recognition and machine learning",
        authors=[_a("Bishop", "Christopher M.")], issued=[2006], publisher="Springer",
        doi="10.1007/978-0-387-45528-0",
    ),
    "sutskever": Work(
        type="thesis", title="Training recurrent neural networks", authors=[_a("Sutskever", "Ilya")],
        issued=[2013], publisher="University of Toronto", genre="PhD thesis",
    ),
    "mueller": Work(
        type="thesis", title="A thesis", authors=[_a("Müller", "Jörg")], issued=[2019],
        publisher="ETH Zürich", genre="Master's thesis",
    ),
    "video": Work(
        type="motion_picture", title="But what is a neural network? | Deep learning chapter 1",
        authors=[Author(literal="3Blue1Brown")], issued=[2017, 10, 5], container_title="YouTube",
        url="https://www.youtube.com/watch?v=aircAruvnKk",
    ),
    "video2": Work(
        type="motion_picture", title="How transformers work", authors=[_a("Smith", "Ann")],
        issued=[2023, 1, 9], publisher="YouTube", url="https://www.youtube.com/watch?v=abc",
    ),
    "many": Work(
        type="article-journal", title="A study with many authors", authors=_people("A", 22),
        issued=[2020], container_title="Journal of Tests", volume="3", page="e1001",
    ),
    "twenty": Work(
        type="article-journal", title="Exactly twenty", authors=_people("C", 20),
        issued=[2021], container_title="J", volume="2", issue="1", page="1-9",
    ),
    "seven": Work(
        type="article-journal", title="Seven authors", authors=_people("B", 7),
        issued=[2019], container_title="J", volume="1", issue="2", page="101-108", doi="10.1/ABC",
    ),
    "six": Work(
        type="article-journal", title="Six authors", authors=_people("D", 6),
        issued=[2019], container_title="J", volume="1", issue="2", page="101-108",
    ),
    "king": Work(
        type="article-journal", title="Letter from Birmingham jail",
        authors=[_a("King", "Martin Luther", suffix="Jr."), Author(literal="World Health Organization")],
        issued=[1963, 4], container_title="The Atlantic Monthly", volume="212", issue="2", page="78-88",
    ),
    "nodate": Work(
        type="article-journal", title="Untitled work on ranking: Why it matters",
        authors=[_a("Smith", "John Ronald"), _a("Doe", "Jane")], container_title="Journal of Things",
    ),
    "anon": Work(
        type="article-journal", title="Anonymous findings", issued=[2001, 2], container_title="Science",
        volume="291", issue="5507", page="1304-1351", url="https://example.org/x",
    ),
    "plos": Work(
        type="article-journal", title="With article number", authors=[_a("Ng", "Andrew")],
        issued=[2022, 3, 1], container_title="PLOS ONE", volume="17", issue="3", number="e0264123",
        doi="10.1371/journal.pone.0264123",
    ),
    "lee": Work(
        type="paper-conference", title="A minimal paper", authors=[_a("Lee", "Jean-Paul")],
        issued=[2021], container_title="Proceedings of ACL",
    ),
    "question": Work(
        type="article-journal", title="Is attention all you need?",
        authors=[_a("Gaulle", "Charles", **{"dropping-particle": "de"})],
        issued=[2020, 11], container_title="Journal of AI", volume="7", page="12",
        doi="10.9/Q",
    ),
    "quotes": Work(
        type="book", title='The "big" picture: 100% of A_B & C*', issued=[1999],
        publisher="O'Reilly",
    ),
    "roe": Work(
        type="thesis", title="Learning things", authors=[_a("Roe", "Richard")], issued=[2018],
        publisher="MIT", genre="Doctoral dissertation", url="https://dspace.mit.edu/x",
    ),
    "ocw": Work(
        type="motion_picture", title="Lecture 1", authors=[Author(literal="MIT OpenCourseWare")],
        publisher="YouTube", url="https://www.youtube.com/watch?v=def",
    ),
}
