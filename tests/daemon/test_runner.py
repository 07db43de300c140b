"""The daemon's lifecycle in-process: run_daemon with a scripted model, signals sent by hand."""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import signal
from collections.abc import Callable

import pytest

from kit.api import Kit
from kit.app import Services
from kit.channel_settings import MatrixSettings
from kit.clock import FakeClock
from kit.config import Settings
from kit.daemon.lock import DataDirLock
from kit.daemon.runner import ShutdownSignals, run_daemon
from kit.daemon.socket_client import SocketClient
from kit.embed.hashing import HashingEmbedder
from kit.errors import ConfigError, KitError
from kit.llm.base import LLMReply, LLMRequest, TextSink
from kit.llm.fake import FakeLLM
from kit.retrieval.matrices import MatrixVectors
from tests.support.tiny_onnx import TinyModels


class StalledLLM:
    """Answers nothing until cancelled."""

    def __init__(self) -> None:
        self.called = asyncio.Event()

    async def complete(self, request: LLMRequest, on_text: TextSink | None = None) -> LLMReply:
        self.called.set()
        await asyncio.Event().wait()
        raise AssertionError("unreachable")


class Recorder:
    """A component that notes its start and its (cancelled) end."""

    name = "recorder"

    def __init__(self, services: Services, log: list[str]) -> None:
        self.log = log

    async def run(self) -> None:
        self.log.append("started")
        try:
            await asyncio.Event().wait()
        finally:
            self.log.append("stopped")


async def start(
    settings: Settings, clock: FakeClock, llm: object, **kw: object
) -> tuple[asyncio.Task[None], ShutdownSignals]:
    signals = ShutdownSignals()
    task = asyncio.create_task(
        run_daemon(
            settings,
            llm=llm,
            embedder=HashingEmbedder(),
            clock=clock,
            signals=signals,
            **kw,  # type: ignore[arg-type]
        )
    )
    sock = settings.data_dir / "kit.sock"
    async with asyncio.timeout(30):
        while not sock.exists():  # noqa: ASYNC110 - the socket file is the readiness signal here
            await asyncio.sleep(0.01)
    return task, signals


def component(log: list[str]) -> Callable[[Services], Recorder]:
    return lambda services: Recorder(services, log)


async def test_sigterm_stops_components_and_frees_the_data_dir(
    settings: Settings, clock: FakeClock
) -> None:
    events: list[str] = []
    daemon, signals = await start(settings, clock, FakeLLM(), components=[component(events)])
    assert (await SocketClient(settings.data_dir / "kit.sock").send("hi")).reply == "ok"
    signals.received(signal.SIGTERM)
    await daemon
    assert events == ["started", "stopped"]
    assert not (settings.data_dir / "kit.sock").exists()
    lock = DataDirLock(settings.data_dir)
    lock.acquire("daemon")  # free again
    lock.release()


async def test_a_reply_still_running_after_the_grace_period_is_cut_and_recorded(
    settings: Settings, clock: FakeClock
) -> None:
    llm = StalledLLM()
    daemon, signals = await start(settings, clock, llm, grace=0.2)
    turn = asyncio.create_task(SocketClient(settings.data_dir / "kit.sock").send("long one"))
    await llm.called.wait()
    signals.received(signal.SIGTERM)
    with pytest.raises(KitError, match="shut down before it finished"):
        await turn
    await daemon
    transcript = await reopen_window(settings, clock)
    assert [(role, source) for role, source, _ in transcript] == [
        ("user", "chat"),
        ("assistant", "interrupted"),
    ]


async def test_a_second_signal_skips_the_grace_period(settings: Settings, clock: FakeClock) -> None:
    llm = StalledLLM()
    daemon, signals = await start(settings, clock, llm, grace=3600)
    turn = asyncio.create_task(SocketClient(settings.data_dir / "kit.sock").send("long one"))
    await llm.called.wait()
    signals.received(signal.SIGTERM)
    signals.received(signal.SIGINT)
    async with asyncio.timeout(60):  # far below the hour of grace
        with pytest.raises(KitError):
            await turn
        await daemon


async def test_a_component_failing_with_a_kit_error_stops_the_daemon_with_that_error(
    settings: Settings, clock: FakeClock
) -> None:
    class Broken:
        name = "broken"

        def __init__(self, services: Services) -> None:
            pass

        async def run(self) -> None:
            raise ConfigError("config.toml: telegram.allowed_user_ids is empty; add your id")

    with pytest.raises(ConfigError, match="allowed_user_ids is empty"):
        await run_daemon(
            settings, components=[Broken], llm=FakeLLM(), embedder=HashingEmbedder(), clock=clock
        )
    assert not (settings.data_dir / "kit.sock").exists()
    assert not (settings.data_dir / "kit.pid").exists()


async def reopen_window(settings: Settings, clock: FakeClock) -> list[tuple[str, str, str]]:
    async with Kit.open(
        settings=settings, llm=FakeLLM(), embedder=HashingEmbedder(), clock=clock, background=False
    ) as kit:
        conv = await kit.services.messages.conversation("owner", "terminal", "terminal")
        return [(m.role, m.source, m.text) for m in await kit.services.messages.window(conv.id)]


async def test_a_telegram_token_without_an_allowlist_stops_start_up_with_the_fix(
    settings: Settings, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TELEGRAM_BOT_TOKEN", "123456:TEST-token-value")
    with pytest.raises(ConfigError, match="message @userinfobot"):
        await run_daemon(settings, llm=FakeLLM(), embedder=HashingEmbedder(), clock=clock)
    assert not (settings.database_path).exists()
    assert not (settings.data_dir / "kit.pid").exists()


@pytest.mark.parametrize(
    ("homeserver", "fix"),
    [
        ("", "matrix.homeserver is empty"),
        ("https://matrix.example.org", "allowed_user_ids is empty"),
    ],
)
async def test_a_matrix_token_without_its_settings_stops_start_up_with_the_fix(
    homeserver: str,
    fix: str,
    settings: Settings,
    clock: FakeClock,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Matrix is in the channels' registry like Telegram: its token turns it on, and its
    settings are checked before anything opens."""
    monkeypatch.setenv("MATRIX_ACCESS_TOKEN", "syt_test_token")
    matrix = dataclasses.replace(settings, matrix=MatrixSettings(homeserver=homeserver))
    with pytest.raises(ConfigError, match=fix):
        await run_daemon(matrix, llm=FakeLLM(), embedder=HashingEmbedder(), clock=clock)
    assert not (settings.database_path).exists()


async def test_the_daemon_loads_the_vectors_in_the_background_at_start(
    settings: Settings, clock: FakeClock
) -> None:
    async with Kit.open(
        settings=settings, llm=FakeLLM(), embedder=HashingEmbedder(), clock=clock, background=False
    ) as kit:
        await kit.remember("The boat is called Matilda", category="entities")
        await kit.settle()
    loaded: list[int] = []
    seen = asyncio.Event()

    class Watcher:
        name = "watcher"

        def __init__(self, services: Services) -> None:
            store = services.vectors.store
            assert isinstance(store, MatrixVectors)
            self.load = store.load

        async def run(self) -> None:
            await self.load.done.wait()
            loaded.append(self.load.loaded)
            seen.set()
            await asyncio.Event().wait()

    daemon, signals = await start(settings, clock, FakeLLM(), components=[Watcher])
    reply = await SocketClient(settings.data_dir / "kit.sock").send("What is the boat called?")
    assert reply.reply == "ok"
    async with asyncio.timeout(60):
        await seen.wait()
    signals.received(signal.SIGTERM)
    await daemon
    assert loaded == [1]  # the fact's vector, loaded without any search asking for it


async def test_a_daemon_started_with_another_model_re_embeds_in_the_background(
    settings: Settings,
    clock: FakeClock,
    tiny_models: TinyModels,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """`kit run` after the owner changed the model: ready at once, searching with the old
    model's vectors; the re-embedding runs in the background and then the new model serves."""
    async with Kit.open(
        settings=tiny_models.a.settings(settings), llm=FakeLLM(), clock=clock, background=False
    ) as kit:
        await kit.remember("The garden has beans", category="projects")
        await kit.settle()
        old = kit.embedding_model
    seen: list[str | None] = []
    switched = asyncio.Event()

    class Watch:
        name = "watch"

        def __init__(self, services: Services) -> None:
            self.services = services

        async def run(self) -> None:
            job = self.services.reindex
            assert job is not None
            seen.append(job.serving)
            await job.finished.wait()
            embedder = self.services.vectors.embedder
            seen.append(None if embedder is None else embedder.model_id)
            switched.set()
            await asyncio.Event().wait()

    caplog.set_level(logging.INFO)
    signals = ShutdownSignals()
    daemon = asyncio.create_task(
        run_daemon(
            tiny_models.b.settings(settings),
            llm=FakeLLM(),
            clock=clock,
            signals=signals,
            components=[Watch],
        )
    )
    async with asyncio.timeout(120):
        await switched.wait()
    signals.received(signal.SIGTERM)
    await daemon
    assert seen[0] == old and seen[1] is not None and seen[1] != old
    said = [r.getMessage() for r in caplog.records]
    assert len([m for m in said if "changed from" in m]) == 1
    assert len([m for m in said if "re-embedding done" in m]) == 1
