"""LaTeX drafts: quotation candidates, citations and provenance comments (pure; pylatexenc
on first use).

pylatexenc's walker finds the structure (comments, environments, macro arguments, ``\\`\\```
and ``''`` as specials, verbatim skipped); ``vaultd.capture.latex_text.decode`` turns a
quote's LaTeX into the text a reader sees, after comments, citations and footnotes inside
it are cut out. Straight ``"`` are babel shorthands in LaTeX, never quotation marks.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

from vaultd.canonical import canonical_text
from vaultd.capture.latex_text import decode
from vaultd.draft.scan import (
    Candidate,
    Cite,
    CiteAt,
    Lines,
    Provenance,
    Scan,
    apply_edits,
    normalise_locator,
    pair_marks,
    provenance,
    unwrap,
)
from vaultd.errors import ParseError

CITE_COMMANDS = frozenset({
    "cite", "citep", "citet", "citealp", "citealt", "citeauthor", "citeyear", "citeyearpar",
    "parencite", "textcite", "autocite", "footcite", "smartcite", "supercite",
    "Cite", "Citep", "Citet", "Citealp", "Citealt", "Citeauthor", "Parencite", "Textcite",
    "Autocite", "Footcite", "Smartcite"})
QUOTE_ENVIRONMENTS = frozenset({"quote", "quotation", "displayquote"})
_KEY_COMMENT_RE = re.compile(r"%[^\n]*(?:\n|$)")
_UNREAD_ENVIRONMENTS = frozenset({"verbatim", "verbatim*", "Verbatim", "lstlisting", "minted",
                                  "comment", "alltt"})
_UNREAD_MACROS = frozenset({"verb", "url", "href", "ref", "eqref", "label", "input", "include"})
# Cut from a quote's text: a footnote's mark is all a reader sees of it in the quote.
_CUT_MACROS = frozenset({"footnote", "footnotemark", "footnotetext", "label", "index"})
_SPACE_MACROS = frozenset({"\\", "newline", "linebreak", "par"})
_MARKS = {"``": ("latex-quotes", True), "''": ("latex-quotes", False),
          "“": ("unicode-quotes", True), "”": ("unicode-quotes", False)}


@lru_cache(maxsize=2)
def _walker(verb: bool) -> tuple[Any, Any]:
    """(pylatexenc's latexwalker module, a context with the citation and quote commands);
    ``verb=False`` reads ``\\verb`` as a plain command."""
    # lazy: pylatexenc.latexwalker costs 5 ms at import
    from pylatexenc import latexwalker, macrospec

    db = latexwalker.get_default_latex_context_db()
    db.add_context_category("vaultd-draft", prepend=True, macros=[
        *(macrospec.MacroSpec(name, "*[[{") for name in CITE_COMMANDS),
        macrospec.MacroSpec("enquote", "*{"),
        macrospec.MacroSpec("footnotemark", "["),
        macrospec.MacroSpec("footnotetext", "[{"),
        *([] if verb else [macrospec.MacroSpec("verb", "")]),
    ], environments=[
        macrospec.EnvironmentSpec("displayquote", "[["),  # csquotes: [cite][punct]
    ])
    return latexwalker, db


def _nodes(source: str) -> list[Any]:
    for verb in (True, False):
        lw, db = _walker(verb)
        try:
            nodes, _, _ = lw.LatexWalker(source, latex_context=db,
                                         tolerant_parsing=True).get_latex_nodes()
            return list(nodes)
        except Exception as exc:  # pylatexenc 2.10: "\verb" and blanks at the very end
            error = exc
    raise ParseError(f"the LaTeX of the draft could not be read ({error}); check that its "
                     "braces and environments are balanced") from error


def scan(source: str) -> Scan:
    """What a LaTeX draft holds, with source offsets (``vaultd.draft.extract``)."""
    walk = _Walk(Lines(source))
    walk.visit(_nodes(source))
    edits = sorted(walk.edits)
    found = Scan(cites=walk.cites, provenance=walk.provenance)
    for start, end, inner, inner_end, kind in [*walk.spans, *pair_marks(walk.marks, walk.lines)]:
        text = canonical_text(decode(apply_edits(source, inner, inner_end, edits))[0])
        block = kind == "quote-env"
        if block:  # the environment's body without the blanks around it
            body = source[inner:inner_end]
            inner_end = inner + len(body.rstrip())
            inner = min(inner + len(body) - len(body.lstrip()), inner_end)
        found.candidates.append(Candidate(start, end, unwrap(text) if block else text, kind,
                                          block, (inner, inner_end)))
    return found


def _args(node: Any) -> list[Any]:
    return list(node.nodeargd.argnlist) if node.nodeargd else []


def _inner(group: Any) -> str:
    return "".join(c.latex_verbatim() for c in group.nodelist if c is not None)


class _Walk:
    """One pass over the node tree, collecting in source order."""

    def __init__(self, lines: Lines) -> None:
        self.lines = lines
        self.lw = _walker(True)[0]
        self.cites: list[CiteAt] = []
        self.provenance: list[tuple[int, Provenance]] = []
        self.edits: list[tuple[int, int, str]] = []  # applied to a quote's LaTeX
        self.spans: list[tuple[int, int, int, int, str]] = []  # start, end, inner, kind
        self.marks: list[tuple[int, int, str, bool]] = []  # pos, end, kind, opening

    def visit(self, nodes: list[Any]) -> None:
        for n in nodes:
            if n is None:
                continue
            if n.isNodeType(self.lw.LatexCommentNode):
                self.comment(n)
            elif n.isNodeType(self.lw.LatexMacroNode):
                self.macro(n)
            elif n.isNodeType(self.lw.LatexEnvironmentNode):
                self.environment(n)
            elif n.isNodeType(self.lw.LatexSpecialsNode) and n.specials_chars in _MARKS:
                self.marks.append((n.pos, n.pos + n.len, *_MARKS[n.specials_chars]))
            elif n.isNodeType(self.lw.LatexCharsNode):
                self.marks += [(n.pos + i, n.pos + i + 1, *_MARKS[c])
                               for i, c in enumerate(n.chars) if c in "“”"]
            elif n.isNodeType(self.lw.LatexGroupNode):
                self.visit(n.nodelist)
            # Maths holds neither quotes nor citations.

    def comment(self, n: Any) -> None:
        self.edits.append((n.pos, n.pos + 1 + len(n.comment), ""))
        prov = provenance(n.comment, self.lines.line(n.pos))
        if prov:
            self.provenance.append((n.pos, prov))

    def macro(self, n: Any) -> None:
        name, args = n.macroname, _args(n)
        if name in CITE_COMMANDS:
            self.edits.append((n.pos, n.pos + n.len, ""))
            self.cite(n, args)
            return
        if name == "enquote" and args and args[-1] is not None \
                and args[-1].isNodeType(self.lw.LatexGroupNode):
            group = args[-1]
            closed = group.latex_verbatim().endswith("}")
            self.spans.append((n.pos, n.pos + n.len, group.pos + 1,
                               group.pos + group.len - closed, "enquote"))
            if args[0] is not None:  # \enquote*: decode reads the plain form
                self.edits.append((args[0].pos, args[0].pos + args[0].len, ""))
        elif name in _CUT_MACROS or name in _SPACE_MACROS:
            self.edits.append((n.pos, n.pos + n.len, " " if name in _SPACE_MACROS else ""))
        if name not in _UNREAD_MACROS:
            self.visit(args)

    def cite(self, n: Any, args: list[Any]) -> None:
        keys_arg = args[-1] if len(args) == 4 else None
        if keys_arg is None or not keys_arg.isNodeType(self.lw.LatexGroupNode):
            return
        # The keys as written, not as parsed: LaTeX reads "--" or "''" in a key as
        # punctuation, but \cite hands the characters to BibTeX as they are. A "%" comment
        # (a key list broken over lines) is no part of a key (no key holds "%").
        text = _KEY_COMMENT_RE.sub("", keys_arg.latex_verbatim()[1:-1])
        keys = tuple(k.strip() for k in text.split(",") if k.strip())
        post = args[2] if args[2] is not None else args[1]  # natbib: [pre][post], or [post]
        locator = normalise_locator(decode(_inner(post))[0]) if post is not None else None
        if keys:
            self.cites.append(CiteAt(n.pos, n.pos + n.len, Cite(
                keys, locator, self.lines.line(n.pos), n.latex_verbatim())))

    def environment(self, n: Any) -> None:
        if n.environmentname in _UNREAD_ENVIRONMENTS:
            return
        body = [c for c in n.nodelist if c is not None]
        if n.environmentname in QUOTE_ENVIRONMENTS:
            start = body[0].pos if body else n.pos + n.len
            end = body[-1].pos + body[-1].len if body else start
            self.spans.append((n.pos, n.pos + n.len, start, end, "quote-env"))
        self.visit(_args(n))
        self.visit(body)
