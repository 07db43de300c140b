"""A person on the test homeserver (tests/support/synapse.py): the real matrix-nio client,
doing what the owner (or a stranger) does in their own Matrix app: open a direct room with Kit,
write, reply, react, send a file or a voice message, and read what Kit sent.

Waiting is on events: `wait_for` long-polls sync until what the test waits for has arrived (a
sync returns as soon as something new is there), under a hang guard only.
"""

from __future__ import annotations

import asyncio
import io
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from nio import (
    AsyncClient,
    AsyncClientConfig,
    RoomCreateResponse,
    RoomPreset,
    RoomSendResponse,
    SyncResponse,
    UploadResponse,
)

from tests.support.synapse import User

HANG_GUARD = 120.0  # seconds: only a hang waits this long (a loaded host answers in well under)


@dataclass(frozen=True)
class Seen:
    """An event seen in a room: its room, id, type, sender and content."""

    room_id: str
    event_id: str
    type: str
    sender: str
    content: dict[str, Any]

    @property
    def body(self) -> str:
        return str(self.content.get("body", ""))


class MatrixUser:
    def __init__(self, url: str, user: User) -> None:
        self.user_id = user.user_id
        self.client = AsyncClient(url, user.user_id, config=AsyncClientConfig(max_timeouts=2))
        self.client.access_token = user.token
        self.client.user_id = user.user_id
        self.seen: list[Seen] = []
        self._since: str | None = None

    async def close(self) -> None:
        await self.client.close()

    async def sync(self, timeout_ms: int = 0) -> None:
        answer = await self.client.sync(timeout=timeout_ms, since=self._since)
        assert isinstance(answer, SyncResponse), answer
        self._since = answer.next_batch
        for room_id, info in answer.rooms.join.items():
            for typing in info.ephemeral:  # typing notices: who is typing now
                users = getattr(typing, "users", None)
                if users is not None:
                    self.seen.append(Seen(room_id, "", "m.typing", "", {"user_ids": list(users)}))
            for event in info.timeline.events:
                source = event.source
                self.seen.append(
                    Seen(
                        room_id,
                        str(source.get("event_id", "")),
                        str(source.get("type", "")),
                        str(source.get("sender", "")),
                        dict(source.get("content", {})),
                    )
                )

    async def wait_for(self, condition: Callable[[], bool], guard: float = HANG_GUARD) -> None:
        async with asyncio.timeout(guard):
            while not condition():
                await self.sync(timeout_ms=5_000)

    # ---- what a person does ------------------------------------------------------------------
    async def direct_room(self, invite: str, *, encrypted: bool = False) -> str:
        state = []
        if encrypted:
            state.append(
                {
                    "type": "m.room.encryption",
                    "state_key": "",
                    "content": {"algorithm": "m.megolm.v1.aes-sha2"},
                }
            )
        answer = await self.client.room_create(
            is_direct=True, invite=[invite], preset=RoomPreset.trusted_private_chat,
            initial_state=state,
        )  # fmt: skip
        assert isinstance(answer, RoomCreateResponse), answer
        return str(answer.room_id)

    async def invite(self, room_id: str, user_id: str) -> None:
        await self.client.room_invite(room_id, user_id)

    async def join(self, room_id: str) -> None:
        await self.client.join(room_id)

    async def send(
        self, room_id: str, text: str, *, reply_to: str | None = None, **extra: Any
    ) -> str:
        content: dict[str, Any] = {"msgtype": "m.text", "body": text, **extra}
        if reply_to is not None:
            content["m.relates_to"] = {"m.in_reply_to": {"event_id": reply_to}}
        return await self.send_content(room_id, content)

    async def send_content(
        self, room_id: str, content: dict[str, Any], kind: str = "m.room.message"
    ) -> str:
        answer = await self.client.room_send(room_id, kind, content)
        assert isinstance(answer, RoomSendResponse), answer
        return str(answer.event_id)

    async def react(self, room_id: str, event_id: str, key: str) -> str:
        relates = {"rel_type": "m.annotation", "event_id": event_id, "key": key}
        return await self.send_content(room_id, {"m.relates_to": relates}, "m.reaction")

    async def upload(self, data: bytes, name: str, mime: str) -> str:
        answer, _ = await self.client.upload(
            io.BytesIO(data), content_type=mime, filename=name, filesize=len(data)
        )
        assert isinstance(answer, UploadResponse), answer
        return str(answer.content_uri)

    async def send_file(self, room_id: str, data: bytes, name: str, mime: str) -> str:
        url = await self.upload(data, name, mime)
        info = {"size": len(data), "mimetype": mime}
        content = {"msgtype": "m.file", "body": name, "filename": name, "url": url, "info": info}
        return await self.send_content(room_id, content)

    async def send_voice(self, room_id: str, data: bytes, *, size: int | None = None) -> str:
        url = await self.upload(data, "voice.ogg", "audio/ogg")
        info = {"size": len(data) if size is None else size, "mimetype": "audio/ogg"}
        content = {
            "msgtype": "m.audio",
            "body": "Voice message",
            "url": url,
            "info": info,
            "org.matrix.msc3245.voice": {},
            "org.matrix.msc1767.audio": {"duration": 1200},
        }
        return await self.send_content(room_id, content)

    # ---- what Kit sent ---------------------------------------------------------------------
    def messages_from(self, sender: str, room_id: str | None = None) -> list[Seen]:
        return [
            s
            for s in self.seen
            if s.type == "m.room.message"
            and s.sender == sender
            and (room_id is None or s.room_id == room_id)
        ]

    def events_from(self, sender: str, kind: str) -> list[Seen]:
        return [s for s in self.seen if s.type == kind and s.sender == sender]

    def typed(self, user_id: str) -> list[bool]:
        """Each typing notice seen: whether `user_id` was typing then."""
        return [user_id in s.content["user_ids"] for s in self.seen if s.type == "m.typing"]

    def joined(self, room_id: str, user_id: str) -> bool:
        return any(
            s.type == "m.room.member"
            and s.room_id == room_id
            and s.content.get("membership") == "join"
            and s.sender == user_id
            for s in self.seen
        )

    def left(self, room_id: str, user_id: str) -> bool:
        return any(
            s.type == "m.room.member"
            and s.room_id == room_id
            and s.content.get("membership") == "leave"
            and s.sender == user_id
            for s in self.seen
        )
