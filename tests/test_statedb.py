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
    from vaultd.statedb import migration, open_state_db

    @migration("test_m001_not_idempotent")
    def m001(db: sqlite3.Connection) -> None:
        db.execute("CREATE TABLE notes_seen (x TEXT)")  # fails if run twice
        time.sleep(0.3)  # widen the window in which a second process could start it too

    open_state_db(Path(sys.argv[1])).close()
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
