"""matrix-nio, kept here: the only module that imports `nio`. It speaks the client-server API
for kit/channels/matrix/channel.py and hands it plain frozen dataclasses (`Batch`, `Incoming`,
`Invite`), never nio's objects.

nio runs without end-to-end encryption (no libolm): an encrypted event arrives as
`Incoming(kind="encrypted")` so the channel can say it cannot read it, and what Kit sends into
such a room goes unencrypted (the channel sends only its one line of refusal there).

Every call is bounded: nio's own retries are capped (429s and timeouts), and a download, which
nio leaves unbounded, has a timeout of its own.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass, field, replace
from typing import Any, Literal

from aiohttp import ClientError
from nio import (
    AsyncClient,
    AsyncClientConfig,
    DownloadError,
    InviteMemberEvent,
    MegolmEvent,
    ReactionEvent,
    RoomEncryptionEvent,
    RoomGetEventError,
    RoomMessageAudio,
    RoomMessageFile,
    RoomMessageText,
    RoomSendResponse,
    SyncResponse,
    WhoamiResponse,
)

from kit.channels.matrix.render import BUTTONS_KEY
from kit.errors import ConfigError, KitError
from kit.reach import Reach

log = logging.getLogger(__name__)

Kind = Literal["text", "file", "voice", "encrypted", "reaction", "other"]
VOICE_KEY = "org.matrix.msc3245.voice"  # how Element and others mark a voice message


class MatrixError(KitError):
    """The homeserver refused or did not answer a request (its message is safe to show)."""


class TokenRejected(MatrixError):
    """The homeserver no longer takes Kit's access token (M_UNKNOWN_TOKEN)."""


@dataclass(frozen=True)
class Incoming:
    """One timeline event of a joined room, as the channel needs it."""

    kind: Kind
    room_id: str
    event_id: str
    sender: str
    body: str = ""
    reply_to: str | None = None  # the event a reply answers (m.in_reply_to)
    reacts_to: str | None = None  # a reaction's target and its key
    key: str = ""
    url: str = ""  # a file's or voice message's mxc:// address, its size, name and type
    size: int | None = None
    file_name: str = ""
    mime_type: str = ""
    members: int = 0  # the room's members (joined and invited, Kit included) at the time
    encrypted_room: bool = False


@dataclass(frozen=True)
class Invite:
    room_id: str
    sender: str
    encrypted: bool  # the room already has end-to-end encryption on


@dataclass(frozen=True)
class Batch:
    """One sync's answer: where to go on from, invitations, and the joined rooms' events in
    order (rooms newly encrypted are named in `encrypted_now`)."""

    next_batch: str
    invites: tuple[Invite, ...] = ()
    events: tuple[Incoming, ...] = ()
    encrypted_now: tuple[str, ...] = ()


@dataclass(frozen=True)
class SentEvent:
    sender: str
    buttons: tuple[str, ...] = field(default_factory=tuple)


class MatrixTransport:
    def __init__(self, homeserver: str, token: str, *, request_timeout: float = 30.0) -> None:
        config = AsyncClientConfig(
            max_limit_exceeded=3,
            max_timeouts=2,
            request_timeout=request_timeout,
            encryption_enabled=False,
            store_sync_tokens=False,
        )
        self._client = AsyncClient(homeserver, config=config)
        self._client.access_token = token
        self._download_timeout = max(request_timeout, 60.0)
        self.user_id = ""

    async def start(self) -> str:
        """Who the token belongs to (its user id); a token the server refuses is a
        ConfigError, a server that does not answer a MatrixError (the channel retries)."""
        try:
            answer = await self._client.whoami()
        except (TimeoutError, OSError, ClientError) as exc:
            raise MatrixError(f"the homeserver did not answer ({type(exc).__name__})") from None
        if not isinstance(answer, WhoamiResponse):
            if getattr(answer, "status_code", "") in ("M_UNKNOWN_TOKEN", "M_MISSING_TOKEN"):
                raise ConfigError(
                    "the homeserver rejected the access token in MATRIX_ACCESS_TOKEN; log in as "
                    "Kit's account again and export the new token (docs/matrix.md)"
                )
            raise MatrixError(f"the homeserver answered whoami with {_why(answer)}")
        self.user_id = str(answer.user_id)
        self._client.user_id = self.user_id
        self._client.device_id = str(answer.device_id or "")
        return self.user_id

    async def close(self) -> None:
        await self._client.close()

    # ---- reading -----------------------------------------------------------------------------
    async def sync(self, since: str | None, timeout_ms: int, *, first: bool) -> Batch:
        """One long poll. `first`: the first sync of this process, with the rooms' full state
        (so their members are known); without `since` (Kit's very first start) no backlog."""
        sync_filter = {"room": {"timeline": {"limit": 0}}} if since is None else None
        answer = await self._client.sync(
            timeout=timeout_ms, since=since, full_state=first or None, sync_filter=sync_filter
        )
        if not isinstance(answer, SyncResponse):
            if getattr(answer, "status_code", "") == "M_UNKNOWN_TOKEN":
                raise TokenRejected("the homeserver no longer takes Kit's access token")
            raise MatrixError(f"sync failed: {_why(answer)}")
        invites = tuple(
            Invite(room_id, self._inviter(info.invite_state), _encrypted(info.invite_state))
            for room_id, info in answer.rooms.invite.items()
        )
        events: list[Incoming] = []
        encrypted_now: list[str] = []
        for room_id, info in answer.rooms.join.items():
            room = self._client.rooms.get(room_id)
            members = room.member_count if room is not None else 0
            encrypted = bool(room is not None and room.encrypted)
            if any(isinstance(e, RoomEncryptionEvent) for e in info.timeline.events):
                encrypted_now.append(room_id)
            for event in info.timeline.events:
                incoming = _incoming(room_id, event, members, encrypted)
                if incoming is not None and incoming.sender != self.user_id:
                    events.append(incoming)
        return Batch(answer.next_batch, invites, tuple(events), tuple(encrypted_now))

    def _inviter(self, state: list[Any]) -> str:
        for event in state:
            if isinstance(event, InviteMemberEvent) and event.state_key == self.user_id:
                return str(event.sender)
        return ""

    def direct_rooms(self) -> dict[str, str]:
        """Joined rooms of two members, Kit and one other: room id -> the other's user id."""
        found = {}
        for room_id, room in self._client.rooms.items():
            others = [u for u in room.users if u != self.user_id]
            if room.member_count == 2 and len(others) == 1:
                found[room_id] = others[0]
        return found

    def room_encrypted(self, room_id: str) -> bool:
        room = self._client.rooms.get(room_id)
        return bool(room is not None and room.encrypted)

    async def sender_of(self, room_id: str, event_id: str) -> SentEvent | None:
        """Who sent an event, and the buttons Kit put on it (None: no such event here)."""
        answer = await self._client.room_get_event(room_id, event_id)
        if isinstance(answer, RoomGetEventError):
            return None
        source = answer.event.source
        raw = source.get("content", {}).get(BUTTONS_KEY, [])
        buttons = tuple(b for b in raw if isinstance(b, str)) if isinstance(raw, list) else ()
        return SentEvent(str(source.get("sender", "")), buttons)

    async def download(self, url: str) -> bytes:
        try:
            async with asyncio.timeout(self._download_timeout):
                answer = await self._client.download(mxc=url)
        except TimeoutError:
            raise MatrixError("the homeserver did not hand the file over in time") from None
        if isinstance(answer, DownloadError):
            raise MatrixError(f"the homeserver would not hand the file over ({_why(answer)})")
        body = answer.body
        if not isinstance(body, bytes):
            raise MatrixError("the homeserver handed over no file")
        return body

    # ---- writing -----------------------------------------------------------------------------
    async def join(self, room_id: str) -> None:
        await self._check(await self._client.join(room_id), "join the room")

    async def leave(self, room_id: str) -> None:
        await self._check(await self._client.room_leave(room_id), "leave the room")

    async def send(
        self,
        room_id: str,
        content: dict[str, object],
        *,
        reply_to: str | None = None,
        buttons: tuple[str, ...] = (),
    ) -> str:
        """Send one m.room.message; returns its event id, or raises MatrixError."""
        body: dict[str, Any] = dict(content)
        if reply_to is not None:
            body["m.relates_to"] = {"m.in_reply_to": {"event_id": reply_to}}
        if buttons:
            body[BUTTONS_KEY] = list(buttons)
        answer = await self._client.room_send(
            room_id, "m.room.message", body, ignore_unverified_devices=True
        )
        if not isinstance(answer, RoomSendResponse):
            raise MatrixError(f"the homeserver refused a message ({_why(answer)})")
        return str(answer.event_id)

    async def react(self, room_id: str, event_id: str, key: str) -> None:
        content = {"m.relates_to": {"rel_type": "m.annotation", "event_id": event_id, "key": key}}
        answer = await self._client.room_send(
            room_id, "m.reaction", content, ignore_unverified_devices=True
        )
        if not isinstance(answer, RoomSendResponse):
            raise MatrixError(f"the homeserver refused a reaction ({_why(answer)})")

    async def typing(self, room_id: str, on: bool, timeout_ms: int) -> None:
        await self._check(
            await self._client.room_typing(room_id, typing_state=on, timeout=timeout_ms),
            "show typing",
        )

    async def _check(self, answer: Any, what: str) -> None:
        if getattr(answer, "status_code", None) is not None and hasattr(answer, "message"):
            raise MatrixError(f"could not {what} ({_why(answer)})")


def _why(answer: Any) -> str:
    code = getattr(answer, "status_code", None) or type(answer).__name__
    message = getattr(answer, "message", "") or ""
    return f"{code}: {message}"[:200] if message else str(code)


def _encrypted(state: list[Any]) -> bool:
    return any(
        isinstance(e, RoomEncryptionEvent) or getattr(e, "type", "") == "m.room.encryption"
        for e in state
    )


def _incoming(room_id: str, event: Any, members: int, encrypted: bool) -> Incoming | None:
    """An event the channel acts on, or None (state changes, edits, others' receipts)."""
    base = Incoming(
        "other",
        room_id,
        str(event.event_id),
        str(event.sender),
        members=members,
        encrypted_room=encrypted,
    )
    source = event.source if isinstance(event.source, dict) else {}
    content = source.get("content")
    content = content if isinstance(content, dict) else {}
    if isinstance(event, MegolmEvent):
        return replace(base, kind="encrypted")
    if isinstance(event, ReactionEvent):
        return replace(base, kind="reaction", reacts_to=event.reacts_to, key=event.key)
    relates = content.get("m.relates_to")
    if isinstance(relates, dict) and relates.get("rel_type") == "m.replace":
        return None  # an edit of an earlier message: that one was answered already
    if isinstance(event, RoomMessageText):
        return replace(base, kind="text", body=event.body, reply_to=_reply_to(content))
    if isinstance(event, RoomMessageAudio | RoomMessageFile):
        info = content.get("info")
        info = info if isinstance(info, dict) else {}
        size = info.get("size")
        kind: Kind = "file"
        if isinstance(event, RoomMessageAudio):
            kind = "voice" if VOICE_KEY in content else "other"
        return replace(
            base,
            kind=kind,
            url=str(event.url or ""),
            size=size if isinstance(size, int) and not isinstance(size, bool) else None,
            file_name=str(content.get("filename") or event.body or ""),
            mime_type=str(info.get("mimetype") or ""),
        )
    if source.get("type") == "m.room.message":
        return base  # an image, a video, a location…: "other"
    return None


def _reply_to(content: dict[str, Any]) -> str | None:
    relates = content.get("m.relates_to")
    if not isinstance(relates, dict):
        return None
    reply = relates.get("m.in_reply_to")
    if isinstance(reply, dict) and isinstance(reply.get("event_id"), str):
        return str(reply["event_id"])
    return None


async def reach_homeserver(homeserver: str, token: str, *, within: float = 10.0) -> Reach:
    """Whether the homeserver takes `token`: one whoami, within `within` seconds (`kit
    doctor`). The token never appears in what is returned."""
    transport = MatrixTransport(homeserver, token, request_timeout=within)
    try:
        async with asyncio.timeout(within):
            return Reach("ok", await transport.start())
    except ConfigError:
        return Reach("refused", "the homeserver rejected the token")
    except (MatrixError, TimeoutError):
        return Reach("unreachable", "no answer from the homeserver")
    finally:
        await transport.close()
