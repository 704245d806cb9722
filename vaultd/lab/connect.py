"""A connection to the lab library from its URL. Every way the server can refuse becomes
one ``LibraryError`` line naming the server (never the password) and what to do; a server
that cannot be reached is transient (publishing is queued and retried)."""

from __future__ import annotations

from typing import Any

import psycopg
from pgvector.psycopg import register_vector
from psycopg import conninfo

from vaultd.errors import LibraryError
from vaultd.lab.schema import check

CONNECT_TIMEOUT_S = 5


def where(url: str) -> str:
    """``member@host:port/db`` of a URL, for messages (no password)."""
    try:
        info = conninfo.conninfo_to_dict(url)
    except psycopg.ProgrammingError:
        return "the library URL"
    host = str(info.get("host") or "localhost")
    port = f":{info['port']}" if info.get("port") else ""
    user = f"{info['user']}@" if info.get("user") else ""
    return f"{user}{host}{port}/{info.get('dbname') or ''}"


def connect(url: str, *, autocommit: bool = False) -> psycopg.Connection[Any]:
    """An open connection (the password from PGPASSWORD or ~/.pgpass, as libpq reads them)."""
    try:
        return psycopg.connect(url, autocommit=autocommit, connect_timeout=CONNECT_TIMEOUT_S,
                               application_name="vaultd")
    except psycopg.ProgrammingError as exc:
        raise LibraryError(f"the library URL is not a PostgreSQL URL ({exc}); write it as "
                           "postgresql://member@host:5432/database") from exc
    except psycopg.OperationalError as exc:
        raise refused(url, exc) from exc


def refused(url: str, exc: psycopg.OperationalError) -> LibraryError:
    """The one line for a connection the server or the network refused."""
    text = str(exc).strip()
    low = text.lower()
    at = where(url)
    if "password authentication failed" in low or "no password supplied" in low:
        return LibraryError(f"the library at {at} refused the credentials: set PGPASSWORD or "
                            "add the member's line to ~/.pgpass (the password is never "
                            "written in the vault)")
    if "role" in low and "does not exist" in low:
        return LibraryError(f"the library at {at} has no such member (role): ask the lab's "
                            "admin to run `vaultd library grant MEMBER`")
    if "database" in low and "does not exist" in low:
        return LibraryError(f"the library at {at} has no such database: check the URL's "
                            "database name")
    if "ssl" in low or "tls" in low:
        return LibraryError(f"the library at {at} cannot set up the TLS connection the URL "
                            f"asks for ({_first_line(text)}): check sslmode in the URL")
    if "pg_hba.conf" in low:
        return LibraryError(f"the library at {at} does not accept this connection "
                            f"({_first_line(text)}): ask the lab's admin")
    return LibraryError(f"cannot reach the library at {at} ({_first_line(text)}); local work "
                        "goes on and publishing is retried", transient=True)


def _first_line(text: str) -> str:
    line = text.splitlines()[-1] if text else "no answer"
    for sep in ("FATAL:  ", "ERROR:  "):
        line = line.split(sep)[-1]
    return line.strip().rstrip(".")


def failed(exc: psycopg.Error, doing: str) -> LibraryError:
    """A statement the server refused, as one line (permission, lost connection, …)."""
    if isinstance(exc, psycopg.OperationalError):
        return LibraryError(f"the library connection was lost while {doing} "
                            f"({_first_line(str(exc))}); it is retried", transient=True)
    if isinstance(exc, psycopg.errors.InsufficientPrivilege):
        return LibraryError(f"the library refused {doing}: {_first_line(str(exc))} (is this "
                            "member granted the group? `vaultd library members`)")
    return LibraryError(f"the library refused {doing}: {_first_line(str(exc))}")


def open_library(url: str) -> psycopg.Connection[Any]:
    """A member's connection, its schema checked (present, not newer than this vaultd's)
    and pgvector's types registered."""
    conn = connect(url, autocommit=True)
    try:
        check(conn, where(url))
        register_vector(conn)
    except psycopg.Error as exc:
        conn.close()
        raise failed(exc, "reading the library's schema") from exc
    except LibraryError:
        conn.close()
        raise
    return conn
