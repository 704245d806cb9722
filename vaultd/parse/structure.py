"""From positioned lines to typed blocks: reading order, paragraphs, headings, references.

Parser-agnostic: any tier that yields lines with boxes and font size/weight can use it.

* Reading order: on each page, blocks that cross the vertical centre line split the page
  into bands; inside a band the left column is read before the right one, so two-column
  pages are never interleaved, and single-column pages read top to bottom.
* Paragraphs: a block is split where the font size or weight changes, at a blank line, or
  after a sentence end followed by an indented line or preceded by a short line.
  A paragraph that does not end a sentence continues into the next paragraph that starts
  with a lowercase letter, across column and page breaks (skipping floating captions).
* Headings: short lines in a larger font, or bold and numbered (``3.2 Scaled Dot-Product
  Attention``), or a bold line standing alone; the title, headings told by their font and
  section paths are ``vaultd.parse.headings``'s, bibliographies ``vaultd.parse.references``'s.
"""

from __future__ import annotations

from vaultd.parse.base import Block, Box
from vaultd.parse.block_paras import (
    block_extent,
    part_mark,
    split_group,
    two_line_lead,
)
from vaultd.parse.blocks import to_blocks
from vaultd.parse.captions import (
    DOI_LINE_RE,
    FIGURE_ID_RE,
    IDENTIFIER_LINE_RE,
    caption_beside,
    caption_goes_on,
    caption_rest_overleaf,
    continued_caption,
    float_labels,
    is_si_entry,
    legend_rest,
    text_figure_over,
)
from vaultd.parse.centred_heads import centred_heads
from vaultd.parse.classify import (
    RULE_TEXT_RE,
    heading_number,
)
from vaultd.parse.code import listing_goes_on, statements_go_on
from vaultd.parse.continuation import continues
from vaultd.parse.display_breaks import past_display
from vaultd.parse.float_notes import FLOAT_NOTE_RE, merge_target, note_of
from vaultd.parse.footnotes import (
    body_face,
    is_footnote,
    note_tail,
    opens_note,
    page_set_small,
    section_text,
)
from vaultd.parse.front import (
    is_affiliation,
    is_contact,
    is_front_matter,
)
from vaultd.parse.front_blocks import (
    contents_front,
    epigraphs_front,
    front_above,
    front_overleaf,
    group_front,
    keyword_list,
    runs_on,
)
from vaultd.parse.front_notes import notes_across_columns, notes_between_front
from vaultd.parse.hanging_heads import hanging_heads
from vaultd.parse.head_lists import list_heads, numbered_runs
from vaultd.parse.headings import (
    continue_title,
    font_headings,
    font_lead,
    heading_goes_on,
    is_title,
)
from vaultd.parse.layout import join_lines
from vaultd.parse.leaders import leader_rows
from vaultd.parse.next_line import next_line
from vaultd.parse.number_rows import heads_over, is_number_row, row_goes_on
from vaultd.parse.numbered_subheads import numbered_subheads
from vaultd.parse.para_kinds import FRONT_PAGES, para_kind
from vaultd.parse.paras import (
    REFS_RE,
    SENT_END,
    Line,
    PageInfo,
    Para,
    append_piece,
    body_size,
    join_para,
    small_print,
)
from vaultd.parse.plain_heads import plain_caps_head, plain_lead, plain_text_layer
from vaultd.parse.reading_order import caseless_runs, order_page
from vaultd.parse.references import (
    add_references,
    beside_headless_references,
    body_past_references,
    column_lefts,
    ends_references,
    opens_headless_references,
)
from vaultd.parse.resume import column_top, past_page_head, resumed, went_over
from vaultd.parse.review_panels import in_review_panel
from vaultd.parse.run_in import run_in_heads
from vaultd.parse.runin_refs import split_runin
from vaultd.parse.scan_text import drop_scan_labels, is_label
from vaultd.parse.sentence_ends import is_scrap, open_end
from vaultd.parse.sentence_pieces import address_goes_on, rest_of_line, sentence_start
from vaultd.parse.spaced_heads import spaced_heads
from vaultd.parse.spacing import line_gap, paragraph_indents, ragged_indented
from vaultd.parse.textlayer import prose_words
from vaultd.parse.title_block import front_after_title, title_page_front


def _under_note(paras: list[Para], lines: list[Line], body: float) -> bool:
    """Whether ``lines``, small print, stand right under a footnote of their page: the
    note's quoted paragraphs (a slip opinion's note ``4 In such circumstances, the two
    relevant paragraphs provide:`` over ``“(2) Whenever the flow …``)."""
    note = paras[-1] if paras else None
    return note is not None and note.footnote and note.lines[-1].page == lines[0].page \
        and lines[0].bbox[1] >= note.lines[-1].bbox[1] and all(small_print(ln.size, body) for ln in lines)


#: Most lines of a first page's unmarked note at its foot read as front matter, and fewest
#: words of prose in it (a sentence, no formula's or figure's scrap).
FRONT_NOTE_LINES, FRONT_NOTE_WORDS = 4, 4


def _note_going_on(paras: list[Para], page: int) -> Para | None:
    """The footnote small print without a mark may go on: the para right before it, when
    a footnote on its page, or the last footnote of the page before when no footnote came
    on this page yet (a note broken at the page's foot goes on at the next page's foot)."""
    if paras and paras[-1].footnote and paras[-1].lines[-1].page == page:
        return paras[-1]
    for para in reversed(paras):
        last = para.lines[-1].page
        if last < page - 1:
            break
        if para.footnote:
            return para if last == page - 1 and _broken_at_foot(para) else None
    return None


def _broken_at_foot(note: Para) -> bool:
    """Whether a footnote runs to its page's foot mid-text: two lines or more there, the
    last as full as the longest or ending on a word no sentence ends on (a Word note set
    ragged right, ``… The process for waiving points of order varies by``); a one-line
    note, an address, ended."""
    lines = [ln for ln in note.lines if ln.page == note.lines[-1].page]
    widest = max(ln.bbox[2] for ln in lines)
    return len(lines) >= 2 and (lines[-1].bbox[2] >= widest - max(lines[-1].size, 1.0)
                                or open_end(lines[-1].text))


#: A heading in capitals in a text layer without fonts stands under this share of the
#: page's height (above it, a running head: a scan's ``TEXTILE AMERICA.``).
CAPS_HEAD_BELOW = 0.1


def build_blocks(pages: list[list[Line]], infos: list[PageInfo], parser: str) -> list[Block]:
    """Lines of every page (furniture already removed) → typed blocks in reading order."""
    del parser
    body = body_size(pages)
    face = body_face(pages)
    plain = plain_text_layer(pages)
    gap = line_gap(pages, body)
    ragged = ragged_indented(pages, body, gap)
    indenting, flush = paragraph_indents(pages, body, gap)
    paras: list[Para] = []
    in_refs = False
    headless: float | None = None  # the size of a bibliography's entries set without a heading
    refs_head: Line | None = None  # the bibliography's heading, as set
    panels: dict[int, Box] = {}  # the first pages' peer-review panels, by page
    resumed_into: Para | None = None
    for lines, info in zip(pages, infos, strict=True):
        small_page = page_set_small(lines, body)
        for group in caseless_runs(order_page(lines, info.width)):
            if not in_refs and len(group) > 1 and REFS_RE.match(group[0].text.strip()):
                # "References" set as the first line of the block holding the first
                # entries (bmc, jner): split it off as the heading.
                head = group[0]
                paras.append(Para("heading", [head], head.text.strip(),
                                   [(head.page, head.text.strip())], heading_number(head.text), [1]))
                in_refs, refs_head, group = True, head, group[1:]
            if not in_refs and opens_headless_references(group, lines, paras[-1] if paras else None):
                in_refs, refs_head, headless = True, None, group[0].size  # (REVTeX's, under the last appendix)
            if in_refs and ends_references(group, refs_head):
                in_refs = False  # an appendix after the bibliography is read as body text
            if in_refs and (body_para := body_past_references(group, paras, refs_head)) is not None:
                append_piece(body_para, group, join_lines(ln.text for ln in group))
                continue
            if in_refs and not (refs_head is None and beside_headless_references(group, headless)):
                in_refs = add_references(group, paras, body, column_lefts(lines, info.width),
                                          info.width)
                continue
            split = split_group(group, plain, flush, indenting)
            left, right, width = block_extent(group)
            label = False  # the para before was a front-matter label ("ACM Reference Format:")
            for k, para_lines in enumerate(split):
                # (the paragraph the block before went on, past a float, when it did)
                after_resumed, resumed_into = resumed_into, None
                text = join_lines(ln.text for ln in para_lines)
                if not text or RULE_TEXT_RE.fullmatch(text.strip()):
                    continue  # (a rule set as dashes, Wiley's over its licence: no words of the work's)
                lead = k + 1 < len(split) and (
                    (len(para_lines) == 1 and font_lead(para_lines[0], split[k + 1][0]))
                    or (len(para_lines) == 2 and two_line_lead(para_lines, split[k + 1][0])))
                kind, number = para_kind(paras, para_lines, text, info, body, len(split) == 1)
                if kind == "table" and paras and row_goes_on(paras[-1], para_lines, text):
                    continue  # a table's next row of figures
                if kind == "table" and is_number_row(para_lines, text):
                    heads_over(paras, para_lines)  # its column heads, wrapped over it
                if kind in ("table", "figure") and is_si_entry(para_lines[0], lines):
                    kind = "paragraph"  # a supporting-information entry: no float's caption
                if len(para_lines) == 1 and k + 1 < len(split) \
                        and part_mark(para_lines[0], split[k + 1][0], left, right):
                    kind, number = "heading", text.strip().rstrip(".")
                plain_head = plain and kind == "paragraph" and len(para_lines) == 1 and (
                    (k + 1 < len(split) and plain_lead(para_lines[0], split[k + 1][0], right, width))
                    or (plain_caps_head(para_lines[0]) and para_lines[0].bbox[1] > CAPS_HEAD_BELOW * info.height))
                if plain_head:
                    kind, number = "heading", heading_number(text)
                if label and kind in ("paragraph", "list"):
                    kind = "front"
                label = kind == "front" and text.rstrip().endswith(":")
                if kind == "heading" and info.number == 1 and not plain_head \
                        and continue_title(paras, para_lines, text):
                    continue
                cur = Para(kind, para_lines, text, [(para_lines[0].page, text)], number,
                            [len(para_lines)])
                cur.title = kind == "heading" and info.number == 1 and number is None \
                    and is_title(kind, para_lines, text, body)
                cur.lead = lead and kind == "paragraph"
                cur.plain = plain_head
                if kind == "code" and (listing_goes_on(paras, para_lines) or statements_go_on(paras, para_lines)):
                    append_piece(paras[-1], para_lines, text)  # the listing's next line
                    continue
                noted = note_of(paras, para_lines, body) if kind == "paragraph" else None
                margin = all(ln.margin for ln in para_lines)
                # small print at the page's foot floats; the chunk type says footnote
                # only when it opens with its mark (parse.footnotes.opens_note)
                floats = kind == "paragraph" and noted is None and not margin \
                    and (is_footnote(para_lines, body, info, face, lines) or _under_note(paras, para_lines, body)) \
                    and not section_text(paras[-1] if paras else None, para_lines, text, small_page)
                cur.footnote = floats and opens_note(para_lines, text)
                if floats and not cur.footnote and (note := _note_going_on(paras, info.number)) is not None \
                        and (note.lines[-1].page == info.number or prose_words(text) >= 3) and continues(note, cur):
                    # the note's next lines, in a block of their own, or at the next page's foot
                    append_piece(note, para_lines, text)
                    continue
                if floats and not cur.footnote and note_tail(para_lines, lines, body):
                    cur.footnote = True  # a note's end, its start on a page not at hand
                if floats and not cur.footnote and _under_note(paras, para_lines, body):
                    # a note's next paragraph or its quotation, right under it in its print,
                    # no line of the note's own going on (a law review's note 54 over two paragraphs)
                    cur.footnote = True
                if floats and not cur.footnote and legend_rest(paras, para_lines, text):
                    kind = cur.type = "figure"  # a legend going on at the next page's foot (Cell Press)
                elif floats and not cur.footnote and info.number == 1 and len(para_lines) <= FRONT_NOTE_LINES \
                        and text.rstrip().endswith(SENT_END) and prose_words(text) >= FRONT_NOTE_WORDS \
                        and not text.lstrip()[:1].islower():
                    # a first page's small print at its foot, no note's mark before it: front
                    # matter (the Census Bureau's ``Disclaimer: Any views expressed are …``);
                    # not a front block's rest (Frontiers' citation going on ``xylanilyticus. …``)
                    kind = cur.type = "front"
                cur.floating = kind in ("front", "code") or margin or (
                    kind == "paragraph" and (floats or (plain and is_label(text)) or noted is not None))
                if info.number <= FRONT_PAGES and kind not in ("figure", "table") \
                        and in_review_panel(panels, cur, lines, info.number, info.width):
                    kind = cur.type = "front"  # a peer-review panel's label, names, links
                    cur.floating = True
                if noted == "figure" and FLOAT_NOTE_RE.match(text.lstrip()):
                    cur.type = "figure"  # its ``Sources:`` and ``Notes:``: the figure's, no body text
                if noted == "table" and not IDENTIFIER_LINE_RE.fullmatch(text.strip()):
                    # its sources and abbreviations: part of the table, no body text (a bare
                    # DOI goes into the table's own chunk later: _identifiers_to_floats)
                    cur.type = "table"
                if kind in ("figure", "table") and continued_caption(paras, text) is not None:
                    # a caption's bare "Figure 1 continued" atop the next page: a label the
                    # caption's rest reads past, not a caption of its own
                    kind = cur.type = "front"
                    cur.floating = True
                if kind in ("paragraph", "front") and (rest := caption_rest_overleaf(paras, para_lines, text, body)):
                    append_piece(rest, para_lines, text)  # under the caption's "continued" label
                    paras.remove(rest)
                    paras.append(rest)  # last again: its DOI and supplements under it go on with it
                    continue
                if kind in ("paragraph", "front", "equation") and caption_goes_on(paras, para_lines, text, body, plain):
                    # its last words, its DOI; its statistics in a mis-mapped font ("maple ¼ 11.7,
                    # df ¼ 4,49", PLoS Biology 2006), no formula of the text's
                    append_piece(paras[-1], para_lines, text)
                    continue
                beside = caption_beside(paras, para_lines[0], text) if kind == "paragraph" else None
                if beside is not None:
                    append_piece(beside, para_lines, text)  # a caption set across two columns
                    continue
                if kind in ("paragraph", "front") and IDENTIFIER_LINE_RE.fullmatch(text.strip()) \
                        and (announcing := merge_target(paras)) is not None and address_goes_on(announcing, para_lines):
                    append_piece(announcing, para_lines, text)  # "… is available at" | "http://…" atop the page
                    continue
                if kind == "paragraph" and IDENTIFIER_LINE_RE.fullmatch(text.strip()):
                    cur.floating = True  # no sentence runs on into a bare identifier
                    if FIGURE_ID_RE.search(text.strip()):
                        cur.type = "figure"  # a figure's own DOI (PLOS's ``….g002``), its caption's
                    elif info.number <= FRONT_PAGES and DOI_LINE_RE.fullmatch(text.strip()):
                        cur.type = "front"  # the article's own DOI alone (Wiley's side column)
                if kind == "heading" and REFS_RE.match(text.strip()):
                    in_refs, refs_head = True, para_lines[0]
                if kind == "figure":  # (a table's caption sits above it, under body text)
                    float_labels(paras, para_lines[0], body)
                    if plain:
                        drop_scan_labels(paras, para_lines[0], body)
                target = merge_target(paras)
                if target is not None and heading_goes_on(target, para_lines, text, body):
                    append_piece(target, para_lines, text)  # "(d) Bird community: … the" | "biotic …"
                    continue
                if target is not None and not margin and sentence_start(target, cur):
                    target.type = "paragraph"  # "C1 We present an approach for linking" | "software …"
                    append_piece(target, para_lines, text)  # its sentence, right under it
                    continue
                if kind == "paragraph" and paras and ((text[:1].islower() and runs_on(paras[-1], cur))
                                                      or keyword_list(paras[-1], cur)):
                    append_piece(paras[-1], para_lines, text)  # a front block's next line: its
                    continue  # terms' list going on (bioRxiv's ``Keywords. … mass`` | ``spectrometry …``)
                if kind == "paragraph" and info.number <= FRONT_PAGES \
                        and (above := front_above(paras, cur) or front_overleaf(paras, cur)) is not None:
                    append_piece(above, para_lines, text)  # a side column's front block read in pieces
                    continue
                if kind == "paragraph" and not (cur.floating or plain) \
                        and (broken := past_page_head(paras, cur)) is not None:
                    paras[-1].type, paras[-1].floating = "front", True  # a running head, no section's
                    append_piece(broken, para_lines, text)
                    continue
                if kind == "paragraph" and not plain and (broken := text_figure_over(paras, cur)) is not None:
                    append_piece(broken, para_lines, text)  # past a figure set as text over its caption
                    continue
                if kind == "paragraph" and not (cur.floating or plain) \
                        and (broken := past_display(paras, cur)) is not None:
                    append_piece(broken, para_lines, text)  # its sentence's rest under a displayed formula
                    continue
                earlier = resumed(paras, cur, target) if not (cur.floating or plain) else None
                if earlier is not None:  # past a box, a sidebar or a float in another face
                    append_piece(earlier, para_lines, text)
                    resumed_into = earlier
                    continue
                if target is not None and not cur.floating and (
                        continues(target, cur, ragged, indenting, column_top(paras, cur))
                        or rest_of_line(target, cur)
                        or next_line(target, cur, gap, ragged, flush, indenting)):
                    append_piece(target, para_lines, text)
                    if target.type == "paragraph" and target.lines[0].page <= FRONT_PAGES \
                            and (is_front_matter(target.text, at_edge=False) or is_affiliation(target.text)):
                        # a sidebar's label whose words came a line a block (Scientific
                        # Reports' "Correspondence and" | "requests for materials" | …),
                        # an address whose institution's name broke over two blocks
                        target.type, target.floating = "front", True
                    continue
                if after_resumed is not None and after_resumed is not target and not cur.floating \
                        and went_over(after_resumed) and next_line(after_resumed, cur, gap, ragged, flush, indenting):
                    # the next printed line of a paragraph that went on past a float, the
                    # float's text read between (*IJE*'s ``… code lists.21`` atop the right
                    # column, Figure 3 in the left one | ``The outcome, …`` under it)
                    append_piece(after_resumed, para_lines, text)
                    resumed_into = after_resumed
                    continue
                if kind == "paragraph" and is_scrap(text):
                    cur.type = "equation"  # "d", ", 0": a formula's pieces, no sentence's
                elif kind == "paragraph" and info.number <= FRONT_PAGES and is_affiliation(text) \
                        and not open_end(text) and not (all(ln.bold for ln in para_lines) and "," not in text):
                    # the authors' addresses (its rest may follow); not a bold head naming a
                    # place (ACS's ``Electronic Laboratory Notebooks in Teaching Laboratories``)
                    cur.type, cur.floating = "front", True
                paras.append(cur)
    split_runin(paras)
    font_headings(paras, body)
    hanging_heads(paras)
    centred_heads(paras)
    spaced_heads(paras)
    list_heads(paras, body)
    numbered_runs(paras)
    title_page = title_page_front(paras, infos)
    _rejoin(paras, title_page + front_after_title(paras, body, infos))
    contents_front(paras)
    numbered_subheads(paras)
    epigraphs_front(paras)
    notes_between_front(paras, body, infos)
    notes_across_columns(paras, body, infos)
    run_in_heads(paras)
    _contacts_front(paras)
    leader_rows(paras)
    return to_blocks(group_front(paras), infos)


def _rejoin(paras: list[Para], moved: list[Para]) -> None:
    """Paragraphs that a block later found to be front matter had kept apart: the
    paragraph before it goes on into the one after it when it ``continues`` there (a
    column's last sentence, broken by an author's address read as the next column's top)."""
    for para in moved:
        at = next((i for i, p in enumerate(paras) if p is para), None)
        if at is None:
            continue
        target = merge_target(paras[:at])
        nxt = next((j for j in range(at + 1, len(paras)) if not paras[j].floating), None)
        if target is None or nxt is None or not continues(target, paras[nxt]):
            continue
        join_para(target, paras.pop(nxt))  # by place: two paras may be equal field for field


def _contacts_front(paras: list[Para]) -> None:
    """First pages' blocks of the authors' contacts that the flow left paragraphs, made
    front matter, in place: an author's name and e-mail address alone (Springer's
    first-page foot); an address list broken off after a comma over the next block of it
    (Frontiers' affiliations in three blocks, ``1 Alan Turing Institute, …, Coventry,
    United Kingdom,`` | ``5 School of …,`` | ``6 Department of …``: a list left open
    stays a paragraph in case its rest goes on, and here its rest is that front block)."""
    for k in range(len(paras) - 1, -1, -1):
        para = paras[k]
        if para.type != "paragraph" or para.lines[0].page > FRONT_PAGES:
            continue
        after = paras[k + 1] if k + 1 < len(paras) else None
        if is_contact(para.text) or (
                after is not None and after.type == "front" and after.lines[0].page == para.lines[-1].page
                and open_end(para.text) and is_affiliation(para.text) and is_affiliation(after.text)):
            para.type = "front"
