"""Glyph-level repairs of MuPDF's text, from the glyphs' own boxes: word spaces inside
math-font runs, spacing accents drawn after their letter, and line boxes stretched by a
math font's metrics. The ``rawdict`` these need is read only where they apply.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any, NamedTuple

from vaultd.parse.circled_marks import is_inner_letter, join_circled_marks
from vaultd.parse.font_programs import cff_top
from vaultd.parse.glyph_names import (
    UNMAPPED,
    Named,
    base_font,
    differences,
    named_glyphs,
    rename_spans,
    widths,
)
from vaultd.parse.hex_glyphs import HexFont, decode, hex_font
from vaultd.parse.layout import CONTROL_RE, SPACING_ACCENTS
from vaultd.parse.ligature_glyphs import (
    Origin,
    drop_ligature_spaces,
    has_ligature_space,
    lost_ligatures,
    mend_spans,
    needs_look,
    origin_key,
)

#: poppler's word-space rule (``TextOutputDev.cc``, the raw-order dump of ``TextPage``),
#: as fractions of the font size of the piece before the gap: ``minWordSpacing``, the gap
#: that is a word space ...
MIN_WORD_SPACING = 0.15
#: ... and ``maxIntraLineDelta``, the baseline jump that starts a new line (so the two
#: pieces are separate words).
MAX_INTRA_LINE_DELTA = 0.5


#: A line box this many times its size high was stretched by a font's metrics, not by
#: its glyphs: OpenType math fonts (Cambria Math) declare ascents of several ems.
TALL_LINE = 2.0


def glyph_extent(spans: list[dict[str, Any]], y0: float, y1: float) -> tuple[float, float]:
    """A stretched line's vertical extent from its spans' baselines and sizes (0.9 em above,
    0.25 em below each baseline, as a text face's glyphs reach), within MuPDF's box."""
    top = min(sp["origin"][1] - 0.9 * sp["size"] for sp in spans)
    bottom = max(sp["origin"][1] + 0.25 * sp["size"] for sp in spans)
    return max(y0, top), min(y1, bottom)


def _is_math_run(span: dict[str, Any]) -> bool:
    """A span of several glyphs in an OpenType math font (Cambria Math, STIX Two Math,
    Latin Modern Math …), where spacing is made by positioning, not space characters."""
    return "Math" in span["font"] and len(span["text"].strip()) > 1


def repair_glyphs(page: Any, textpage: Any, data: dict[str, Any], flags: int, scan: SpanScan) -> None:
    """The repairs of a page's ``dict`` (read from ``textpage`` with ``flags``; ``scan``:
    its ``scan_spans``), in place: a font's glyphs named by their code points in
    hexadecimal read again (``vaultd.parse.hex_glyphs``), glyphs a font's map gives as U+FFFF named
    (``vaultd.parse.glyph_names``), word spaces in math-font runs (``respace_math``),
    control codes that take no room (``drop_markers``), ligatures read as their first
    letter (``vaultd.parse.ligature_glyphs``), a mark drawn as a circle and a letter in it
    (``vaultd.parse.circled_marks``), then accents drawn after their letter
    (``place_accents``)."""
    raw = None
    if scan.replaced and (hexed := hex_fonts(page)):
        raw = textpage.extractRAWDICT()
        coded = page.get_textpage(flags=flags | _CID_FOR_UNKNOWN).extractRAWDICT()
        decode_spans(data, raw, coded, hexed)  # first: the other repairs read the letters
    if scan.unmapped and (fonts := unmapped_fonts(page)):
        raw = textpage.extractRAWDICT()
        rename_spans(_span_pairs(data, raw), fonts)  # first: it keeps a glyph a character
    if scan.math:
        raw = raw or textpage.extractRAWDICT()
        respace_math(data, raw)
    if scan.ligature_spaces:
        # (before the mending below: a span without its spaces holds fewer letters than glyphs)
        raw = raw or textpage.extractRAWDICT()
        drop_ligature_spaces(_span_pairs(data, raw))
    if scan.controls:
        raw = raw or textpage.extractRAWDICT()
        drop_markers(data, raw)
    if scan.ligatures and (fixes := lost_ligatures(page)):
        # last: a mended span holds more letters than glyphs, which the others match one for one
        mend_spans(_span_pairs(data, raw or textpage.extractRAWDICT()), fixes)
    if scan.inner:
        join_circled_marks(data, scan.inner)
    # respacing only puts spaces between glyphs: it never makes a letter meet an accent
    place_accents(page, scan.accented, flags)


#: The one spacing accent in ASCII, the grave: any other makes a span's text non-ASCII.
ASCII_ACCENT = "\u0060"


class SpanScan(NamedTuple):
    """What one pass over a page's spans found: whether it has a math-font run, its spans
    with a spacing accent right after a letter, how many characters it draws invisibly
    (MuPDF's span ``alpha`` 0: render mode 3 or no opacity) and visibly, and whether a
    glyph reads as U+FFFF."""

    math: bool
    accented: list[dict[str, Any]]
    hidden: int
    shown: int
    unmapped: bool = False
    replaced: bool = False  # a word reads with U+FFFD among ASCII letters (``_misread``)
    ligatures: bool = False  # a word a ``Th`` ligature read as ``T`` leaves (``ligature_glyphs``)
    ligature_spaces: bool = False  # a ligature with a space after it before a lowercase letter
    controls: bool = False  # a control code in a span's text (``drop_markers``)
    inner: tuple[dict[str, Any], ...] = ()  # lone letters that may sit inside a circle (``circled_marks``)


def scan_spans(data: dict[str, Any]) -> SpanScan:
    """``SpanScan`` of a page's ``dict``. (``str.isascii`` rules out most spans far faster
    than the accent pattern can.)"""
    math = unmapped = replaced = spaced = controls = False
    lost = 0  # spans holding a word a ``Th`` ligature read as ``T`` leaves
    accented: list[dict[str, Any]] = []
    inner: list[dict[str, Any]] = []
    hidden = shown = 0
    search = _LETTER_ACCENT_RE.search
    for block in data["blocks"]:
        for line in block.get("lines", ()):
            for span in line["spans"]:
                text = span["text"]
                plain = text.isascii()
                if (not plain or ASCII_ACCENT in text) and search(text):
                    accented.append(span)
                if not plain and UNMAPPED in text:
                    unmapped = True
                if not plain and not replaced and "\ufffd" in text and _misread(text):
                    replaced = True
                if not spaced and ("fi " in text or "fl " in text) and has_ligature_space(text):
                    spaced = True
                if not controls and not text.isprintable() and CONTROL_RE.search(text):
                    controls = True
                if len(text) <= 2 and is_inner_letter(span):
                    inner.append(span)
                if lost < LOST_SPANS and needs_look(text):
                    lost += 1
                if "Math" in span["font"]:
                    if _TRUNCATED_RE.search(text):  # MuPDF cut 𝑎 (U+1D44E) to 푎 (U+D44E)
                        span["text"] = text = _TRUNCATED_RE.sub(_untruncate, text)
                    if not math and _is_math_run(span):
                        math = True
                if span["alpha"]:
                    shown += len(text)
                else:
                    hidden += len(text)
    return SpanScan(math, accented, hidden, shown, unmapped, replaced, lost >= LOST_SPANS, spaced, controls, tuple(inner))


def drop_markers(data: dict[str, Any], raw: dict[str, Any]) -> None:
    """Control codes that take no room, taken out of the spans of ``data`` in place: a
    glyph whose next one starts where it does draws nothing and is no character of the
    text (InDesign writes its *Indent to Here* mark, U+0007, into the text layer: ``19.``
    | ``\x07Bruno Latour``, the bullet ``▶`` drawn apart | ``\x07Serving both …``). A control
    code that advances is a glyph the font maps to none (layout rule 5 shows it ``�``), or
    a T1 ligature's code."""
    for block, rblock in zip(data["blocks"], raw["blocks"], strict=True):
        for line, rline in zip(block.get("lines", ()), rblock.get("lines", ()), strict=True):
            chars = [(span, k, ch) for span, rspan in zip(line["spans"], rline["spans"], strict=True)
                     if len(rspan["chars"]) == len(span["text"]) for k, ch in enumerate(rspan["chars"])]
            drop: dict[int, set[int]] = {}
            for i, (span, k, ch) in enumerate(chars[:-1]):
                if CONTROL_RE.fullmatch(ch["c"]) and abs(chars[i + 1][2]["origin"][0] - ch["origin"][0]) < 0.01:
                    drop.setdefault(id(span), set()).add(k)
            for span in line["spans"]:
                if (gone := drop.get(id(span))):
                    span["text"] = "".join(c for k, c in enumerate(span["text"]) if k not in gone)


#: Spans of a page that hold a word a lost ``Th`` leaves before its glyphs are looked at
#: (one is a tellurium's ``Te``, a Spanish ``Te``; a font that loses ``Th`` loses it on
#: every line that has one).
LOST_SPANS = 2


def _misread(text: str) -> bool:
    """Whether a span of four characters or more reads as a word of ASCII letters and
    digits with every sixth character or more U+FFFD (a font whose glyph names MuPDF reads
    wrongly, ``hex_fonts``: ``F�=O`` for ``play``), not a formula's unmapped symbols."""
    if len(text) < 4:
        return False
    unread = text.count("\ufffd")
    ascii_alnum = sum(c.isascii() and c.isalnum() for c in text)
    return unread * MISREAD_SHARE >= len(text) and unread < len(text) and ascii_alnum * 2 >= len(text) - unread


#: Every this many characters of a misread word one at least is U+FFFD.
MISREAD_SHARE = 6


#: Mathematical alphanumeric symbols (U+1D400–1D7FF) with their plane cut off, as MuPDF
#: 1.28 reads them from some fonts' ``ToUnicode`` maps (an iText-written Elsevier sample's
#: STIX Math italics came out as Hangul syllables); only in a math font's span, where no
#: Hangul is set.
_TRUNCATED_RE = re.compile("[\ud400-\ud7ff]")


def _untruncate(match: re.Match[str]) -> str:
    return chr(ord(match.group()) + 0x10000)


def _span_pairs(data: dict[str, Any], raw: dict[str, Any]) -> Iterator[tuple[dict[str, Any], list[Any]]]:
    """Each span of ``data`` with its glyphs from ``raw``, the page's ``rawdict`` from the
    same text page (so blocks, lines and spans match one for one), when the glyphs match
    the span's text one for one."""
    for block, rblock in zip(data["blocks"], raw["blocks"], strict=True):
        for line, rline in zip(block.get("lines", ()), rblock.get("lines", ()), strict=True):
            for span, rspan in zip(line["spans"], rline["spans"], strict=True):
                if len(rspan["chars"]) == len(span["text"]):
                    yield span, rspan["chars"]


def respace_math(data: dict[str, Any], raw: dict[str, Any]) -> None:
    """Word spaces inside math-font spans by poppler's rule (``space_between``) from the
    glyphs' own boxes, in place: MuPDF writes ``S=w1`` where the page and poppler show
    ``S = w1``."""
    for span, chars in _span_pairs(data, raw):
        if _is_math_run(span):
            span["text"] = math_spaced(span["text"], chars, span["size"])


#: A spacing accent right after a letter in one span: only then may it stand over that
#: letter (``Fo¨rster``); one that opens a span or follows a space is TeX's, before its letter.
_LETTER_ACCENT_RE = re.compile(r"[^\W\d_][" + "".join(SPACING_ACCENTS) + "]")


def place_accents(page: Any, spans: list[dict[str, Any]], flags: int) -> None:
    """A spacing accent drawn after the letter it stands over (``Fo¨rster``, as some
    typesetters do; TeX draws it before) is put in front of that letter, in place, so
    that it combines with it (``combine_accents``) and not with the next one. The glyphs'
    boxes come from a text page clipped to the span (about 1 ms, against 8 ms for the
    whole page's ``rawdict``); a span not found there alike is left as it is."""
    todo = [span for span in spans if _LETTER_ACCENT_RE.search(span["text"])]
    # Several such spans: one text page clipped to them all first (each clip runs the
    # page's content again), each span found there by its text and box.
    shared = _glyph_spans(page, [span["bbox"] for span in todo], flags) if len(todo) > 1 else []
    for span in todo:
        bbox = span["bbox"]
        chars = next((chars for box, text, chars in shared if text == span["text"]
                      and all(abs(a - b) <= 0.5 for a, b in zip(box, bbox, strict=True))), None)
        if chars is None:
            found = _glyph_spans(page, [bbox], flags)
            chars = next((chars for _box, text, chars in found if text == span["text"]), None)
        if chars is not None:
            span["text"] = accents_before(span["text"], chars)


def unmapped_fonts(page: Any) -> dict[str, Named]:
    """The page's simple fonts whose ``ToUnicode`` map gives U+FFFF for glyphs their
    ``/Differences`` name, by name without the subset tag (``glyph_names.named_glyphs``)."""
    doc = page.parent
    fonts: dict[str, Named] = {}
    for xref, _ext, _kind, name, *_ in page.get_fonts():
        cmap, diffs = doc.xref_get_key(xref, "ToUnicode"), doc.xref_get_key(xref, "Encoding/Differences")
        if cmap[0] != "xref" or diffs[0] != "array" or (advances := _widths(doc, xref)) is None:
            continue
        stream = doc.xref_stream(int(cmap[1].split()[0])) or b""
        named = named_glyphs(stream.decode("latin-1"), diffs[1], advances, _agl_char)
        if named:
            fonts.setdefault(base_font(name), []).extend(named)
    return fonts


#: MuPDF's flag that gives a glyph it cannot name its code instead of U+FFFD
#: (``TEXT_CID_FOR_UNKNOWN_UNICODE``).
_CID_FOR_UNKNOWN = 128


def hex_fonts(page: Any) -> dict[str, HexFont]:
    """The page's embedded Type 1 (CFF) fonts without a ``ToUnicode`` map whose encoding
    (the ``/Differences`` of their dictionary, or else the font program's own) names glyphs
    by their code points in hexadecimal (``hex_glyphs.hex_font``), by name without the
    subset tag."""
    doc = page.parent
    fonts: dict[str, HexFont] = {}
    digits: list[tuple[str, list[str], dict[int, float]]] = []  # named in digits alone
    for xref, ext, _kind, name, *_ in page.get_fonts():
        if ext != "cff" or doc.xref_get_key(xref, "ToUnicode")[0] != "null":
            continue
        diffs = doc.xref_get_key(xref, "Encoding/Differences")
        if diffs[0] != "array" and doc.xref_get_key(xref, "Encoding")[0] != "null":
            continue  # a standard encoding's names
        if (advances := _widths(doc, xref)) is None:
            continue
        encoding = _builtin_encoding(doc.extract_font(xref)[3])
        if diffs[0] == "array":  # (some glyphs named again in the font's dictionary)
            encoding = encoding or [".notdef"] * 256
            for code, glyph in differences(diffs[1]).items():
                if 0 <= code < len(encoding):
                    encoding[code] = glyph
        if encoding is None:
            continue
        font = hex_font(encoding, advances)
        if font is not None:
            fonts[base_font(name)] = font
        else:
            digits.append((name, encoding, advances))
    for name, encoding, advances in digits if fonts else ():
        if (font := hex_font(encoding, advances, sure=True)) is not None:
            fonts[base_font(name)] = font
    return fonts


def _widths(doc: Any, xref: int) -> dict[int, float] | None:
    """A simple font's ``/Widths`` from ``/FirstChar`` on (code → thousandths of the size),
    or None when its dictionary gives none."""
    sizes, first = doc.xref_get_key(xref, "Widths"), doc.xref_get_key(xref, "FirstChar")
    if sizes[0] == "xref":
        sizes = ("array", doc.xref_object(int(sizes[1].split()[0]), compressed=True))
    if sizes[0] != "array" or first[0] != "int":
        return None
    return widths(sizes[1], int(first[1]))


def _builtin_encoding(program: bytes) -> list[str] | None:
    """A CFF font program's own encoding (code → glyph name), or None."""
    top = cff_top(program)
    encoding = getattr(top, "Encoding", None) if top is not None else None
    return list(encoding) if isinstance(encoding, list) else None


def decode_spans(data: dict[str, Any], raw: dict[str, Any], coded: dict[str, Any], fonts: dict[str, HexFont]) -> None:
    """Each span of a page's ``dict`` set in a font of ``fonts`` read again, in place, from
    its glyphs in ``raw`` (the same text page's ``rawdict``) and ``coded`` (the page's
    ``rawdict`` read with ``_CID_FOR_UNKNOWN``, whose spans may break elsewhere: a glyph is
    found there by where it is drawn)."""
    code_at = {_origin(c): c["c"] for block in coded["blocks"] for line in block.get("lines", ())
               for span in line["spans"] if base_font(span["font"]) in fonts for c in span["chars"]}
    for span, chars in _span_pairs(data, raw):
        font = fonts.get(base_font(span["font"]))
        if font is not None:
            span["text"] = decode([(c["c"], code_at.get(_origin(c), c["c"]), c["bbox"][0], c["bbox"][2])
                                   for c in chars], span["size"], font)


def _origin(char: dict[str, Any]) -> Origin:
    """Where a glyph is drawn, to a tenth of a point."""
    return origin_key(*char["origin"])


def _agl_char(name: str) -> str:
    """The characters a glyph name stands for, by the Adobe Glyph List's rules."""
    # lazy: fontTools is read only for a page whose text holds U+FFFF (rare)
    from fontTools.agl import toUnicode

    return str(toUnicode(name))


def _glyph_spans(page: Any, boxes: list[Any], flags: int) -> list[tuple[Any, str, list[dict[str, Any]]]]:
    """The spans (box, text, glyphs) of a text page clipped to ``boxes``, 1 pt wider."""
    clip = (min(b[0] for b in boxes) - 1.0, min(b[1] for b in boxes) - 1.0,
            max(b[2] for b in boxes) + 1.0, max(b[3] for b in boxes) + 1.0)
    raw = page.get_text("rawdict", textpage=page.get_textpage(clip=clip, flags=flags))
    return [(rs["bbox"], "".join(c["c"] for c in rs["chars"]), rs["chars"])
            for rb in raw["blocks"] for rl in rb.get("lines", ()) for rs in rl["spans"]]


def accents_before(text: str, chars: list[dict[str, Any]]) -> str:
    """``text`` (one character per glyph of ``chars``) with each spacing accent whose
    centre stands over the glyph before it moved in front of that glyph."""
    out = list(text)
    boxes = [c["bbox"] for c in chars]
    for i in range(1, len(out)):
        if out[i] not in SPACING_ACCENTS or not out[i - 1].isalpha():
            continue
        centre = (boxes[i][0] + boxes[i][2]) / 2
        if boxes[i - 1][0] <= centre <= boxes[i - 1][2]:
            out[i - 1], out[i] = out[i], out[i - 1]
            boxes[i - 1], boxes[i] = boxes[i], boxes[i - 1]
    return "".join(out)


def math_spaced(text: str, chars: list[dict[str, Any]], size: float) -> str:
    """``text`` (one character per glyph of ``chars``) with a space wherever two glyphs
    stand more than ``MIN_WORD_SPACING`` em apart and neither side is a space already."""
    gap = MIN_WORD_SPACING * max(size, 1.0)
    out = [text[0]]
    for i in range(1, len(text)):
        left, right = text[i - 1], text[i]
        if not left.isspace() and not right.isspace() \
                and chars[i]["bbox"][0] - chars[i - 1]["bbox"][2] > gap:
            out.append(" ")
        out.append(right)
    return "".join(out)
