"""The Channel port: something the daemon runs in its TaskGroup until shutdown."""

from __future__ import annotations

from typing import Protocol


class Channel(Protocol):
    """A long-running way in. `run` returns only by cancellation (or raises a KitError when
    it cannot start), and cleans up, each step bounded, when cancelled."""

    @property
    def name(self) -> str: ...

    async def run(self) -> None: ...
