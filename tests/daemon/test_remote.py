"""`kit chat --remote` and `kit tui --remote` through a real OpenSSH server on 127.0.0.1
(tests/support/sshd.py: a throwaway host key and user key): the remote daemon's control socket
forwarded over ssh, a real `kit chat` process talking to a daemon whose data directory it never
opens; and one clear line when ssh, the host or the remote daemon is missing."""

from __future__ import annotations

import asyncio
import os
import socket
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from kit.clock import FakeClock
from kit.config import Settings
from kit.daemon.remote import SSH_ENV, RemoteUnavailable, remote_client
from kit.llm.fake import FakeLLM
from tests.support.inprocess_daemon import running_daemon
from tests.support.sshd import Sshd, running_sshd

pytestmark = pytest.mark.slow
CHAT_BOUND = 180.0  # a safety net for a whole `kit chat` process: ssh, Python, two shared cores


@pytest.fixture(scope="module")
def sshd(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Sshd]:
    with running_sshd(tmp_path_factory.mktemp("sshd")) as server:
        yield server


async def kit_chat(*args: str, stdin: str, env: dict[str, str], cwd: Path) -> tuple[int, str, str]:
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "kit.cli",
        "chat",
        *args,
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
        env=env,
        cwd=cwd,
    )
    async with asyncio.timeout(CHAT_BOUND):
        out, err = await proc.communicate(stdin.encode())
    return proc.returncode or 0, out.decode(), err.decode()


def links_to(target: Path) -> list[Path]:
    """The forward links (/tmp/kit-fwd-*/kit.sock) that point at `target`."""
    return [
        link
        for link in Path("/tmp").glob("kit-fwd-*/kit.sock")
        if link.is_symlink() and Path(os.readlink(link)) == target
    ]


def chat_env(tmp_path: Path, ssh: str) -> dict[str, str]:
    """A `kit chat` whose own data directory is empty and elsewhere: what it says comes from
    the remote daemon."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("KIT_")}
    env.update(KIT_DATA_DIR=str(tmp_path / "here"), KIT_CONFIG=str(tmp_path / "none.toml"))
    (tmp_path / "none.toml").write_text("")
    env[SSH_ENV] = ssh
    return env


async def test_kit_chat_remote_talks_to_the_daemon_through_sshd(
    sshd: Sshd,
    settings: Settings,
    clock: FakeClock,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    llm = FakeLLM(["Hello from the far side"])
    async with running_daemon(settings, clock, llm, monkeypatch) as data_dir:
        code, out, err = await kit_chat(
            "--remote",
            sshd.destination,
            "--remote-data-dir",
            str(data_dir),
            stdin="hi, are you there?\n/facts\n",
            env=chat_env(tmp_path, sshd.ssh_command),
            cwd=tmp_path,
        )
    assert code == 0, err
    assert "Hello from the far side" in out
    assert not (tmp_path / "here" / "kit.db").exists()  # nothing opened on this side
    chats = [r for r in llm.requests if r.purpose.startswith("chat")]
    assert "hi, are you there?" in str(chats[0].messages[-1])
    assert not links_to(data_dir / "kit.sock")  # the remote end's link is gone with ssh


async def test_no_daemon_on_the_remote_host_is_one_clear_line(sshd: Sshd, tmp_path: Path) -> None:
    empty = tmp_path / "nothing-runs-here"
    empty.mkdir()
    code, _, err = await kit_chat(
        "--remote",
        sshd.destination,
        "--remote-data-dir",
        str(empty),
        stdin="hi\n",
        env=chat_env(tmp_path, sshd.ssh_command),
        cwd=tmp_path,
    )
    assert code == 1
    assert err.strip().splitlines()[-1] == (
        f"kit: no Kit daemon runs on {sshd.destination}: {empty}/kit.sock does not exist. "
        "Start it there with `kit run` (or `systemctl --user start kit`), or name its data "
        "directory with --remote-data-dir"
    )


async def test_a_socket_nobody_listens_on_is_named(
    sshd: Sshd, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(SSH_ENV, sshd.ssh_command)
    stale = tmp_path / "stale"
    stale.mkdir()
    with socket.socket(socket.AF_UNIX) as left:  # what a killed daemon leaves behind
        left.bind(str(stale / "kit.sock"))
    with pytest.raises(RemoteUnavailable, match="is there but nothing listens on it"):
        async with remote_client(sshd.destination, data_dir=str(stale)):
            pass


async def test_missing_ssh_and_an_unreachable_host_are_one_line_each(
    sshd: Sshd, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(SSH_ENV, "no-such-ssh-program -v")
    with pytest.raises(RemoteUnavailable, match="`no-such-ssh-program` is not installed"):
        async with remote_client(sshd.destination):
            pass
    closed = [*sshd.ssh]
    closed[closed.index("-p") + 1] = "1"  # nothing listens on port 1
    monkeypatch.setenv(SSH_ENV, " ".join(closed))
    with pytest.raises(RemoteUnavailable, match=r"ssh to .* failed \(exit 255\): .*refused"):
        async with remote_client(sshd.destination):
            pass


async def test_the_tui_on_a_remote_daemon_through_sshd(
    sshd: Sshd,
    settings: Settings,
    clock: FakeClock,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """`kit tui --remote`'s client: the real Textual app on the forwarded socket."""
    from tests.tui.conftest import settle
    from tui.app import KitApp
    from tui.chat import Reply

    monkeypatch.setenv(SSH_ENV, sshd.ssh_command)
    llm = FakeLLM(["Hello, TUI on the far side"])
    async with (
        running_daemon(settings, clock, llm, monkeypatch) as data_dir,
        remote_client(sshd.destination, data_dir=str(data_dir)) as client,
    ):
        app = KitApp(client)
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            await pilot.press(*"hello", "enter")
            await settle(pilot)
            assert app.query(Reply).last().body.source == "Hello, TUI on the far side"
