"""Inbox rules: which action an inbox file gets, and why.

Rules are TOML files holding ``[[rules]]`` tables. The user's rules in
``<vault>/.vaultd/rules/*.toml`` are tried first (files in name order), then the shipped
defaults in ``inbox_rules/``. A rule matches when every condition it gives holds; the first
matching rule wins. An invalid rule is a ``ConfigError`` naming the file, rule and field.
"""

from __future__ import annotations

import fnmatch
import plistlib
import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal
from urllib.parse import urlsplit

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from vaultd.errors import ConfigError

#: The shipped rule files in the order they are tried (others after, by name): the video
#: rule before the library files, so yt-dlp's ``*.info.json`` stays a video.
DEFAULT_ORDER = ("pdf.toml", "links.toml", "bib.toml", "video.toml", "zotero.toml")
LINK_EXTENSIONS = (".url", ".webloc", ".txt", ".md")
MAGIC_BYTES = 1024
LINK_FILE_MAX_BYTES = 1 << 20
_URL_RE = re.compile(r"https?://[^\s<>\"')\]]+", re.IGNORECASE)


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class RuleMatch(_Strict):
    extension: list[str] | None = Field(None, description="any of these suffixes, e.g. .pdf")
    magic: str | None = Field(None, description="the file starts with these bytes")
    glob: str | None = Field(None, description="filename glob, e.g. 'scan-*.pdf'")
    url_host: list[str] | None = Field(None, description="URL host, or a subdomain of it")
    url_regex: str | None = Field(None, description="regular expression searched in the URL")

    @field_validator("extension")
    @classmethod
    def _dotted_lower(cls, value: list[str] | None) -> list[str] | None:
        if value is None:
            return None
        return [("." + v.lstrip(".")).lower() for v in value]

    @field_validator("url_regex")
    @classmethod
    def _compiles(cls, value: str | None) -> str | None:
        if value is not None:
            try:
                re.compile(value)
            except re.error as exc:
                raise ValueError(f"not a valid regular expression: {exc}") from exc
        return value


class Rule(_Strict):
    name: str = Field(min_length=1)
    match: RuleMatch
    action: Literal["capture", "import_bib", "save_web", "ignore"]
    tags: list[str] = Field(default_factory=list)
    compile: bool = True
    enrich: bool = True
    folder: str | None = Field(None, description="subfolder of wiki/ for the note")

    @field_validator("folder")
    @classmethod
    def _relative(cls, value: str | None) -> str | None:
        if value is not None and (value.startswith("/") or ".." in Path(value).parts):
            raise ValueError("must be a relative folder inside wiki/")
        return value


class RuleFile(_Strict):
    rules: list[Rule] = Field(default_factory=list)


@dataclass(frozen=True)
class LoadedRule:
    rule: Rule
    origin: Path


@dataclass
class FileFacts:
    """What the rules look at: read once per file."""

    path: Path
    head: bytes
    url: str | None

    @property
    def suffix(self) -> str:
        return self.path.suffix.lower()


@dataclass
class Decision:
    rule: LoadedRule | None
    facts: FileFacts
    reasons: list[str] = field(default_factory=list)
    rejected: list[tuple[str, str]] = field(default_factory=list)

    @property
    def action(self) -> str:
        return self.rule.rule.action if self.rule else "none"


def default_rules_dir() -> Path:
    """The shipped rules: package data when installed, ``inbox_rules/`` in a checkout."""
    here = Path(__file__).resolve().parent
    for candidate in (here / "inbox_rules", here.parents[1] / "inbox_rules"):
        if candidate.is_dir():
            return candidate
    raise ConfigError(f"shipped inbox rules not found next to {here}; reinstall vaultd")


def _one_line(exc: ValidationError, path: Path, data: object) -> str:
    err = exc.errors()[0]
    loc = list(err["loc"])
    rule_name = "?"
    if len(loc) >= 2 and loc[0] == "rules" and isinstance(loc[1], int):
        rules = data.get("rules") if isinstance(data, dict) else None
        if isinstance(rules, list) and loc[1] < len(rules) and isinstance(rules[loc[1]], dict):
            rule_name = str(rules[loc[1]].get("name") or f"#{loc[1] + 1}")
        else:
            rule_name = f"#{loc[1] + 1}"
        loc = loc[2:]
    fld = ".".join(str(p) for p in loc) or "rules"
    msg = err["msg"]
    if err["type"] == "extra_forbidden":
        msg = "unknown field"
    return f"{path}: rule '{rule_name}', field '{fld}': {msg}; fix the rule (see docs/daemon.md)"


def load_rule_file(path: Path) -> list[LoadedRule]:
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{path}: cannot read rule file: {exc}; fix or remove it") from exc
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: not valid TOML: {exc}; fix or remove it") from exc
    try:
        parsed = RuleFile.model_validate(data)
    except ValidationError as exc:
        raise ConfigError(_one_line(exc, path, data)) from exc
    return [LoadedRule(rule, path) for rule in parsed.rules]


def load_rules(user_dir: Path | None, defaults_dir: Path | None = None) -> list[LoadedRule]:
    """User rules (``*.toml`` in name order) first, then the shipped defaults."""
    loaded: list[LoadedRule] = []
    if user_dir is not None and user_dir.is_dir():
        for path in sorted(user_dir.glob("*.toml")):
            loaded.extend(load_rule_file(path))
    shipped = defaults_dir or default_rules_dir()
    rank = {name: i for i, name in enumerate(DEFAULT_ORDER)}
    for path in sorted(shipped.glob("*.toml"), key=lambda p: (rank.get(p.name, 99), p.name)):
        loaded.extend(load_rule_file(path))
    return loaded


def extract_url(path: Path, head: bytes | None = None) -> str | None:
    """The URL a link file points at (.url, .webloc, or the first URL in .txt/.md)."""
    suffix = path.suffix.lower()
    if suffix not in LINK_EXTENSIONS:
        return None
    data = head if head is not None else path.read_bytes()[:LINK_FILE_MAX_BYTES]
    if suffix == ".webloc":
        try:
            plist = plistlib.loads(data)
        except Exception:  # malformed plists raise a zoo of exception types
            plist = None
        if isinstance(plist, dict) and isinstance(plist.get("URL"), str):
            return str(plist["URL"]).strip() or None
    text = data.decode("utf-8", errors="replace")
    if suffix == ".url":
        for line in text.splitlines():
            if line.strip().lower().startswith("url="):
                value = line.split("=", 1)[1].strip()
                return value or None
        return None
    found = _URL_RE.search(text)
    return found.group(0).rstrip(".,;") if found else None


def read_facts(path: Path) -> FileFacts:
    """Read what the rules need; raises OSError when the file cannot be read."""
    with path.open("rb") as fh:
        size_cap = LINK_FILE_MAX_BYTES if path.suffix.lower() in LINK_EXTENSIONS else MAGIC_BYTES
        head = fh.read(size_cap)
    url = extract_url(path, head)
    return FileFacts(path=path, head=head[:MAGIC_BYTES], url=url)


def _host_matches(host: str, wanted: list[str]) -> str | None:
    host = host.lower().rstrip(".")
    for w in wanted:
        w = w.lower()
        if host == w or host.endswith("." + w):
            return w
    return None


def _check(match: RuleMatch, facts: FileFacts) -> tuple[bool, list[str]]:
    """(matched, reasons) — reasons explain each condition that held, or the one that failed."""
    reasons: list[str] = []
    if match.extension is not None:
        if facts.suffix not in match.extension:
            return False, [f"extension {facts.suffix or '(none)'} not in {match.extension}"]
        reasons.append(f"extension {facts.suffix} is in {match.extension}")
    if match.magic is not None:
        magic = match.magic.encode("latin-1")
        if not facts.head.startswith(magic):
            return False, [f"content does not start with {match.magic!r}"]
        reasons.append(f"content starts with {match.magic!r}")
    if match.glob is not None:
        if not fnmatch.fnmatch(facts.path.name, match.glob):
            return False, [f"name {facts.path.name!r} does not match {match.glob!r}"]
        reasons.append(f"name matches {match.glob!r}")
    if match.url_host is not None or match.url_regex is not None:
        if not facts.url:
            return False, ["no URL found in the file"]
        if match.url_host is not None:
            host = urlsplit(facts.url).hostname or ""
            hit = _host_matches(host, match.url_host)
            if hit is None:
                return False, [f"URL host {host!r} not in {match.url_host}"]
            reasons.append(f"URL host {host!r} matches {hit!r}")
        if match.url_regex is not None:
            if not re.search(match.url_regex, facts.url):
                return False, [f"URL does not match /{match.url_regex}/"]
            reasons.append(f"URL matches /{match.url_regex}/")
    return True, reasons


def decide(rules: list[LoadedRule], facts: FileFacts) -> Decision:
    """The first rule whose every condition holds, with the reasons (for `rules test`)."""
    decision = Decision(rule=None, facts=facts)
    for loaded in rules:
        ok, reasons = _check(loaded.rule.match, facts)
        if ok:
            decision.rule = loaded
            decision.reasons = reasons
            return decision
        decision.rejected.append((loaded.rule.name, reasons[0] if reasons else "no match"))
    return decision
