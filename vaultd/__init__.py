"""vaultd: a local-first research agent for an Obsidian-style Markdown vault."""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("vaultd")
except PackageNotFoundError:  # running from a source tree without installation
    __version__ = "0.0.0"
