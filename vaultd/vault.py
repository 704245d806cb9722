"""The vault on disk: its paths, its creation and atomic writes (the single-instance lock
is `service_lock`)."""

from __future__ import annotations

import contextlib
import contextvars
import hashlib
import os
import re
import stat
import tempfile
import threading
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import platformdirs
from anyascii import anyascii

from vaultd.citekey import key_to_filename
from vaultd.errors import VaultError

VAULT_ENV = "VAULTD_VAULT"


@dataclass(frozen=True)
class Vault:
    """Paths of one vault. Constructing it touches nothing on disk."""

    root: Path

    @property
    def inbox(self) -> Path:
        return self.root / "Inbox"

    @property
    def failed(self) -> Path:
        return self.inbox / "_failed"

    @property
    def raw(self) -> Path:
        return self.root / "raw"

    @property
    def figs(self) -> Path:
        return self.raw / "figs"

    @property
    def wiki(self) -> Path:
        return self.root / "wiki"

    @property
    def library_bib(self) -> Path:
        return self.root / "library.bib"

    @property
    def state_dir(self) -> Path:
        return self.root / ".vaultd"

    @property
    def config_path(self) -> Path:
        return self.state_dir / "config.toml"

    @property
    def machine_dir(self) -> Path:
        """This machine's state for the vault, outside it (``vaultd.machine``)."""
        # lazy: vaultd.machine costs 8 ms at import (pulls in logging)
        from vaultd.machine import machine_dir

        return machine_dir(self.state_dir)

    @property
    def state_db(self) -> Path:
        return self.machine_dir / "state.db"

    @property
    def index_db(self) -> Path:
        """The live search index (``vaultd.index_generation``: a rebuild swaps in a new one)."""
        # lazy: vaultd.index_generation costs 1 ms at import; vault.py is on every command's start-up (vaultd --help)
        from vaultd.index_generation import current_index

        return current_index(self.machine_dir)

    @property
    def rules_dir(self) -> Path:
        return self.state_dir / "rules"

    @property
    def logs_dir(self) -> Path:
        return self.machine_dir / "logs"

    @property
    def processed_dir(self) -> Path:
        return self.state_dir / "processed"

    def pdf_path(self, cite_key: str) -> Path:
        return _listed(self.raw, f"{key_to_filename(cite_key)}.pdf")

    def meta_path(self, cite_key: str) -> Path:
        return _listed(self.raw, f"{key_to_filename(cite_key)}.meta.json")

    def note_path(self, cite_key: str) -> Path:
        """Where ``cite_key``'s paper note is: ``wiki/<name>.md`` (``name`` the key's file
        name, ``citekey.key_to_filename``), or wherever in a subfolder of ``wiki/`` it was
        filed (by an inbox rule's ``folder`` or by the user moving it). A key without a
        note yet gets the default ``wiki/<name>.md``."""
        default = _listed(self.wiki, f"{key_to_filename(cite_key)}.md")
        if default.is_file() or not self.wiki.is_dir():
            return default
        want = _nfc(default.name)
        # Only subfolders can hold it now: a flat wiki/ (the usual one) is not walked, so
        # a bulk import asking for thousands of new notes does not read wiki/ each time.
        with contextlib.suppress(OSError):
            for entry in os.scandir(self.wiki):
                if not entry.is_dir() or entry.name.startswith("."):
                    continue
                for path in Path(entry.path).rglob("*.md"):
                    rel = path.relative_to(self.wiki).parts
                    if _nfc(path.name) == want and not any(p.startswith(".") for p in rel):
                        return path
        return default

    def new_note_path(self, cite_key: str, folder: str | None = None) -> Path:
        """The existing note of ``cite_key`` if any, else its place in ``wiki/[folder/]``."""
        path = self.note_path(cite_key)
        if path.is_file() or not folder:
            return path
        return self.wiki / folder / f"{key_to_filename(cite_key)}.md"

    def paper_notes(self) -> list[Path]:
        """Every paper note in ``wiki/`` (any subfolder): a Markdown file whose name is the
        file name of a record's key in ``raw/``, sorted by path. The user's own notes are not."""
        if not self.wiki.is_dir():
            return []
        records = {_nfc(p.name[: -len(".meta.json")]) for p in self.raw.glob("*.meta.json")}
        return sorted(p for p in self.wiki_markdown() if _nfc(p.stem) in records)

    def wiki_markdown(self) -> list[Path]:
        """Markdown files under ``wiki/``, skipping hidden folders (``.obsidian``, ``.trash``)."""
        return [p for p in self.wiki.rglob("*.md")
                if not any(part.startswith(".") for part in p.relative_to(self.wiki).parts)]

    def sync_conflicts(self) -> list[tuple[str, str]]:
        """Sync tools' conflict copies in the vault (hidden folders skipped), each with the
        file it is a copy of, vault-relative (``vaultd.sync_conflicts``)."""
        # lazy: vaultd.sync_conflicts costs 1 ms at import; vault.py is on every command's start-up
        from vaultd.sync_conflicts import conflict_original

        found: list[tuple[str, str]] = []
        for folder, dirs, files in os.walk(self.root):  # one walk, hidden folders pruned
            dirs[:] = [d for d in dirs if not d.startswith(".")]
            rel = Path(folder).relative_to(self.root)
            for name in files:
                original = conflict_original(name) if "onflict" in name else None
                if original is not None and not name.startswith("."):
                    found.append(((rel / name).as_posix(), (rel / original).as_posix()))
        return sorted(found)

    def rel(self, path: Path) -> str:
        """Vault-relative POSIX path (the form links and frontmatter use)."""
        return path.resolve().relative_to(self.root.resolve()).as_posix()

    def exists(self) -> bool:
        return self.state_dir.is_dir()

    def init(self, config_text: str) -> list[Path]:
        """Create the layout; idempotent. Returns the paths it created."""
        created: list[Path] = []
        for d in (self.inbox, self.failed, self.raw, self.wiki, self.state_dir,
                  self.rules_dir):
            if not d.is_dir():
                d.mkdir(parents=True, exist_ok=True)
                created.append(d)
        if not self.config_path.exists():
            atomic_write_text(self.config_path, config_text)
            created.append(self.config_path)
        self.logs_dir.mkdir(parents=True, exist_ok=True)  # in the machine's state directory
        return created

    def require(self) -> Vault:
        if not self.root.is_dir():
            raise VaultError(f"vault {self.root} does not exist; run `vaultd init {self.root}`")
        if not self.exists():
            raise VaultError(
                f"{self.root} is not a vaultd vault (no .vaultd/); run `vaultd init {self.root}`"
            )
        return self


def _nfc(name: str) -> str:
    return unicodedata.normalize("NFC", name)


def _listed(folder: Path, name: str) -> Path:
    """``folder / name``, or the file in ``folder`` whose name is ``name`` composed
    differently (a sync tool or macOS may have written it decomposed, NFD): the same key."""
    path = folder / name
    if name.isascii() or path.exists() or not folder.is_dir():
        return path
    want = _nfc(name)
    with contextlib.suppress(OSError):
        for entry in os.scandir(folder):
            if entry.name != name and _nfc(entry.name) == want:
                return folder / entry.name
    return path


def user_config_dir() -> Path:
    """Where vaultd remembers the default vault (outside any vault): platformdirs'
    per-user config folder (``~/Library/Application Support/vaultd`` on macOS,
    ``$XDG_CONFIG_HOME/vaultd`` or ``~/.config/vaultd`` on Linux)."""
    return Path(platformdirs.user_config_dir("vaultd", appauthor=False))


def default_vault() -> Path | None:
    """The vault recorded as the default (by the first `vaultd init`, or `--default`)."""
    remembered = user_config_dir() / "default_vault"
    if remembered.is_file():
        text = remembered.read_text(encoding="utf-8").strip()
        if text:
            return Path(text)
    return None


def remember_default_vault(root: Path, *, replace: bool = False) -> bool:
    """Record ``root`` as the default vault when none is (or the recorded one is gone), or
    when ``replace``: another vault's init never moves the default silently. True when
    ``root`` is the default now."""
    root = root.resolve()
    current = default_vault()
    if current is not None and current != root and not replace and Vault(current).exists():
        return False
    atomic_write_text(user_config_dir() / "default_vault", str(root) + "\n")
    return True


def resolve_vault(flag: str | os.PathLike[str] | None) -> Vault:
    """--vault flag, else $VAULTD_VAULT, else the default vault (see ``default_vault``)."""
    if flag:
        return Vault(Path(flag).expanduser().resolve())
    env = os.environ.get(VAULT_ENV)
    if env:
        return Vault(Path(env).expanduser().resolve())
    remembered = default_vault()
    if remembered is not None:
        return Vault(remembered)
    raise VaultError("no vault given; pass --vault DIR, set VAULTD_VAULT, or run `vaultd init DIR`")


def _current_umask() -> int:
    """The process umask, read without changing it where Linux allows (``/proc``)."""
    with contextlib.suppress(OSError, ValueError):
        for line in Path("/proc/self/status").read_text(encoding="ascii").splitlines():
            if line.startswith("Umask:"):
                return int(line.split()[1], 8)
    with _UMASK_LOCK:
        mask = os.umask(0o022)
        os.umask(mask)
    return mask


_UMASK_LOCK = threading.Lock()


def _target_mode(path: Path) -> int:
    """The mode a rewritten ``path`` should have: an existing file keeps its own (the
    user's chmod survives); a new file gets what ``open()`` would give it (0666 & ~umask).
    ``mkstemp`` alone would leave every file vaultd writes at 0600."""
    try:
        return stat.S_IMODE(path.stat().st_mode)
    except OSError:
        return 0o666 & ~_current_umask()


MAX_NAME = 80


def safe_stem(title: str | None, url: str) -> str:
    """A file name stem from the title (else the URL's last part): ASCII letters, digits,
    spaces and ``-_.``, no leading dot, at most ``MAX_NAME`` characters; never empty."""
    source = title or url.rstrip("/").rsplit("/", 1)[-1] or "capture"
    text = re.sub(r"[^A-Za-z0-9 _.-]+", " ", anyascii(source))
    text = re.sub(r"\.(pdf|html?|url)$", "", text, flags=re.IGNORECASE)
    text = re.sub(r"\s+", " ", re.sub(r"\.{2,}", ".", text)).strip(" .-_")
    text = text[:MAX_NAME].rstrip(" .-_")
    return text or "capture"



#: Set inside ``synced_at_end``: atomic writes skip their own fsyncs.
_SYNC_AT_END: contextvars.ContextVar[bool] = contextvars.ContextVar("sync_at_end",
                                                                    default=False)


@contextlib.contextmanager
def synced_at_end() -> Iterator[None]:
    """Atomic writes inside the block skip their fsyncs (still never a partial file under
    its name) and the file system is synced once when it ends: a bulk import writes
    thousands of small files, and an fsync each (≈ 8 ms here) would cost more than the
    rest of the import. What a crash inside the block loses, running it again writes."""
    token = _SYNC_AT_END.set(True)
    try:
        yield
    finally:
        _SYNC_AT_END.reset(token)
        os.sync()


def atomic_write_bytes(path: Path, data: bytes, *, durable: bool = True) -> None:
    """Write via a temp file in the same directory, fsync, then rename over ``path``.

    A reader (or a crash) sees either the old file or the new one, never a partial one.
    The file's mode is kept when it exists, else set from the umask (see ``_target_mode``).
    ``durable=False`` skips the fsyncs (still never a partial file under its name): for
    derived data that is rebuilt when a crash loses it.
    """
    durable = durable and not _SYNC_AT_END.get()
    path.parent.mkdir(parents=True, exist_ok=True)
    mode = _target_mode(path)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        os.fchmod(fd, mode)
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            if durable:
                fh.flush()
                os.fsync(fh.fileno())
        Path(tmp).replace(path)
    except BaseException as exc:
        with contextlib.suppress(FileNotFoundError):
            Path(tmp).unlink()
        raise _named(exc, path) from None
    if durable:
        _fsync_dir(path.parent)


def _named(exc: BaseException, path: Path) -> BaseException:
    """A write error without a file name (``write()`` on a full disk) names the file it was
    writing, so its one-line message can say where; anything else as it is."""
    if isinstance(exc, OSError) and exc.filename is None and exc.errno is not None:
        return type(exc)(exc.errno, exc.strerror, str(path))
    return exc



def unique_path(target: Path) -> Path:
    """``target``, or ``name-2.ext``, ``name-3.ext`` … the first that does not exist."""
    if not target.exists() and not target.is_symlink():
        return target
    stem, suffix = target.stem, target.suffix
    n = 2
    while True:
        candidate = target.with_name(f"{stem}-{n}{suffix}")
        if not candidate.exists() and not candidate.is_symlink():
            return candidate
        n += 1

def atomic_write_text(path: Path, text: str) -> None:
    atomic_write_bytes(path, text.encode("utf-8"))


def atomic_copy(src: Path, dst: Path) -> None:
    """Copy ``src`` to ``dst`` atomically (temp file + fsync + rename); the mode follows
    the same rule as ``atomic_write_bytes``."""
    durable = not _SYNC_AT_END.get()
    dst.parent.mkdir(parents=True, exist_ok=True)
    mode = _target_mode(dst)
    fd, tmp = tempfile.mkstemp(prefix=f".{dst.name}.", suffix=".tmp", dir=dst.parent)
    try:
        os.fchmod(fd, mode)
        with os.fdopen(fd, "wb") as out, src.open("rb") as inp:
            while block := inp.read(1 << 20):
                out.write(block)
            if durable:
                out.flush()
                os.fsync(out.fileno())
        Path(tmp).replace(dst)
    except BaseException as exc:
        with contextlib.suppress(FileNotFoundError):
            Path(tmp).unlink()
        raise _named(exc, dst) from None
    if durable:
        _fsync_dir(dst.parent)


def _fsync_dir(directory: Path) -> None:
    with contextlib.suppress(OSError):
        fd = os.open(directory, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def file_sha256(path: Path) -> str:
    """SHA-256 of a file's bytes (hex), read in 1 MiB blocks: the identity of a PDF."""
    digest = hashlib.sha256()
    with path.open("rb") as fh:
        while block := fh.read(1 << 20):
            digest.update(block)
    return digest.hexdigest()
