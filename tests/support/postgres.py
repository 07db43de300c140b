"""A PostgreSQL server with pgvector for the tests: one per test session, a fresh database each.

Where the server comes from:
  - KIT_TEST_POSTGRES_URL=postgresql://user@host:port/db: a server you run (with pgvector);
    the tests create and drop databases named kit_test_* through it;
  - otherwise pgserver (a pip-installed private PostgreSQL with pgvector, in `.[dev]`), started
    in a temporary folder on first use and stopped at the end of the session; with parallel
    workers (pytest-xdist) each worker has its own. A watchdog (tests/support/pg_watchdog.py) stops
    it and removes its folder when the process that started it is gone without stopping it
    (pytest killed or interrupted): a test server never outlives its run.
A test that cannot get a server FAILS (in CI too): the PostgreSQL store is tested or the run
is red. A developer without one can opt out explicitly with KIT_TEST_POSTGRES=skip; the
PostgreSQL variants then skip, saying so.

Each test gets its own database, made from a template that holds the migrated schema
(CREATE DATABASE ... TEMPLATE: a file copy, much faster than migrating each time).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import itertools
import os
import re
import shutil
import subprocess
import sys
import tempfile
import warnings
from collections.abc import Callable, Coroutine, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

OPT_OUT = "KIT_TEST_POSTGRES"  # "skip": the PostgreSQL variants of tests skip
SERVER_URL = "KIT_TEST_POSTGRES_URL"
TEMPLATE = "kit_test_template"
_numbers = itertools.count(1)


def _run(work: Callable[[], Coroutine[Any, Any, None]]) -> None:
    """Admin work on an event loop of its own, in a thread: never the test's loop."""
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        pool.submit(asyncio.run, work()).result()


def skipped() -> bool:
    return os.environ.get(OPT_OUT, "").strip().lower() == "skip"


@dataclass
class TestServer:
    """A running server: `url(db)` names one of its databases."""

    base: str  # URL of the maintenance database
    _server: object | None = None  # pgserver's handle (kept alive: it stops with it)
    pgdata: Path | None = None  # known for pgserver's own server (its pg_hba.conf)
    watchdog: subprocess.Popen[bytes] | None = None  # stops it if this process dies first

    def target(self) -> Path | tuple[str, int]:
        """Where a proxy reaches the server: its unix socket, or its host and port."""
        from urllib.parse import parse_qs, urlsplit

        parts = urlsplit(self.base)
        socket_dir = parse_qs(parts.query).get("host", [""])[0]
        port = parts.port or 5432
        if socket_dir.startswith("/"):
            return Path(socket_dir) / f".s.PGSQL.{port}"
        return (parts.hostname or "localhost", port)

    def database_of(self, url: str) -> str:
        from urllib.parse import urlsplit

        return urlsplit(url).path.lstrip("/")

    def url(self, database: str) -> str:
        return re.sub(r"/[^/?]*(\?|$)", rf"/{database}\1", self.base.split("://", 1)[1], count=1)

    def database_url(self, database: str) -> str:
        return self.base.split("://", 1)[0] + "://" + self.url(database)


@contextmanager
def server_folder() -> Iterator[Path]:
    """Where pgserver keeps its data: outside pytest's temporary tree. pgserver runs the
    server as its own user (when the tests run as root) and opens the folders above the data
    for it, but every pytest session that starts as the same user tightens
    /tmp/pytest-of-<user> back to 0700: the server would lose its own files mid-run."""
    folder = Path(tempfile.mkdtemp(prefix="kit-test-pg-"))
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def stop(server: TestServer) -> None:
    """Stop pgserver's server (and remove its data); a server you run is left running."""
    if server._server is not None:
        server._server.cleanup()  # type: ignore[attr-defined]
    if server.watchdog is not None:
        server.watchdog.wait(timeout=60)  # it leaves as soon as it sees the server gone


def start(folder: Path) -> TestServer:
    given = os.environ.get(SERVER_URL, "").strip()
    if given:
        server = TestServer(given)
    else:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # platformdirs: no XDG_RUNTIME_DIR on CI machines
            import pgserver

            handle = _pgserver(pgserver, folder)
        uri = handle.get_uri()  # postgresql://postgres:@/postgres?host=/socket/dir
        server = TestServer(uri.replace("postgres:@", "postgres@", 1), handle, handle.pgdata)
        server.watchdog = _watch(Path(handle.pgdata), folder.parent)
    _run(lambda: _make_template(server))
    return server


def _watch(pgdata: Path, folder: Path) -> subprocess.Popen[bytes]:
    """The watchdog for this process's server (tests/support/pg_watchdog.py), in its own session."""
    return subprocess.Popen(
        [
            sys.executable,
            str(Path(__file__).with_name("pg_watchdog.py")),
            str(os.getpid()),
            str(pgdata),
            str(folder),
        ],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )


def _pgserver(pgserver: Any, folder: Path) -> Any:
    """pgserver's server, started again if `pg_ctl -w` outlasts its fixed 10 s on a busy
    machine: the server it started is then found running and taken as it is."""
    import subprocess

    for _ in range(2):
        try:
            return pgserver.get_server(folder, cleanup_mode="delete")
        except subprocess.TimeoutExpired:
            continue
    return pgserver.get_server(folder, cleanup_mode="delete")


async def _make_template(server: TestServer) -> None:
    import asyncpg

    from kit.clock import FakeClock
    from kit.store.migrate import migrate
    from kit.store.postgres.database import PostgresDatabase

    admin = await asyncpg.connect(server.base)
    try:
        await _drop(admin, TEMPLATE)
        await admin.execute(f"CREATE DATABASE {TEMPLATE}")
    finally:
        await admin.close()
    async with PostgresDatabase.open(server.database_url(TEMPLATE)) as db:
        from datetime import UTC, datetime

        await migrate(db, FakeClock(datetime(2026, 1, 1, tzinfo=UTC)))


async def _drop(admin: object, name: str) -> None:
    await admin.execute(  # type: ignore[attr-defined]
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1", name
    )
    await admin.execute(f"DROP DATABASE IF EXISTS {name}")  # type: ignore[attr-defined]


def fresh_database(server: TestServer, *, empty: bool = False) -> str:
    """A new database holding the migrated schema (or nothing: `empty`); returns its URL."""
    name = f"kit_test_{os.getpid()}_{next(_numbers)}"
    template = "template0" if empty else TEMPLATE

    async def make() -> None:
        import asyncpg

        admin = await asyncpg.connect(server.base)
        try:
            await admin.execute(f"CREATE DATABASE {name} TEMPLATE {template}")
        finally:
            await admin.close()

    _run(make)
    return server.database_url(name)


def drop_database(server: TestServer, url: str) -> None:
    name = server.database_of(url)

    async def drop() -> None:
        import asyncpg

        admin = await asyncpg.connect(server.base)
        try:
            await _drop(admin, name)
        finally:
            await admin.close()

    _run(drop)


def require() -> None:
    if skipped():
        pytest.skip(f"PostgreSQL tests opted out ({OPT_OUT}=skip)")
