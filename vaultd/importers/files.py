"""Which reader a library file needs: ``.ris`` is RIS; a ``.json`` is a Better BibTeX JSON
export when it is an object with an ``items`` list, CSL-JSON when it is a list of items
(or one item). Other files are not this package's (``.bib`` is ``capture/bib``)."""

from __future__ import annotations

import json
from pathlib import Path

from vaultd.errors import InputError
from vaultd.importers.bbt_json import is_bbt_export, read_bbt_data
from vaultd.importers.csl_json import is_csl_json, read_csl_data
from vaultd.importers.model import ImportResult
from vaultd.importers.ris import read_ris

SUFFIXES = (".ris", ".json")


def read_library_file(path: Path) -> ImportResult:
    """Read a RIS, Better BibTeX JSON or CSL-JSON file; ``InputError`` (one line) for a
    file that is none of them or cannot be read."""
    suffix = path.suffix.lower()
    if suffix == ".ris":
        return read_ris(path)
    if suffix != ".json":
        raise InputError(f"{path}: not a library file vaultd imports (.ris, Better BibTeX "
                         "JSON or CSL-JSON .json)")
    try:
        data = json.loads(path.read_text(encoding="utf-8-sig"))
    except OSError as exc:
        raise InputError(f"{path}: cannot be read ({exc.strerror or exc})") from exc
    except ValueError as exc:
        raise InputError(f"{path}: not readable JSON ({exc})") from exc
    if is_bbt_export(data):
        return read_bbt_data(data, path)
    if is_csl_json(data):
        return read_csl_data(data, path)
    raise InputError(f"{path}: neither a Better BibTeX JSON export (an object with 'items') "
                     "nor CSL-JSON (a list of items with 'id' and 'type')")
