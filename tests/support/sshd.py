"""A real OpenSSH server on 127.0.0.1 for a test: a throwaway host key and user key made here,
the current user allowed in with that key only, stopped at the end. `ssh` is the command line
a client uses to reach it (what `KIT_SSH` takes), `destination` the user@host to name.

Where sshd cannot be had the test skips, saying so; under CI (`CI` set) it fails instead:
.ci/run installs openssh-server when it is missing, so CI always has it.
"""

from __future__ import annotations

import getpass
import os
import select
import shlex
import shutil
import socket
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest

START_BOUND = 60.0  # a safety net only: sshd says when it listens


@dataclass(frozen=True)
class Sshd:
    port: int
    ssh: list[str]
    destination: str

    @property
    def ssh_command(self) -> str:
        return shlex.join(self.ssh)


def _binary() -> str:
    found = shutil.which("sshd") or next(
        (p for p in ("/usr/sbin/sshd", "/usr/local/sbin/sshd") if Path(p).exists()), None
    )
    if found is None or shutil.which("ssh") is None or shutil.which("ssh-keygen") is None:
        why = "OpenSSH (sshd, ssh, ssh-keygen) is not installed: apt install openssh-server"
        if os.environ.get("CI"):
            pytest.fail(f"{why} (.ci/run installs it; CI must have it)")
        pytest.skip(why)
    return found


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@contextmanager
def running_sshd(folder: Path) -> Iterator[Sshd]:
    sshd = _binary()
    if os.geteuid() == 0 and not Path("/run/sshd").is_dir():
        Path("/run/sshd").mkdir(mode=0o755, parents=True)  # sshd's privilege-separation folder
    folder.mkdir(parents=True, exist_ok=True)
    for name in ("host_key", "user_key"):
        subprocess.run(
            ["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", str(folder / name)], check=True
        )
    (folder / "authorized_keys").write_text((folder / "user_key.pub").read_text())
    port = _free_port()
    config = folder / "sshd_config"
    config.write_text(
        f"Port {port}\nListenAddress 127.0.0.1\nHostKey {folder / 'host_key'}\n"
        f"AuthorizedKeysFile {folder / 'authorized_keys'}\nPidFile {folder / 'sshd.pid'}\n"
        "StrictModes no\nPasswordAuthentication no\nKbdInteractiveAuthentication no\n"
        "PermitRootLogin prohibit-password\nAllowStreamLocalForwarding yes\nUsePAM no\n"
        "PrintMotd no\n"
    )
    host_key = (folder / "host_key.pub").read_text().split()
    (folder / "known_hosts").write_text(f"[127.0.0.1]:{port} {host_key[0]} {host_key[1]}\n")
    proc = subprocess.Popen([sshd, "-D", "-e", "-f", str(config)], stderr=subprocess.PIPE)
    try:
        _until_listening(proc)
        ssh = [
            "ssh",
            "-F",
            "/dev/null",
            "-p",
            str(port),
            "-i",
            str(folder / "user_key"),
            "-o",
            f"UserKnownHostsFile={folder / 'known_hosts'}",
            "-o",
            "StrictHostKeyChecking=yes",
            "-o",
            "BatchMode=yes",
            "-o",
            "IdentitiesOnly=yes",
        ]
        yield Sshd(port, ssh, f"{getpass.getuser()}@127.0.0.1")
    finally:
        proc.terminate()
        proc.wait(timeout=START_BOUND)
        if proc.stderr is not None:
            proc.stderr.close()


def _until_listening(proc: subprocess.Popen[bytes]) -> None:
    assert proc.stderr is not None
    said = b""
    while b"Server listening" not in said:
        ready, _, _ = select.select([proc.stderr], [], [], START_BOUND)
        chunk = os.read(proc.stderr.fileno(), 4096) if ready else b""
        if not chunk:
            raise AssertionError(f"sshd did not start: {said.decode(errors='replace')}")
        said += chunk
