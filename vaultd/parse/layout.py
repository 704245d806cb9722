"""Layout repairs: the only changes allowed between the PDF text layer and a quote.

Compile and verify both call these, so a quote re-extracted later reproduces exactly.

1. **Line joins.** Lines of one paragraph are joined with one space, except between two
   characters of a script written without word spaces (Han, kana, CJK and full-width
   punctuation: Chinese and Japanese), which are joined directly. Korean (Hangul) is
   written with spaces and joins with one, like Latin text.
2. **End-of-line hyphenation.** A line ending in ``-`` is joined to the next line with no
   space. Inside an e-mail address, URL or identifier (``@``, ``://``, ``www.``, ``/`` or a
   dot between letters in the word) the hyphen is always kept. Otherwise the document's own
   spelling decides first (``vaultd.parse.hyphens.HyphenEvidence``, while a parse runs inside
   ``hyphen_evidence``): the hyphen is kept when the document writes the word with a hyphen
   elsewhere at least as often as whole (``Citation-`` + ``informed`` → ``Citation-informed``),
   and dropped when it writes it whole (``SciB-`` + ``ERT`` → ``SciBERT``). Without evidence
   either way, the hyphen is *dropped* (``exam-`` + ``ple`` → ``example``) only when all hold:
   the character before the hyphen is a lowercase letter, the next line starts with a
   lowercase letter, the fragment before the hyphen contains no other hyphen and no digit
   (``state-of-the-`` + ``art`` keeps it), and that fragment is not one of the common
   compound prefixes in ``COMPOUND_PREFIXES`` (``self-`` + ``attention`` keeps it).
   Otherwise the hyphen is kept (``Hodgkin-`` + ``Huxley`` → ``Hodgkin-Huxley``).
   Without a dictionary this rule is a heuristic: a real compound split exactly at its
   hyphen with a lowercase, hyphen-free, non-listed first part loses its hyphen.
3. **Ligatures.** U+FB00–FB06 become their letters (ﬁ → fi).
4. **Spacing accents stored before their letter** (``Par´e``) are combined (``Paré``);
   a dotless ``ı`` carrying an accent becomes the accented ``i`` (TeX's ``\\'{\\i}``).
5. **Unmapped glyphs.** A glyph whose font maps it to no Unicode is U+FFFD ``�``. PyMuPDF
   writes that itself; extractors that pass the raw character code through instead (a
   C0/C1 control character, e.g. poppler's ``\\x8d``) get the same ``�``. One exception:
   the codes 0x1B–0x1F next to a letter are the ligatures ff, fi, fl, ffi, ffl of TeX's
   T1 (Cork) encoding, which a TeX font without a Unicode map (dvips's Type 3 bitmap
   fonts) passes through as they are (``di\\x1berent`` → ``different``): in T1 they are
   nothing else, and the older OT1's letters at those codes (œ ø Æ Œ Ø) are not met
   inside English words, where these codes stand by the hundred in such documents.

Nothing else: no spelling fixes, no punctuation reflow.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable

from vaultd.parse.hyphens import HYPHENS, SOFT_HYPHEN, current_evidence, drops_hyphen

LIGATURES = {
    "\ufb00": "ff",
    "\ufb01": "fi",
    "\ufb02": "fl",
    "\ufb03": "ffi",
    "\ufb04": "ffl",
    "\ufb05": "st",  # long s + t
    "\ufb06": "st",
}
_LIG_TABLE = str.maketrans(LIGATURES)

#: vaultd's own extraction rules (word spaces, line and hyphen joins, furniture, reading
#: order), carried by every tier's ``parser_version`` as ``+layoutN``: bump when they change
#: what a chunk's text is, so a note records which rules produced its quotes and
#: `vaultd verify --source` can say why one no longer reproduces.
#: 2: word spaces at font/size/baseline changes follow poppler's raw-order rule.
#: 3: sub-figure labels above a caption are never joined to body text; short lines of a
#:    display formula are ``equation`` chunks (a paragraph no longer runs on from them).
#: 4: a line repeated at the same height on two or more pages near the top or bottom edge
#:    (within 12 % of the page) is furniture too (second header lines, lower-set headers).
#: 5: a numbered line in italics on its own and a bold line in capitals on its own are
#:    headings (sections of MDPI/Elsevier subsections and Frontiers subsection heads).
#: 6: the body size is read to the half point (an 11.5 pt body is no longer "12 pt",
#:    which hid 13 pt headings).
#: 7: a paragraph carries one region per column or page it runs across; first-page front
#:    matter (banners, dates, licences, correspondence, "ACM Reference Format") is a
#:    ``front`` chunk and never joins a paragraph; a multi-line title on the first page is
#:    a heading; the text drawn inside a figure is dropped; cells of tables ruled only
#:    across (booktabs) join their table; captions in other languages (``Tabela``,
#:    ``Figura``) and letter-spaced (``F I G U R E``); a bare DOI or URL under a caption
#:    is the caption's; running headers that an OCR layer reads a little differently on
#:    each page are furniture.
#: 8: line-end hyphens are decided by the document's own spelling first, and kept inside
#:    e-mail addresses, URLs and identifiers; headings by font; ``Tabela``/``Literatura
#:    citada``; one reference per entry across blocks and columns; unreliable text layers.
#: 9: lines of Chinese and Japanese join without a space; one-line blocks stacked in a
#:    script without case (Korean, Chinese …) form paragraphs as a block's lines do.
#: 10: in a text layer without fonts (a scan's OCR), a block's short capitalised first
#:    lines over its paragraph are headings, and the figure text stacked over a caption is
#:    dropped; ruled tables are found from vaultd's own rules (``find_tables(add_lines=…)``).
#: 11: inside a span set in an OpenType math font (Cambria Math, STIX Two Math …), word
#:    spaces by poppler's gap rule from the glyphs' own boxes (``S = w1``, not ``S=w1``).
#: 12: in a scan's OCR layer, the whole stack of non-prose text over a figure caption is
#:    the figure's (a tree's leaf names with overlapping boxes, several-line label blocks);
#:    a caption set one line per block stays one caption; a sentence going on from the
#:    column before skips a label or a logo's text (``VS UVS``, ``BioMed Central``).
#: 13: bold and italic also read from a font's name in its other conventions (``-B``,
#:    ``-Medi``, ``CMBX10``, ``-SemiboldIt``); a numbered line in capitals on its own is a
#:    heading (IEEE's small capitals ``I. INTRODUCTION``), as is ``REFERENCES`` alone; a
#:    first-page line of authors' names is front matter, not a heading; a heading has a
#:    word of three letters (TeX's big summation ``P`` is none); a bare page number set
#:    well inside a wide margin is furniture.
#: 14: a sentence split at a stacked fraction (``h = 1`` | ``2 the scheme…``) or at a
#:    superscript that MuPDF set as a block of its own (``(fx, fy)ext`` | ``T are…``)
#:    stays one paragraph; each table caption's rules are grouped on their own (two
#:    captions' together took in a figure's plot grid between them), a ruled table must
#:    sit within ``SEED_GAP`` of its caption, and tables ruled only across may stand
#:    side by side under one caption; a label on a diagram's top edge is the figure's; a
#:    line box stretched by a math font's metrics is read from its baselines; a source
#:    block with lines level in both columns is read as one block per column; a caption's
#:    continuation is bold when it is; a few symbols without a word (``d``, ``, 0``) are a
#:    formula's pieces, not a paragraph; a typewriter face (code) sets no headings; a
#:    scan's running footer a few points higher or lower on each page is furniture;
#:    pieces of one printed line read left to right, also when MuPDF gives the right one
#:    first (as a line of a block, or as blocks whose tops are a hair apart); a formula
#:    set large in a mis-mapped font, or a listing's numbered line, is no heading;
#:    headings told by their face count a face at each size apart (PLOS's sans heads at
#:    10 pt, its sans captions at 8 pt), and may stand right over a subsection's head,
#:    and may be numbered (``3.2. Competition experiments``); a drawing cluster that runs
#:    on past a caption's top is the figure down to the caption; a row of tick labels is
#:    no prose; ``References and Notes`` starts the list; a table's rules are looked for
#:    from its whole caption (MDPI's five lines and a note over the first rule); SciELO's
#:    Portuguese and Spanish licence, correspondence, funding and dates are front matter;
#:    first-page names and addresses between the title and the abstract are front matter
#:    (ACM's authors set as large as headings); a note numbered ``2)`` after a line that
#:    stops short starts a paragraph of its own (Korean footnotes end without a full stop);
#:    a spacing accent drawn after the letter it stands over combines with that letter;
#:    a bold run-in lead set as a line of its own (``…algorithm? We``) is no heading; a
#:    piece ending on ``for``/``and``/``the`` … goes on into one opening with an acronym; a
#:    one-line heading that runs on in lowercase right under it is a sentence's start;
#:    a theorem's label (``Lemma 2.2.``, ``Remark 1``) is no heading.
#: 15: a caption repeated over a long table's pages is no running header; one boxed row
#:    is no table; a ruled algorithm float is one ``figure`` chunk with its pseudocode; a
#:    sentence broken at a column or page goes on past ``,`` ``;``, open words and open
#:    brackets, and into its next line set as a block of its own; soft hyphens; a float's
#:    note floats; figures under or beside their caption; tables beside their caption,
#:    along their column rules, past white plot panels; three-column pages; cover pages;
#:    program listings in a typewriter face are ``code`` chunks.
#: 16: the title page's short blocks standing above its first prose are front matter
#:    (an author's address the reading order gives after the abstract, banners), and the
#:    sentence they had kept apart goes on; a title opening with ``A`` is no numbered
#:    section; a first-page footnote a little smaller in another face floats; a line
#:    drawn twice over itself is read once; no paragraph goes on from an author's
#:    address (an e-mail address, no word in lowercase); amsart's section heads in small capitals and IEEE's numbered
#:    capitals inside a block are headings; amsart's ``Date:``, subject classification
#:    and key words are front matter; a numbered web address at a column's foot is a
#:    footnote; a sentence goes on past a bracket left open, and after an open word into
#:    a number; a paragraph ending with its column goes on into a flush line at the next
#:    column's top in a document that indents its paragraphs; a figure's region never
#:    grows over the text beside it, and takes in the tick labels against its frame; a
#:    repaired scan's blank scanned page is OCR'd, not taken for lost text; a figure
#:    made of small text over a ruled table (ACL's worked examples) keeps its text; the
#:    last line of the text over a figure's top edge is no label; TeX's dot and bar
#:    accents (and the ogonek) combine with their letter.
#: 17: text drawn invisibly on a page that shows most of its text is not read (proof
#:    queries; a scan's OCR layer, all invisible, still is); everything between the title
#:    and the abstract's label is the title block; notes to the title and authors marked
#:    like them, ACM's conference line and ``Abbreviations:`` are front matter; a long
#:    passage in another face at a column's foot is no footnote; a sentence goes on after
#:    an article into a number; an unnumbered ``Tabla -`` caption; rules drawn as
#:    stretched one-pixel images bound open tables; a table's small-print notes are table
#:    chunks.
#: 18: a paragraph left open goes on past boxes, sidebars and floats set in another face
#:    (``vaultd.parse.resume``), and past a footnote mark after a comma; a table's caption
#:    is a ``table`` chunk of its own words and its cells a ``table`` chunk after it, shown
#:    as a Markdown table when its columns are drawn or stand apart by its words'
#:    positions, else one row a line; keyword, classification and ``Preprint submitted
#:    to`` lines and a journal banner with its volume and pages are front matter; a
#:    column of line numbers beside the text is furniture.
#: 19: a margin note on a paragraph's baseline, in another font, outside the text block's
#:    edges, is no part of the paragraph (``vaultd.parse.margins``); a title page of short
#:    centred lines is front matter under its title; a style larger than the body set
#:    only in lines standing alone heads sections however common (a deck's frame and
#:    block titles); an open table's header is the rows above its first inner rule;
#:    ``et al.`` before a year, ``e.g.``, ``i.e.`` end no sentence; in a document set a line
#:    a block (elsarticle, theses), a flush line after a full one goes on with the
#:    paragraph at its own line pitch, also at a page top.
#: 20: MuPDF's word space after an expanded f-ligature is kept though the ligature's last
#:    letter is boxed over it (``oﬀ the``); a roman section's arabic subsections are
#:    numbered (REVTeX's ``II.2. Paper size``); a numbered heading set in two fonts is no
#:    run-in lead for the stop after its number (``2. The class "zoo" and its methods``).
#: 21: a first-page heading 1.18 times the body, first on the page and centred on it,
#:    heads the title block (REVTeX's 12 pt title: its author, address and dateline are
#:    front matter), and so does a bold one in the body's size (AASTeX); first-page blocks
#:    in a column of their own beside the title block are front matter (ASME's authors);
#:    a table of contents or list of figures under its label, and the
#:    authors' addresses under ``Affiliation:``, are front matter wherever they stand; a
#:    table set without any rule is read from its rows of cells set apart under (or over)
#:    its caption (``vaultd.parse.aligned_tables``).
#: 22: a page number between dashes (``- 9 -``) is furniture; so is a running head that
#:    repeats a heading set larger elsewhere (a thesis's ``HOOFDSTUK 2. ONDERZOEKSVRAAG``
#:    over a short chapter's one page); a list item goes on in its next line set as a
#:    block of its own, at its lines' left edge, though that line opens with a capital;
#:    an appendix or supplement line after the bibliography ends it; reference entries
#:    hang up to 40 pt (APA's half inch); a
#:    plot's markers drawn as letters (``GG``) are scraps, no paragraph; a dropped
#:    capital goes back in front of its word (``vaultd.parse.dropcaps``); ``I.
#:    Introduction`` is no byline; a sentence goes on into a word in quotation marks;
#:    a line whose longest run is a URL in a smaller typewriter face ends no paragraph
#:    by its size; a numbered enumeration goes on with its next number in the next
#:    column; e-mail and ORCID footnotes are front matter; ``… Page 1 of 3`` footers are
#:    furniture; math letters MuPDF cut to Hangul (U+D44E for U+1D44E) are restored;
#:    an italic numbered subsection head on its own line is a heading (Philosophers'
#:    Imprint, IOP); an issue's banner and date, a permission notice and an author's
#:    contact footnote (``Name Name: e-mail``) are front matter;
#:    a label set out left of its paragraph's first line is no indent (PracTeX's
#:    ``Abstract``); lines set one a block join at the document's own line gap (a
#:    double-spaced manuscript's em), never across a contents entry's dot leaders or into
#:    a list's next item, and under a one-line paragraph start that is full and indented;
#:    a small running head may stand 14 % down the page (the Annals'); a paragraph's
#:    one-word last line beside a figure is no label of it; SPIE's further author
#:    information and EJP's submission line are front matter; in a double-spaced
#:    manuscript set ragged right (``spacing.ragged_indented``) only an indent starts
#:    a paragraph; an appendix's or supplement's float is captioned ``Table B1``,
#:    ``Figure S2``.
#: 23: a footnote (small print at a page's foot that opens with its mark) is a chunk of
#:    its own type, ``footnote``, never a paragraph; a drawing's box is what its clip lets
#:    show (``vaultd.parse.drawings``); a plot's tick labels and axis title bridge the gap
#:    between its frame and its caption, so what is drawn inside the plot is the figure's
#:    and a paragraph goes on past it; ``Tab. 1``, ``Tabella 1`` and ``Tabell 1`` are
#:    captions; a running head with a page number beside it, or set small 14 % down the
#:    page over the text, repeats a larger heading; 9 pt notes under a 10 pt body at a
#:    column's foot are footnotes; a book's imprint (an ISBN, a rights statement) is
#:    front matter; a note on a reference list set as prose is a paragraph and a caption
#:    among its entries a caption; ``[1]``-labelled entries go on past a line opening
#:    ``24. 05.``; T1 ligature codes next to a letter are their letters (rule 5); letters
#:    mapped to dingbats mark a text layer unreliable; a plot beside its caption takes in
#:    the small tick labels and axis title under its frame; a page whose letters map to
#:    symbols is read as a scan; an unnumbered line in small capitals standing alone is a
#:    heading (amsart's centred ``Introduction``); a one-line "heading" ending in a bracket
#:    or comma whose sentence runs on right under it in lowercase is that sentence's start;
#:    a block of numbers alone (a plot's ticks, a table's rows without its caption) is no
#:    paragraph.
#: 24: a licence statement is front matter on any page, and so are the authors'
#:    affiliations on the first two (a block opening with an institution's name whose
#:    words are names and addresses), PeerJ's sidebar and citation footer, a Hindawi
#:    ``Volume 2014 (2014), Article ID …`` banner; a paragraph that a continuation turns
#:    into a front-matter label is front; notes over a smaller footer are footnotes, and a
#:    note opening with a quotation mark too; a table ruled off under its notes ends at its
#:    last row; a reference list numbered ``(1)``, ``(2)`` is split at its numbers, its
#:    prose notes paragraphs; in a document that indents its paragraphs, a flush line at a
#:    column's or page's top goes on with the paragraph before, whose last line is full;
#:    in a document whose text layer writes hyphens it draws as soft hyphens (two or more
#:    between letters inside lines), a soft hyphen is a hyphen (rules 1–2).
#: 25: an off-centre gutter between two columns; glyphs mapped to U+FFFF named from
#:    their glyph names; first-page apparatus (credits, keyword labels and term lists,
#:    epigraphs, more publishers' labels); deep numbered headings; margin line numbers
#:    and echoed running heads out (docs/compile.md, "Layout 25").
#: 26: a table ruled under its header and between its rows but not on top or at its
#:    foot takes the rows packed right against its outer rules; of two captions reaching
#:    for one table the farther takes the table on its other side; a caption's lines never
#:    start left of its first (the column's text under a centred caption is no caption);
#:    a sentence left open on a full last line goes on flush at the next column's or
#:    page's top whatever its first word, unless that opens a list item; a paragraph
#:    opening with a run-in heading (its first words bold or italic, closed by a stop or
#:    colon) names it as the section of the paragraphs from there to the next heading
#:    (docs/compile.md, "Layout 26"); tables without a caption; a title page holding no
#:    prose is front matter; a fifth of indented blocks tells a document indents.
#: 27: footnotes outweighing the text they annotate leave the body's size to the text
#:    above them; notes filling half a page, called in the text above; Word's
#:    ``(continued...)`` notice dropped and a ragged note broken at a page's foot going
#:    on; a ragged-right line is full when the next piece's first word would not have
#:    fitted on it; a list in the flow stops a paragraph's resumption; a review copy's
#:    ruler drawn over the text dropped; a margin's line numbers beside a sidebar and
#:    under a watermark dropped; running heads a little deeper when they are the page's
#:    outermost line; the AAS journals' ``.I`` fonts italic (docs/compile.md, "Layout 27").
#: 28: a margin numbering every fifth line dropped; a capital with a stop under a full
#:    open line goes on; small print under both columns' text read after both; a long
#:    head wrapped onto a third line; a page's first full line measured by its
#:    paragraph's; a journal banner with volume, year and pages; a centred title's second
#:    line; a numbered section no byline; lettered subsections under roman-numbered
#:    sections; running lines stacked deep over a small text block; a justified text
#:    block makes no title page; a part's centred mark heads its text; a note's quoted
#:    paragraphs under it are notes; the body's size is the one leading most pages from
#:    the first, though back matter set smaller outweighs it; an off-centre gutter found
#:    under a figure's labels bridging it; a front block's next lines; Elsevier's citation
#:    head; a table's title ruled off over it; an icon font's glyph and M+ 1mn listings;
#:    paragraphs known to be set flush; a quotation ends the sentence before it; IEEE's
#:    dropped capitals and first-page notes; ACM's CCS concepts (docs/compile.md, "Layout 28").
#: 29: side heads in a wide margin; a rule over a caption no figure; labels under a
#:    figure stop at a line of text; white text with nothing drawn under it dropped; a
#:    box's title skipped; sidebar columns; margin notes in the text's face; program text
#:    in a text face is code; bold two-line heads standing alone (docs/compile.md, "Layout 29").
#: 30: a line's pieces drawn out of order read left to right; a block split off at an
#:    inline formula given back to its paragraph's block; a sentence ended on a full
#:    ragged line goes on flush at the next page's top where paragraphs are indented; a
#:    scheme's marks are the figure's; a bold run-in head filling its line; a heading at a
#:    page's foot (docs/compile.md, "Layout 30").
#: 31: a double-spaced preprint's indents told by its runs of lines; a reference's hanging
#:    lines go on; a Word draft's full-size line numbers dropped; a data matrix's numbered
#:    rows and a table of bulleted cells are tables; a note's end over the next note; code
#:    in a text face; a caption with text beside it cuts no band; a contact's addresses and
#:    a copyright notice alone are front matter; a plot's labels in the body's size; a
#:    glossary's margin notes; heads in capitals in a face of their own (docs/compile.md,
#:    "Layout 31").
#: 32: small capitals drawn as smaller capitals are a heading's; amsart's numbered heads
#:    whose small capitals read as lowercase; a bill's or report's ``Section 2. …`` heads;
#:    a slide's title repeated over slides is no running head; ``Published by … on behalf
#:    of …``, a series' ISSN and a note marked by any symbol are front matter; a shell
#:    session with an address in it is code; a flowchart's boxed labels under a caption set
#:    over it; a display title's second line; a panel in two columns of its own read before
#:    the text under it, its bold heads; a list item's line ending in a colon goes on; a
#:    numbered heading's subtitle; a journal's volume-issue-pages banner; roman note marks
#:    without a stop; a ligature glyph MuPDF reads as its first letter; two heads in title
#:    case; a supporting-information entry no caption (docs/compile.md, "Layout 32").
#: 33: heads in capitals in a small-capitals face set under the body's size, and in
#:    capitals broken over two blocks; a numbered head set large over two lines ending in a
#:    stop; an icon font's glyph before a heading; a section set in small print (under a
#:    head, or filling a page) no footnote, nor a figure's note where its sentence goes on;
#:    a licence set flush right going on; a flowchart's steps in the body's size; an
#:    identifier's underscore no formula's; heads drawn as outlines under invisible text; a
#:    running head over a sentence going on; a head in capitals over its subsection's; a
#:    scan's running foot whose folio moves from end to end; a bracket left open at a
#:    colon going on; a section set small going on under its own text; the column beside a
#:    box across the middle read after it; a narrow column's justified lines full; a
#:    letter-spaced OCR layer's paragraphs marked unreliable (docs/compile.md, "Layout 33").
#: 34: a figure's panel titles its own; a running head echoing its section's numbered
#:    head, and one sharing a side with the other pages' running lines; a word processor's
#:    file stamp furniture; a court's caption and judges' lines; NeurIPS' venue line; heads
#:    in a face set small over prose, wrapped over two lines in their face, opening with a
#:    lowercase name; a table ruled under its header only; an OCR layer's Courier no code,
#:    and one laid a word a line put back into its lines; a paragraph going on over a
#:    bibliography's band; a side column's front block read in pieces; IOPscience's old
#:    cover sheet; an italic subhead set a point under the body; a page's first line alone
#:    measured by its paragraph (docs/compile.md, "Layout 34").
#: 35: a first page's peer-review panel front matter; running heads naming section and
#:    chapter; annotations no text of the work's; a paragraph not into small print atop
#:    the next page; a bold head in another family than its text; an algorithm labelled
#:    alone; a bold usual section name on a line of its own; a figure filling a page keeps
#:    its labels (docs/compile.md, "Layout 35").
#: 36: margin notes beside text set ragged right; a caption whose panel letter follows its
#:    number; a paragraph's next line at its lines' pitch; bold condensed and Advent 3B2
#:    faces told bold; a sidebar's entry going on atop the next page; a bibliography
#:    without a heading (docs/compile.md, "Layout 36").
#: 37: a figure under its caption's note (a report's charts); a caption's statistics in a
#:    mis-mapped font, its next panel's part and a line ending on a genus's abbreviation
#:    going on with it; a sidebar's paragraph under its head in the margin; a first page's
#:    keywords between bars; Advent's heavy face bold; a legend going on at a page's foot;
#:    a printer's imprint (docs/compile.md, "Layout 37").
#: 38: line numbers under a banner; centred, spaced and wrapped heads and a head's note
#:    mark; a third column beside a title block; a checklist's records and a recital's
#:    mark; an address announced at a page's foot (docs/compile.md, "Layout 38").
#: 39: control codes that take no room left out; a head wrapped over two heads; one-line
#:    heads numbered in turn a list; a dash after a bold lead a run-in; charts side by side
#:    under a caption; a figure's notes standing together; a book's credits and a document's
#:    symbol an imprint; a sentence going on under a displayed formula; small heads in a
#:    face of their own, a heads' style counted without a paragraph's inline runs
#:    (docs/compile.md, "Layout 39").
LAYOUT_VERSION = 39

# Spacing accent → combining mark.
SPACING_ACCENTS = {
    "\u00b4": "\u0301",  # ´ acute
    "\u0060": "\u0300",  # ` grave
    "\u00a8": "\u0308",  # ¨ diaeresis
    "\u02c6": "\u0302",  # ˆ circumflex
    "\u02dc": "\u0303",  # ˜ tilde
    "\u00b8": "\u0327",  # ¸ cedilla
    "\u02c7": "\u030c",  # ˇ caron
    "\u02d8": "\u0306",  # ˘ breve
    "\u02da": "\u030a",  # ˚ ring
    "\u02dd": "\u030b",  # ˝ double acute
    "\u02d9": "\u0307",  # ˙ dot above (TeX's \dot: ``ṁ``, ``Q̇``)
    "\u00af": "\u0304",  # ¯ macron (TeX's \bar: ``D̄``)
    "\u02db": "\u0328",  # ˛ ogonek
}
_ACCENT_RE = re.compile("([" + "".join(SPACING_ACCENTS) + r"])\s?([A-Za-z\u0131])")

def fix_ligatures(text: str) -> str:
    return text.translate(_LIG_TABLE)


def _combined(m: re.Match[str]) -> str:
    letter = "i" if m.group(2) == "\u0131" else m.group(2)
    return unicodedata.normalize("NFC", letter + SPACING_ACCENTS[m.group(1)])


def combine_accents(text: str) -> str:
    return _ACCENT_RE.sub(_combined, text)


_DOTLESS_MARK_RE = re.compile("\u0131([\u0300-\u036f])")


_CONTROL_RE = re.compile("[\x00-\x08\x0b\x0e-\x1f\x7f-\x9f]")
#: T1-encoded TeX ligatures passed through as their codes, next to a letter (rule 5).
T1_LIGATURES = {"\x1b": "ff", "\x1c": "fi", "\x1d": "fl", "\x1e": "ffi", "\x1f": "ffl"}
_T1_CODE_RE = re.compile("[\x1b-\x1f]")
_T1_LIGATURE_RE = re.compile("(?<=[^\\W\\d_])[\x1b-\x1f]|[\x1b-\x1f](?=[^\\W\\d_])")


def t1_ligatures(text: str) -> str:
    """T1 ligature codes next to a letter as their letters (rule 5's exception)."""
    if _T1_CODE_RE.search(text) is None:
        return text
    return _T1_LIGATURE_RE.sub(lambda m: T1_LIGATURES[m.group()], text)


def repair_chars(text: str) -> str:
    """Ligatures, stray spacing accents and unmapped-glyph codes (rules 3, 4 and 5).

    TeX writes í as a dotless ı under an accent; once combined, ``ı`` + mark is ``í``.
    Tab, newline, form feed and carriage return are layout whitespace, not glyphs. A soft
    hyphen inside a line is not drawn (Wiley's ``Mixed-\u00adeffect``) and goes; one at the
    line's end is left for ``join_two``.
    """
    if text.isascii():  # an O(1) flag test; every ligature and ı is outside ASCII
        # printable ASCII holds no control character either: only the grave accent is left
        if text.isprintable() and "`" not in text:
            return text
    else:
        text = fix_ligatures(text)
        if SOFT_HYPHEN in text:  # shown only at a line's end, where ``join_two`` takes it
            body = text.rstrip()
            evidence = current_evidence()
            inner = "-" if evidence is not None and evidence.soft_hyphens else ""
            text = body[:-1].replace(SOFT_HYPHEN, inner) + body[-1:] + text[len(body):]
    text = _CONTROL_RE.sub("\ufffd", combine_accents(t1_ligatures(text)))
    if "\u0131" in text:
        text = unicodedata.normalize("NFC", _DOTLESS_MARK_RE.sub(r"i\1", text))
    return text


#: Scripts written without spaces between words (Han, kana, CJK and full-width
#: punctuation): a line break between two of their characters is no word space.
_UNSPACED_RE = re.compile("[\u3000-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff00-\uffef]")


def join_two(left: str, right: str) -> str:
    """Join two consecutive lines of one paragraph (rules 1 and 2)."""
    left = left.rstrip()
    right = right.lstrip()
    if not left:
        return right
    if not right:
        return left
    if left.endswith(SOFT_HYPHEN):
        evidence = current_evidence()
        if evidence is None or not evidence.soft_hyphens:
            return left[:-1] + right  # a discretionary hyphen: only where the word was broken
        left = left[:-1] + "-"  # the document's hyphens are all soft: decided as a hyphen is
    if left.endswith(HYPHENS) and not left.endswith(" -") and len(left) > 1:
        if drops_hyphen(left, right):
            return left[:-1] + right
        return left + right
    if _UNSPACED_RE.match(left[-1]) and _UNSPACED_RE.match(right[0]):
        return left + right  # Chinese and Japanese break lines between any two characters
    return left + " " + right


def join_lines(lines: Iterable[str]) -> str:
    """Join a paragraph's lines and apply every character repair."""
    out = ""
    for line in lines:
        out = join_two(out, repair_chars(line))
    return out
