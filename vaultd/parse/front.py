"""Front matter: the article's own apparatus on its first page, kept out of paragraphs.

Journals set around the title and abstract a set of blocks that are not passages of the
paper: article-type banners (``RESEARCH ARTICLE``, ``STUDY PROTOCOL Open Access``), dates
(``Received: 19 July 2022``), licence and copyright statements, correspondence notes,
editor and reviewer lists, ISSN and journal-site lines, the conference footer of a
proceedings paper, ACM's "ACM Reference Format" block. They become ``front`` chunks: still
in the note, but never quoted as a paragraph and never joined to one.

The rules look at how such a block *starts* (its label or its opening words), which is
what the publishers share; a short block that is mostly identifiers (a DOI, a URL, an
ISSN, a journal site) at the top or foot of the first page counts too. Pure text rules:
``vaultd.parse.structure`` calls ``is_front_matter`` for blocks on the first two pages
(the article's first page may follow a cover page).
"""

from __future__ import annotations

import re
import unicodedata

#: Labels and openings of front-matter blocks (matched at the start, case-insensitive,
#: after a leading ``*``/``†`` footnote mark).
_START_RE = re.compile(
    r"""^(?:
        ©|\(c\)\s*\d{4}|copyright\b|crown\s+copyright|licensee\b
      | (?:19|20)\d\d\s+the\s+author(?:s|\(s\))?[.,]  # behind a copyright sign no font maps: "� 2022 The Author(s)."
      | (?-i:CONTACT\s+[A-Z][a-z])  # Taylor & Francis's first-page foot: "CONTACT Scott Chamberlain …"
      | this\s+(?:work|article)\s+is\s+(?:licensed|distributed|an\s+open)
      | this\s+is\s+an\s+open[\s-]access
      | this\s+article\s+is\s+included\s+in\s+the\s  # F1000's channel note: "This article is included in the Preclinical …"
      | este\s+(?:é\s+um\s+artigo|es\s+un\s+art[íi]culo)\s+(?:publicado|de\s+acesso|de\s+acceso)
      | open\s+access\s+this\s+(?:article|chapter|book)
      | (?:original\s+)?content\s+from\s+this\s+work\s+may\s+be\s+used  # IOP's and the AAS journals'
      | \d{4}-\d{3}[\dx]\s*[/=]\s*(?:\d{2,4}|\$)  # an ISSN and the article's code: "2160-3308/23/13(4)/041044(32)"
      | permission\s+to\s+make\s+digital
      | permission\s+is\s+(?:hereby\s+)?granted\s+to\s+(?:copy|distribute|reproduce|use)
      | acm\s+reference\s+format
      | manuscript\s+received\s+\d  # IEEE's first-page note: "Manuscript received 1 February 2022; …"
      | the\s+associate\s+editor\s+coordinating\s+the\s+review\b  # IEEE's (Access, Transactions) first-page note
      | communicated\s+by\s+(?-i:[A-Z])  # Springer's editor line: "Communicated by L. M. Moller"
      | (?:article\s+)?impact\s+statement\s*:  # Conservation Biology's first-page statement
      | (?-i:[A-Z][\w.'’-]*(?:,?\s+(?:[A-Z][\w.'’-]*|and))*)\s+(?:is|are)\s+(?:now\s+|also\s+)?with\s+the\s  # IEEE's "Cheul Young Park and Uichin Lee are with the …"
      | (?:date|(?:date\s+)?(?:received|accepted|revised|submitted)|published(?:\s+online)?(?:\s+first)?|available\s+online|
         first\s+published|online\s+publication\s+date|recebido|aceito|publicado)\b\s*:?\s*
         (?:\d|jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec|in\s+revised|xx\b)  # (a template's xx)
      | orcid(?:s|\(s\))?\s*:
      | orcid\s+i(?:d|ds|d\(s\))\s+(?-i:[A-Z])  # the BMJ journals' back matter: ``ORCID iDs Karen Zwi https://orcid.org/…``
      | further\s+author\s+information
      | submitted\s+to\s+[\w.&\s]{1,40}?\s+on\s+(?:\d|jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)
      | (?:(?:suggested\s+|recommended\s+)?citation|editor|academic\s+editor|handling\s+editor|edited\s+by|reviewed\s+by|
         subject\s+editor(?:\s+and\s+editor[\s-]in[\s-]chief)?|editor[\s-]in[\s-]chief|
         specialty\s+section|funding|competing\s+interests?|abbreviations|conflicts?\s+of\s+interest|
         data\s+availability(?:\s+statement)?|(?:address\s+for\s+)?correspondence(?:\s+to)?|corresponding\s+authors?|reviewing\s+editor|
         e-?mails?(?:\s+address(?:es)?)?|contact|website|quick\s+response\s+code|(?:next\s+)?release(?:\s+date)?|keywords?|categories|key\s+words|ccs\s+concepts|unified\s+astronomy\s+thesaurus\s+concepts|issn|e-?issn|editora?\s+associad[ao]|submiss[ãa]o|aceite|
         palavras-chave|palabras\s+claves?|correspond[êe]ncia|fonte\s+de\s+financiamento|
         fuente\s+de\s+financiaci[óo]n|financiamento|financiaci[óo]n|conflitos?\s+de\s+interesses?|
         conflictos?\s+de\s+intereses|(?:recebido|aprovado|aceito|publicado|recibido|aceptado|aprobado)
         (?:\s+em|\s+en|\s+el)?)\s*:
      | (?:(?:how\s+)?to\s+cite(?:\s+this\s+article)?|cite\s+this\s+article|como\s+citar|
         cómo\s+citar|para\s+citar(?:\s+este\s+artigo)?|zitiervorschlag)\s*:
      | correspondence\s+(?:to|should\s+be\s+addressed|and\s+requests\s+for\s+materials)
      | how\s+to\s+cite\s+this\s+article\b  # PeerJ's footer, in bold without a colon
      | open\s+access\s*$  # PeerJ's badge at its sidebar's foot
      | (?:key\s*words|article\s+history|article\s+info(?:rmation)?)\s*:?\s*$  # a label of its own (Taylor & Francis; Elsevier's with its colon)
      | key\s*words\.\s+\S  # Springer's mathematics journals: "Keywords. Cluster algebra, …"
      | full\s+terms\s*&\s*conditions\s+of\s+access\s+and\s+use  # Taylor & Francis's cover sheet
      | (?:\d{4}\s+)?acm\s+(?:subject\s+classification|ccs\s+concepts|computing\s+classification)\b
      | digital\s+object\s+identifier\b
      | arxiv\s+e-?print\s*:  # SISSA's journals (JHEP, JCAP) under the keywords
      | access\s+this\s+article\s+online\s*$  # Medknow's box on a first page, by its QR code
      | leibniz\s+international\s+proceedings\s+in\s+informatics\b  # LIPIcs' footer
      | ceur\s+workshop\s+proceedings\b  # CEUR-WS's first-page banner
      | (?:preliminary\s+report\.\s*)?final\s+version\s+to\s+appear\s+in\b  # EPTCS's status footer
      | (?:code|data|software|open\s+peer\s+review)\s+(?:is|are)\s+(?:publicly\s+|freely\s+)?available\s+
        (?:at|from|on)\s+(?:https?://|doi)  # ReScience's first-page foot block of links
      | (?:[A-Z][\w&'’-]*\s+){0,12}volume\s+\d{1,4}\s*(?:\(\d{4}\))?,\s*article\s+(?:id|number)\s*\w+.{0,160}$
      | additional\s+information\s+and\s+declarations\s+can\s+be\s+found
      | academic\s+editor\s+(?-i:[A-Z])
      | subjects\s+(?-i:[A-Z])[^.]{0,200}$  # PeerJ's "Subjects Bioinformatics, Computational Biology"
      | author\s+to\s+whom\s+correspondence
      | indicates\s+(?:the\s+)?corresponding\s+author
      | corresponding\s+authors?\b
      | e?-?issn\b
      | proceedings\s+of\b.{0,200}$
      | (?:(?-i:[A-Z])[\w&'’-]*\s+|(?:at|of|in|on|the|and|for)\s+){0,12}\d{1,3}(?:st|nd|rd|th)\s+(?:annual\s+|international\s+)*conference\s+on\s.{0,160}
        \(\s*[a-z][\w-]*\s+\d{4}\s*\).{0,80}$  # NeurIPS' first-page foot: "33rd Conference on … (NeurIPS 2019), …"
      | preprint\.\s+(?:under\s+review|work\s+in\s+progress)\.?$  # NeurIPS' preprint footer
      | [a-z][a-z-]{1,15}\s?['’]\s?\d{2},\s+(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+\d
        .{0,160}$  # ACM's conference line: "STOC’07, June 11–13, 2007, San Diego, California, USA."
      | [a-z][a-z-]{1,15}\s\d{4},\s+(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+\d{1,2}\s*[-–]\s*\d{1,2},\s+\d{4}
        \b  # a workshop's event line: "ICBO 2022, September 25-28, 2022, Ann Arbor, MI, USA" (CEUR's note)
      | full\s+list\s+of\s+author\s+information
      | one\s+contribution\s+of\s+\d+\s+to\s+(?:a\s+|the\s+)?(?:theme|special|discussion)\s+(?:issue|meeting)  # the Royal Society's
      | this\s+content\s+(?:was|has\s+been)\s+downloaded\b  # IOPscience's cover sheets, old and new
      | please\s+note\s+that\s+terms\s+and\s+conditions\s+apply
      | home\s+search\s+collections\s+journals\b
      | view\s+the\s+table\s+of\s+contents\s+for\s+this\s+issue
      | download\s+details\s*:
      | view\s+the\s+article\s+online\s+for\s+updates
      | (?:note:\s*)?this\s+preprint\s+reports\s+new\s+research\s+that\s+has\s+not\s+been  # medRxiv's notice
      | published\s+under\s+licen[cs]e\s+by
      | see\s+discussions,?\s+stats,?\s+and\s+author\s+profiles
      | all\s+content\s+following\s+this\s+page\s+was\s+uploaded
      | (?:iop\s+conference\s+series|journal\s+of\s+physics\s*:\s*conference\s+series)\b.{0,80}$
      | key\s*words\s+(?-i:[A-Z])
      | [^|.:;]{1,40}(?:\s\|\s[^|.:;]{1,40}){2,}$  # PNAS's keywords, no label: "UFMylation | DNA replication | PARP1"
      | printed\s+(?:in\s+(?:the\s+)?\w+(?:\s\w+)?\s+)?(?:by\s+(?-i:[A-Z])|on\s+(?:\w+\s+)?paper\b)  # an imprint: "Printed in the UK by HH Associates"
      | editor\s+(?-i:[A-Z][a-z]+\s+(?:[A-Z]\.\s*)*[A-Z][\w'’-]+),  # a side column's "Editor Paul D. Fey, University of …" (ASM)
      | author\s+affiliations\b
      | see\s+the\s+[\w-]+\s+(?:table|list|section)\s+on\s+p(?:age|\.)\s*\d+\.?$  # "See the funding table on p. 17."
      | all\s+publication\s+charges\s+for\s+this\s+article\s+have\s+been\s+paid\b  # the RSC's side column
      | (?:index|subject)\s+terms\s*[:—–-]  # IEEE's "Index Terms—", SPIE's "Subject terms:"
      | index\s+terms\s+(?-i:[A-Z])  # IEEE Access's "INDEX TERMS Medical image …"
      | key\s*words\s+and\s+phrases\b  # amsart's first-page footnotes, LIPIcs' front block
      | (?:\d{4}\s+)?mathematics\s+subject\s+classification\b
      | these\s+authors\s+(?:contributed\s+equally|have\s+contributed\s+equally|share)
      | (?:preprint|manuscript)\s+submitted\s+to\b.{0,120}$
      | draft\s+version\b.{0,120}$
      | (?:jel(?:\s+classification)?(?:\s+codes?)?|pacs(?:\s+numbers?)?|msc(?:\s*\(?\d{4}\)?)?)\s*:
      | [A-Z][\w&.'’-]*(?:\s(?:[A-Z][\w&.'’:-]*|of|and|the|for|in|on|&)){0,8}\s\d{1,4},\s*\d+\s*[–-]\s*(?:\d+|\?\?)\s*\(\d{4}\).{0,120}$
      | [A-Z][\w&.'’-]*(?:\s(?:[A-Z][\w&.'’:-]*|of|and|the|for|in|on|&)){0,8}\s\(\d{4}\),?\s*\d+(?::\s?\d+)?,\s*\d+\s*[–-]\s*\d*.{0,120}$
      | [A-Z][\w&.'’-]*(?:\s(?:[A-Z][\w&.'’:-]*|of|and|the|for|in|on|&)){0,8}\s\d{1,4}\s\(\d{4}\)\s*\d+\s*[–-]\s*\d+\b.{0,120}$
    )""",
    re.IGNORECASE | re.VERBOSE | re.DOTALL,
)

#: (The three journal banners above: ``MNRAS 000, 1–10 (2020)``, ``International
#: Psychogeriatrics (2014), 26:1, 147–158`` and JMLR's ``Journal of Machine Learning
#: Research 23 (2022) 1-9 Submitted 8/21; …``: a capitalised name, volume, pages, year.)

#: A journal department's editors, named over the article (CACM: ``S. L. Graham, R. L.
#: Rivest Editors``; ``Programming Languages J. J. Horning Editor``): a few capitalised
#: words and initials, ending on the word.
_EDITORS_RE = re.compile(r"(?:(?:[A-Z][\w'’-]*\.?|and|&),?\s+){1,10}Editors?")

#: A footnote, behind its mark, on authors who contributed equally.
_EQUAL_RE = re.compile(r"\b(?:contributed\s+equally|equal(?:ly)?\s+(?:authors?\s+)?contribut\w*|share\s+first\s+authorship)",
                       re.IGNORECASE)

#: Article-type banners, as whole blocks (``STUDY PROTOCOL Open Access``, ``Artigo``).
_TYPE_WORDS = frozenset({
    "research", "article", "original", "articles", "paper", "open", "access", "study",
    "protocol", "review", "focused", "mini", "systematic", "short", "communication",
    "letter", "editorial", "perspective", "commentary", "opinion", "hypothesis", "and",
    "theory", "brief", "report", "case", "artigo", "artículo", "revisão", "revisión",
    "nota", "científica", "comunicação", "breve",
})

#: Identifiers that make a short block front matter at the page's top or foot.
_ID_RE = re.compile(
    r"\bdoi\s*:|\b10\.\d{4,9}/\S+|https?://\S+|www\.\S+|\b[\w-]+\.(?:com|org|net)/\S*"
    r"|\bissn\b|\be-?mails?(?:\s+address(?:es)?)?\s*:",
    re.IGNORECASE,
)
#: A footnote's mark set as a letter before the note's first word (Elsevier's starred
#: ``n Corresponding author.``, whose star its font maps to ``n``).
_NOTE_LETTER_RE = re.compile(r"^[a-z]\s+(?=[A-Z][a-z])")
#: A reference in author–year form: ``Cuevas, R. (2022). Democracia y …``, ``Smith, J. A.
#: and Lee, K. (2020).``
_CITATION_RE = re.compile(r"[A-Z][\w'’-]+,\s+(?:[A-Z]\.\s*){1,3}(?:,?\s*(?:&|and|y|et al\.)[^()]{0,120})?\s*\((?:19|20)\d\d[a-z]?\)\.")
#: The work's identifier opening a block, before what the block goes on to say.
_LEAD_ID_RE = re.compile(r"(?:doi\s*:\s*|https?://(?:dx\.)?doi\.org/)10\.\d{4,9}/\S+\s+", re.IGNORECASE)
#: A volume, its issue and its pages, as a journal's banner cites the work: ``31(12):3125–3135``.
_VOLUME_PAGES_RE = re.compile(r"\b\d{1,4}\s?\(\d{1,4}\):\s?[A-Za-z]?\d{1,6}[–-][A-Za-z]?\d{1,6}\b")
#: An e-mail address, and a parenthesised aside (the name an address belongs to).
EMAIL_RE = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
_PARENS_RE = re.compile(r"\([^()]*\)")
#: An author's contact footnote: a name of two to four capitalised words, a colon, an
#: e-mail address.
_CONTACT_RE = re.compile(r"^[A-Z][\w.'’-]+(?:\s+[A-Z][\w.'’-]+){1,3}\s*:\s*[\w.+-]+@[\w-]+\.")
#: An author's name and e-mail address alone, or the address alone (Springer's contact
#: block at the first page's foot: ``Dietmar Jannach`` | ``Dietmar.Jannach@aau.at``).
_NAME_ADDRESS_RE = re.compile(r"(?:[A-Z][\w.'’-]+(?:\s+[A-Z][\w.'’-]+){1,3}\s+)?[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
#: A word of running prose: four or more letters.
_WORD_RE = re.compile(r"[^\W\d_]{4,}")

#: Longest block a banner, identifier line or copyright footer can be (characters).
BANNER_MAX = 300
#: Most prose words an identifier block may have besides its identifiers (a journal's
#: abbreviated name: ``Softw: Pract Exper.``).
BANNER_WORDS = 4


#: A journal issue's banner: ``volume 100, no. 20 january 2000``, ``Vol. 12, Issue 3``.
_ISSUE_RE = re.compile(
    r"^vol(?:ume|\.)?\s*\d{1,4}\s*[,;(]?\s*(?:no\.?|issue|number|nr\.?)\s*\d{1,4}\b.{0,40}$",
    re.IGNORECASE)


#: An issue's date alone on a banner line: ``january 2000``, ``15 March 2021``.
_ISSUE_DATE_RE = re.compile(
    r"^(?:\d{1,2}\s+)?(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+(?:19|20)\d\d$",
    re.IGNORECASE)


def is_article_type(text: str) -> bool:
    """A banner naming the kind of article and nothing else."""
    words = re.findall(r"[^\W\d_]+", text.lower())
    return 0 < len(words) <= 6 and all(w in _TYPE_WORDS for w in words)


#: An open licence named in a copyright line.
_OPEN_LICENCE_RE = re.compile(r"\b(?:cc[\s-]by|creative\s+commons)\b", re.IGNORECASE)
#: A copyright mark: ``©``, TeX's circled ``c⃝``, ``(c) 2020``, ``Copyright``, or where
#: the journal's ISSN before the year shows one.
_COPYRIGHT_RE = re.compile(r"©|c\u20dd|\(c\)\s*\d{4}|\bcopyright\b|(?<!\d)ª\s*(?:19|20)\d\d\b"
                           # (Elsevier's ISSN and year, its © mapped to another glyph: "2352-3409/& 2018")
                           r"|\b\d{4}-\d{3}[\dX]/\W?\s*(?:19|20)\d\d\b", re.IGNORECASE)


#: A publisher's or repository's cover page put before the article's first page (IOP's
#: download stamp, ResearchGate's profile page).
_COVER_RE = re.compile(
    r"this\s+content\s+was\s+downloaded\s+from\s+ip|view\s+the\s+article\s+online\s+for\s+updates"
    r"|this\s+content\s+has\s+been\s+downloaded\s+from\s+iopscience"
    r"|see\s+discussions,?\s+stats,?\s+and\s+author\s+profiles",
    re.IGNORECASE)


def is_cover_page(texts: list[str]) -> bool:
    """Whether a page of these block texts is a cover page put before the article."""
    return any(_COVER_RE.search(t) for t in texts)


def _lead_marks(text: str) -> str:
    """``text`` without the note marks before it: ``*``, daggers, and any symbol a font
    maps its mark to (Elsevier's corresponding-author star read as ``⇑``)."""
    body = text.strip()
    while body and (body[0] in "*†‡§" or (unicodedata.category(body[0])[0] == "S" and body[0] not in "©®℗")):
        body = body[1:].lstrip()
    return body


#: An ORCID iD: ``0000-0001-9686-3844`` (its last character may be ``X``).
_ORCID_ID_RE = re.compile(r"\b\d{4}-\d{4}-\d{4}-\d{3}[\dX]\b")
#: An ORCID iD's address, its number broken over lines as it may be (the BMJ journals'
#: ``https://orcid.org/0000-0001-7661-`` | ``1551``).
_ORCID_URL_RE = re.compile(r"orcid\.org/\d{4}-")


def is_front_matter(text: str, *, at_edge: bool, small: bool = False, banner: bool = False) -> bool:
    """Whether a block of the first page is front matter (see module doc). ``at_edge``:
    the block sits at the page's top or foot (or in a side column of small print), where
    an identifier line is a banner rather than a sentence of the paper; ``small``: it is
    set smaller than the body (a footer or footnote carrying a copyright mark is then
    front matter wherever the mark stands in it); ``banner``: it stands in the top part of
    the first page, where an article-type banner (``RESEARCH ARTICLE``) is set (lower
    down, ``Review`` or ``Research`` may be a section's heading)."""
    body = _lead_marks(text)
    if not body:
        return False
    body = _NOTE_LETTER_RE.sub("", body)  # a note's letter mark: "n Corresponding author."
    if _START_RE.match(body) or (banner and (
            is_article_type(body) or _ISSUE_RE.match(body) or _ISSUE_DATE_RE.match(body))):
        return True
    if body != text.strip() and _EQUAL_RE.search(body[:BANNER_MAX]):
        return True  # "† Yujie Hua, Xikang Fan and Mengshi Yang contributed equally to this work."
    if (lead := _LEAD_ID_RE.match(body)) and _START_RE.match(body[lead.end():]):
        return True  # Elsevier's foot: "https://doi.org/10.1016/… Received 11 February 2023; …"
    if _EDITORS_RE.fullmatch(body):
        return True  # CACM's department editors: "S. L. Graham, R. L. Rivest Editors"
    if (orcids := max(len(_ORCID_ID_RE.findall(body)), len(_ORCID_URL_RE.findall(body)))) and (
            EMAIL_RE.search(body) or orcids >= 2):
        return True  # the authors' line with their ORCID iDs and an e-mail (Wiley's "A. de la Fuente (https://orcid.org/…) ✉ (…)")
    if _CONTACT_RE.match(body):
        return True  # "Christian Gogolin: latex@quantum-journal.org, …": an author's contact
    if len(EMAIL_RE.findall(body)) >= 2 and not _WORD_RE.findall(
            _PARENS_RE.sub(" ", EMAIL_RE.sub(" ", body))):
        return True  # "jkk@example.in (J.K. Krishnan); wjh@example.org (W. J. Hansen)"
    if not at_edge or len(body) > BANNER_MAX:
        return False
    if (small or _OPEN_LICENCE_RE.search(body)) and _COPYRIGHT_RE.search(body):
        return True  # (in the body's size, with its licence: "Submitted to AutoML 2024 © 2024
        # the authors, released under CC BY 4.0" at the first page's foot)
    ids = list(_ID_RE.finditer(body))
    if not ids:
        return False
    if _CITATION_RE.match(body) or _VOLUME_PAGES_RE.search(body):
        # the work's own reference, its identifier last (a working paper's foot); a
        # journal's banner citing its volume, issue and pages (``Mol. Biol. Evol.
        # 31(12):3125–3135 doi:… Advance Access publication …``)
        return True
    return len(_WORD_RE.findall(_ID_RE.sub(" ", body))) <= BANNER_WORDS


#: A picture's credit line: ``Image from: https://…``, ``Photo: …``, ``Illustration by …``.
_CREDIT_RE = re.compile(
    r"(?i:image|photo(?:graph)?|illustration|picture|artwork)s?"
    r"(?:\s*(?i:credits?|source|from)?\s*:\s*\S|\s+(?i:by|courtesy\s+of)\s+[A-Z])"
    r"|(?i:courtesy\s+of)\s+(?:the\s+)?[A-Z]")  # an archive's "Courtesy of the National Archives"
#: Longest credit line (characters).
CREDIT_MAX = 400


def is_credit(text: str) -> bool:
    """Whether a block is a picture's credit line (on whatever page it stands): another's
    words about the picture, never the work's text."""
    body = text.strip()
    return len(body) <= CREDIT_MAX and _CREDIT_RE.match(body) is not None


#: The article's dates and the publisher's boilerplate, wherever they stand (the Nature
#: journals set them after the text or the bibliography: ``Received: 5 August 2019;
#: Accepted: 8 January 2020;``, ``Reprints and permissions information is available at …``,
#: ``Publisher's note Springer Nature remains neutral …``), and the notice over each opinion
#: of a US Supreme Court slip opinion (``NOTICE: This opinion is subject to formal revision …``),
#: the JAMA Network's sidebar notes (``+ Supplemental content``).
_DECLARATION_RE = re.compile(
    # (the day before its month, or after it: Cell Press's ``Received: April 4, 2023 Revised: …``)
    r"""^(?:received\s*:?\s*(?:\d{1,2}\s+[a-z]+|[a-z]+\s+\d{1,2},?)\s+\d{4}\s*[;,.]?\s*(?:revised|accepted)\b
      | reprints?\s+and\s+permissions?\s+information\b
      # dates under their labels and nothing else (Eurostat's ``Data extracted: 4 August
      # 2023 Planned article update: 15 November 2023``)
      | (?:[a-z]+(?:\s+[a-z]+){0,3}:\s*\d{1,2}\s+[a-z]+\s+\d{4}\s*){1,3}$
      | publisher[’']s\s+note\b
      | published\s+by\s+[^.]{3,120}?\bon\s+behalf\s+of\b  # Copernicus's, OUP's imprint line
      | published\s+by\s+[^.\s][^.]{2,60}\.?\s*$  # or alone (ESSD's ``Published by Copernicus Publications.``)
      # the copyright line, its © lost to the font's map (OUP's ``ß The Author 2014.
      # Published by Oxford University Press on behalf of …``)
      | \S{0,2}\s*the\s+authors?(?:\(s\))?\s+(?:19|20)\d\d\.\s+published\s+by\b
      | peer\s+review\s+information\b
      # a US national laboratory's notice page: where its reports are to be had
      | available\s+(?:to\s+doe\s+and\s+doe\s+contractors|to\s+the\s+public)\s+from\b
      | notice:\s+this\s+opinion\s+is\s+subject\s+to\s+formal\s+revision\b  # a US court's slip opinion
      # the JAMA Network's first-page sidebar
      | author\s+affiliations\s+and\s+article\s+information\s+are\s+listed\s+at\s+the\s+end\b
      | \+\s*(?:supplemental|multimedia)\s+content\s*$
      # Wiley's first-page note on its authors' ORCID iDs
      | the\s+orcid\s+identification\s+number\(?s?\)?\s+for\s+the\s+author
      # the BMJ journals' first-page sidebar: ``► Additional material is published online only.``
      | \W{0,2}\s*additional\s+(?:material|files?)\s+(?:is|are)\s+(?:published|available)\s+online\b
      | printed\s+on\s+recycled\s+paper\.?$  # a report's back cover (GAO's)
      # the Cascadilla Proceedings Project's stamp over each paper's first page
      | this\s+printout\s+has\s+been\s+approved\s+by\s+me,?\s+the\s+author\b
      | last\s+updated\s+by\s+author\(?s?\)?\s*:  # the foot of each page of Nature's reporting summary
      # a first page's pointer to a statement set further on (the AHA's ``Sources of
      # Funding, see page 1109`` under its key words)
      | [a-z]+(?:\s+[a-z&]+){0,3},\s+see\s+(?:page|p\.)\s*\d+\.?\s*$
      # a publication's catalogue number alone (the IRS's ``Cat. No. 11441F`` at a
      # booklet's first foot, Statistics Canada's ``Catalogue no. 11-626-X``)
      | cat(?:alog(?:ue)?|\.)\s+no\.?\s*[\w-]{3,20}\s*$
      )""",
    re.IGNORECASE | re.VERBOSE)
#: Longest such block (characters).
DECLARATION_MAX = 400


def is_declaration(text: str) -> bool:
    """Whether a block is the article's dates line or the publisher's boilerplate, on
    whatever page it stands."""
    body = text.strip()
    return len(body) <= DECLARATION_MAX and _DECLARATION_RE.match(body) is not None


#: An affiliation's mark (``1``, ``a``, ``∗``, set before the institution's name or run
#: into it: ``1School of …``).
_AFFILIATION_MARK_RE = re.compile(r"^(?:\d{1,2}|[a-z](?=\s)|[*∗†‡§¶]{1,3})\s*")
#: Words of an institution's name.
_INSTITUTION_RE = re.compile(
    r"\b(?:department|dept\.|school|faculty|institut[eo]?|istituto|universit(?:y|ät|é|à|ad|ade|at|eit|ies)"
    r"|univ\.|college|laborator(?:y|ies|ire|io|ium)|centre|center|centro|division|hospital|clinic"
    r"|academy|observatory|museum)\b",
    re.IGNORECASE)
#: Lowercase words an institution's address may hold besides its names.
_ADDRESS_PARTICLES = frozenset({"of", "and", "for", "the", "at", "in", "on", "de", "di", "du", "des", "da",
                                "do", "dos", "das", "del", "della", "la", "le", "y", "e", "et", "und",
                                "für", "der", "van", "von", "am", "an", "sur", "mail", "e-mail", "email"})
#: Longest affiliation block (characters): a list of a few institutions and addresses.
AFFILIATION_MAX = 600


def is_affiliation(text: str) -> bool:
    """Whether a block is the authors' affiliations (``1 Department of Physics, University
    of Michigan, Ann Arbor, Michigan 48109, USA, 2Center for …``; ``University of Bologna
    gabriele.ferrario@unibo.it``): it opens, behind its mark, with a clause naming an
    institution, and its words are names, places, postcodes and addresses: in lowercase
    only ``of``, ``and``, ``de`` and the like."""
    body = _AFFILIATION_MARK_RE.sub("", text.strip(), count=1)
    if not body or len(body) > AFFILIATION_MAX or not body[0].isupper():
        return False
    # (Wiley names the authors by their initials before each address: ``Y. H. Chung, N. F.
    # Steinmetz Department of Bioengineering …``)
    named = _INITIALLED_NAMES_RE.sub("", body, count=1)
    if not _INSTITUTION_RE.search(body.split(",", 1)[0][:80]) \
            and not (named[:1].isupper() and _INSTITUTION_RE.search(named.split(",", 1)[0][:80])):
        return False
    words = [w.strip("(),.;:") for w in EMAIL_RE.sub(" ", body).split()]
    words = [w for w in words if any(c.isalpha() for c in w) and not any(c.isdigit() for c in w)]
    lower = sum(1 for w in words if w[:1].islower() and w.casefold() not in _ADDRESS_PARTICLES)
    return len(words) >= 2 and lower * 10 <= len(words)


#: Authors' names by their initials, one or more (``Y. H. Chung, N. F. Steinmetz``).
_INITIALLED_NAMES_RE = re.compile(r"^(?:(?:[A-Z]\.\s?(?:-[A-Z]\.\s?)?)+[A-Z][^\W\d_]+(?:-[A-Z][^\W\d_]+)?,?\s+(?:and\s+)?)+")
#: Headings that end the first page's front matter: the abstract's, or the first section's.
_OPENING_HEADS = frozenset({
    "abstract", "summary", "introduction", "background", "highlights", "keywords", "key words",
    "résumé", "resumo", "resumen", "zusammenfassung", "a b s t r a c t", "a r t i c l e i n f o",
})
#: A first-page paragraph this long is the abstract or the body: front matter is over.
BODY_WORDS = 40


#: The abstract's label, as a heading or at a paragraph's start (``Abstract:``, ``SUMMARY``).
_ABSTRACT_RE = re.compile(r"(?:abstract|summary|résumé|resumo|resumen|zusammenfassung|a b s t r a c t)"
                          r"(?:\s*[:.—–]|\s*$)", re.IGNORECASE)


def opens_front(text: str) -> bool:
    """Whether ``text`` opens like a front-matter block (``Competing interests:``,
    ``Published 13 December 2012``): the labels ``is_front_matter`` reads at a block's
    start."""
    return _START_RE.match(text.strip().lstrip("*†‡§ ").strip()) is not None


def opens_abstract(text: str) -> bool:
    """Whether a first-page block is the abstract's label or opens with it."""
    return _ABSTRACT_RE.match(text.strip()) is not None


def opens_paper(text: str) -> bool:
    """Whether a first-page heading opens the paper proper (``Abstract``, ``1 Introduction``)."""
    words = re.sub(r"^(?:\d+(?:\.\d+)*|[IVX]+)\.?\s+", "", text.strip()).rstrip(":. ").casefold()
    return words in _OPENING_HEADS


def is_contact(text: str) -> bool:
    """Whether a block is an author's contact alone: an e-mail address, or a name and its
    address (Springer's first-page foot, each author's its own block)."""
    return _NAME_ADDRESS_RE.fullmatch(text.strip()) is not None
