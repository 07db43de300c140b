"""`kit run` as a real subprocess, for end-to-end tests.

Readiness comes from the daemon itself: it sends systemd's READY=1 to $NOTIFY_SOCKET once
its control socket listens, and the helper waits for that datagram (no sleeping, no polling
the socket). The model is the real anthropic SDK against a `FakeAnthropicServer`.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import select
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

from tests.servers.anthropic_api import FakeAnthropicServer
from tests.support.shared_model import MODEL_DIR

REPO = Path(__file__).resolve().parents[2]
API_KEY = "sk-ant-test-key-0123456789abcdef"
START_TIMEOUT = 90.0  # generous: 2 shared cores, a model to load
STOP_TIMEOUT = 30.0  # the bound a clean shutdown must stay within (grace + teardown steps)


def write_config(
    path: Path, anthropic: FakeAnthropicServer, extra: str = "", *, model: Path | None = None
) -> Path:
    # The real embedding model when present; otherwise lexical search only (still a real run).
    if model is None:
        model = MODEL_DIR if (MODEL_DIR / "model.onnx").exists() else path.parent / "no-model"
    path.write_text(
        f'[llm]\nbase_url = "{anthropic.url}"\nmax_retries = 0\ntimeout_seconds = 120\n'
        f'[embedding]\nmodel_path = "{model}"\n'
        '[schedule]\ntimezone = "UTC"\n' + extra,
        encoding="utf-8",
    )
    return path


@contextlib.contextmanager
def notify_socket(path: Path) -> Iterator[socket.socket]:
    """A datagram socket at `path` for a `kit run` started with NOTIFY_SOCKET=`path` to say
    READY=1 on (`until_ready`); removed on exit."""
    path.unlink(missing_ok=True)
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as notify:
        notify.bind(str(path))
        notify.setblocking(False)
        try:
            yield notify
        finally:
            path.unlink(missing_ok=True)


async def until_ready(
    proc: asyncio.subprocess.Process, notify: socket.socket, state: str = "READY=1"
) -> None:
    """Until the daemon `proc` sends READY=1 (or another `state`) on `notify`; an error if it
    exits first. No bound of its own: a loaded machine starts slowly, and the test's timeout
    catches a hang."""
    loop = asyncio.get_running_loop()

    async def ready() -> None:
        while state.encode() not in await loop.sock_recv(notify, 4096):
            pass

    async with asyncio.TaskGroup() as group:
        said = group.create_task(ready())
        exited = group.create_task(proc.wait())
        await asyncio.wait({said, exited}, return_when=asyncio.FIRST_COMPLETED)
        said.cancel()
        exited.cancel()
    if said.cancelled():
        raise RuntimeError(f"kit run exited with {proc.returncode} before it said {state}")


class DaemonProcess:
    def __init__(
        self,
        workdir: Path,
        config: Path,
        *,
        grace: float = 1.0,
        env: dict[str, str] | None = None,
        start_timeout: float = START_TIMEOUT,
    ) -> None:
        self.start_timeout = start_timeout
        self.workdir = workdir
        self.data_dir = workdir / "data"
        self.config = config
        self.grace = grace
        inherited = {k: v for k, v in os.environ.items() if k != "TELEGRAM_BOT_TOKEN"}
        self.env = {**inherited, "ANTHROPIC_API_KEY": API_KEY, **(env or {})}
        self.stderr_path = workdir / "daemon-stderr.log"
        self.proc: subprocess.Popen[bytes] | None = None
        self._starts = 0

    @property
    def pid(self) -> int:
        assert self.proc is not None
        return self.proc.pid

    def kit(self, *args: str) -> list[str]:
        return [sys.executable, "-m", "kit.cli", "--config", str(self.config),
                "--data-dir", str(self.data_dir), *args]  # fmt: skip

    def start(self) -> None:
        self._starts += 1
        notify_path = self.workdir / f"notify-{self._starts}.sock"
        with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as notify:
            notify.bind(str(notify_path))
            with self.stderr_path.open("ab") as stderr:
                self.proc = subprocess.Popen(
                    self.kit("run", "--shutdown-grace", str(self.grace)),
                    cwd=REPO,
                    env={**self.env, "NOTIFY_SOCKET": str(notify_path)},
                    stdin=subprocess.DEVNULL,
                    stdout=subprocess.DEVNULL,
                    stderr=stderr,
                )
            deadline = time.monotonic() + self.start_timeout
            while time.monotonic() < deadline:
                readable, _, _ = select.select([notify], [], [], 0.2)
                if readable and b"READY=1" in notify.recv(4096):
                    return
                if self.proc.poll() is not None:
                    raise AssertionError(
                        f"kit run exited with {self.proc.returncode}:\n{self.stderr}"
                    )
            self.proc.kill()
            self.proc.wait()
            raise AssertionError(
                f"kit run was not ready within {self.start_timeout}s:\n{self.stderr}"
            )

    def signal(self, sig: signal.Signals = signal.SIGTERM) -> None:
        assert self.proc is not None
        self.proc.send_signal(sig)

    def wait(self, timeout: float = STOP_TIMEOUT) -> int:
        """The exit code; fails the test if the daemon outlives `timeout`."""
        assert self.proc is not None
        try:
            return self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
            raise AssertionError(
                f"kit run did not stop within {timeout}s:\n{self.stderr}"
            ) from None

    def stop(self) -> int:
        self.signal(signal.SIGTERM)
        return self.wait()

    def close(self) -> None:
        """Teardown: never leave a daemon behind."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()

    @property
    def stderr(self) -> str:
        return self.stderr_path.read_text(encoding="utf-8", errors="replace")

    @property
    def socket(self) -> Path:
        return self.data_dir / "kit.sock"
