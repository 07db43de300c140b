"""The Channel port, and the record each channel declares for the daemon and `kit doctor`.

A channel is a long-running way in that the daemon runs in its TaskGroup until shutdown
(`Channel`); what the daemon needs to know of it before loading its SDK is its record
(`ChannelRecord`), listed once in kit/channels/registry.py. A new channel is a package under
kit/channels/ with its record and its channel; nothing else in Kit names it.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal, Protocol

if TYPE_CHECKING:
    from kit.app import Services
    from kit.config import Settings
    from kit.delivery.outbox import Pusher, Reaches
    from kit.reminders.delivery import Sender


class Channel(Protocol):
    """A long-running way in. `run` returns only by cancellation (or raises a KitError when
    it cannot start, or returns when the service revoked its credentials), and cleans up, each
    step bounded, when cancelled."""

    @property
    def name(self) -> str: ...

    async def run(self) -> None: ...


@asynccontextmanager
async def delivering(
    services: Services, name: str, *, send: Sender, push: Pusher, reaches: Reaches, limit: int
) -> AsyncIterator[None]:
    """A channel that is up takes, while inside, the reminders due in its chats (`send`) and
    the messages Kit starts to its owners (`push`, kit/delivery/outbox.py: those `reaches`
    says it reaches, each at most `limit` UTF-16 units); on entry the inbox announces what
    passes asked while the channel was off."""
    reminders = services.reminders.dispatcher
    reminders.register(name, send)
    services.outbox.register(name, push, reaches=reaches, limit=limit)
    try:
        await services.inbox.announce()
        yield
    finally:
        reminders.unregister(name)
        services.outbox.unregister(name)


# One line of `kit doctor`: ok or to fix, what, and the detail.
Finding = tuple[Literal["ok", "bad"], str, str]


@dataclass(frozen=True)
class ChannelRecord:
    """What Kit knows of a channel before loading it.

    - `token_env`: the environment variable whose secret turns the channel on;
    - `off`: the log line when it is unset (how to turn the channel on);
    - `check(settings)`: its settings, checked before anything loads (a ConfigError says
      which line to fix);
    - `make(services, token, stop_timeout)`: the channel (its SDK imported only then);
    - `doctor(settings, token, offline)`: `kit doctor`'s lines for it.
    """

    name: str
    token_env: str
    off: str
    check: Callable[[Settings], None]
    make: Callable[[Services, str, float], Channel]
    doctor: Callable[[Settings, str, bool], Awaitable[list[Finding]]]

    def token(self, environ: Mapping[str, str]) -> str | None:
        return environ.get(self.token_env, "").strip() or None
