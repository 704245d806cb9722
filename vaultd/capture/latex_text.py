"""LaTeX in .bib fields → plain text and CSL rich text (pure; pylatexenc on first use).

``decode`` reads a field as pandoc reads it: ``\\emph``/``\\textit`` italics, ``\\textbf``
bold, ``\\textsc`` small caps, ``\\textsuperscript``/``\\textsubscript`` and maths scripts
sup/sub, a braced group holding a lowercase word (``{t-SNE}``) a nocase span, and, for an
English title, citeproc's sentence case except where braces protect the text.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

from vaultd.formats import markup
from vaultd.formats.sentence_case import SentenceCase

_FORMAT = {"emph": "i", "textit": "i", "textsl": "i", "mkbibemph": "i", "mkbibitalic": "i",
           "textbf": "b", "mkbibbold": "b", "textsc": "sc", "textsuperscript": "sup",
           "mkbibsuperscript": "sup", "textsubscript": "sub", "mkbibsubscript": "sub",
           "NoCaseChange": "nocase", "nocase": "nocase"}
_SWITCHES = {"em": "i", "it": "i", "itshape": "i", "sl": "i", "slshape": "i", "bf": "b",
             "bfseries": "b", "sc": "sc", "scshape": "sc"}
_TRANSPARENT = {"textup", "textrm", "textnormal", "textsf", "texttt", "textmd", "mbox",
                "hbox", "text", "ensuremath", "MakeUppercase", "MakeLowercase", "uppercase",
                "lowercase"}
_QUOTES = {"enquote", "mkbibquote", "textquote"}
_WORDS = {"TeX": "TeX", "LaTeX": "LaTeX", "LaTeXe": "LaTeX2e", "BibTeX": "BibTeX",
          "textasciicircum": "^", "textless": "<", "textgreater": ">", "textbar": "|",
          "textquotedbl": '"', "slash": "/", "textunderscore": "_",
          "hyphen": "-"}  # biblatex's \hyphen: a hyphen after which a line may break


@lru_cache(maxsize=1)
def _latex() -> tuple[Any, Any, Any]:
    """(pylatexenc's latexwalker module, its macro context, the text converter); pylatexenc
    is imported on first use only."""
    # lazy: pylatexenc.latex2text costs 28 ms at import
    from pylatexenc import latex2text, latexwalker, macrospec

    walker_db = latexwalker.get_default_latex_context_db()
    walker_db.add_context_category("vaultd-bib", prepend=True, macros=[
        *(macrospec.MacroSpec(m, "{") for m in
          (*_FORMAT, *_TRANSPARENT - {"ensuremath"}, *_QUOTES, "url")),
        macrospec.MacroSpec("href", "{{"),
    ])
    text_db = latex2text.get_default_latex_context_db()
    text_db.add_context_category("vaultd-bib", prepend=True, macros=[
        *(latex2text.MacroTextSpec(m, simplify_repl=t) for m, t in _WORDS.items()),
        latex2text.MacroTextSpec("url", simplify_repl="%s"),
    ])
    return latexwalker, walker_db, latex2text.LatexNodes2Text(latex_context=text_db,
                                                              math_mode="text")


# Tags are kept as private-use characters until the end, so that text which happens to
# read like a tag ("\\textless{}i\\textgreater{}") is escaped as text, not taken as markup.
_KINDS = ("i", "b", "sup", "sub", "sc", "nocase", "protect")  # protect: case only, no tag
_OPENERS = {k: chr(0xE000 + 2 * n) for n, k in enumerate(_KINDS)}
_CLOSERS = {k: chr(0xE001 + 2 * n) for n, k in enumerate(_KINDS)}
_TAGS = {**{_OPENERS[k]: {"sc": markup.SMALL_CAPS_OPEN, "nocase": markup.NOCASE_OPEN,
                          "protect": ""}.get(k, f"<{k}>") for k in _KINDS},
         **{_CLOSERS[k]: {"sc": "</span>", "nocase": "</span>", "protect": ""}.get(k, f"</{k}>")
            for k in _KINDS}}
_KIND_OF = {**{o: k for k, o in _OPENERS.items()}, **{c: k for k, c in _CLOSERS.items()}}
# citeproc does not change case inside these (small caps, scripts, nocase spans).
_KEEP_CASE = {"sc", "sup", "sub", "nocase", "protect"}
_TAG_CHARS_RE = re.compile("[" + "".join(_TAGS) + "]")


def _wrap(kind: str, rich: str) -> str:
    core = rich.strip()
    if not core:
        return rich
    lead, trail = rich[: len(rich) - len(rich.lstrip())], rich[len(rich.rstrip()):]
    return lead + _OPENERS[kind] + core + _CLOSERS[kind] + trail


def _arg_nodes(node: Any) -> list[Any]:
    args = [a for a in (node.nodeargd.argnlist if node.nodeargd else []) if a is not None]
    if not args:
        return []
    last = args[-1]
    return list(last.nodelist) if last.isNodeType(_latex()[0].LatexGroupNode) else [last]


def _convert(nodes: list[Any], top: bool, math: bool = False) -> str:
    """The text of a node list, with its markup as tag characters (_OPENERS, _CLOSERS);
    ``top``: a brace group here protects case."""
    lw, _, l2t = _latex()
    out: list[str] = []

    def text(t: str) -> None:
        out.append(_TAG_CHARS_RE.sub("", t))

    i = 0
    while i < len(nodes):
        n = nodes[i]
        i += 1
        if n is None:
            continue
        if n.isNodeType(lw.LatexCharsNode):
            if math:
                scripted, i = _math_chars(n.chars, nodes, i)
                out.append(scripted)
            else:
                text(n.chars)
        elif n.isNodeType(lw.LatexCommentNode):
            text(n.latex_verbatim())  # an unescaped % in a field is text, not a comment
        elif n.isNodeType(lw.LatexGroupNode):
            inner = [c for c in n.nodelist if c is not None]
            head = next((c for c in inner if not (c.isNodeType(lw.LatexCharsNode)
                                                  and not c.chars.strip())), None)
            if head is not None and head.isNodeType(lw.LatexMacroNode):
                if head.macroname in _SWITCHES:  # {\em …}
                    rest = inner[inner.index(head) + 1:]
                    inner_rich = _wrap(_SWITCHES[head.macroname], _convert(rest, False, math))
                else:  # a "special character": {\"U}, {\TeX}
                    inner_rich = _convert(inner, False, math)
                # No nocase span, but pandoc keeps their case, and so does vaultd.
                out.append(_wrap("protect", inner_rich) if top and not math else inner_rich)
            elif top and not math:
                out.append(_wrap("nocase", _convert(inner, False)))
            else:
                out.append(_convert(inner, False, math))
        elif n.isNodeType(lw.LatexMacroNode):
            name = n.macroname
            if name in _FORMAT:
                kind = _FORMAT[name]
                out.append(_wrap(kind, _convert(_arg_nodes(n), top and kind != "nocase", math)))
            elif name in _TRANSPARENT or name == "href":
                out.append(_convert(_arg_nodes(n), top, math))
            elif name in _QUOTES:
                out.append("“" + _convert(_arg_nodes(n), top, math) + "”")
            elif name == "url":
                text("".join(c.latex_verbatim() for c in _arg_nodes(n)))
            elif (not n.nodeargd or not any(n.nodeargd.argnlist)) and not n.macro_post_space \
                    and i < len(nodes) and nodes[i] is not None \
                    and nodes[i].isNodeType(lw.LatexGroupNode) and name not in _WORDS \
                    and not l2t.nodelist_to_text([n]):
                # An unknown command: its braces hold an argument, not protected text.
                out.append(_convert(list(nodes[i].nodelist), top, math))
                i += 1
            else:
                t = l2t.nodelist_to_text([n])
                # In maths '\\log n' is 'log n' but '\\alpha x' is 'αx'.
                text(t + " " if math and len(t) > 1 and t.isalpha() and n.macro_post_space
                     else t)
        elif n.isNodeType(lw.LatexMathNode):
            out.append(_wrap("protect", _convert(list(n.nodelist), False, math=True)))
        else:
            text(l2t.nodelist_to_text([n]))
    return "".join(out)


def _math_chars(chars: str, nodes: list[Any], after: int) -> tuple[str, int]:
    """Characters in maths: ``^``/``_`` make the next character or node a script (which
    may be the node after these characters: the index to go on from is returned)."""
    lw, _, l2t = _latex()
    out: list[str] = []
    j = 0
    while j < len(chars):
        c = chars[j]
        j += 1
        if c in "^_":
            while j < len(chars) and chars[j].isspace():
                j += 1
            if j < len(chars):
                script = _math_char(chars[j])
                j += 1
            elif after < len(nodes) and nodes[after] is not None:
                nxt = nodes[after]
                after += 1
                script = _convert(list(nxt.nodelist), False, math=True) \
                    if nxt.isNodeType(lw.LatexGroupNode) else l2t.nodelist_to_text([nxt])
            else:
                continue
            out.append(_wrap("sup" if c == "^" else "sub", script))
        elif not c.isspace() or (out and not out[-1].isspace()):
            out.append(_math_char(c))
    return "".join(out), after


def _math_char(c: str) -> str:
    return "−" if c == "-" else c  # the minus sign printed titles show


def decode(value: str, *, sentence_case: bool = False) -> tuple[str, str | None]:
    """A BibTeX field value as (plain text, CSL rich text or None when nothing is marked
    up). Braces protecting case become nocase spans in the rich text only.

    ``sentence_case``: the value is an English title, which BibTeX stores in title case:
    it is lowered to sentence case as pandoc does (citeproc's rule), except where braces
    protect it; a nocase span then stays only where it holds a lowercase word."""
    if not any(c in value for c in "\\{}$~%-`'^_"):
        plain = " ".join(value.split())
        return (SentenceCase().apply(plain) if sentence_case else plain), None
    lw, walker_db, _ = _latex()
    try:
        nodes = lw.LatexWalker(value, latex_context=walker_db,
                               tolerant_parsing=True).get_latex_nodes()[0]
        rich = _convert(list(nodes), True)
    except Exception:  # pylatexenc raises assorted errors on broken LaTeX: keep the text
        raw = " ".join(re.sub(r"(?<!\\)[{}]", "", value).split())
        return (SentenceCase().apply(raw) if sentence_case else raw), None
    rich = " ".join(rich.split())
    if sentence_case:
        rich = _sentence_case(rich)
    rich = _unprotect(rich, drop_capitalised=sentence_case)
    prev = None
    while prev != rich:  # an empty element says nothing
        prev, rich = rich, _EMPTY_TAG_RE.sub("", rich)
    plain = " ".join(_TAG_CHARS_RE.sub("", rich).split())
    if not _TAG_CHARS_RE.search(rich):
        return plain, None
    rich = _TAG_CHARS_RE.sub(lambda m: _TAGS[m.group()], markup.from_plain(rich))
    return plain, rich


_WORD_RUN_RE = re.compile(r"[^\W_]+")
_EMPTY_TAG_RE = re.compile("|".join(o + c for o, c in zip(_OPENERS.values(), _CLOSERS.values(),
                                                           strict=True)))
_RUNS_RE = re.compile(f"[{''.join(_TAGS)}]|[^{''.join(_TAGS)}]+")


def _sentence_case(rich: str) -> str:
    caser = SentenceCase()
    open_kinds: list[str] = []
    out: list[str] = []
    for m in _RUNS_RE.finditer(rich):
        run = m.group()
        kind = _KIND_OF.get(run)
        if kind is None:
            out.append(caser.apply(run, change=not _KEEP_CASE.intersection(open_kinds)))
        elif run in _OPENERS.values():
            open_kinds.append(kind)
            out.append(run)
        else:
            if kind in open_kinds:
                open_kinds.reverse()
                open_kinds.remove(kind)
                open_kinds.reverse()
            out.append(run)
    return "".join(out)


def _glued(chars: list[str], start: int, end: int) -> bool:
    """True when the span chars[start..end] is part of a longer word (``的{LBB}分析``): title
    case takes that whole word as one and would lower the protected capitals in it."""
    before = next((c for c in reversed(chars[:start]) if c), "")
    after = next((c for c in chars[end + 1:] if c), "")
    return before.isalnum() or after.isalnum()


def _unprotect(rich: str, *, drop_capitalised: bool) -> str:
    """Remove the case-only marks, and (after sentence case, as pandoc does) the nocase
    spans holding no word that starts lowercase: title case leaves those alone anyway,
    unless the span is glued to letters outside it."""
    chars = list(rich)
    opened: list[int] = []
    for i, c in enumerate(chars):
        if c == _OPENERS["nocase"]:
            opened.append(i)
        elif c == _CLOSERS["nocase"] and opened:
            start = opened.pop()
            inner = _TAG_CHARS_RE.sub("", "".join(chars[start + 1:i]))
            if drop_capitalised and not any(w[0].islower() for w in _WORD_RUN_RE.findall(inner)) \
                    and not _glued(chars, start, i):
                chars[start] = chars[i] = ""
    return "".join(chars).replace(_OPENERS["protect"], "").replace(_CLOSERS["protect"], "")
