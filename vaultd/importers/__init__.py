"""Reading the user's library into vaultd's items (issue 36): Zotero's database, Better
BibTeX JSON exports, CSL-JSON and RIS files, each into the same ``ImportedItem`` model.

The public surface (pinned by ``tests/test_importers_surface.py``); other packages use
these names only:

- ``read_zotero(data_dir, library=None, attachments_base=None) -> ImportResult``
- ``read_library_file(path) -> ImportResult`` (``.ris``, BBT JSON or CSL-JSON ``.json``)
- ``default_data_dir() -> Path``: Zotero's data folder where Zotero puts it by default
- ``read_pdf_highlights(pdf) -> list[Annotation]``: the highlights a PDF itself stores;
  ``page_words(pdf, pages)``: the words of those pages, in PDF user space
- the model: ``ImportResult``, ``ImportedItem``, ``ItemOrigin``, ``Attachment``,
  ``Annotation``, ``ItemNote``, ``ImportProblem``, ``KeySource``

Nothing here writes: not the vault, not Zotero's folder (its database is read through a
private copy). docs/import.md says what is read from where.
"""

from vaultd.importers.files import read_library_file
from vaultd.importers.model import (
    Annotation,
    Attachment,
    ImportedItem,
    ImportProblem,
    ImportResult,
    ItemNote,
    ItemOrigin,
    KeySource,
)
from vaultd.importers.pdf_annotations import page_words, read_pdf_highlights
from vaultd.importers.zotero_db import default_data_dir
from vaultd.importers.zotero_library import read_zotero

__all__ = [
    "Annotation",
    "Attachment",
    "ImportProblem",
    "ImportResult",
    "ImportedItem",
    "ItemNote",
    "ItemOrigin",
    "KeySource",
    "default_data_dir",
    "page_words",
    "read_library_file",
    "read_pdf_highlights",
    "read_zotero",
]
