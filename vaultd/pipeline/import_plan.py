"""Which record each item of a library becomes, decided before anything is written (pure).

An item is found again by where it came from (the library and its item key: a re-import
updates, never duplicates), else by the work itself: its DOI, arXiv id or PDF SHA-256, its
key (the same work under it), or an alias a record keeps. Items of one work (the same DOI,
arXiv id or PDF in two libraries) become one record, every key kept: the first item's key
is the record's, the others are its aliases. A key is kept exactly when it is a cite key
(``is_valid_key``) and no other work holds it; a key another work holds gets a letter
(``smith2020a``), as a .bib entry's does; an item without a usable key gets one from the
vault's pattern and keeps what it had as an alias.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from vaultd import citekey
from vaultd.capture.reconcile import titles_match
from vaultd.importers import Attachment, ImportedItem
from vaultd.models import MetaFile


@dataclass(frozen=True)
class Sourced:
    """One item of a library with the name its values are entered under ('Zotero (My
    Library)', 'refs.ris') and the reader it came from ('zotero', 'ris', …)."""

    item: ImportedItem
    origin: str
    source: str

    @property
    def ident(self) -> tuple[str, str]:
        """What finds the item again: its origin and its Zotero item key (else its key,
        else its place in the file)."""
        o = self.item.origin
        return self.origin, o.item_key or self.item.key or f"#{o.index}"


@dataclass(frozen=True)
class VaultEntry:
    """What the plan needs of one record already in the vault."""

    key: str
    doi: str | None = None
    arxiv_id: str | None = None
    pdf_sha256: str | None = None
    title: str | None = None
    aliases: tuple[str, ...] = ()
    origins: tuple[tuple[str, str], ...] = ()  # (origin, item key or key) imported before

    @classmethod
    def of(cls, meta: MetaFile) -> VaultEntry:
        return cls(meta.cite_key, (meta.doi or "").lower() or None, meta.arxiv_id,
                   meta.pdf_sha256, meta.title, tuple(meta.aliases),
                   tuple((o.origin, o.item_key or o.key or "") for o in meta.imported))


@dataclass
class ItemPlan:
    """One work to write: its items (the first gives the key, the others are the same work
    in another library or entry), its key, whether its record exists, the aliases to keep,
    the PDF to bring (and its SHA-256), and what to tell the user."""

    members: list[Sourced]
    key: str
    existing: bool
    aliases: list[str] = field(default_factory=list)
    pdf: Attachment | None = None
    pdf_sha: str | None = None
    notes: list[str] = field(default_factory=list)

    @property
    def first(self) -> Sourced:
        return self.members[0]


def _doi(item: ImportedItem) -> str | None:
    return (item.work.doi or "").strip().lower() or None


def _group(items: Sequence[Sourced], shas: Mapping[Path, str | None]) -> list[list[Sourced]]:
    """Items of one work together (same DOI, arXiv id or PDF bytes), in library order."""
    parent = list(range(len(items)))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    seen: dict[str, int] = {}
    for i, s in enumerate(items):
        marks = [f"doi:{d}" for d in [_doi(s.item)] if d]
        marks += [f"arxiv:{s.item.work.arxiv_id}"] if s.item.work.arxiv_id else []
        marks += [f"sha:{shas[a.path]}" for a in s.item.pdfs if a.path and shas.get(a.path)]
        for mark in marks:
            if mark in seen:
                parent[find(i)] = find(seen[mark])
            else:
                seen[mark] = i
    groups: dict[int, list[Sourced]] = {}
    for i, s in enumerate(items):
        groups.setdefault(find(i), []).append(s)
    return list(groups.values())


class _Vault:
    """The vault's records, looked up by each thing an item can be found by."""

    def __init__(self, entries: Sequence[VaultEntry], taken: Collection[str],
                 pattern: str) -> None:
        self.pattern = citekey.compile_pattern(pattern)
        self.by_key = {citekey.fold_key(e.key): e for e in entries}
        self.by_origin = {o: e for e in entries for o in e.origins}
        self.by_alias = {citekey.fold_key(a): e for e in entries for a in e.aliases}
        self.by_id: dict[str, VaultEntry] = {}
        for e in entries:
            for mark in (f"doi:{e.doi}" if e.doi else "", f"arxiv:{e.arxiv_id}" if e.arxiv_id
                         else "", f"sha:{e.pdf_sha256}" if e.pdf_sha256 else ""):
                if mark:
                    self.by_id.setdefault(mark, e)
        self.messages: dict[str, list[str]] = {}  # new key → what to tell about it
        #: every key and alias a work holds (folded), with the work's key
        self.holder = {citekey.fold_key(k): k for k in taken}
        self.holder.update({citekey.fold_key(e.key): e.key for e in entries})
        self.holder.update({a: e.key for a, e in self.by_alias.items()})

    def find(self, s: Sourced, shas: Mapping[Path, str | None]) -> VaultEntry | None:
        if (e := self.by_origin.get(s.ident)) is not None:
            return e
        item = s.item
        marks = [f"doi:{d}" for d in [_doi(item)] if d]
        marks += [f"arxiv:{item.work.arxiv_id}"] if item.work.arxiv_id else []
        marks += [f"sha:{shas[a.path]}" for a in item.pdfs if a.path and shas.get(a.path)]
        for mark in marks:
            if (e := self.by_id.get(mark)) is not None:
                return e
        for key in [item.key, *item.aliases]:
            folded = citekey.fold_key(key) if key else ""
            e = self.by_key.get(folded) or self.by_alias.get(folded)
            if e is not None and _same_work(e, s):
                return e
        return None


def _same_work(e: VaultEntry, s: Sourced) -> bool:
    """The record under an item's key is the item's work: no id says otherwise, and the
    titles match (or one of them has none)."""
    doi = _doi(s.item)
    if e.doi and doi and e.doi != doi:
        return False
    if e.arxiv_id and s.item.work.arxiv_id and e.arxiv_id != s.item.work.arxiv_id:
        return False
    return not (e.title and s.item.work.title) or titles_match(e.title, s.item.work.title)


def plan(items: Sequence[Sourced], shas: Mapping[Path, str | None],
         entries: Sequence[VaultEntry], taken: Collection[str], pattern: str
         ) -> list[ItemPlan]:
    """One ``ItemPlan`` per work of ``items``. ``shas``: each PDF's SHA-256 (None: not a
    readable PDF); ``entries``: the vault's records; ``taken``: every key a file of the
    vault already names (records, PDFs, notes); ``pattern``: the vault's cite-key pattern."""
    vault = _Vault(entries, taken, pattern)
    plans: list[ItemPlan] = []
    claimed: dict[str, int] = {}  # existing record key → its plan (two groups, one record)
    for group in _group(items, shas):
        found = next((e for s in group if (e := vault.find(s, shas)) is not None), None)
        if found is not None and found.key in claimed:
            plans[claimed[found.key]].members.extend(group)
            continue
        if found is not None:
            p = ItemPlan(group, found.key, existing=True)
            claimed[found.key] = len(plans)
        else:
            p = ItemPlan(group, _new_key(group[0], vault), existing=False)
        vault.holder[citekey.fold_key(p.key)] = p.key
        plans.append(p)
    for p in plans:
        p.notes += vault.messages.get(p.key, [])
        _aliases(p, vault)
        p.pdf, p.pdf_sha = next(((a, shas.get(a.path)) for s in p.members for a in s.item.pdfs
                                 if a.path and shas.get(a.path)), (None, None))
    return plans


def _new_key(s: Sourced, vault: _Vault) -> str:
    key = s.item.key
    if key and citekey.is_valid_key(key):
        if citekey.fold_key(key) not in vault.holder:
            return key
        return citekey.unique_key(key, list(vault.holder.values()))
    base = citekey.make_key(s.item.work, vault.pattern)
    key = citekey.unique_key(base, list(vault.holder.values()), max_chars=citekey.MAX_KEY_CHARS)
    if s.item.key:
        what = "is not a cite key" if not citekey.is_valid_key(s.item.key) else "was taken"
        p_note = f"key {s.item.key!r} {what}; the work is {key}, {s.item.key!r} kept as an alias"
        vault.messages.setdefault(key, []).append(p_note)
    return key


def _aliases(p: ItemPlan, vault: _Vault) -> None:
    """Every other key of the work's items, kept exactly, unless another work holds it."""
    for s in p.members:
        for key in [s.item.key, *s.item.aliases]:
            if not key or key == p.key or key in p.aliases:
                continue
            holder = vault.holder.get(citekey.fold_key(key))
            if holder is not None and holder != p.key:
                p.notes.append(f"key {key!r} of {s.item.origin.label} belongs to another work "
                               f"({holder}); this one is {p.key}")
                continue
            vault.holder[citekey.fold_key(key)] = p.key
            p.aliases.append(key)
