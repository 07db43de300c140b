"""`kit chat --remote [user@]host` and `kit tui --remote`: the daemon of another machine, through
the system's `ssh`. No new protocol and no new secret: the remote daemon's control socket is
forwarded to a socket here (`ssh -L local.sock:remote.sock`, OpenSSH's Unix-socket forwarding),
and the front-end is a `SocketClient` on it; the owner's SSH keys and config decide who gets in.

One ssh connection does it all. Its session runs a small POSIX sh script on the remote machine
that finds the daemon's socket (`--remote-data-dir`, else `$KIT_DATA_DIR`, else
`${XDG_DATA_HOME:-~/.local/share}/kit`, as Kit itself would), says so when there is none, and
otherwise links it at a fresh `/tmp/kit-fwd-<random>/kit.sock` (a 0700 folder of the remote
user's) that the `-L` forward names: a forward needs an absolute remote path before the
session starts, and that is one the client can know. ssh sets its forwards up before it opens
the session, so once the script says "ready" the local socket accepts. The script then waits
on its stdin; closing that (or ssh going away) removes the link.

`KIT_SSH` sets the ssh command (default `ssh`), e.g. `ssh -F ~/.ssh/kit_config -p 2222`.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import secrets
import shlex
import shutil
import tempfile
from collections.abc import AsyncIterator
from pathlib import Path

from kit.daemon.grace import STEP_TIMEOUT
from kit.daemon.socket_client import DaemonUnavailable, SocketClient
from kit.errors import ConfigError, InputError

log = logging.getLogger(__name__)

SSH_ENV = "KIT_SSH"
CONNECT_TIMEOUT = 120.0  # ssh may ask for a passphrase or a host key's confirmation
_READY = "kit-remote: ready "
_NO_SOCKET = "kit-remote: no-socket "
_NO_LINK = "kit-remote: no-link"

# $1: the forward's random name; $2: the data directory asked for ("" = Kit's default).
_SCRIPT = r"""
d=${2:-${KIT_DATA_DIR:-${XDG_DATA_HOME:-$HOME/.local/share}/kit}}
case $d in "~") d=$HOME ;; "~/"*) d=$HOME/${d#"~/"} ;; esac
s=$d/kit.sock
if [ ! -S "$s" ]; then echo "kit-remote: no-socket $s"; exit 3; fi
f=/tmp/kit-fwd-$1
umask 077
mkdir "$f" 2>/dev/null || { echo "kit-remote: no-link"; exit 4; }
trap 'rm -rf "$f"' EXIT HUP INT TERM
ln -s "$s" "$f/kit.sock"
echo "kit-remote: ready $s"
cat >/dev/null
"""


class RemoteUnavailable(DaemonUnavailable):
    """ssh is missing, could not connect, or no daemon runs on the other machine."""


def ssh_command() -> list[str]:
    """The ssh command and its options ($KIT_SSH, default `ssh`); RemoteUnavailable when the
    program is not installed."""
    raw = os.environ.get(SSH_ENV, "").strip() or "ssh"
    try:
        command = shlex.split(raw)
    except ValueError as exc:
        raise ConfigError(f"{SSH_ENV}={raw!r} is not a command line ({exc})") from exc
    if not command or shutil.which(command[0]) is None:
        raise RemoteUnavailable(
            f"`{command[0] if command else raw}` is not installed (or not on PATH): --remote "
            "needs OpenSSH's client (e.g. `apt install openssh-client`), or set "
            f"{SSH_ENV} to the ssh command to use"
        )
    return command


def check_destination(destination: str) -> str:
    destination = destination.strip()
    if not destination or destination.startswith("-") or any(c.isspace() for c in destination):
        raise InputError(
            f"--remote takes [user@]host (a name ssh knows, e.g. kit@homeserver), not "
            f"{destination!r}"
        )
    return destination


@contextlib.asynccontextmanager
async def remote_client(
    destination: str, *, user: str | None = None, data_dir: str = ""
) -> AsyncIterator[SocketClient]:
    """A `SocketClient` on the daemon of `destination`, through ssh, checked to answer."""
    async with forwarded_socket(destination, data_dir=data_dir) as (local, remote):
        client = SocketClient(local, user=user)  # type: ignore[abstract]
        try:
            await client.status()
        except DaemonUnavailable as exc:
            raise RemoteUnavailable(
                f"no Kit daemon answers on {destination}: {remote} is there but nothing "
                "listens on it (the daemon stopped?); start it there with `kit run`"
            ) from exc
        yield client


@contextlib.asynccontextmanager
async def forwarded_socket(
    destination: str, *, data_dir: str = ""
) -> AsyncIterator[tuple[Path, str]]:
    """(a local socket reaching the remote daemon's, the remote socket's path), while the ssh
    connection lasts."""
    destination = check_destination(destination)
    ssh = ssh_command()
    name = secrets.token_hex(8)
    folder = Path(tempfile.mkdtemp(prefix="kit-remote-"))  # 0700
    local = folder / "kit.sock"
    remote_link = f"/tmp/kit-fwd-{name}/kit.sock"
    command = [
        *ssh,
        "-T",
        "-o",
        "ExitOnForwardFailure=yes",
        "-o",
        "StreamLocalBindUnlink=yes",
        "-L",
        f"{local}:{remote_link}",
        destination,
        " ".join(shlex.quote(a) for a in ("sh", "-c", _SCRIPT, "kit-remote", name, data_dir)),
    ]
    errors = folder / "ssh.log"  # ssh's own messages, read if it fails (a pipe could fill)
    try:
        with errors.open("wb") as stderr:
            proc = await asyncio.create_subprocess_exec(
                *command,
                stdin=asyncio.subprocess.PIPE,
                stdout=asyncio.subprocess.PIPE,
                stderr=stderr,
            )
    except OSError as exc:
        shutil.rmtree(folder, ignore_errors=True)
        raise RemoteUnavailable(f"cannot run {ssh[0]} ({exc.strerror or exc})") from exc
    try:
        remote = await _ready(proc, destination, errors)
        log.info("connected to the Kit daemon on %s (%s) through ssh", destination, remote)
        yield local, remote
    finally:
        await _close(proc)
        shutil.rmtree(folder, ignore_errors=True)


async def _ready(proc: asyncio.subprocess.Process, destination: str, errors: Path) -> str:
    """The remote socket's path once the forward is up; RemoteUnavailable saying why not."""
    assert proc.stdout is not None
    try:
        async with asyncio.timeout(CONNECT_TIMEOUT):
            while line := (await proc.stdout.readline()).decode("utf-8", "replace"):
                if line.startswith(_READY):
                    return line[len(_READY) :].strip()
                if line.startswith(_NO_SOCKET):
                    path = line[len(_NO_SOCKET) :].strip()
                    raise RemoteUnavailable(
                        f"no Kit daemon runs on {destination}: {path} does not exist. Start it "
                        "there with `kit run` (or `systemctl --user start kit`), or name its "
                        "data directory with --remote-data-dir"
                    )
                if line.startswith(_NO_LINK):
                    raise RemoteUnavailable(
                        f"{destination}: cannot make a folder in /tmp for the forward; check "
                        "that /tmp is writable there"
                    )
            await proc.wait()
    except TimeoutError:
        raise RemoteUnavailable(
            f"ssh to {destination} did not connect within {CONNECT_TIMEOUT:.0f} s"
        ) from None
    said = (await asyncio.to_thread(errors.read_bytes)).decode("utf-8", "replace").splitlines()
    why = [line for line in said if line.strip()]
    raise RemoteUnavailable(
        f"ssh to {destination} failed (exit {proc.returncode}): "
        f"{why[-1].strip() if why else 'no message'}. `ssh {destination}` should work first "
        "(keys, host name, port: ~/.ssh/config)"
    )


async def _close(proc: asyncio.subprocess.Process) -> None:
    """End the ssh connection: its remote script sees its stdin close and removes the link."""
    if proc.stdin is not None:
        proc.stdin.close()
    try:
        async with asyncio.timeout(STEP_TIMEOUT):
            await proc.wait()
            return
    except TimeoutError:
        pass
    with contextlib.suppress(ProcessLookupError):
        proc.kill()
    try:
        async with asyncio.timeout(STEP_TIMEOUT):
            await proc.wait()
    except TimeoutError:
        log.warning("ssh (pid %d) did not exit; leaving it", proc.pid)
