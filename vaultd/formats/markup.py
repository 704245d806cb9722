"""Title markup: the HTML/JATS/MathML tags sources put in titles, as CSL rich text.

CrossRef deposits titles such as ``Growth of <i>Escherichia coli</i> under CO<sub>2</sub>``
(HTML) or ``<jats:italic>…</jats:italic>`` (JATS). Printed raw they read as tags; dropped
they lose the italics a style must keep. CSL-JSON has its own small rich-text vocabulary,
which every CSL processor reads: ``<i>``, ``<b>``, ``<sup>``, ``<sub>``,
``<span style="font-variant:small-caps;">`` and ``<span class="nocase">``. So a title is
kept twice: as plain text (what the note, the frontmatter and the cite key read) and, when
it carries markup, as CSL rich text (what the citation processor reads).

Entities are decoded (``&amp;`` → ``&``): CSL processors do not decode them and would
print ``&amp;``. Pure: no I/O.
"""

from __future__ import annotations

import html
import re

SMALL_CAPS_OPEN = '<span style="font-variant:small-caps;">'
NOCASE_OPEN = '<span class="nocase">'

# Source tag (namespace prefix removed, lowercase) → CSL rich-text tag name.
_CSL_TAG = {
    "i": "i", "em": "i", "italic": "i", "it": "i",
    "b": "b", "strong": "b", "bold": "b",
    "sup": "sup", "superscript": "sup",
    "sub": "sub", "inf": "sub", "subscript": "sub",
    "sc": "sc", "scp": "sc", "small-caps": "sc", "smallcaps": "sc",
}
_OPEN = {"i": "<i>", "b": "<b>", "sup": "<sup>", "sub": "<sub>", "sc": SMALL_CAPS_OPEN,
         "nocase": NOCASE_OPEN}
_CLOSE = {"i": "</i>", "b": "</b>", "sup": "</sup>", "sub": "</sub>", "sc": "</span>",
          "nocase": "</span>"}

# A tag: <name attrs>, </name>, <name/>; names may carry a namespace (jats:, mml:).
_TAG_RE = re.compile(r"<(/?)([A-Za-z][\w.-]*(?::[\w.-]+)?)((?:\s[^<>]*)?)(/?)>")
_SPACE_RE = re.compile(r"\s+")
# Elements whose content is not part of the title as read (MathML annotations).
_SKIP = {"annotation", "annotation-xml"}
# Inline source elements that break words apart when removed (<break/>, <br>).
_BREAK = {"br", "break"}


def _local(name: str) -> str:
    return name.rsplit(":", 1)[-1].lower()


def _span_kind(attrs: str) -> str | None:
    low = attrs.lower().replace(" ", "")
    if "small-caps" in low:
        return "sc"
    if 'class="nocase"' in low or "class='nocase'" in low:
        return "nocase"
    return None


# A markup tag whose angle brackets were escaped once or more (``&lt;sup&gt;``,
# ``&amp;lt;i&amp;gt;``), as some deposits carry them.
_ESCAPED_TAG_RE = re.compile(
    r"&(?:amp;)*lt;(/?)([A-Za-z][\w.-]*(?::[\w.-]+)?)((?:\s[^&<>]*)?)(/?)&(?:amp;)*gt;")
_ESCAPABLE = {*_CSL_TAG, "span", "br", "break"}


def _unescape_tags(text: str) -> str:
    def real(m: re.Match[str]) -> str:
        if _local(m.group(2)) not in _ESCAPABLE:
            return m.group(0)
        return f"<{m.group(1)}{m.group(2)}{html.unescape(m.group(3))}{m.group(4)}>"
    return _ESCAPED_TAG_RE.sub(real, text)


def _decode(text: str) -> str:
    """Entities decoded as often as they were escaped (``&amp;amp;`` → ``&``)."""
    for _ in range(3):
        decoded = html.unescape(text)
        if decoded == text:
            break
        text = decoded
    return text


def parse(text: str) -> tuple[str, str | None]:
    """``(plain, rich)``: the plain text, and the CSL rich text or None when there is no
    markup to keep. Whitespace is collapsed as in every other title field."""
    if "<" not in text and "&" not in text:
        return _SPACE_RE.sub(" ", text).strip(), None
    if "&" in text:
        text = _unescape_tags(text)
    plain_parts: list[str] = []
    rich_parts: list[str] = []
    stack: list[tuple[str, str | None]] = []  # open source elements: (name, CSL kind)
    skip_depth = 0
    marked = False
    pos = 0
    for m in _TAG_RE.finditer(text):
        if not skip_depth:
            chunk = _decode(text[pos : m.start()])
            plain_parts.append(chunk)
            rich_parts.append(_escape_rich(chunk))
        pos = m.end()
        closing, name, attrs, self_closing = m.group(1), _local(m.group(2)), m.group(3), m.group(4)
        if name in _SKIP:
            if not self_closing:
                skip_depth = max(skip_depth + (-1 if closing else 1), 0)
            continue
        if skip_depth:
            continue
        if name in _BREAK:
            plain_parts.append(" ")
            rich_parts.append(" ")
            continue
        if self_closing:
            continue
        if closing:
            # Close up to the matching element; a closer with no opener is ignored.
            if any(open_name == name for open_name, _ in stack):
                while stack:
                    open_name, kind = stack.pop()
                    if kind:
                        rich_parts.append(_CLOSE[kind])
                    if open_name == name:
                        break
            continue
        kind = _span_kind(attrs) if name == "span" else _CSL_TAG.get(name)
        stack.append((name, kind))
        if kind:
            marked = True
            rich_parts.append(_OPEN[kind])
    if not skip_depth:
        tail = _decode(text[pos:])
        plain_parts.append(tail)
        rich_parts.append(_escape_rich(tail))
    rich_parts.extend(_CLOSE[kind] for _, kind in reversed(stack) if kind)
    plain = _SPACE_RE.sub(" ", "".join(plain_parts)).strip()
    if not marked:
        return plain, None
    rich = _drop_empty(_SPACE_RE.sub(" ", "".join(rich_parts)).strip())
    return plain, (rich if rich != plain else None)


def _escape_rich(text: str) -> str:
    # Decoded text that itself looks like a CSL tag ("&lt;i&gt;" in the source) must not
    # turn into markup: CSL rich text has no escape, so the angle bracket is made
    # full-width only in that rare case.
    return _RICH_TAG_RE.sub(lambda m: m.group().replace("<", "\uff1c"), text) \
        if "<" in text else text


def from_plain(text: str) -> str:
    """Plain text as CSL rich text (unchanged unless it contains a CSL tag literally)."""
    return _escape_rich(text)


_EMPTY_RE = re.compile(r"<(i|b|sup|sub)>\s*</\1>|<span [^>]*>\s*</span>")


def _drop_empty(rich: str) -> str:
    prev = None
    while prev != rich:
        prev, rich = rich, _EMPTY_RE.sub("", rich)
    return rich


_RICH_TAG_RE = re.compile(r"</?(?:i|b|sup|sub)>|<span (?:style|class)=\"[^\"]*\">|</span>")


def to_plain(rich: str) -> str:
    """The text of CSL rich text, tags removed."""
    return _RICH_TAG_RE.sub("", rich)


_TAG_OR_QUOTE_RE = re.compile(r'<[^>]*>|"')


def straight_quotes(rich: str) -> str:
    """Straight double quotes typed in a .bib stay straight, as pandoc reads them: in CSL
    rich text a pair of them would be read as a quotation (curly quotes)."""
    if '"' not in rich:
        return rich
    return _TAG_OR_QUOTE_RE.sub(
        lambda m: m.group() if m.group() != '"' else f'{NOCASE_OPEN}"</span>', rich)
