"""A voice message on any channel (kit/speech/): checked before the audio is fetched, heard,
and answered as the owner's text, kept marked as spoken. The channel brings the fetching (its
own download) and the turn's place (`Inbound`); nothing of the audio is kept."""

from __future__ import annotations

import dataclasses
from collections.abc import Awaitable, Callable

from kit.api import Kit
from kit.channels.replies import Reply
from kit.channels.thinking import turn_reply
from kit.speech.service import Speech
from kit.turn import Inbound

Fetch = Callable[[], Awaitable[bytes]]


async def voice_turn(
    kit: Kit,
    speech: Speech,
    inbound: Inbound,
    fetch: Fetch,
    *,
    size: int | None,
    file_name: str,
    mime_type: str,
) -> Reply:
    """The reply to a voice message: `speech` hears it (a KitError says why not: voice off,
    too big, nothing heard, the server down), then it is a turn like a typed message."""
    speech.check(size)  # before the download: off, or too big, costs nothing
    text = await speech.transcribe(await fetch(), file_name=file_name, mime_type=mime_type)
    return await turn_reply(kit, dataclasses.replace(inbound, text=text, spoken=True))
