"""The Markdown scanner of drafts: quotes, pandoc citations and provenance comments,
read from a view of the text in which code, comments, tags and link targets are veiled."""

from __future__ import annotations

import html
import re
from bisect import bisect_left
from collections.abc import Callable, Iterable

from vaultd.canonical import canonical_text
from vaultd.draft.scan import (
    Candidate,
    Cite,
    CiteAt,
    Lines,
    LocatorAt,
    Scan,
    apply_edits,
    normalise_locator,
    pair_marks,
    provenance,
    unwrap,
)

# --- Markdown ---------------------------------------------------------------------------

_VEIL = "\ue000"  # stands for syntax-less text in the scanning view (same length)
_COMMENT_RE = re.compile(r"<!--(.*?)-->", re.S)
_FRONT_MATTER_RE = re.compile(r"---[ \t]*\n.*?\n(?:---|\.\.\.)[ \t]*(?:\n|$)", re.S)
_FENCE_RE = re.compile(r"^ {0,3}(`{3,}|~{3,})[^\n]*\n.*?(?:^ {0,3}\1[`~]*[ \t]*$|\Z)",
                       re.S | re.M)
_ESCAPE_RE = re.compile(r"\\([!-/:-@\[-`{-~]|\r?\n)")  # "\\<newline>": a hard line break
_CODE_RE = re.compile(r"(?<!`)(`+)(?!`)(.+?)(?<!`)\1(?!`)", re.S)
_TAG_RE = re.compile(r"</?[A-Za-z][A-Za-z0-9-]*(?:\s[^<>]*)?/?>"  # a tag, or an autolink:
                     r"|<[A-Za-z][A-Za-z0-9+.-]*:[^\s<>]*>")
_LINK_TARGET_RE = re.compile(r"(?<=\])\([^()\s]*(?:\s+(?:\"[^\"]*\"|'[^']*'))?\)")
_ATTRIBUTES_RE = re.compile(r"\{[#.][^{}\n]*\}|\{[^{}\n]*=[^{}\n]*\}|\{\{<.*?>\}\}")
_BLOCKQUOTE_RE = re.compile(r"^ {0,3}(?:> ?)+", re.M)
_STRAIGHT_RE = re.compile(r"(?<![^\W_])\"(?=\S)([^\"]*?)(?<=\S)\"(?![^\W_])")
_KEY = r"\{[^{}]+\}|[^\W][\w:.#$%&+?<>~/-]*"
_BRACKET_CITE_RE = re.compile(r"\[([^\[\]]*@[^\[\]]*)\](?!\()")
_ITEM_RE = re.compile(rf"(?P<prefix>.*?)(?<![\w@])-?@(?P<key>{_KEY})(?P<suffix>.*)", re.S)
_TEXTUAL_RE = re.compile(rf"(?<![\w@\]{_VEIL}])-?@(?P<key>{_KEY})"
                         r"(?:[ \t]*\[(?P<suffix>[^\[\]@]*)\](?!\())?")
_LOOSE_LOCATOR_RE = re.compile(r"\[\s*(?:pp?\.|[Ss]\.|pages?\b)[^\[\]@]*\](?!\()")
# Quarto and pandoc-crossref references share the citation syntax: not works.
_CROSSREF_RE = re.compile(r"(?:fig|tbl|sec|eq|lst|thm|lem|cor|prp|cnj|def|exm|exr|sol|rem|alg"
                          r"|apx)[-:]")


def scan(source: str) -> Scan:
    scan = Scan()
    lines = Lines(source)
    text = _blank(source, _spans(_COMMENT_RE, source))
    for m in _COMMENT_RE.finditer(source):
        prov = provenance(m[1], lines.line(m.start()))
        if prov:
            scan.provenance.append((m.start(), prov))
    front = _FRONT_MATTER_RE.match(text)
    text = _blank(text, [*([front.span()] if front else []), *_spans(_FENCE_RE, text)])
    view = _veiled(text)
    scan.cites = _markdown_cites(source, view, lines)
    scan.locators = {m.start(): LocatorAt(m.start(), m.end(), loc, m[0])
                     for m in _LOOSE_LOCATOR_RE.finditer(view)
                     if (loc := normalise_locator(text[m.start() + 1:m.end() - 1]))}
    cite_edits = sorted((c.start, c.end, "") for c in scan.cites)
    scan.candidates = [*_blockquotes(text, view, cite_edits), *_inline_quotes(text, view, lines)]
    return scan


def _blank(text: str, spans: Iterable[tuple[int, int]], fill: str = " ") -> str:
    """``text`` with the (start, end) spans' characters replaced by ``fill``, line breaks
    kept."""
    chars = list(text)
    for start, end in spans:
        for i in range(start, end):
            if chars[i] != "\n":
                chars[i] = fill
    return "".join(chars)


def _spans(pattern: re.Pattern[str], text: str) -> list[tuple[int, int]]:
    return [m.span() for m in pattern.finditer(text)]


def _veiled(text: str) -> str:
    """The scanning view: escapes, code, HTML tags, link targets and attributes veiled,
    so that only Markdown's own quotation marks, brackets and @ are seen."""
    view = _ESCAPE_RE.sub(lambda m: _VEIL + (m[1] if m[1].endswith("\n") else _VEIL), text)
    for pattern in (_CODE_RE, _TAG_RE, _LINK_TARGET_RE, _ATTRIBUTES_RE):
        view = _blank(view, _spans(pattern, view), _VEIL)
    return view


def _markdown_cites(source: str, view: str, lines: Lines) -> list[CiteAt]:
    out = [c for m in _BRACKET_CITE_RE.finditer(view)
           if (c := _bracket_cite(m, source, lines)) is not None]
    view = _blank(view, ((c.start, c.end) for c in out), _VEIL)
    return out + [c for m in _TEXTUAL_RE.finditer(view)
                  if (c := _textual_cite(m, source, lines)) is not None]


def _bracket_cite(m: re.Match[str], source: str, lines: Lines) -> CiteAt | None:
    """``[see @a, p. 4; @b]``: every item names a key; the first page is the locator."""
    items = [_ITEM_RE.fullmatch(item) for item in m[1].split(";")]
    if not all(items) or not lines.same_paragraph(m.start(), m.end()):
        return None
    keys = tuple(k for i in items if i and not _CROSSREF_RE.match(k := _key(i["key"])))
    locator = next((loc for i in items if i and (loc := _locator(i["suffix"]))), None)
    return CiteAt(m.start(), m.end(), Cite(keys, locator, lines.line(m.start()),
                                           source[m.start():m.end()])) if keys else None


def _textual_cite(m: re.Match[str], source: str, lines: Lines) -> CiteAt | None:
    """``@key``, ``@key [p. 4]``: author-in-text."""
    key = _key(m["key"])
    if not key or _CROSSREF_RE.match(key):
        return None
    suffix = m["suffix"]
    end = m.end() if suffix is not None else \
        m.end("key") - len(m["key"]) + len(m["key"] if m["key"].startswith("{") else key)
    return CiteAt(m.start(), end, Cite((key,), _locator(suffix) if suffix else None,
                                       lines.line(m.start()), source[m.start():end]),
                  textual=True)


def _locator(suffix: str) -> str | None:
    return normalise_locator(suffix.strip().removeprefix(","))


def _key(raw: str) -> str:
    """A pandoc key as written: ``@{odd key}`` without its braces, else the bare key without
    trailing punctuation (pandoc reads ``:.#$%&-+?<>~/`` in a bare key only between word
    characters, so ``[@c++primer+]`` cites ``c++primer``; ``@{c++primer+}`` cites it all)."""
    return raw[1:-1] if raw.startswith("{") else raw.rstrip(":.#$%&-+?<>~/")


def _blockquotes(text: str, view: str, cite_edits: list[tuple[int, int, str]]) -> list[Candidate]:
    out: list[Candidate] = []
    block: list[re.Match[str]] = []
    for line in [*re.finditer(r"^.*$", view, re.M), None]:
        marker = _BLOCKQUOTE_RE.match(line[0]) if line else None
        if marker and line:
            block.append(line)
            continue
        if block:
            start, end = block[0].start(), block[-1].end()
            inside = cite_edits[bisect_left(cite_edits, (start,)):bisect_left(cite_edits, (end,))]
            markers = ((b.start(), b.start() + _marker_len(b[0]), "") for b in block)
            raw = apply_edits(text, start, end, sorted([*inside, *markers]))
            span = (start + _marker_len(block[0][0]), end - text[start:end].endswith("\r"))
            out.append(Candidate(start, end, unwrap(reader_text(raw)), "blockquote", True, span))
        block = []
    return out


def _marker_len(line: str) -> int:
    m = _BLOCKQUOTE_RE.match(line)
    return m.end() if m else 0


def _inline_quotes(text: str, view: str, lines: Lines) -> list[Candidate]:
    curly = pair_marks(((m.start(), m.end(), "unicode-quotes", m[0] == "“")
                        for m in re.finditer("[“”]", view)), lines)
    straight = [(m.start(), m.end(), m.start(1), m.end(1), "straight-quotes")
                for m in _STRAIGHT_RE.finditer(view) if lines.same_paragraph(m.start(), m.end())]
    return [Candidate(start, end, reader_text(_BLOCKQUOTE_RE.sub("", text[a:b])), kind, False,
                      (a, b))
            for start, end, a, b, kind in [*curly, *straight]]


# --- Markdown → text ------------------------------------------------------------------

_PROTECT = 0xF0000  # code and escaped characters are kept out of the later rules here
_PROTECTED_RE = re.compile("[\U000f0000-\U000fffff]")
_IMAGE_OR_LINK_RE = re.compile(r"!?\[([^\[\]]*)\]\([^()]*\)")
_STARS_RE = re.compile(r"(\*{1,3})(?=[^\s*])(.+?)(?<=[^\s*])\1(?!\*)", re.S)
_UNDERSCORES_RE = re.compile(r"(?<![^\W_])(_{1,3})(?=[^\s_])(.+?)(?<=[^\s_])\1(?![^\W_])", re.S)
_ENTITY_RE = re.compile(r"&(?:#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});")


def _protect(text: str) -> str:
    return "".join(chr(_PROTECT + ord(c)) if ord(c) < 0x10000 else c for c in text)


def reader_text(markdown: str) -> str:
    """Markdown inline text as a reader sees it: escapes, emphasis, link targets and tags
    gone, entities decoded, code kept as its characters, whitespace canonical."""
    text = _ESCAPE_RE.sub(lambda m: _protect(m[1]), markdown)
    text = _CODE_RE.sub(lambda m: _protect(m[2]), text)
    text = _TAG_RE.sub(lambda m: m[0][1:-1] if ":" in m[0] and " " not in m[0] else "", text)
    text = _IMAGE_OR_LINK_RE.sub(r"\1", text)
    text = _until_stable(lambda t: _UNDERSCORES_RE.sub(r"\2", _STARS_RE.sub(r"\2", t)), text)
    text = _ENTITY_RE.sub(lambda m: html.unescape(m[0]), text)
    return canonical_text(_PROTECTED_RE.sub(lambda m: chr(ord(m[0]) - _PROTECT), text))


def _until_stable(step: Callable[[str], str], text: str) -> str:
    prev = None
    while prev != text:
        prev, text = text, step(text)
    return text
