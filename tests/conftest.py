"""Shared fixtures: fakes at Kit's own seams, real components at the edges."""

from __future__ import annotations

import dataclasses
import gc
import os
from collections.abc import AsyncIterator, Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, settings

from kit.api import Kit
from kit.clock import FakeClock
from kit.config import ScheduleSettings, Settings, StorageSettings
from kit.embed.hashing import HashingEmbedder
from kit.llm.fake import FakeLLM
from tests.support import postgres
from tests.support.scratch import use_scratch_folder
from tests.support.shared_model import MODEL_DIR, MODEL_NAME, require_model
from tests.support.tiny_onnx import TinyModel, TinyModels, write_tiny_model

__all__ = ["MODEL_DIR", "MODEL_NAME"]


use_scratch_folder()  # thrown-away stores in memory when there is room (tests/support/scratch.py)

# PTB 22 warns about timedelta return types unless this opts in; our tests run with -W error.
os.environ.setdefault("PTB_TIMEDELTA", "1")

# No test depends on timing: hypothesis's per-example deadline and its "data generation is too
# slow" check fail property tests on a busy machine that pass on a quiet one (issue 20).
settings.register_profile(
    "kit", deadline=None, suppress_health_check=[HealthCheck.too_slow], print_blob=True
)
settings.load_profile("kit")

# `python -m pytest -m "not slow"`: the quick subset. Slow are the `integration` tests (a real
# `kit` process, the MiniLM model, a subprocess), the PostgreSQL runs of `stores` tests (the
# quick subset runs each once, on SQLite), the TUI's tests (each drives the real Textual app:
# 0.3-3.5 s), the Matrix channel's (a real Synapse homeserver per worker: ~10 s to start) and
# these files, each of whose tests takes seconds of its own (`--durations` on 2 shared cores:
# 10-300 s each under load).
SLOW_FOLDERS = ("tests/tui/", "tests/matrix/")
SLOW_FILES = {
    "tests/bench/test_quick.py",  # every benchmark, quick mode
    "tests/scheduler/test_runaway.py",  # ten days of a failing model, hour by hour
    "tests/test_harness.py",  # a pytest run holding a PostgreSQL, killed
    "tests/test_quality.py",  # ruff and mypy --strict over the code
    "tests/trust/test_concurrency.py",
    "tests/trust/test_crash_soak.py",
    "tests/trust/test_load.py",
    "tests/trust/test_postgres_faults.py",
    "tests/trust/test_socket_fuzz.py",
    "tests/trust/test_socket_hostile.py",
    "tests/tui/test_snapshots.py",  # every screen rendered and compared
}


@pytest.fixture(autouse=True)
def _unfrozen() -> Iterator[None]:
    """A daemon's warm-up freezes the heap (kit/heap.py `freeze`): in a test process the
    objects frozen would outlive their test, so they go back to the collector after it."""
    yield
    if gc.get_freeze_count():
        gc.unfreeze()


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock(datetime(2026, 3, 2, 9, 0, tzinfo=UTC))


STORES = ("sqlite", "postgres")


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        "stores(*engines): the tests run on each store (SQLite and PostgreSQL unless named)",
    )


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    root = config.rootpath
    for item in items:
        where = item.path.relative_to(root).as_posix() if item.path.is_relative_to(root) else ""
        if (
            where in SLOW_FILES
            or where.startswith(SLOW_FOLDERS)
            or item.get_closest_marker("integration") is not None
            or on_postgres(item)
        ):
            item.add_marker(pytest.mark.slow)


def on_postgres(item: pytest.Item) -> bool:
    """The PostgreSQL run of a `stores` test: the quick subset runs each such test once, on
    SQLite; the whole suite runs it on both engines."""
    callspec = getattr(item, "callspec", None)
    return callspec is not None and callspec.params.get("store") == "postgres"


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """Tests marked `stores` (a module's `pytestmark`) run once per store; others on SQLite.
    A test marked `stores("sqlite")` inside such a module pins what only one engine has."""
    marker = metafunc.definition.get_closest_marker("stores")
    if "store" in metafunc.fixturenames and marker is not None:
        metafunc.parametrize("store", marker.args or STORES, indirect=True)


@pytest.fixture
def store(request: pytest.FixtureRequest) -> str:
    """The engine a test's Kit runs on: "sqlite" unless its module is marked `stores`."""
    return str(getattr(request, "param", "sqlite"))


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[postgres.TestServer]:
    """One PostgreSQL server with pgvector for the session (tests/support/postgres.py says
    which)."""
    postgres.require()
    with postgres.server_folder() as folder:
        server = postgres.start(folder / "data")
        yield server
        postgres.stop(server)


@pytest.fixture
def storage_url(store: str, request: pytest.FixtureRequest) -> Iterator[str]:
    """ "" for SQLite (kit.db in the data directory); a fresh database for PostgreSQL."""
    if store == "sqlite":
        yield ""
        return
    server: postgres.TestServer = request.getfixturevalue("postgres_server")
    url = postgres.fresh_database(server)
    yield url
    postgres.drop_database(server, url)


@pytest.fixture
def elsewhere(settings: Settings, store: str, request: pytest.FixtureRequest) -> Iterator[Any]:
    """`elsewhere(name)`: settings for a second, empty Kit beside the test's own (another data
    directory; on PostgreSQL another database)."""
    made: list[str] = []

    def other(name: str) -> Settings:
        url = ""
        if store == "postgres":
            url = postgres.fresh_database(request.getfixturevalue("postgres_server"))
            made.append(url)
        return dataclasses.replace(
            settings,
            data_dir=settings.data_dir.parent / name,
            storage=StorageSettings(url=url),
        )

    yield other
    for url in made:
        postgres.drop_database(request.getfixturevalue("postgres_server"), url)


@pytest.fixture
def settings(tmp_path: Path, storage_url: str) -> Settings:
    return Settings(
        data_dir=tmp_path / "data",
        schedule=ScheduleSettings(timezone="UTC"),
        storage=StorageSettings(url=storage_url),
    )


def with_memory(settings: Settings, **changes: Any) -> Settings:
    """Settings with some memory.* values changed."""
    return dataclasses.replace(settings, memory=dataclasses.replace(settings.memory, **changes))


@pytest.fixture
def fake_llm() -> FakeLLM:
    return FakeLLM()


@pytest.fixture
async def kit(settings: Settings, fake_llm: FakeLLM, clock: FakeClock) -> AsyncIterator[Kit]:
    """An in-process Kit on a real store (a SQLite file, or a PostgreSQL database for modules
    marked `stores`), with a scripted model and a hashing embedder."""
    async with Kit.open(
        settings=settings, llm=fake_llm, embedder=HashingEmbedder(), clock=clock, background=False
    ) as opened:
        yield opened


@pytest.fixture(scope="session")
def tiny_models(tmp_path_factory: pytest.TempPathFactory) -> TinyModels:
    """Two tiny ONNX embedding models written by the tests (tests/support/tiny_onnx.py), of
    other dimensions than MiniLM's 384: what an owner's change of model looks like."""
    folder = tmp_path_factory.mktemp("tiny-models")
    return TinyModels(
        a=TinyModel(write_tiny_model(folder / "a", dim=24, seed=1), 24),
        b=TinyModel(write_tiny_model(folder / "b", dim=40, seed=2), 40),
    )


@pytest.fixture(scope="session")
def minilm_model() -> Any:
    """The real fastembed model from ../shared/models (loaded once per session)."""
    model_dir = require_model()
    from fastembed import TextEmbedding

    return TextEmbedding(model_name=MODEL_NAME, specific_model_path=str(model_dir))


@pytest.fixture
def minilm(minilm_model: Any) -> Any:
    from kit.embed.fastembed import FastEmbedder

    return FastEmbedder(minilm_model, MODEL_NAME, 384)
