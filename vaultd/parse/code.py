"""Program listings: lines set in a typewriter face, kept out of paragraphs as ``code``.

A listing's lines (PPoPP's ``10 struct EnqReq`` … in Inconsolata, numbered in the body's
face) read as text became paragraphs, and a paragraph broken by a listing took its first
lines as its continuation (``Logically, an 10 struct EnqReq …``). A line is a program's
when most of its visible characters are in a typewriter face (``Line.mono``, a bare line
number joined to it counting with it). Such lines are one ``code`` chunk per listing:
a run of two or more of them, or a single one that reads as code (a line number, or
three of the signs programs are made of); a typewriter word or URL inside a line of prose
leaves that line prose, and an address set alone (the authors' e-mails, a footnote's URL)
is none.
``code`` chunks float like captions: a paragraph goes on past them.
"""

from __future__ import annotations

import re

from vaultd.parse.paras import Line, Para

#: A listing line's number.
_NUMBERED_RE = re.compile(r"\d{1,4}\s+\S")
#: The signs programs are made of.
_SIGN_RE = re.compile(r"[;{}()=<>\[\]]|:=|->|//|#")
#: A line a program reads or prints, set alone in a typewriter face: a statement naming a
#: quoted module (Ruby's ``require 'gbifrb'``), knitr's printed output (``#> Download key:
#: 0000840-…``), a module loaded by its quoted name (``library('rgbif')``), a method
#: called on an object (``species.name_suggest(q: 'Pum', limit: 6)``), an R pipe's first
#: line (``dat %>%``); not a function's
#: name and arguments alone, which prose displays (``window(x, index, start, end)``).
_CALL_RE = re.compile(r"\w+(?:\s+|\()(['\"])[\w./-]+\1\)?|#>.*|[A-Za-z_]\w*(?:\.\w+)+\(.*\)"
                      r"|[A-Za-z_]\w*\s+(?:%>%|\|>)")
#: An e-mail address or a URL: set in a typewriter face, but no program (an ``@`` alone is
#: a program's: a decorator, Ruby's ``@position``, Bloom's ``'@dst'``).
_ADDRESS_RE = re.compile(r"@[\w-]+\.[A-Za-z]{2,}|://|\bwww\.")
#: A shell's or an interpreter's prompt before a command (``$ ``, ``>>> ``, ``In [3]: ``).
_PROMPT_RE = re.compile(r"\s*(?:\$|>>>|In \[\d*\]:)\s+\S")
#: Most a listing's lines stand apart, in line heights (a listing continues under a gap
#: no wider; the prose after it stands further off or starts in the body face).
LISTING_GAP = 1.5


def is_code(lines: list[Line], text: str) -> bool:
    """Whether a para is a program's: all its lines in a typewriter face, no address (the
    authors' e-mails and a footnote's URL are set in one too), and two lines or more, or
    one that reads as code (a line number, or three of the signs programs are made of); or
    a command set alone on its line, a URL among its words (``jupyter-repo2docker
    https://github.com/…``, ``RUN pip install -r requirements.txt``): two words or more, no
    e-mail, its first word the command's (no address, no footnote's number)."""
    if not all(ln.mono for ln in lines):
        return _machine_text(lines) or _statements(lines) or (
            lines[0].text.lstrip().startswith(("from ", "import ")) and all(_IMPORT_RE.fullmatch(ln.text) for ln in lines))
    if _ADDRESS_RE.search(text):
        if all(_PROMPT_RE.match(ln.text) for ln in lines):
            return True  # a shell session: ``$ git config --global user.email robert@riken.jp``
        words = text.split()
        return len(lines) == 1 and len(words) >= 2 and "@" not in text \
            and not _ADDRESS_RE.search(words[0]) and not words[0][0].isdigit()
    if len(lines) == 1 and "@" in text:
        return False  # (a line of prose going on through inline code: asmejour's ``tries @article{.., …``)
    return len(lines) >= 2 or bool(_NUMBERED_RE.match(text)) or len(_SIGN_RE.findall(text)) >= 3 \
        or bool(_CALL_RE.fullmatch(text.strip())) \
        or (len(lines) == 1 and len(text.split()) >= COMMAND_WORDS
            and sum(1 for w in text.split() if len(w) >= 2 and w.isalpha()) >= 2)


def _machine_text(lines: list[Line]) -> bool:
    """Whether lines set in a text face are a program's or a data format's all the same
    (a Word report's map projection, ``PARAMETER["False_Easting",0.0],`` line under line in
    Times): ``MACHINE_LINES`` lines or more, each a token or two of ``MACHINE_CHARS``
    characters at least holding one of the signs programs and data are made of (brackets,
    quotes, ``=``, ``;``), two a line on the whole, each but the last ending as a
    statement or an element does (``,``, ``;``, a bracket). Prose has spaces; a compound's
    name broken over lines ends them on its hyphens."""
    return len(lines) >= MACHINE_LINES and all(
        len(ln.text.split()) <= 2 and len(ln.text.strip()) >= MACHINE_CHARS and _MACHINE_SIGN_RE.search(ln.text)
        for ln in lines) and sum(len(_MACHINE_SIGN_RE.findall(ln.text)) for ln in lines) >= 2 * len(lines) \
        and all(ln.text.rstrip().endswith(_STATEMENT_ENDS) for ln in lines[:-1])


def _statements(lines: list[Line]) -> bool:
    """Whether lines set in a text face are a program's statements (an A&A paper's Python
    listings in its roman: ``from gammapy.data import DataStore``, ``obs_ids = [23523,
    …]``, ``print(f"…")``): ``MACHINE_LINES`` lines or more, ``STATEMENT_SHARE`` of them
    statements (an import, an assignment, a call, a comment, a bracket closing), the
    first among them. Prose opens no line so."""
    if len(lines) < MACHINE_LINES or not _STATEMENT_RE.match(lines[0].text):
        return False
    text = "".join(ln.text for ln in lines).translate(_QUOTES)
    if sum(ch.isascii() for ch in text) < 0.98 * len(text):
        return False  # (a formula's ``i = σ(Wxi xt + …)`` is no program's)
    return sum(bool(_STATEMENT_RE.match(ln.text)) for ln in lines) >= STATEMENT_SHARE * len(lines)


#: A program's statement opening its line (after a console's prompt, if any): an import,
#: an assignment, a call left open or closed, a comment, a bracket closing a call.
_STATEMENT_RE = re.compile(
    r"\s*(?:(?:R?>|>>>|\+)\s+)?(?:from\s+[\w.]+\s+import\b|import\s+[\w.]+\s*(?:as\s+\w+\s*)?$|"
    r"[A-Za-z_][A-Za-z0-9_.]*(?:\[[^\]]*\])?\s*(?:=|\+=|-=|<-)\s*"
    r"(?:[\[({\"'”“0-9-]|[A-Za-z_][A-Za-z0-9_]*(?:[.(\[]|\s*,?\s*$))|"
    r"[A-Za-z_][A-Za-z0-9_.]*\(.*[(,)]\s*$|#\s|[)\]}]\s*$)")
#: Share of a listing's lines in a text face that are statements.
STATEMENT_SHARE = 0.6
_MACHINE_SIGN_RE = re.compile(r'[\[\]{}()"=;<>]')
_STATEMENT_ENDS = (",", ";", "{", "}", "[", "]", "(", ")", ">", '"', "'")
#: Fewest lines of program text set in a text face, and fewest characters on each.
MACHINE_LINES = 3
MACHINE_CHARS = 12


#: Fewest words of a command set alone on a line in a typewriter face, two of them words of
#: letters (a file's or a keyword's name alone is a label, a margin note; ``z = f(x,`` a
#: formula's piece).
COMMAND_WORDS = 3


#: A line's last word broken by a hyphen, its rest on the next line.
_BROKEN_WORD_RE = re.compile(r"[^\W\d_]-\s*$")


def code_runs(group: list[Line]) -> list[bool]:
    """For each line of a block, whether it belongs to a run of two or more typewriter
    lines (a listing inside a text block; one typewriter line alone stays in its prose).
    Not a run going on with a word the prose line over it broke (asmejour's ``When the
    en-`` | ``tries @article{.., @book{.., …`` | ``@proceedings{.., …``: inline code)."""
    out = [False] * len(group)
    i = 0
    while i < len(group):
        j = i
        while j < len(group) and group[j].mono:
            j += 1
        broken = i > 0 and not group[i - 1].mono and _BROKEN_WORD_RE.search(group[i - 1].text) is not None
        if j - i >= 2 and not broken:
            out[i:j] = [True] * (j - i)
        i = max(j, i + 1)
    return out


def statements_go_on(paras: list[Para], lines: list[Line]) -> bool:
    """Whether ``lines`` set in a text face, each a statement or a call's argument line,
    are the next lines of the listing that is the last para (``listing_goes_on``): an
    A&A paper's Python set in its roman, a block a statement or two."""
    if not listing_goes_on(paras, lines, STATEMENTS_GAP):
        return False
    told = [bool(_STATEMENT_RE.match(ln.text) or _ARGUMENT_RE.fullmatch(ln.text)) for ln in lines]
    # (a bare name is an argument among the others: ``SafeMaskMaker`` before ``)``)
    return any(told) and all(_ascii(ln.text) and (ok or (_NAME_RE.fullmatch(ln.text) is not None))
                             for ln, ok in zip(lines, told, strict=True))


#: How far (line heights) a listing's statements in a text face stand apart at most (a
#: blank line between its groups).
STATEMENTS_GAP = 2.5


def _ascii(text: str) -> bool:
    """Whether ``text`` is ASCII but for typographic quotes (a typesetter curls a listing's
    ``"`` too)."""
    return text.translate(_QUOTES).isascii()


_QUOTES = str.maketrans("“”‘’", "\"\"''")


#: A whole line that is an import statement (``from pathlib import Path``, ``import
#: astropy.units as u``): no sentence reads so.
_IMPORT_RE = re.compile(r"\s*(?:from\s+[A-Za-z_][\w.]*\s+import\s+(?:\(|\*|[A-Za-z_]\w*(?:\s*,\s*[A-Za-z_]\w*)*\s*,?)"
                        r"|import\s+[A-Za-z_][\w.]*(?:\s+as\s+[A-Za-z_]\w*)?)\s*")
#: A bare name on a line of its own.
_NAME_RE = re.compile(r"\s*[A-Za-z_]\w*\s*")
#: A call's argument on a line of its own: ``binsz=0.1,``, ``map_type="wcs",``, ``)``.
_ARGUMENT_RE = re.compile(r"\s*(?:[A-Za-z_]\w*\s*=\s*\S.*,?|(?:[A-Za-z_]\w*\s*,\s*)*[A-Za-z_]\w*\s*(?:,\s*[)\]]?|[)\]])"
                          r"|[\w.\"”'\[\]()]+(?:\s*[/+*%-]\s*[\w.\"”'\[\]()]+)*,|[)\]}]+[,)]*)\s*")


def listing_goes_on(paras: list[Para], lines: list[Line], gap: float = 0.0) -> bool:
    """Whether ``lines`` (a code para) are the next lines of the listing that is the last
    para: same page, under it at most ``LISTING_GAP`` line heights (or ``gap``),
    overlapping it across."""
    if not paras or paras[-1].type != "code":
        return False
    last, first = paras[-1].lines[-1], lines[0]
    height = max(last.bbox[3] - last.bbox[1], 1.0)
    return (last.page == first.page and -0.5 * height <= first.bbox[1] - last.bbox[3] <= (gap or LISTING_GAP) * height
            and first.bbox[0] < last.bbox[2] and last.bbox[0] < first.bbox[2])
