"""The house rules that tools can check: lint, format, strict types, and where SDKs live."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
CODE = ["kit", "scheduler", "tui", "tests", "bench"]


# A bound against a hang, not a speed limit: mypy --strict from a cold cache (a fresh clone,
# `.ci/run`) took 300 s on 2 cores at load 20 for 57 s of CPU, and pytest's 300 s cut it off.
TOOL_SECONDS = 1800


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", *args],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=TOOL_SECONDS,
    )


def test_ruff_finds_nothing() -> None:
    done = _run("ruff", "check", *CODE)
    assert done.returncode == 0, done.stdout + done.stderr


def test_code_is_formatted() -> None:
    done = _run("ruff", "format", "--check", *CODE)
    assert done.returncode == 0, done.stdout + done.stderr


@pytest.mark.timeout(TOOL_SECONDS + 60)
def test_mypy_strict_is_clean() -> None:
    done = _run("mypy")  # packages and strictness come from pyproject.toml
    assert done.returncode == 0, done.stdout + done.stderr


@pytest.mark.parametrize(
    ("sdk", "home"),
    [
        ("anthropic", {"kit/llm/anthropic.py"}),
        ("openai", {"kit/llm/openai.py"}),
        ("fastembed", {"kit/embed/fastembed.py"}),
        ("telegram", {"kit/channels/telegram/transport.py"}),
        ("nio", {"kit/channels/matrix/transport.py"}),
        ("detect_secrets", {"kit/secrets/tokens.py"}),
        ("mnemonic", {"kit/secrets/seeds.py"}),
        ("usearch", {"kit/retrieval/ann.py"}),
        ("numkong", {"kit/retrieval/matrix.py", "kit/retrieval/packed.py"}),  # the scan; its copy
        ("mcp", {"kit/mcp/server.py", "kit/mcp/http.py"}),  # the server; its HTTP transport
        ("uvicorn", {"kit/mcp/http.py"}),
        ("pydantic", {"kit/mcp/server.py"}),  # the MCP SDK's schema language, there only
        ("asyncpg", {"kit/store/postgres/database.py"}),
        ("aiosqlite", {"kit/store/sqlite.py"}),
    ],
)
def test_each_sdk_is_imported_in_one_module(sdk: str, home: set[str]) -> None:
    pattern = re.compile(rf"^\s*(import|from)\s+{sdk}\b", re.MULTILINE)
    found = {
        str(path.relative_to(REPO))
        for folder in ("kit", "scheduler", "tui")
        for path in (REPO / folder).rglob("*.py")
        if pattern.search(path.read_text(encoding="utf-8"))
    }
    assert found == home


def test_core_never_imports_the_edges() -> None:
    """kit/ never imports tui/, and scheduler/ only from `kit run` (kit/commands/run.py, the
    process that wires the core to the scheduler), inside its command: `import kit` and
    `kit --help` load no scheduler."""
    pattern = re.compile(r"^(\s*)(?:import|from)\s+(scheduler|tui|kitd)\b", re.MULTILINE)
    offenders = []
    for path in sorted((REPO / "kit").rglob("*.py")):
        name = str(path.relative_to(REPO))
        for found in pattern.finditer(path.read_text(encoding="utf-8")):
            indented, edge = found.group(1).strip("\n"), found.group(2)
            if not (name == "kit/commands/run.py" and edge == "scheduler" and indented):
                offenders.append(f"{name}: {found.group(0).strip()}")
    assert offenders == []


def test_apscheduler_lives_in_scheduler_only() -> None:
    pattern = re.compile(r"^\s*(import|from)\s+apscheduler\b", re.MULTILINE)
    outside = [
        str(path.relative_to(REPO))
        for folder in ("kit", "tui")
        for path in (REPO / folder).rglob("*.py")
        if pattern.search(path.read_text(encoding="utf-8"))
    ]
    assert outside == []


def test_no_file_holds_merge_conflict_markers() -> None:
    """A merge left unresolved in a prompt, doc or config goes unnoticed by the linters (a prompt
    once carried both sides of a conflict to the model); every text file is checked."""
    marker = re.compile(r"^(<{7}|>{7})( |$)", re.M)
    found = []
    for folder in ("kit", "prompts", "scheduler", "tui", "tests", "bench", ".ci", "docs"):
        for path in sorted((REPO / folder).rglob("*")):
            if path.is_file() and path.suffix in {".py", ".md", ".toml", ".tcss", ".txt", ""}:
                text = path.read_text(encoding="utf-8", errors="replace")
                if marker.search(text):
                    found.append(str(path.relative_to(REPO)))
    for name in ("README.md", "config.toml", "pyproject.toml"):
        if marker.search((REPO / name).read_text(encoding="utf-8")):
            found.append(name)
    assert not found, f"merge conflict markers in: {found}"


def test_importing_kit_loads_no_model_sdk() -> None:
    """The SDKs load only when a role uses one (the composition root builds the clients):
    `import kit`, `kit.app` and the CLI's parser stay cheap."""
    code = (
        "import sys, kit, kit.app, kit.cli; kit.cli.parser(); "
        "print(sorted(m for m in ('openai', 'anthropic') if m in sys.modules))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"
