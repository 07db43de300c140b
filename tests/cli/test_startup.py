"""What start-up loads (issue 20): `import kit`, `kit --help` and `kit --version` load no SDK and
not the core; `from kit import Kit` loads neither (an SDK loads in the one module that uses
it, the core when Kit is opened); `kit status` and `kit chat` that a running daemon answers load
neither the engine nor an SDK (issue 24). A test of what is imported, never of time:
bench/startup.py measures the time."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from pathlib import Path

import pytest

from tests.support.shared_model import require_model

# Third-party packages a command must not pay for before it needs them.
SDKS = (
    "anthropic",
    "openai",
    "fastembed",
    "onnxruntime",
    "textual",
    "telegram",
    "mcp",
    "pydantic",
    "httpx",
    "usearch",
    "numpy",
    "aiosqlite",
    "asyncpg",
    "apscheduler",
    "detect_secrets",
    "mnemonic",
    "rich",
    "tzlocal",
)
# Kit's own heavy part: the composition root and everything it wires, and the event loop.
CORE = (
    "kit.api",
    "kit.app",
    "kit.agent",
    "kit.retrieval.search",
    "scheduler",
    "tui.app",
    "asyncio",
)


def loaded_after(code: str) -> set[str]:
    """The modules a fresh interpreter holds after running `code`."""
    probe = f"{code}\nimport json, sys\nprint(json.dumps(sorted(sys.modules)))"
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, timeout=120, check=True
    )
    return set(json.loads(done.stdout.splitlines()[-1]))


def _cli(*argv: str) -> str:
    """Code that runs `kit ARGV` as the console script does, its output swallowed."""
    return (
        "import contextlib, io\n"
        "from kit.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        "    try:\n"
        f"        main({list(argv)!r})\n"
        "    except SystemExit:\n"
        "        pass"
    )


def _tops(modules: set[str], wanted: tuple[str, ...]) -> list[str]:
    return sorted(
        name for name in wanted if name in modules or any(m.startswith(name + ".") for m in modules)
    )


def test_import_kit_loads_no_sdk_and_not_the_core() -> None:
    modules = loaded_after("import kit")
    assert _tops(modules, SDKS) == []
    assert _tops(modules, CORE) == []


@pytest.mark.parametrize(
    "argv",
    [("--help",), ("--version",), ("facts", "--help"), ("run", "--help"), ("tui", "--help")],
    ids=["help", "version", "facts-help", "run-help", "tui-help"],
)
def test_help_and_version_load_no_sdk_and_not_the_core(argv: tuple[str, ...]) -> None:
    modules = loaded_after(_cli(*argv))
    assert "kit.cli" in modules and "kit.commands.facts" in modules  # the parser was built
    assert _tops(modules, SDKS) == []
    assert _tops(modules, CORE) == []


def test_the_public_api_loads_no_sdk_and_not_the_core() -> None:
    """`from kit import Kit` is the class and its declarations (issue 33: it cost 0.9 s of CPU
    when it loaded the core): numpy, the secret detector, the composition root and every
    store load when Kit is opened, and each model, chat, UI, MCP or PostgreSQL SDK in its
    adapter when Kit is opened with it. bench/startup.py prints the CPU time."""
    modules = loaded_after("from kit import Kit\nassert Kit.open and Kit.search")
    assert "kit.api" in modules
    assert _tops(modules, SDKS) == []
    assert _tops(modules, tuple(m for m in CORE if m != "kit.api")) == []
    assert _tops(modules, ("kit.tools", "kit.secrets", "kit.retrieval.vectors")) == []


def test_the_search_default_kinds_are_the_searched_kinds() -> None:
    """Kit.search spells its default kinds out (kit.retrieval.vectors loads numpy); they are
    KINDS."""
    import inspect

    from kit.api import Kit
    from kit.retrieval.kinds import KINDS

    assert inspect.signature(Kit.search).parameters["kinds"].default == KINDS


def test_every_public_name_resolves_to_its_home() -> None:
    """`kit.Kit`, `kit.Settings`, ...: the same objects as in the modules that define them."""
    import importlib

    import kit

    for name in kit.__all__:
        home = importlib.import_module(kit._HOMES[name])
        assert getattr(kit, name) is getattr(home, name)
    assert set(kit.__all__) <= set(dir(kit))
    with pytest.raises(AttributeError, match="no attribute 'nothing'"):
        _ = kit.nothing  # type: ignore[attr-defined]


# -- a command that a running daemon answers ------------------------------------------------

# What a daemon's client must not load: the engine (it runs in the daemon), the SDKs, and the
# client of an engine in this process.
ENGINE = (*(m for m in CORE if m != "asyncio"), "kit.client", "kit.tools", "kit.secrets")


async def _loaded_by_command(
    argv: tuple[str, ...], env: dict[str, str], stdin: bytes = b""
) -> tuple[set[str], str]:
    """The modules `kit ARGV` (as the console script runs it) holds at its end, and what it
    printed; run as a process of its own while this test's loop serves the daemon."""
    probe = (
        "import contextlib, io, json, sys\n"
        "from kit.cli import main\n"
        "out = io.StringIO()\n"
        "with contextlib.redirect_stdout(out):\n"
        f"    code = main({list(argv)!r})\n"
        "print(json.dumps({'code': code, 'out': out.getvalue(), 'modules': sorted(sys.modules)}))"
    )
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-c",
        probe,
        env=env,
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    async with asyncio.timeout(120):
        stdout, stderr = await process.communicate(stdin)
    assert process.returncode == 0, stderr.decode()
    answer = json.loads(stdout.decode().splitlines()[-1])
    assert answer["code"] == 0, answer["out"] + stderr.decode()
    return set(answer["modules"]), answer["out"]


@pytest.fixture
async def daemon(tmp_path: Path) -> AsyncIterator[dict[str, str]]:
    """A daemon on a data directory (its lock and control socket, in this process), and the
    environment a `kit` command needs to find it."""
    from kit.clock import FakeClock
    from kit.config import load_settings
    from tests.support.fake_daemon import FakeDaemon

    config = tmp_path / "config.toml"
    config.write_text(
        f'[schedule]\ntimezone = "UTC"\n[embedding]\nmodel_path = "{tmp_path}/none"\n'
    )
    env = {**os.environ, "KIT_CONFIG": str(config), "KIT_DATA_DIR": str(tmp_path / "data")}
    settings = load_settings(config, tmp_path / "data")
    running = FakeDaemon(settings, FakeClock(datetime(2026, 3, 2, 9, 0, tzinfo=UTC)))
    await running.start()
    try:
        yield env
    finally:
        await running.stop()


@pytest.mark.parametrize(
    ("argv", "stdin", "shown"),
    [
        (("status",), b"", "Kit daemon running"),
        (("chat",), b"hello there\n/facts\n", "from the daemon"),
    ],
    ids=["status", "chat"],
)
async def test_a_command_the_daemon_answers_loads_neither_the_engine_nor_an_sdk(
    daemon: dict[str, str], argv: tuple[str, ...], stdin: bytes, shown: str
) -> None:
    """`kit status` and `kit chat` beside a running daemon load the client's side only: the
    declaration of the operations, the socket, and the result types of the calls made."""
    modules, out = await _loaded_by_command(argv, daemon, stdin)
    assert shown in out  # the daemon answered, not Kit in this process
    assert "kit.daemon.socket_client" in modules
    assert _tops(modules, SDKS) == []
    assert _tops(modules, ENGINE) == []


def test_a_daemons_kit_opens_without_the_model_sdks_and_prepares_them_when_asked(
    tmp_path: Path,
) -> None:
    """A daemon's Kit (`model_later`) is open before fastembed, onnxruntime or the anthropic
    SDK is imported: the embedding model loads in the background or on first use
    (kit/embed/lazy.py), a role's client is made on first use or by the warm-up
    (kit/llm/deferred.py), and then it is the real SDK's."""
    model = require_model()
    code = (
        "import asyncio, json, sys\n"
        "from pathlib import Path\n"
        "from kit.api import Kit\n"
        "from kit.config import Settings\n"
        "from kit.embedding_settings import EmbeddingSettings\n"
        "SDKS = ('anthropic', 'fastembed', 'onnxruntime')\n"
        "def held():\n"
        "    return [s for s in SDKS if s in sys.modules]\n"
        "async def main():\n"
        f"    settings = Settings(data_dir=Path({str(tmp_path / 'data')!r}),\n"
        f"        embedding=EmbeddingSettings(model_path={str(model)!r}))\n"
        "    async with Kit.open(settings=settings, background=False, model_later=True) as kit:\n"
        "        opened = held()\n"
        "        for client in kit.services.llm_clients:\n"
        "            await client.prepare()\n"
        "        await kit.services.vectors.loaded()\n"
        "        print(json.dumps([opened, held()]))\n"
        "asyncio.run(main())\n"
    )
    env = {**os.environ, "ANTHROPIC_API_KEY": "sk-ant-test-0123456789"}
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, env=env
    )
    assert done.returncode == 0, done.stderr
    opened, prepared = json.loads(done.stdout.splitlines()[-1])
    assert opened == []
    assert prepared == ["anthropic", "fastembed", "onnxruntime"]
