"""The CSL-JSON item a citation processor reads for a Work (pure).

``Work.to_csl`` is the lossless storage form (vaultd's own fields under ``custom``); this
is the citable form: only CSL variables, the title as CSL rich text, and the fields CSL
styles expect of the kinds of work vaultd captures that sources leave implicit:

- arXiv preprints: publisher ``arXiv``, number ``arXiv:<id>``, arXiv's DataCite DOI
  (``10.48550/arXiv.<id>``, registered for every arXiv paper) and the abstract page URL,
  each only when the metadata has none (as Zotero's arXiv translator records them);
- online videos (``motion_picture``): the platform as publisher and genre ``Video``
  (APA 7's ``[Video]``), when only the container names the platform;
- a journal's series given as a number (biblatex ``series = {3}`` of an article) is
  its "3rd series", as biblatex prints it.

Nothing else is added, and nothing is invented: no name, no date.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from vaultd.formats.markup import from_plain
from vaultd.models import Work

ARXIV_DOI_PREFIX = "10.48550/arXiv."

# Title variables read as CSL rich text (a plain value is escaped; ``Work.rich`` overrides).
_RICH_VARIABLES = ("container-title", "collection-title", "event-title")
_ARTICLES = ("article-journal", "article-magazine", "article-newspaper")
# vaultd's storage-only keys that are not CSL variables.
_NOT_CSL = ("custom",)


def with_implicit_fields(work: Work) -> Work:
    """The Work with the preprint/video fields styles expect (see the module docstring)."""
    updates: dict[str, object] = {}
    if work.arxiv_id and work.type == "article":
        if not work.publisher:
            updates["publisher"] = "arXiv"
        if not work.number:
            updates["number"] = f"arXiv:{work.arxiv_id}"
        if not work.doi:
            updates["doi"] = ARXIV_DOI_PREFIX + work.arxiv_id
        if not work.url:
            updates["url"] = f"https://arxiv.org/abs/{work.arxiv_id}"
    if work.type == "motion_picture":
        if not work.publisher and work.container_title:
            updates["publisher"] = work.container_title
            updates["container_title"] = None
        if not work.genre:
            updates["genre"] = "Video"
    if work.type in _ARTICLES and (work.collection_title or "").isdigit():
        updates["collection_title"] = f"{ordinal(int(work.collection_title or 0))} series"
    return work.model_copy(update=updates) if updates else work


def ordinal(n: int) -> str:
    """1st, 2nd, 3rd, 4th … 11th, 12th, 13th, 21st (English, as biblatex's english.lbx)."""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def citable_item(work: Work, item_id: str) -> dict[str, Any]:
    """The CSL-JSON item of ``work`` for a citation processor."""
    item = with_implicit_fields(work).to_csl(item_id)
    for key in _NOT_CSL:
        item.pop(key, None)
    if work.title:
        item["title"] = work.title_rich or from_plain(work.title)
    for variable in _RICH_VARIABLES:
        if variable in item:
            item[variable] = work.rich.get(variable) or from_plain(str(item[variable]))
    return {k: v for k, v in item.items() if v not in ("", [], None)}


def item_digest(item: dict[str, Any]) -> str:
    """What a rendering depends on: the item without its id, canonically serialised."""
    body = {k: v for k, v in item.items() if k != "id"}
    data = json.dumps(body, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(data.encode("utf-8")).hexdigest()
