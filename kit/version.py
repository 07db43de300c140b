"""Which Kit this is (for `kit --version`, logs and MCP clients).

The one place the version is written: pyproject.toml reads it from here at build time, so
`importlib.metadata` (20 ms at every start) is not needed to know it."""

from __future__ import annotations

VERSION = "0.1.0"


def kit_version() -> str:
    return VERSION
