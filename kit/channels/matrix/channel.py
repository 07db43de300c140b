"""The Matrix channel: Kit's account on a homeserver, talking with its owners in direct rooms.

What Telegram does, Matrix does too (docs/matrix.md): the owner's messages in and Kit's replies
out (Markdown as `formatted_body`, split to Matrix's own limit: kit/channels/matrix/render.py),
typing notices while Kit thinks, files kept as notes, voice messages heard (kit/speech/), the
slash commands (`!facts` too: clients keep `/` for their own), reminders delivered in the room
they were asked in, and the digest and inbox questions pushed to the owner's direct room, their
buttons pressed by a numbered reply or a keycap reaction. Strangers are refused before anything
is stored or sent to a model (kit/channels/matrix/access.py).

End-to-end encrypted rooms are refused, never silently unread: Kit runs without encryption
(no libolm), so in a room that is encrypted, or turns encryption on, it says so in one line and
leaves. docs/matrix.md says why.

Lifecycle: whoami until the homeserver answers (a token it refuses is a ConfigError), then
long-poll sync, the first one with the rooms' full state; the sync token is kept in the
database (kit/jobs/cursors.py) so a restart goes on where it stopped, and each event is claimed
once (kit/jobs/leases.py) so none is answered twice. Each room's events are handled one at a
time in order, rooms side by side. On cancellation the handlers still running get
`stop_timeout` seconds, then are cancelled; the client closes, bounded.

No matrix-nio here: kit/channels/matrix/transport.py speaks to the homeserver.
"""

from __future__ import annotations

import asyncio
import logging
import os
from collections.abc import Awaitable, Callable, Mapping, Sequence

from kit.api import Kit
from kit.app import Services
from kit.channels import replies
from kit.channels.base import delivering
from kit.channels.documents import keep_document
from kit.channels.in_order import InOrderPerKey
from kit.channels.matrix.access import MatrixAccess
from kit.channels.matrix.config import TOKEN_ENV, allowed_users, check_token, homeserver
from kit.channels.matrix.render import (
    KEYCAPS,
    PUSH_LIMIT,
    content,
    keycap_number,
    pressed_number,
    split_reply,
    with_buttons,
)
from kit.channels.matrix.transport import (
    Batch,
    Incoming,
    Invite,
    MatrixError,
    MatrixTransport,
    TokenRejected,
)
from kit.channels.replies import Reply, plain
from kit.channels.thinking import turn_reply, with_typing
from kit.channels.voice import voice_turn
from kit.chat_commands import ChatCommands, command_name
from kit.config import Settings
from kit.delivery.callbacks import Button
from kit.delivery.outbox import Outgoing
from kit.jobs.cursors import ChannelCursors
from kit.turn import Inbound

log = logging.getLogger(__name__)

CHANNEL = "matrix"
ENCRYPTED = (
    "This room is end-to-end encrypted, and I cannot read encrypted messages, so I am leaving "
    "it; nothing of it was kept. To talk with me, start a direct room with encryption off "
    "(docs/matrix.md says why)."
)

Sleep = Callable[[float], Awaitable[None]]


class MatrixChannel:
    """Kit on Matrix. `run()` until cancelled; see the module docstring for the lifecycle.

    The waits are parameters so tests can run in seconds: a sync waits `poll_timeout` seconds
    for news; the typing notice is renewed every `typing_every`; a homeserver that does not
    answer is tried again after `retry` seconds, doubling, through `sleep` (a seam)."""

    name = CHANNEL

    def __init__(
        self,
        services: Services,
        token: str,
        *,
        settings: Settings | None = None,
        poll_timeout: float = 30.0,
        stop_timeout: float = 10.0,
        typing_every: float = 20.0,
        retry: float = 2.0,
        sleep: Sleep = asyncio.sleep,
    ) -> None:
        settings = settings or services.settings
        self._services = services
        self._access = MatrixAccess(allowed_users(settings))
        self._transport = MatrixTransport(
            homeserver(settings), check_token(token), request_timeout=poll_timeout + stop_timeout
        )
        self._poll_ms = int(poll_timeout * 1000)
        self._stop_timeout = stop_timeout
        self._typing_every = typing_every
        self._retry = retry
        self._sleep = sleep
        self._kit = Kit(services)
        self._commands = ChatCommands(self._kit, channel=CHANNEL)
        self._cursors = ChannelCursors(services.db, services.clock)
        self._order = InOrderPerKey()
        self._handling: set[asyncio.Task[None]] = set()
        self.user_id = ""
        self.synced = asyncio.Event()  # set after each sync's events are handed out (tests)

    @classmethod
    def from_env(
        cls, services: Services, *, environ: Mapping[str, str] = os.environ, **options: object
    ) -> MatrixChannel:
        """A channel with the token from MATRIX_ACCESS_TOKEN (ConfigError if unset)."""
        return cls(services, environ.get(TOKEN_ENV, ""), **options)  # type: ignore[arg-type]

    # ---- lifecycle -------------------------------------------------------------------------
    async def run(self) -> None:
        """Serve until cancelled. Raises ConfigError if the homeserver refuses the token at
        start; returns early (logged) only if it stops taking it while running."""
        try:
            await self._start()
            key = f"{CHANNEL}:{self.user_id}"
            since = await self._cursors.get(key)
            batch = await self._sync(since, first=True)
            log.info("matrix: syncing as %s", self.user_id)
            async with delivering(
                self._services,
                CHANNEL,
                send=self.send_to_room,
                push=self.push,
                reaches=lambda user: bool(self._rooms_of(user)),
                limit=PUSH_LIMIT,
            ):
                while True:
                    await self._hand_out(batch)
                    await self._cursors.put(key, batch.next_batch)
                    self.synced.set()
                    batch = await self._sync(batch.next_batch, first=False)
        except TokenRejected:
            log.error(
                "matrix: the homeserver no longer takes Kit's access token; Matrix is off until "
                "a new %s is set and Kit restarts",
                TOKEN_ENV,
            )
        finally:
            await self._teardown()

    async def _start(self) -> None:
        delay = self._retry
        while True:
            try:
                async with asyncio.timeout(self._stop_timeout + self._poll_ms / 1000):
                    self.user_id = await self._transport.start()
                return
            except (MatrixError, TimeoutError) as exc:
                log.warning("matrix: cannot reach the homeserver (%s); retrying", exc or "timeout")
            await self._sleep(delay)
            delay = min(delay * 2, 60.0)

    async def _sync(self, since: str | None, *, first: bool) -> Batch:
        """One sync; a failure that may pass (network, a 5xx) is tried again, backing off."""
        delay = self._retry
        while True:
            try:
                return await self._transport.sync(since, self._poll_ms, first=first)
            except TokenRejected:
                raise
            except (MatrixError, TimeoutError, OSError) as exc:
                log.warning("matrix: sync failed (%s); retrying in %.0f s", exc or "timeout", delay)
            await self._sleep(delay)
            delay = min(delay * 2, 60.0)

    async def _teardown(self) -> None:
        """Handlers still running get `stop_timeout` (replies in flight finish), then are
        cancelled; the client is closed, bounded."""
        if self._handling:
            _, late = await asyncio.wait(set(self._handling), timeout=self._stop_timeout)
            if late and (cancelled := await self._order.cancel_all()):
                log.warning("matrix: cancelled %d event(s) still running at shutdown", cancelled)
        try:
            async with asyncio.timeout(self._stop_timeout):
                await self._transport.close()
        except TimeoutError:
            log.warning("matrix: closing the client took over %.0f s", self._stop_timeout)

    async def _hand_out(self, batch: Batch) -> None:
        """Invitations now; each event to its room's queue (handled in order, rooms apart)."""
        for invite in batch.invites:
            await self._guard(self._on_invite(invite))
        for room_id in batch.encrypted_now:
            await self._guard(self._leave_encrypted(room_id))
        for event in batch.events:
            task = asyncio.create_task(self._order.run(event.room_id, self._guard(self._on(event))))
            self._handling.add(task)
            task.add_done_callback(self._handling.discard)

    async def _guard(self, work: Awaitable[None]) -> None:
        """One event's work: its failure is logged, never the sync loop's."""
        try:
            await work
        except (MatrixError, TimeoutError) as exc:
            log.warning("matrix: %s", exc)
        except Exception:
            log.exception("matrix: handling an event failed")

    # ---- who may talk ----------------------------------------------------------------------
    async def _on_invite(self, invite: Invite) -> None:
        """An allowed user's invitation is taken (an encrypted room's only to say why Kit
        cannot stay); anyone else's is declined without reading the room."""
        if not self._access.allowed(invite.sender):
            log.info("matrix: declined an invitation from %s (not allowed)", invite.sender)
            await self._transport.leave(invite.room_id)
            return
        await self._transport.join(invite.room_id)
        if invite.encrypted:
            await self._leave_encrypted(invite.room_id)

    async def _leave_encrypted(self, room_id: str) -> None:
        log.warning("matrix: room %s is end-to-end encrypted; said so and left it", room_id)
        try:
            await self._transport.send(room_id, content(ENCRYPTED, False))
        finally:
            await self._transport.leave(room_id)

    async def _on(self, event: Incoming) -> None:
        if not await self._services.leases.claim_event(CHANNEL, event.event_id):
            log.info("matrix: event %s was handled already; skipped", event.event_id)
            return
        if (event.kind == "encrypted" or event.encrypted_room) and self._access.allowed(
            event.sender
        ):
            await self._leave_encrypted(event.room_id)
            return
        namespace = self._access.namespace(event.sender, event.members)
        if namespace is None:
            turned = self._access.turn_away(event.room_id, event.sender, event.members)
            if turned == "refuse" and event.kind != "reaction":
                await self._deliver(event.room_id, Reply(replies.REFUSAL, False))
            return
        if event.kind == "reaction":
            number = keycap_number(event.key)
            if number is not None and event.reacts_to is not None:
                await self._press(event, event.reacts_to, number, namespace)
            return
        if event.kind == "text":
            await self._on_text(event, namespace)
        elif event.kind == "file":
            await self._respond(event.room_id, self._keep_note(event, namespace), "file")
        elif event.kind == "voice":
            await self._respond(event.room_id, self._voice(event, namespace), "voice")
        else:
            await self._deliver(event.room_id, Reply(replies.NON_TEXT, False))

    # ---- messages --------------------------------------------------------------------------
    async def _on_text(self, event: Incoming, namespace: str) -> None:
        if event.reply_to is not None and (number := pressed_number(event.body)) is not None:
            if await self._press(event, event.reply_to, number, namespace):
                return
        text = event.body
        if text.lstrip().startswith("!"):  # clients keep "/" for their own commands
            text = "/" + text.lstrip()[1:]
        if command_name(text) is not None:
            work = plain(self._commands.dispatch(namespace, text))
            await self._respond(event.room_id, work, "command")
            return
        inbound = Inbound(
            user_id=namespace, text=event.body, channel=CHANNEL, conversation=event.room_id
        )
        await self._respond(event.room_id, turn_reply(self._kit, inbound), "turn")

    async def _voice(self, event: Incoming, namespace: str) -> Reply:
        inbound = Inbound(user_id=namespace, text="", channel=CHANNEL, conversation=event.room_id)
        return await voice_turn(
            self._kit,
            self._services.speech,
            inbound,
            lambda: self._transport.download(event.url),
            size=event.size,
            file_name=event.file_name or "voice.ogg",
            mime_type=event.mime_type or "audio/ogg",
        )

    async def _keep_note(self, event: Incoming, namespace: str) -> Reply:
        """The file as a note (kit/channels/documents.py)."""
        return await keep_document(
            self._kit,
            namespace,
            lambda: self._transport.download(event.url),
            file_name=event.file_name,
            size=event.size,
            message_id=event.event_id,
            forwarded=None,
            channel=CHANNEL,
        )

    # ---- buttons ---------------------------------------------------------------------------
    async def _press(self, event: Incoming, target: str, number: int, namespace: str) -> bool:
        """A numbered reply or a keycap on one of Kit's messages with buttons: press button
        `number` as `namespace` (kit/delivery/callbacks.py decides). False: the target is not
        such a message, so a reply is an ordinary message."""
        sent = await self._transport.sender_of(event.room_id, target)
        if sent is None or sent.sender != self.user_id or not sent.buttons:
            return False
        if not 1 <= number <= len(sent.buttons):
            answer = f"That message's choices are 1 to {len(sent.buttons)}; nothing was changed."
        else:
            pressed = await self._services.callbacks.pressed(sent.buttons[number - 1], namespace)
            answer = pressed.answer
        await self._transport.send(event.room_id, content(answer, False), reply_to=target)
        return True

    # ---- what Kit starts -------------------------------------------------------------------
    def _rooms_of(self, user_id: str) -> list[str]:
        """The direct rooms (not encrypted) of the owners of memory `user_id`."""
        owners = set(self._access.owners_of(user_id))
        return [
            room
            for room, other in self._transport.direct_rooms().items()
            if other in owners and not self._transport.room_encrypted(room)
        ]

    async def send_to_room(self, room_id: str, text: str) -> None:
        """A message Kit starts itself (a reminder, a scheduled task's answer). Unlike a reply,
        a failure raises (MatrixError), so the reminder stays pending and is retried."""
        for part in split_reply(text, True):
            await self._transport.send(room_id, content(part, True))

    async def push(self, user_id: str, messages: Sequence[Outgoing]) -> int:
        """Messages Kit starts to the owners of memory `user_id` (kit/delivery/outbox.py), in
        their direct rooms, as plain text with their buttons numbered; a failure raises.
        Returns the rooms reached."""
        rooms = self._rooms_of(user_id)
        for room in rooms:
            for message in messages:
                buttons: list[Button] = [b for row in message.buttons for b in row]
                text = with_buttons(message.text, buttons)
                data = tuple(b.data for b in buttons)
                event_id = await self._transport.send(room, content(text, False), buttons=data)
                if len(buttons) <= len(KEYCAPS):
                    await self._keycaps(room, event_id, len(buttons))
        return len(rooms)

    async def _keycaps(self, room_id: str, event_id: str, count: int) -> None:
        """Kit's own keycap reactions under a message with buttons: the owner taps one."""
        try:
            for keycap in KEYCAPS[:count]:
                await self._transport.react(room_id, event_id, keycap)
        except MatrixError as exc:  # a numbered reply still works
            log.info("matrix: could not add the keycaps to a message: %s", exc)

    # ---- answering -------------------------------------------------------------------------
    async def _respond(self, room_id: str, work: Awaitable[Reply], label: str) -> None:
        """Do the work with a typing notice, then send the reply (split to Matrix's limit)."""
        # The notice lasts a little longer than each refresh.
        timeout_ms = int((self._typing_every + 10) * 1000)
        reply = await with_typing(
            work,
            label,
            CHANNEL,
            show=lambda: self._transport.typing(room_id, True, timeout_ms),
            every=self._typing_every,
            stops=MatrixError,
        )
        try:
            await self._transport.typing(room_id, False, 0)
        except MatrixError as exc:
            log.debug("matrix: could not clear the typing notice: %s", exc)
        await self._deliver(room_id, reply)

    async def _deliver(self, room_id: str, reply: Reply) -> None:
        try:
            for part in split_reply(reply.text, reply.formatted):
                await self._transport.send(room_id, content(part, reply.formatted))
        except MatrixError as exc:
            log.warning("matrix: could not deliver a reply to %s: %s", room_id, exc)
