"""How ``vaultd library publish`` cuts a run into batches: small first, so that the server
starts on one while the next is read; doubling up to the largest; shrinking at the end
to what is left shared between the connections, so that they finish together."""

from __future__ import annotations

import threading
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st
from test_index_support import paper

from vaultd.config import default_config_toml, load_settings
from vaultd.pipeline import publish as pub
from vaultd.pipeline.publication import LocalVectors
from vaultd.vault import Vault


def test_batches_start_small_double_and_shrink_to_what_is_left() -> None:
    assert pub.batch_limit(pub.FIRST_BATCH, 1e9, 2) == 2 * pub.FIRST_BATCH
    assert pub.batch_limit(pub.BATCH_PASSAGES, 1e9, 2) == pub.BATCH_PASSAGES
    assert pub.batch_limit(pub.BATCH_PASSAGES, 3_000, 2) == 1_500  # the tail, shared
    assert pub.batch_limit(pub.BATCH_PASSAGES, 10, 2) == pub.FIRST_BATCH  # never tiny


@given(previous=st.integers(1, 10 * pub.BATCH_PASSAGES), left=st.floats(0, 1e9),
       connections=st.integers(1, 8))
def test_a_batch_limit_stays_within_its_bounds(previous: int, left: float,
                                               connections: int) -> None:
    limit = pub.batch_limit(previous, left, connections)
    assert pub.FIRST_BATCH <= limit <= pub.BATCH_PASSAGES
    assert limit <= max(pub.FIRST_BATCH, 2 * previous)


def test_a_run_of_notes_is_cut_small_large_small(tmp_path: Path) -> None:
    vault = Vault(tmp_path / "v")
    vault.init(default_config_toml())
    keys = [f"work{i:03d}" for i in range(120)]
    for i, key in enumerate(keys):  # 100 passages a work: 12,000 in all
        paper(vault, key, f"Work {i}", [("Ada", "Lovelace")], 2000,
              [(f"p1s1c{j}", 1, "Abstract", f"Passage {j} of work {i}.") for j in range(100)])
    settings = load_settings(environ={}, overrides={"index": {"embedding_provider": "none"}})
    report = pub.PublishReport()
    with LocalVectors(vault) as vectors:
        sizes = [sum(len(p.chunks) for p in batch) for batch in pub._batches(
            vault, settings, keys, report, vectors, 2, threading.Lock())]
    assert sum(sizes) == 12_000 and report.failed == []
    assert sizes[:4] == [500, 1_000, 2_000, 4_000]  # the server starts after 500 passages
    assert max(sizes) <= pub.BATCH_PASSAGES
    assert sizes[-1] < max(sizes) and sizes[-2] < max(sizes)  # the tail shrinks
