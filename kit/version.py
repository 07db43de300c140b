"""Which Kit this is: the installed package's version (for logs and for MCP clients)."""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version


def kit_version() -> str:
    try:
        return version("kit-assistant")
    except PackageNotFoundError:  # run from a source tree that was never installed
        return "unknown (not installed; pip install -e .)"
