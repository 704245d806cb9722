"""Settings: defaults < <vault>/.vaultd/config.toml < VAULTD_* environment < flags.

Every field has a description; ``default_config_toml()`` renders them as the commented
config file `vaultd init` writes. Unknown keys and bad values fail with one line naming
the file, the key and what is allowed.
"""

from __future__ import annotations

import os
import re
import tomllib
import typing
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, Literal
from urllib.parse import urlsplit

import tomli_w
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from vaultd.errors import ConfigError, VaultdError


class _Section(BaseModel):
    model_config = ConfigDict(extra="forbid", validate_assignment=True)


class CitekeySettings(_Section):
    pattern: str = Field(
        "[auth:lower][year][shorttitle:1:nopunct]",
        description="cite-key pattern (see docs/citekeys.md)",
    )
    video_pattern: str = Field(
        "[auth:lower][year][shorttitle:1:nopunct]",
        description="cite-key pattern for videos; the channel is the author",
    )


class CitationSettings(_Section):
    styles: list[str] = Field(
        ["apa", "mla", "chicago", "ieee"],
        description="CSL styles every note, `cite` and MCP carry: short names (apa, mla, "
        "chicago, ieee), official style names (nature, vancouver, …) or paths to .csl files",
    )
    lang: str | None = Field(
        None, pattern=r"^[a-z]{2,3}(-[A-Za-z]{2,4})?(-[A-Z]{2}|-\d{3})?$",
        description="locale of the citations, e.g. en-GB or de-DE (default: the style's)",
    )
    pandoc: str | None = Field(
        None, description="pandoc binary for citations (default: the one vaultd installs)"
    )


class CaptureSettings(_Section):
    email: str | None = Field(
        None, description="contact email: CrossRef/OpenAlex polite pool and Unpaywall"
    )
    unpaywall_email: str | None = Field(None, description="email for Unpaywall (else `email`)")
    arxiv_api_url: str = Field("https://export.arxiv.org/api/query", description="arXiv API")
    arxiv_pdf_url: str = Field("https://arxiv.org/pdf", description="arXiv PDF base URL")
    crossref_url: str = Field("https://api.crossref.org", description="CrossRef REST API")
    openalex_url: str = Field("https://api.openalex.org", description="OpenAlex API")
    unpaywall_url: str = Field("https://api.unpaywall.org", description="Unpaywall API")
    timeout_seconds: float = Field(20.0, gt=0, description="per-request timeout")
    max_retries: int = Field(3, ge=0, le=10, description="retries on connect errors, 429, 5xx")
    arxiv_interval_seconds: float = Field(
        3.0, ge=0, description="minimum gap between arXiv requests (arXiv's rule)"
    )
    max_download_mb: int = Field(
        200, ge=1, description="a download larger than this is stopped and refused")
    error_cache_minutes: float = Field(
        60.0, ge=0, description="how long a 'not found' answer is reused before asking again")
    allow_private_addresses: bool = Field(
        False, description="download PDFs from loopback, link-local and private addresses too")


class ParseSettings(_Section):
    parser: Literal["auto", "pymupdf", "marker", "pdftotext"] = Field(
        "auto", description="PDF parser tier"
    )
    ocr: bool = Field(True, description="OCR pages without a text layer (tesseract)")
    ocr_language: str = Field("eng", description="tesseract language(s), e.g. eng+deu")


class EnrichSettings(_Section):
    enabled: bool = Field(True, description="ask the local LLM for paraphrase/implication")
    ollama_host: str = Field("http://127.0.0.1:11434", description="Ollama server")
    model: str = Field("llama3.2:3b", description="Ollama model")
    batch_size: int = Field(8, ge=1, le=64, description="chunks per LLM request")
    concurrency: int = Field(2, ge=1, le=16, description="LLM requests in flight")
    timeout_seconds: float = Field(120.0, gt=0, description="per-request timeout")


class IndexSettings(_Section):
    embedding_provider: Literal["ollama", "sentence-transformers", "none"] = Field(
        "ollama", description="vector embeddings for recall (none = keyword search only)"
    )
    embedding_model: str = Field("nomic-embed-text", description="embedding model name")
    recency_half_life_days: float = Field(
        90.0, ge=0, description="boost recently edited own notes: the boost halves every N "
        "days (0 = no boost; `vaultd search --no-recency` turns it off for one search)"
    )
    rescore: bool = Field(
        True, description="score every candidate on both keyword and vector side before "
        "fusing (false: the two top-50 lists fused as they are, a candidate missing from one "
        "scoring 0 on that side)"
    )


class DaemonSettings(_Section):
    debounce_seconds: float = Field(2.0, ge=0, description="quiet time before an item is read")
    max_file_mb: int = Field(512, ge=1, description="larger inbox files are rejected")
    concurrency: int = Field(2, ge=1, le=16, description="jobs run at once")
    compile_workers: int | None = Field(
        None, ge=0, le=16,
        description="worker processes compiling PDFs (default: one per core, at most 4; "
                    "0: compile in the job threads)")
    verify_at: str = Field(
        "03:00", pattern=r"^([01]\d|2[0-3]):[0-5]\d$",
        description="daily verify time (HH:MM, local, 00:00-23:59)"
    )
    retry_minutes: int = Field(
        15, ge=1, description="how often the retry pass reports waiting transient failures"
    )
    enrich_backlog_minutes: int = Field(
        30, ge=1, description="how often notes still waiting for the LLM are enriched"
    )
    index_reconcile_minutes: int = Field(
        60, ge=1, description="how often the search index is reconciled with the vault"
    )
    bib_export_minutes: int = Field(
        10, ge=1, description="how often library.bib is re-exported if citation data changed"
    )
    inbox_lease_settle_seconds: float = Field(
        5.0, ge=0, le=300,
        description="after taking the Inbox lease of a synced vault, wait this long (the sync "
                    "delay) and check it is still this machine's before processing")


class VideoSettings(_Section):
    language: str | None = Field(
        None, description="transcript language (default: the video's own, else English)")
    download_media: bool = Field(
        False, description="vaultd capture of a YouTube URL also downloads the video (for slides)")
    keep_media: bool = Field(
        False, description="keep a video's media file in raw/youtube/ after its slides are read")
    slides: bool = Field(True, description="read slides (keyframes + OCR) when the media is there")
    max_slides: int = Field(60, ge=0, description="at most this many slide frames per video")
    asr_model: str = Field(
        "small", description="faster-whisper model for videos without captions (vaultd[asr])")
    proxy: str | None = Field(
        None, description="HTTP(S)/SOCKS proxy yt-dlp uses to reach YouTube (VAULTD_VIDEO_PROXY)")


class McpSettings(_Section):
    enabled: bool = Field(True, description="vaultd run serves MCP over HTTP on 127.0.0.1")
    port: int = Field(7601, ge=1, le=65535, description="MCP over HTTP on 127.0.0.1:<port>/mcp")
    notes_dir: str = Field(
        "Notes/agent", description="where MCP remember writes agents' notes (vault-relative)")

    @field_validator("notes_dir")
    @classmethod
    def _inside(cls, value: str) -> str:
        if value.startswith("/") or ".." in Path(value).parts or not value.strip():
            raise ValueError("must be a folder inside the vault, e.g. Notes/agent")
        return value


class BridgeSettings(_Section):
    enabled: bool = Field(True, description="vaultd run starts the browser bridge")
    port: int = Field(7600, ge=1, le=65535, description="the bridge listens on 127.0.0.1:<port>")
    max_capture_mb: int = Field(64, ge=1, description="larger capture bodies are refused (413)")
    requests_per_minute: int = Field(
        120, ge=1, description="requests one client may make per minute (more get 429)")
    agent_actions: bool = Field(
        False, description="relay agent actions to the extension (it must allow them too)")


class LibrarySettings(_Section):
    url: str | None = Field(
        None, description="the lab library: postgresql://member@host/db (VAULTD_LIBRARY_URL); "
        "the password comes from PGPASSWORD or ~/.pgpass, never from this file")
    name: str = Field(
        "lab", pattern=r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,62}$",
        description="the group this vault publishes to and searches (a library holds many)")
    publish: bool = Field(
        True, description="publish each work to the library after it is compiled (vaultd "
        "run, capture, import); false: only `vaultd library publish`")
    share_pdfs: bool = Field(
        False, description="publish the PDFs too (else only their SHA-256 and the publisher)")
    publish_notes: bool = Field(
        False, description="publish your own text in the notes (\"My notes\", notes on a "
        "quote) too; never the Notes/ folder")

    @field_validator("url")
    @classmethod
    def _no_password(cls, value: str | None) -> str | None:
        if value is None or not value.strip():
            return None
        parts = urlsplit(value)
        if parts.scheme not in ("postgresql", "postgres"):
            raise ValueError("must be a postgresql:// URL")
        if parts.password:
            raise ValueError("holds a password: keep it in PGPASSWORD or ~/.pgpass and write "
                             "the URL without it")
        return value


class Settings(_Section):
    citekey: CitekeySettings = Field(default_factory=CitekeySettings)
    citations: CitationSettings = Field(default_factory=CitationSettings)
    capture: CaptureSettings = Field(default_factory=CaptureSettings)
    parse: ParseSettings = Field(default_factory=ParseSettings)
    enrich: EnrichSettings = Field(default_factory=EnrichSettings)
    index: IndexSettings = Field(default_factory=IndexSettings)
    daemon: DaemonSettings = Field(default_factory=DaemonSettings)
    bridge: BridgeSettings = Field(default_factory=BridgeSettings)
    video: VideoSettings = Field(default_factory=VideoSettings)
    mcp: McpSettings = Field(default_factory=McpSettings)
    library: LibrarySettings = Field(default_factory=LibrarySettings)


# Environment variables with established names; every other field is also reachable
# as VAULTD_<SECTION>_<FIELD> (e.g. VAULTD_DAEMON_DEBOUNCE_SECONDS).
ENV_ALIASES: dict[str, tuple[str, str]] = {
    "VAULTD_ARXIV_API_URL": ("capture", "arxiv_api_url"),
    "VAULTD_ARXIV_PDF_URL": ("capture", "arxiv_pdf_url"),
    "VAULTD_CROSSREF_URL": ("capture", "crossref_url"),
    "VAULTD_OPENALEX_URL": ("capture", "openalex_url"),
    "VAULTD_UNPAYWALL_URL": ("capture", "unpaywall_url"),
    "VAULTD_UNPAYWALL_EMAIL": ("capture", "unpaywall_email"),
    "VAULTD_EMAIL": ("capture", "email"),
    "OLLAMA_HOST": ("enrich", "ollama_host"),
    "VAULTD_OLLAMA_MODEL": ("enrich", "model"),
    "VAULTD_CITEKEY_PATTERN": ("citekey", "pattern"),
    "VAULTD_PARSER": ("parse", "parser"),
    "VAULTD_EMBEDDING_PROVIDER": ("index", "embedding_provider"),
    "VAULTD_PANDOC": ("citations", "pandoc"),
    "VAULTD_LIBRARY_URL": ("library", "url"),
}


def _sections() -> dict[str, type[_Section]]:
    hints = typing.get_type_hints(Settings)
    return {name: hints[name] for name in Settings.model_fields}


def _env_layer(environ: Mapping[str, str]) -> tuple[dict[str, dict[str, Any]], dict[tuple[str, str], str]]:
    """The settings the environment sets, and for each (section, field) the variable
    that set it (so an error can name it)."""
    layer: dict[str, dict[str, Any]] = {}
    source: dict[tuple[str, str], str] = {}
    for section, model in _sections().items():
        for field in model.model_fields:
            var = f"VAULTD_{section}_{field}".upper()
            if var in environ:
                value: Any = environ[var]
                if typing.get_origin(model.model_fields[field].annotation) is list:
                    value = [v.strip() for v in value.split(",") if v.strip()]  # "apa,nature"
                layer.setdefault(section, {})[field] = value
                source[(section, field)] = var
    for var, (section, field) in ENV_ALIASES.items():
        if environ.get(var):
            value = environ[var]
            if var == "OLLAMA_HOST" and "://" not in value:
                value = f"http://{value}"
            layer.setdefault(section, {})[field] = value
            source[(section, field)] = var
    return layer, source


def _merge(base: dict[str, Any], over: Mapping[str, Any]) -> dict[str, Any]:
    out = dict(base)
    for key, value in over.items():
        if isinstance(value, Mapping) and isinstance(out.get(key), dict):
            out[key] = _merge(out[key], value)
        else:
            out[key] = value
    return out


def _redacted(value: str) -> str:
    """``value`` with the password of a URL in it replaced by ``***`` (never echoed)."""
    return re.sub(r"(://[^/@:\s]*:)[^/@\s]*@", r"\1***@", value)


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _one_line(exc: ValidationError, origin: str | Callable[[tuple[str, ...]], str]) -> str:
    """One line for the first error: where it came from, the key, what is allowed.
    ``origin`` is a fixed label or a function of the error's key path."""
    err = exc.errors()[0]
    loc = tuple(str(p) for p in err["loc"])
    key = ".".join(loc)
    where = origin if isinstance(origin, str) else origin(loc)
    if err["type"] == "extra_forbidden":
        section = loc[0]
        sections = _sections()
        if len(loc) == 1 or section not in sections:
            allowed = ", ".join(sections)
        else:
            allowed = ", ".join(sections[section].model_fields)
        return f"{where}: unknown key '{key}' (allowed: {allowed})"
    ctx = err.get("ctx") or {}
    if "expected" in ctx:  # pydantic's message repeats the same list: say it once
        return f"{where}: bad value {_short(err.get('input'))} for '{key}' (allowed: {ctx['expected']})"
    return f"{where}: bad value for '{key}': {err['msg']}"


FieldCheck = Callable[[Any], object]


def load_settings(
    config_path: Path | None = None,
    environ: Mapping[str, str] | None = None,
    overrides: Mapping[str, Mapping[str, Any]] | None = None,
    checks: Mapping[tuple[str, str], FieldCheck] | None = None,
) -> Settings:
    """Build settings from the layers; raises ConfigError with a one-line message naming
    the layer a bad value came from (the file, the ``VAULTD_*`` variable, or the flags).

    ``checks`` maps (section, field) to a validator that raises ``ValueError`` or a
    ``VaultdError`` (e.g. the cite-key pattern compiler, which this module may not import);
    it runs on the final value and its message is reported the same way."""
    environ = os.environ if environ is None else environ
    data: dict[str, Any] = {}
    file_origin = "defaults"
    if config_path is not None and config_path.is_file():
        file_origin = str(config_path)
        try:
            file_data = tomllib.loads(config_path.read_text(encoding="utf-8"))
        except UnicodeDecodeError as exc:
            raise ConfigError(f"{config_path}: not UTF-8 text (byte {exc.start}); save it as "
                              "UTF-8 (TOML files must be)") from exc
        except OSError as exc:
            raise ConfigError(f"{config_path}: cannot read it ({exc.strerror or exc})") from exc
        except tomllib.TOMLDecodeError as exc:
            raise ConfigError(f"{config_path}: not valid TOML: {exc}; fix or delete it") from exc
        try:
            Settings.model_validate(file_data)
        except ValidationError as exc:
            raise ConfigError(_one_line(exc, file_origin)) from exc
        data = _merge(data, file_data)
    env, env_source = _env_layer(environ)
    if env:
        data = _merge(data, env)
    flags = {k: dict(v) for k, v in (overrides or {}).items()}
    if flags:
        data = _merge(data, flags)

    def origin(loc: tuple[str, ...]) -> str:
        if len(loc) >= 2 and loc[1] in flags.get(loc[0], {}):
            return "command-line flags"
        var = env_source.get((loc[0], loc[1])) if len(loc) >= 2 else None
        if var is not None:
            return f"{var}={_redacted(environ[var])}"
        return file_origin

    try:
        settings = Settings.model_validate(data)
    except ValidationError as exc:
        raise ConfigError(_one_line(exc, origin)) from exc
    for (section, field), check in (checks or {}).items():
        try:
            check(getattr(getattr(settings, section), field))
        except (ValueError, VaultdError) as exc:
            raise ConfigError(
                f"{origin((section, field))}: bad value for '{section}.{field}': {exc}"
            ) from exc
    return settings


def _toml_value(name: str, value: Any) -> str:
    """``name = value`` as TOML, on one line (it is written commented out): tomli-w writes
    each value; an array is kept inline, where tomli-w would break it over lines."""
    if isinstance(value, list):
        return f"{name} = [" + ", ".join(_inline(v) for v in value) + "]"
    return f"{name} = {_inline(value)}"


def _inline(value: Any) -> str:
    return tomli_w.dumps({"v": value}).partition(" = ")[2].strip()


def default_config_toml() -> str:
    """The commented config file `vaultd init` writes: every setting, commented out."""
    lines = [
        "# vaultd settings for this vault. Uncomment a line to change it.",
        "# Precedence: these defaults < this file < VAULTD_* environment < command-line flags.",
        "",
    ]
    defaults = Settings()
    for section, model in _sections().items():
        lines.append(f"[{section}]")
        values = getattr(defaults, section)
        for name, field in model.model_fields.items():
            lines.append(f"# {field.description}")
            value = getattr(values, name)
            if value is None:
                lines.append(f'# {name} = ""')
            else:
                lines.append(f"# {_toml_value(name, value)}")
        lines.append("")
    return "\n".join(lines)
