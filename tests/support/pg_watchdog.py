"""Stops a test PostgreSQL server when the test process that started it is gone (issue 19).

    python tests/support/pg_watchdog.py OWNER_PID PGDATA FOLDER

Started by tests/support/postgres.py beside pgserver's server, in a session of its own (so a signal
to pytest's process group does not end it first). It waits — on pidfds, no polling — for one of
two events: the owner (the pytest process, or the xdist worker, that started the server)
ending, or the server ending. If the owner went first (killed, crashed, interrupted before its
clean-up ran), it stops the server (fast shutdown: SIGINT to the postmaster, as
`pg_ctl stop -m fast` does), waits for it to go, and removes FOLDER. If the server went first,
the owner's own clean-up stopped it, and the watchdog just leaves.

Deliberately small and stdlib-only: it must start fast and never import Kit.
"""

from __future__ import annotations

import os
import select
import shutil
import signal
import sys
from pathlib import Path


def postmaster_pid(pgdata: Path) -> int | None:
    """The server's pid from the first line of postmaster.pid (None when it is not running)."""
    try:
        first = (pgdata / "postmaster.pid").read_text().splitlines()[0]
        return int(first)
    except (OSError, IndexError, ValueError):
        return None


def _pidfd(pid: int) -> int | None:
    try:
        return os.pidfd_open(pid)
    except ProcessLookupError:
        return None


def wait_for_first(pids: dict[str, int]) -> str:
    """Which of the named processes ends first (blocking; a process already gone is first)."""
    fds: dict[int, str] = {}
    for name, pid in pids.items():
        fd = _pidfd(pid)
        if fd is None:
            return name
        fds[fd] = name
    poller = select.poll()
    for fd in fds:
        poller.register(fd, select.POLLIN)
    ready = poller.poll()  # a pidfd becomes readable when its process exits
    return fds[ready[0][0]]


def stop_server(pgdata: Path, server_pid: int) -> None:
    try:
        os.kill(server_pid, signal.SIGINT)  # fast shutdown: clients cut, a clean stop
    except ProcessLookupError:
        return
    fd = _pidfd(server_pid)
    if fd is None:
        return
    poller = select.poll()
    poller.register(fd, select.POLLIN)
    if not poller.poll(60_000):  # a bound, not a guess: a fast shutdown takes a second
        os.kill(server_pid, signal.SIGQUIT)  # immediate shutdown
        poller.poll(30_000)


def main(argv: list[str]) -> int:
    owner, pgdata, folder = int(argv[0]), Path(argv[1]), Path(argv[2])
    server = postmaster_pid(pgdata)
    if server is None:
        return 0
    if wait_for_first({"owner": owner, "server": server}) == "owner":
        stop_server(pgdata, server)
        shutil.rmtree(folder, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
