"""What passes between the Telegram channel's two sides, as plain data: what arrives
(`Incoming` messages and button `Press`es, with their `Author`), what the channel does with it
(`Events`), and how a request to the Bot API fails (`TelegramFailure` and its kinds).
kit/channels/telegram/transport.py makes them from python-telegram-bot's objects and errors;
kit/channels/telegram/channel.py and kit/channels/telegram/sending.py read them without the
SDK.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal, Protocol

from kit.delivery.callbacks import Button

Kind = Literal["text", "command", "unknown_command", "document", "voice", "other"]
Rows = Sequence[Sequence[Button]]  # buttons under a message, row by row


class TelegramFailure(Exception):
    """The Bot API refused a request or did not answer (PTB's message, for the log)."""


class Unreachable(TelegramFailure):
    """No answer from the Bot API (the network, a timeout, a 5xx)."""


class Rejected(Unreachable):
    """A 400 Bad Request (e.g. HTML Telegram cannot parse). PTB counts it a network error."""


class FloodControl(TelegramFailure):
    """Telegram asks Kit to wait `wait` seconds before sending again (a 429)."""

    def __init__(self, message: str, wait: float) -> None:
        super().__init__(message)
        self.wait = wait


class TokenRejected(TelegramFailure):
    """Telegram no longer takes the bot token (revoked?)."""


@dataclass(frozen=True)
class Author:
    """Who an update comes from: its chat (None: it has none), whether that chat is private,
    the sender's Telegram id and full name ("" when Telegram gives none)."""

    chat_id: int | None
    private: bool
    user_id: int | None
    name: str = ""


@dataclass(frozen=True)
class Incoming:
    """One message the channel acts on, as it needs it."""

    kind: Kind
    author: Author
    chat_id: int
    message_id: int
    text: str = ""  # the message's text (a command's whole line)
    command: str = ""  # kind "command": which of Kit's commands
    forwarded_from: str | None = None  # see `_forwarded_from`
    file_id: str = ""  # a document's or voice message's file, its name, size and type
    file_name: str = ""
    size: int | None = None
    mime_type: str = ""


@dataclass(frozen=True)
class Shown:
    """A message of Kit's with buttons, as Telegram shows it now."""

    chat_id: int
    message_id: int
    text: str
    buttons: tuple[tuple[Button, ...], ...]


@dataclass(frozen=True)
class Press:
    """A press on a button Kit sent; `message` is None when Telegram no longer offers it."""

    query_id: str
    author: Author
    data: str
    message: Shown | None


class Events(Protocol):
    """What the channel does with what arrives (kit/channels/telegram/channel.py)."""

    async def claim(self, update_id: int) -> bool: ...

    async def admit(self, author: Author) -> bool: ...

    async def press(self, press: Press) -> None: ...

    async def message(self, incoming: Incoming) -> None: ...
