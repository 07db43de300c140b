"""The test harness cleans up after itself (issue 19): a test PostgreSQL dies with its test run,
also when pytest is killed."""

from __future__ import annotations

import os
import select
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support import postgres
from tests.support.pg_watchdog import postmaster_pid

REPO = Path(__file__).resolve().parents[1]

INNER = """
import sys

def test_holds_the_server(postgres_server):
    print("PGDATA", postgres_server.pgdata, flush=True)
    print("WATCHDOG", postgres_server.watchdog.pid, flush=True)
    sys.stdin.readline()  # holds the server until the outer test kills this run
"""


def _wait_gone(pid: int, seconds: float) -> bool:
    """Whether `pid` ends within `seconds` (waiting on its pidfd: an event, not a sleep)."""
    try:
        fd = os.pidfd_open(pid)
    except ProcessLookupError:
        return True
    try:
        poller = select.poll()
        poller.register(fd, select.POLLIN)
        return bool(poller.poll(int(seconds * 1000)))
    finally:
        os.close(fd)


@pytest.mark.slow
def test_a_killed_pytest_run_leaves_no_postgres_behind(tmp_path: Path) -> None:
    postgres.require()
    if os.environ.get(postgres.SERVER_URL, "").strip():
        pytest.skip("a server you run is yours to stop; this is about pgserver's")
    (tmp_path / "test_inner.py").write_text(INNER)
    (tmp_path / "pytest.ini").write_text("[pytest]\n")
    run = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "pytest",
            "-p",
            "tests.conftest",
            "-s",
            "-q",
            "-p",
            "no:cacheprovider",
            "-c",
            str(tmp_path / "pytest.ini"),
            str(tmp_path),
        ],
        cwd=REPO,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    assert run.stdout is not None and run.stdin is not None
    seen: dict[str, str] = {}
    for line in run.stdout:  # blocks until the inner run has its server
        key, _, value = line.strip().partition(" ")
        if key in ("PGDATA", "WATCHDOG"):
            seen[key] = value
        if len(seen) == 2:
            break
    assert len(seen) == 2, "the inner run ended before it had a server"
    pgdata = Path(seen["PGDATA"])
    server = postmaster_pid(pgdata)
    assert server is not None
    os.kill(server, 0)  # running

    run.kill()  # SIGKILL: no fixture teardown, no atexit
    run.wait()
    run.stdin.close()
    run.stdout.close()

    assert _wait_gone(server, 90), "the test PostgreSQL outlived the killed pytest run"
    assert _wait_gone(int(seen["WATCHDOG"]), 30)
    assert not pgdata.parent.exists(), "its folder was left behind"


def test_the_watchdog_leaves_when_the_server_is_stopped_normally(tmp_path: Path) -> None:
    """A server stopped by its owner's clean-up: the watchdog sees it go and leaves, changing
    nothing (here the 'server' is a stand-in process; the owner is this test, alive)."""
    pgdata = tmp_path / "data"
    pgdata.mkdir()
    stand_in = subprocess.Popen(
        [sys.executable, "-c", "import sys; sys.stdin.read()"], stdin=subprocess.PIPE
    )
    (pgdata / "postmaster.pid").write_text(f"{stand_in.pid}\n{pgdata}\n")
    watchdog = subprocess.Popen(
        [
            sys.executable,
            str(REPO / "tests" / "support" / "pg_watchdog.py"),
            str(os.getpid()),
            str(pgdata),
            str(tmp_path),
        ]
    )
    assert stand_in.stdin is not None
    stand_in.stdin.close()  # the 'server' stops
    stand_in.wait()
    assert watchdog.wait(timeout=60) == 0
    assert pgdata.exists()  # the owner is alive: its folder is its own business


def test_the_watchdog_stops_the_server_when_its_owner_is_gone(tmp_path: Path) -> None:
    pgdata = tmp_path / "folder" / "data"
    pgdata.mkdir(parents=True)
    stand_in = subprocess.Popen(  # ends on SIGINT, as a postmaster's fast shutdown does
        [sys.executable, "-c", STAND_IN], stdout=subprocess.PIPE, text=True
    )
    assert stand_in.stdout is not None
    assert stand_in.stdout.readline().strip() == "ready"  # SIGINT is awaited from now on
    owner = subprocess.Popen(
        [sys.executable, "-c", "import sys; sys.stdin.read()"], stdin=subprocess.PIPE
    )
    (pgdata / "postmaster.pid").write_text(f"{stand_in.pid}\n")
    watchdog = subprocess.Popen(
        [
            sys.executable,
            str(REPO / "tests" / "support" / "pg_watchdog.py"),
            str(owner.pid),
            str(pgdata),
            str(pgdata.parent),
        ]
    )
    assert owner.stdin is not None
    owner.kill()
    owner.wait()
    owner.stdin.close()
    assert watchdog.wait(timeout=60) == 0
    assert stand_in.wait(timeout=60) == 0  # it got the fast-shutdown signal
    stand_in.stdout.close()
    assert not pgdata.parent.exists()


STAND_IN = """
import signal
signal.pthread_sigmask(signal.SIG_BLOCK, [signal.SIGINT])
print("ready", flush=True)
signal.sigwait([signal.SIGINT])
"""
