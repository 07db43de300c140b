"""A model client made when first used, in a worker thread.

Importing the anthropic SDK takes about 1.5 s of CPU on this machine's 2 cores (it loads some
3,000 modules of API types) and the openai SDK most of a second: every process that opens a
Kit paid for it before its first instruction, whether it called a model or not (`kit run` before
it was ready, `kit facts`, `kit forget`). A `DeferredLLM` makes its client the first time it
is used (or `prepare`d: a daemon does it in the background once it is ready); the import and
the client's construction run in a worker thread, so the event loop keeps serving meanwhile
and a turn that needs the model waits only for what is left of the import.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Protocol

from kit.errors import KitError, LLMUnavailable
from kit.llm.base import LLMReply, LLMRequest, TextSink


class Client(Protocol):
    async def complete(self, request: LLMRequest, on_text: TextSink | None = None) -> LLMReply: ...

    async def aclose(self) -> None: ...


class DeferredLLM:
    def __init__(self, make: Callable[[], Client]) -> None:
        self._make = make  # imports the SDK and builds the client (blocking)
        self._client: Client | None = None
        self._lock = asyncio.Lock()

    @property
    def ready(self) -> bool:
        return self._client is not None

    async def prepare(self) -> Client:
        """The client, made now (off the event loop) if it is not yet."""
        if self._client is None:
            async with self._lock:
                if self._client is None:
                    try:
                        self._client = await asyncio.to_thread(self._make)
                    except KitError:
                        raise
                    except Exception as exc:  # a broken install: said as a model failure
                        raise LLMUnavailable(
                            f"cannot set up the model client ({type(exc).__name__}: {exc}); "
                            "check the installation (pip install -e .) and the llm settings"
                        ) from exc
        return self._client

    async def complete(self, request: LLMRequest, on_text: TextSink | None = None) -> LLMReply:
        client = await self.prepare()
        return await client.complete(request, on_text)

    async def aclose(self) -> None:
        if self._client is not None:
            await self._client.aclose()
