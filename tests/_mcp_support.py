"""What the MCP tests share: a vault with the sample papers indexed, a result's text."""

from __future__ import annotations

from typing import Any

from test_index_support import sample_vault

from vaultd.config import Settings
from vaultd.pipeline.index import index_vault
from vaultd.vault import Vault


def indexed_sample(vault: Vault) -> Vault:
    sample_vault(vault)
    index_vault(vault, Settings(), embedder=None)
    return vault


def result_text(result: Any) -> str:
    return "\n".join(getattr(c, "text", "") for c in result.content)
