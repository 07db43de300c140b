"""`kit run` as a real process: the real anthropic SDK against a local Messages API server,
talked to over its control socket and through `kit chat`."""

from __future__ import annotations

import asyncio
import errno
import json
import os
import re
import signal
import sqlite3
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from kit.daemon.socket_client import SocketClient
from kit.errors import KitError
from tests.servers.anthropic_api import FakeAnthropicServer
from tests.support.daemon_process import API_KEY, START_TIMEOUT, DaemonProcess, write_config
from tests.support.shared_model import MODEL_DIR, require_model

pytestmark = pytest.mark.integration


@pytest.fixture(scope="module")
def anthropic() -> Iterator[FakeAnthropicServer]:
    with FakeAnthropicServer() as server:
        yield server


@pytest.fixture(scope="module")
def daemon(
    tmp_path_factory: pytest.TempPathFactory, anthropic: FakeAnthropicServer
) -> Iterator[DaemonProcess]:
    """One daemon shared by the tests that only talk to it (starting one costs seconds)."""
    workdir = tmp_path_factory.mktemp("kitd")
    process = DaemonProcess(workdir, write_config(workdir / "config.toml", anthropic))
    process.start()
    yield process
    try:
        assert process.stop() == 0
    finally:
        process.close()


@pytest.fixture
def own_daemon(tmp_path: Path, anthropic: FakeAnthropicServer) -> Iterator[DaemonProcess]:
    """A daemon this test may stop and restart."""
    process = DaemonProcess(tmp_path, write_config(tmp_path / "config.toml", anthropic))
    yield process
    process.close()


async def wait_for(condition: Callable[[], bool], within: float = 30.0) -> None:
    """Wait until `condition()` holds (checked every 20 ms), or fail after `within` s."""
    async with asyncio.timeout(within):
        while not condition():  # noqa: ASYNC110 - the fake server's thread offers no event
            await asyncio.sleep(0.02)


def run_kit(
    process: DaemonProcess, *args: str, stdin: str = "", key: bool = True
) -> subprocess.CompletedProcess[str]:
    env = dict(process.env)
    if not key:
        env.pop("ANTHROPIC_API_KEY")
    return subprocess.run(
        process.kit(*args), input=stdin, env=env, capture_output=True, text=True, timeout=120
    )


async def test_send_streams_the_reply_and_stores_it(
    daemon: DaemonProcess, anthropic: FakeAnthropicServer
) -> None:
    anthropic.queue_text("Noted: the plumber comes on Thursday at nine.")
    chunks: list[str] = []

    async def sink(text: str) -> None:
        chunks.append(text)

    client = SocketClient(daemon.socket)
    result = await client.send("the plumber comes thursday at 9", conversation="s1", on_text=sink)
    assert len(chunks) > 1
    assert "".join(chunks) == result.reply == "Noted: the plumber comes on Thursday at nine."
    assert result.reply_message_id is not None and not result.failed
    assert anthropic.requests[-1].json["messages"][-1]["content"][0]["text"] == (
        "the plumber comes thursday at 9"
    )


def test_a_second_daemon_is_refused_naming_the_first_ones_pid(daemon: DaemonProcess) -> None:
    second = run_kit(daemon, "run")
    assert second.returncode == 2
    assert f"a Kit daemon (pid {daemon.pid}) is already using this data directory" in (
        second.stderr
    )
    assert len(second.stderr.strip().splitlines()) == 1


def test_the_socket_and_data_dir_are_owner_only(daemon: DaemonProcess) -> None:
    assert daemon.socket.stat().st_mode & 0o777 == 0o600
    assert daemon.data_dir.stat().st_mode & 0o777 == 0o700
    assert (daemon.data_dir / "logs" / "kit.log").stat().st_mode & 0o777 == 0o600


def test_kit_chat_with_piped_stdin_goes_through_the_daemon(
    daemon: DaemonProcess, anthropic: FakeAnthropicServer
) -> None:
    """Without an API key of its own, `kit chat` can only answer through the daemon."""
    anthropic.queue_text("First answer.")
    anthropic.queue_text("Second answer.")
    chat = run_kit(daemon, "chat", "--conversation", "piped", stdin="one\ntwo\n", key=False)
    assert chat.returncode == 0, chat.stderr
    assert chat.stdout.splitlines() == ["First answer.", "Second answer."]


def test_kit_status_reports_the_daemon(daemon: DaemonProcess) -> None:
    status = run_kit(daemon, "status")
    assert status.returncode == 0, status.stderr
    assert f"Kit daemon running (pid {daemon.pid})" in status.stdout
    assert "chat claude-" in status.stdout


async def test_kit_facts_add_goes_through_the_daemon_which_embeds_it_at_once(
    daemon: DaemonProcess,
) -> None:
    """The standalone path would need the data directory's lock, which the daemon holds: a
    fact stored at all was stored by the daemon, and the daemon embeds it right away."""
    added = run_kit(daemon, "facts", "add", "Keeps bees on the roof", "--json", key=False)
    assert added.returncode == 0, added.stderr
    fact_id = json.loads(added.stdout)["fact"]["id"]
    pinned = run_kit(daemon, "facts", "pin", str(fact_id), key=False)
    assert pinned.returncode == 0 and pinned.stdout.startswith(f"Pinned fact #{fact_id}")
    if not (MODEL_DIR / "model.onnx").exists():
        return  # lexical search only: nothing to embed

    def embedded() -> bool:
        with sqlite3.connect(daemon.data_dir / "kit.db") as db:
            row = db.execute(
                "SELECT COUNT(*) FROM embeddings WHERE kind = 'fact' AND item_id = ?", (fact_id,)
            ).fetchone()
        return bool(row[0])

    await wait_for(embedded)


async def test_the_log_and_kit_status_say_when_search_by_meaning_serves(
    own_daemon: DaemonProcess,
) -> None:
    """Two moments (issue 33): the socket accepts (READY=1), then, once the embedding model and
    the vectors are in, search by meaning serves; the log says each, `kit status` says which."""
    require_model()
    own_daemon.start()
    log_file = own_daemon.data_dir / "logs" / "kit.log"
    added = run_kit(own_daemon, "facts", "add", "Keeps bees on the roof", key=False)
    assert added.returncode == 0, added.stderr  # memory holds something: the model loads
    serves = re.compile(r"search by meaning serves, [0-9.]+ s after the start .*vectors are in")
    await wait_for(lambda: serves.search(log_file.read_text(encoding="utf-8")) is not None, 180)
    log = log_file.read_text(encoding="utf-8")
    accepts = re.search(r"control socket \S+ accepts, [0-9.]+ s after the start", log)
    found = serves.search(log)
    assert accepts is not None and found is not None and accepts.start() < found.start()
    status = run_kit(own_daemon, "status")
    assert status.returncode == 0, status.stderr
    assert "ready: the socket accepts; search by meaning serves (" in status.stdout


def test_logs_go_to_the_rotating_file_without_the_api_key(daemon: DaemonProcess) -> None:
    log = (daemon.data_dir / "logs" / "kit.log").read_text(encoding="utf-8")
    assert "Kit is running (control socket, scheduler)" in log and "Telegram is off" in log
    assert API_KEY not in log and API_KEY not in daemon.stderr


async def test_sigterm_with_a_reply_in_flight_stops_within_the_bound_and_keeps_the_message(
    tmp_path: Path,
) -> None:
    """Each step waits on an event (the request reaching the model, the answer, the exit),
    never on time: this held alone and failed under load when the daemon closed the socket
    before writing the cut turn's answer."""
    with FakeAnthropicServer() as anthropic:  # its own: no other daemon takes the stall
        own_daemon = DaemonProcess(tmp_path, write_config(tmp_path / "config.toml", anthropic))
        try:
            await _sigterm_with_a_reply_in_flight(own_daemon, anthropic)
        finally:
            own_daemon.close()


async def _sigterm_with_a_reply_in_flight(
    own_daemon: DaemonProcess, anthropic: FakeAnthropicServer
) -> None:
    await asyncio.to_thread(own_daemon.start)
    anthropic.queue_stall(600)  # the model never answers while we are there
    client = SocketClient(own_daemon.socket)
    seen = len(anthropic.requests)
    turn = asyncio.create_task(client.send("summarise my week please", conversation="w"))
    await asyncio.to_thread(anthropic.wait_for_requests, seen + 1)  # it reached the model
    own_daemon.signal(signal.SIGTERM)
    with pytest.raises(KitError, match="shut down before it finished"):
        await turn
    assert await asyncio.to_thread(own_daemon.wait) == 0
    assert "marked as interrupted" in own_daemon.stderr

    # No daemon now: `kit chat` runs Kit in its own process, and finds the cut turn recorded.
    anthropic.queue_text("Back again.")
    chat = await asyncio.to_thread(
        run_kit, own_daemon, "chat", "--conversation", "w", stdin="hello again\n"
    )
    assert chat.stdout.strip() == "Back again."
    assert not (own_daemon.data_dir / "kit.pid").exists()  # a clean stop leaves no pid file
    assert not own_daemon.socket.exists()
    sent = anthropic.requests[-1].json["messages"]
    assert [m["role"] for m in sent] == ["user", "assistant", "user"]
    assert sent[0]["content"][0]["text"] == "summarise my week please"
    assert "shut down before it could answer" in sent[1]["content"][0]["text"]


async def test_sigterm_while_the_embedding_model_loads_exits_without_waiting_for_the_load(
    tmp_path: Path,
) -> None:
    """A thread cannot be cancelled: a model load still running at SIGTERM (here reading a
    model.onnx that is a pipe nobody writes to, so it never ends) must not hold the exit, or
    `systemctl stop` hangs with it. It did: "Kit stopped" was logged, then the process waited
    for the thread for good (asyncio.run and the interpreter both join the worker threads)."""
    model = tmp_path / "model"
    model.mkdir()
    for part in require_model().iterdir():  # its tokenizer and config; the weights a pipe
        if part.name != "model.onnx":
            (model / part.name).symlink_to(part)
    os.mkfifo(model / "model.onnx")
    writer: int | None = None
    with FakeAnthropicServer() as anthropic:  # its own: no other daemon takes the reply
        daemon = DaemonProcess(
            tmp_path, write_config(tmp_path / "config.toml", anthropic, model=model)
        )
        try:
            await asyncio.to_thread(daemon.start)
            anthropic.queue_text("Noted.")
            await SocketClient(daemon.socket).send("the boiler is serviced in May")
            writer = await _pipe_opened_by_a_reader(model / "model.onnx")  # the load is under way
            assert await asyncio.to_thread(daemon.stop) == 0  # within STOP_TIMEOUT, not for ever
        finally:
            if writer is not None:
                os.close(writer)  # the stuck read ends (if the process is still there)
            daemon.close()
    assert "Kit stopped" in daemon.stderr
    assert "without waiting for 1 worker thread" in daemon.stderr


async def _pipe_opened_by_a_reader(fifo: Path, within: float = START_TIMEOUT) -> int:
    """The write end of `fifo`, once a reader has opened it: opening it without blocking
    fails (ENXIO) until then. Another process's thread offers no event, so this polls."""
    async with asyncio.timeout(within):
        while True:
            try:
                return os.open(fifo, os.O_WRONLY | os.O_NONBLOCK)
            except OSError as exc:
                if exc.errno != errno.ENXIO:
                    raise
            await asyncio.sleep(0.02)


async def test_a_restart_keeps_everything(
    own_daemon: DaemonProcess, anthropic: FakeAnthropicServer
) -> None:
    await asyncio.to_thread(own_daemon.start)
    client = SocketClient(own_daemon.socket)
    anthropic.queue_text("Nice, Miso is a lovely name for a cat.")
    await client.send("my cat is called Miso", conversation="pets")
    assert await asyncio.to_thread(own_daemon.stop) == 0

    await asyncio.to_thread(own_daemon.start)
    anthropic.queue_text("Your cat is called Miso.")
    result = await SocketClient(own_daemon.socket).send(
        "what's my cat called?", conversation="pets"
    )
    assert result.reply == "Your cat is called Miso."
    sent = anthropic.requests[-1].json["messages"]
    assert "my cat is called Miso" in sent[0]["content"][0]["text"]
    assert await asyncio.to_thread(own_daemon.stop) == 0
    assert not (own_daemon.data_dir / "kit.pid").exists()  # a clean stop leaves no pid file


def test_two_data_directories_on_one_sqlite_file_never_run_two_kits(
    tmp_path: Path, anthropic: FakeAnthropicServer
) -> None:
    """storage.url can point two data directories at one SQLite file; their own locks do not
    see each other, so the file's lock (<file>.lock) refuses the second `kit run` and `kit
    chat` in one line naming the first daemon and its data directory, until it stops."""
    shared = tmp_path / "shared" / "kit.db"
    daemons = []
    for name in ("a", "b"):
        (tmp_path / name).mkdir()
        config = tmp_path / name / "config.toml"
        url = f"sqlite://{shared}"  # sqlite:///tmp/...
        write_config(config, anthropic, f'[storage]\nurl = "{url}"\n')
        daemons.append(DaemonProcess(tmp_path / name, config))
    first, second = daemons
    try:
        first.start()
        for command, stdin in (("run", ""), ("chat", "hello\n")):
            refused = run_kit(second, command, stdin=stdin)
            assert refused.returncode == 2, refused.stderr
            assert refused.stderr.strip() == (
                f"kit: {shared}: a Kit daemon (pid {first.pid}) for the data directory "
                f"{first.data_dir} is already using this SQLite file, and one SQLite file holds "
                f"one Kit; kill {first.pid} (or `systemctl --user stop kit`) first, or give "
                f"{second.data_dir} a storage.url of its own (several workers on one memory "
                "need PostgreSQL)"
            )
        assert first.stop() == 0
        assert not shared.with_name("kit.db.lock").exists()  # a clean stop leaves none
        second.start()  # the file is free again
        assert second.stop() == 0
    finally:
        for daemon in daemons:
            daemon.close()
