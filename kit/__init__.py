"""Kit: a memory-first personal assistant.

`from kit import Kit` is the public Python API. The names below are loaded on first use
(PEP 562), so `import kit` — which every `kit` command, spawned test process and MCP start
pays, `kit --help` included — does not load the whole core (tests/cli/test_startup.py).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from kit.api import Kit
    from kit.config import Settings, load_settings
    from kit.memory.messages import NewMessage
    from kit.turn import Inbound, TurnResult

# public name -> the module that defines it
_HOMES = {
    "Inbound": "kit.turn",
    "Kit": "kit.api",
    "NewMessage": "kit.memory.messages",
    "Settings": "kit.config",
    "TurnResult": "kit.turn",
    "load_settings": "kit.config",
}

__all__ = ["Inbound", "Kit", "NewMessage", "Settings", "TurnResult", "load_settings"]


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'kit' has no attribute {name!r}")
    value = getattr(importlib.import_module(home), name)
    globals()[name] = value  # later look-ups skip this function
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *__all__])
