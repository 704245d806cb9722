"""citeproc's sentence case (Citeproc.CaseTransform.withSentenceCase), as pandoc applies
it to English BibTeX titles; vaultd's .bib import and BibTeX export share it. Pure."""

from __future__ import annotations

import re

# pandoc reads an English BibTeX title as title case and lowers it to sentence case with
# citeproc's rule (Citeproc.CaseTransform.withSentenceCase); vaultd's import does the same.
# The text is cut into chunks (runs of letters and digits, runs of spaces, single other
# characters); a chunk's fate depends on where it is.
_START, _START_SENTENCE, _AFTER_SENTENCE_END, _AFTER_WORD_CHAR, _AFTER_WORD_END, _OTHER = \
    range(6)
_CHUNK_RE = re.compile(r"[^\W_]+|\s+|.", re.DOTALL)


class SentenceCase:
    """citeproc's sentence case over consecutive runs of one title: a capitalised word
    ('Latin', 'A') is lowered unless it starts the title or a sentence (after . ? ! :)."""

    def __init__(self) -> None:
        self.state = _START

    def apply(self, text: str, *, change: bool = True) -> str:
        out: list[str] = []
        for m in _CHUNK_RE.finditer(text):
            chunk = m.group()
            out.append(self._case(chunk) if change and chunk.isalnum() else chunk)
            self._advance(chunk[-1])
        return "".join(out)

    def _case(self, chunk: str) -> str:
        at_start = self.state in (_START, _START_SENTENCE)
        capitalised = chunk[0].isupper() and all(c.islower() for c in chunk[1:])
        if capitalised and not at_start:
            return chunk.lower()
        if at_start and (capitalised or all(c.islower() for c in chunk)):
            return chunk[0].upper() + chunk[1:].lower()
        return chunk

    def _advance(self, c: str) -> None:
        if c in ".?!:":
            self.state = _AFTER_SENTENCE_END
        elif c.isalnum():
            self.state = _AFTER_WORD_CHAR
        elif c.isspace() and self.state == _AFTER_SENTENCE_END:
            self.state = _START_SENTENCE
        elif c.isspace() or c in "-/\u2013\u2014":
            self.state = _AFTER_WORD_END
        else:
            self.state = _OTHER
