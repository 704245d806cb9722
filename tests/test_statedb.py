"""state.db migrations: applied once, even when several processes open a new database."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

from vaultd.statedb import open_state_db

_OPENER = textwrap.dedent("""
    import sqlite3, sys, time
    from pathlib import Path
    from vaultd.schema.state import STATE_MIGRATIONS
    from vaultd.statedb import open_state_db

    def m001(db: sqlite3.Connection) -> None:
        db.execute("CREATE TABLE notes_seen (x TEXT)")  # fails if run twice
        time.sleep(0.3)  # widen the window in which a second process could start it too

    steps = (*STATE_MIGRATIONS, ("test_m001_not_idempotent", m001))
    open_state_db(Path(sys.argv[1]), steps).close()
""")


def test_processes_opening_a_new_state_db_together_each_migration_runs_once(
        tmp_path: Path) -> None:
    db_path = tmp_path / ".vaultd" / "state.db"
    procs = [subprocess.Popen([sys.executable, "-c", _OPENER, str(db_path)],
                              stderr=subprocess.PIPE, text=True) for _ in range(4)]
    errors = [p.communicate(timeout=60)[1] for p in procs]
    assert [p.returncode for p in procs] == [0, 0, 0, 0], errors
    db = open_state_db(db_path)
    rows = db.execute("SELECT name FROM migrations WHERE name = 'test_m001_not_idempotent'")
    assert len(rows.fetchall()) == 1
    db.close()


def test_a_migration_name_used_twice_is_refused() -> None:
    import re

    import pytest

    from vaultd.schema.migrate import checked

    with pytest.raises(ValueError, match=re.escape("duplicate state.db migration name 'a'")):
        checked("state.db", [("a", print), ("a", print)])


def test_a_new_state_db_has_every_table_without_importing_their_owners(
        tmp_path: Path) -> None:
    # No table appears only because its owner module happened to be imported.
    code = ("import sys; from pathlib import Path; from vaultd.statedb import open_state_db; "
            "db = open_state_db(Path(sys.argv[1])); "
            "print(sorted(r[0] for r in db.execute(\"SELECT name FROM sqlite_master "
            "WHERE type = 'table'\")))")
    out = subprocess.run([sys.executable, "-c", code, str(tmp_path / "state.db")],
                         capture_output=True, text=True, check=True).stdout
    for table in ("http_cache", "captures", "citation_renderings", "daemon_jobs",
                  "enrich_cache", "migrations"):
        assert f"'{table}'" in out, out
