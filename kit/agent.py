"""One turn: store the message, build the context sandwich, run the model with its tools
(bounded), store the reply, bump access stats. The user's message is stored first, always."""

from __future__ import annotations

import asyncio
import dataclasses
import logging
from collections.abc import Callable
from contextlib import AbstractAsyncContextManager, nullcontext
from datetime import datetime
from typing import Any, Protocol

from kit.clock import Clock, check_time
from kit.context.plan import Sandwich
from kit.context.sandwich import ContextBuilder
from kit.errors import InputError, KitError, LLMRefused, LLMUnavailable
from kit.llm.base import (
    LLM,
    Block,
    ChatMessage,
    LLMRequest,
    SystemBlock,
    TextSink,
    ToolResult,
    ToolSpec,
    Usage,
)
from kit.memory.facts import Facts
from kit.memory.messages import Conversation, Message, Messages
from kit.model_settings import ModelRole
from kit.tools import TOOL_SPECS, Tools
from kit.turn import Inbound, TurnResult
from kit.turn_reply import KIT_WROTE, HeldStream, final_answer, kits_own
from kit.untrusted.clean import clean_name, clean_text
from kit.untrusted.neutralise import neutralise

log = logging.getLogger(__name__)

MAX_MESSAGE_CHARS = 100_000
INTERRUPTED_REPLY = "(Kit was shut down before it could answer this; please ask again.)"
FAILED_REPLY = (
    "(Kit could not answer this: something went wrong, and the log says what. It is kept in "
    "the history but not sent to the model again; ask again, perhaps in other words.)"
)
FAILED = "failed"  # the source of FAILED_REPLY: the turn before it is left out of the window


def validate_text(text: str) -> str:
    cleaned = clean_text(text).strip()
    if not cleaned:
        raise InputError("the message is empty; type something for Kit to answer")
    if len(cleaned) > MAX_MESSAGE_CHARS:
        raise InputError(
            f"the message is too long ({len(cleaned):,} characters; the limit is "
            f"{MAX_MESSAGE_CHARS:,}); split it or import it with `kit import`"
        )
    return cleaned


def _origin(forwarded_from: str | None) -> str | None:
    """Who forwarded text is from, as one short line ("someone" if the channel gave no name)."""
    if forwarded_from is None:
        return None
    return clean_name(forwarded_from) or "someone"


def window_as_chat(window: list[Message]) -> list[ChatMessage]:
    """The window as alternating user/assistant turns, starting with the user. Forwarded
    text says whose words it is, so the model does not answer it as the owner's own.

    Unanswered messages (the model was down) join the next message, so they are answered
    then; but a turn that failed for good (a bug, a request the API refuses) is marked by a
    FAILED reply and left out with it: sent again, it would fail every turn after it. So is a
    turn Kit answered because the model gave no answer of its own (KIT_WROTE): a small model
    copies such a reply into every later turn (issue 29's real runs 7 and 8); what its tools
    stored is in the memory the model is shown."""
    turns: list[tuple[str, list[str]]] = []
    for m in window:
        if m.role == "assistant" and m.source in (FAILED, KIT_WROTE):
            if turns and turns[-1][0] == "user":
                turns.pop()
            continue
        text = m.text
        if m.forwarded_from is not None:
            text = f"[forwarded from {neutralise(m.forwarded_from, inline=True)}]\n{text}"
        elif m.spoken:  # a transcript: a word may have been misheard
            text = f"[voice message, transcribed]\n{text}"
        if turns and turns[-1][0] == m.role:
            turns[-1][1].append(text)
        else:
            turns.append((m.role, [text]))
    while turns and turns[0][0] != "user":
        turns.pop(0)
    return [ChatMessage.text(role, "\n\n".join(texts)) for role, texts in turns]  # type: ignore[arg-type]


class TurnNotes(Protocol):
    """Something that may add an instruction to one turn (kit/followups/: a reminder may be
    offered for a plan the owner mentioned). Returns None when it has nothing to add."""

    async def note_for(self, inbound: Inbound, text: str, now: datetime) -> str | None: ...


class Agent:
    def __init__(
        self,
        messages: Messages,
        facts: Facts,
        context: ContextBuilder,
        tools: Tools,
        llm: LLM,
        chat: ModelRole,
        clock: Clock,
        after_turn: Callable[[int], None] = lambda conversation_id: None,
        user_lock: Callable[[str], AbstractAsyncContextManager[None]] = (
            lambda user_id: nullcontext()
        ),
        *,
        max_tool_rounds: int = 4,
        tool_specs: tuple[ToolSpec, ...] = TOOL_SPECS,
        turn_notes: TurnNotes | None = None,
        vector_search: Callable[[], str] = lambda: "",
    ) -> None:
        self._notes = turn_notes
        # What a search now goes without ("": search by meaning serves; kit/retrieval/serving.py)
        self._vector_search = vector_search
        self._messages = messages
        self._facts = facts
        self._context = context
        self._tools = tools
        self._llm = llm
        self._chat = chat  # the chat role: its model and reply limit
        self._rounds = max_tool_rounds
        self._tool_specs = tool_specs
        self._clock = clock
        self._after_turn = after_turn
        # One user's turns in order across workers on one database (kit/store/db.py).
        self._user_lock = user_lock
        self._running: set[asyncio.Task[Any]] = set()  # tasks inside a turn, for shutdown
        self._idle = asyncio.Event()
        self._idle.set()

    @property
    def in_flight(self) -> int:
        return len(self._running)

    async def wait_idle(self) -> None:
        """Until no turn is running (whichever channel started it)."""
        await self._idle.wait()

    def interrupt(self) -> int:
        """Cancel every running turn (a shutdown's grace period is over). Each keeps the
        owner's message and records an interrupted reply; `wait_idle()` then returns."""
        for task in self._running:
            task.cancel()
        return len(self._running)

    async def turn(self, inbound: Inbound, on_text: TextSink | None = None) -> TurnResult:
        task = asyncio.current_task()
        assert task is not None
        self._running.add(task)
        self._idle.clear()
        try:
            async with self._user_lock(inbound.user_id):
                return await self._turn(inbound, on_text)
        finally:
            self._running.discard(task)
            if not self._running:
                self._idle.set()

    async def _turn(self, inbound: Inbound, on_text: TextSink | None) -> TurnResult:
        text = validate_text(inbound.text)
        now = (
            self._clock.now() if inbound.at is None else check_time(inbound.at, "the message time")
        )
        conversation = await self._messages.conversation(
            inbound.user_id, inbound.channel, inbound.conversation
        )
        stored = await self._messages.add(  # durable first
            conversation,
            "user",
            text,
            at=now,
            speaker=clean_name(inbound.speaker),
            forwarded_from=_origin(inbound.forwarded_from),
            source=inbound.source,
            spoken=inbound.spoken,
        )
        try:
            result = await self._answer(inbound, conversation.id, stored, now, on_text)
        except asyncio.CancelledError:
            await self._record_interrupted(conversation.id, stored)
            raise
        except KitError:
            raise  # the machine's trouble (a full disk, a lock): the message may go again
        except Exception:
            await self._record_failed(conversation.id)  # a bug: the same message would hit it
            raise
        finally:
            self._after_turn(conversation.id)
        if result.failed and result.refused:
            await self._record_failed(conversation.id)
        return result

    async def plan(
        self,
        user_id: str,
        text: str,
        now: datetime,
        conversation: Conversation | None,
        *,
        explain: bool = True,
    ) -> tuple[Sandwich, list[Message]]:
        """The context for `text` in `conversation` (and its window): what a turn sends the
        model, and what `Kit.context` shows. Reads only. A turn does not `explain`: what
        was cut is listed without its line (kit/context/sandwich.py)."""
        window = [] if conversation is None else await self._messages.window(conversation.id)
        lacking = self._vector_search()  # before: the search that follows goes without it
        sandwich = await self._context.build(
            user_id,
            text,
            now=now,
            conversation=conversation,
            window_ids=frozenset(m.id for m in window),
            explain=explain,
        )
        if lacking:
            sandwich = dataclasses.replace(sandwich, vector_search=lacking)
        return sandwich, window

    async def _record_interrupted(self, conversation_id: int, stored: Message) -> None:
        """Shutdown cut the turn short: the transcript says so instead of leaving the
        owner's message silently unanswered (unless the reply was saved just before)."""
        later = await self._messages.span(conversation_id, stored.id, limit=20)
        if any(m.role == "assistant" for m in later):
            return
        conversation = await self._messages.get_conversation(conversation_id)
        await self._messages.add(conversation, "assistant", INTERRUPTED_REPLY, source="interrupted")
        log.info("turn in conversation %d interrupted by shutdown", conversation_id)

    async def _record_failed(self, conversation_id: int) -> None:
        """The turn failed for good: a FAILED reply marks it, so the owner's message is kept
        (and shown) but never sent to the model again (`window_as_chat`)."""
        try:
            conversation = await self._messages.get_conversation(conversation_id)
            await self._messages.add(
                conversation, "assistant", FAILED_REPLY, at=self._clock.now(), source=FAILED
            )
        except Exception:  # the turn's own error is the one to report
            log.exception("could not mark the failed turn in conversation %d", conversation_id)

    async def _answer(
        self,
        inbound: Inbound,
        conversation_id: int,
        stored: Message,
        now: datetime,
        on_text: TextSink | None,
    ) -> TurnResult:
        conversation = await self._messages.get_conversation(conversation_id)
        sandwich, window = await self.plan(
            inbound.user_id, stored.text, now, conversation, explain=False
        )
        if sandwich.vector_search:
            log.info(
                "turn in conversation %d searched memory on %s",
                conversation_id,
                sandwich.vector_search,
            )
        note = (
            None if self._notes is None else await self._notes.note_for(inbound, stored.text, now)
        )
        # After the cached parts: the prefix the prompt cache keeps stays byte-identical.
        system = sandwich.system if note is None else (*sandwich.system, SystemBlock(note))
        chat = window_as_chat(window)
        usage = Usage()
        tools_used: list[str] = []
        tools_said: list[tuple[str, str, bool]] = []
        fact_ids = list(sandwich.fact_ids)
        rounds = self._rounds
        # Kit's note copied by the model is held back from the channel (kit/turn_reply.py).
        stream = None if on_text is None else HeldStream(on_text)
        try:
            for round_no in range(rounds + 1):
                last = round_no == rounds  # out of tool rounds: ask for a plain answer
                reply = await self._llm.complete(
                    LLMRequest(
                        model=self._chat.model,
                        system=system,
                        messages=tuple(chat),
                        max_tokens=self._chat.max_tokens,
                        tools=() if last else self._tool_specs,
                        purpose="chat",
                        user_id=inbound.user_id,
                    ),
                    None if stream is None else stream.write,
                )
                usage += reply.usage
                if not reply.tool_uses or last:
                    break
                if stream is not None:
                    await stream.next_call()
                results: list[Block] = []
                for call in reply.tool_uses:
                    outcome = await self._tools.run(
                        call.name,
                        call.input,
                        user_id=inbound.user_id,
                        now=now,
                        message_id=stored.id,
                    )
                    tools_used.append(call.name)
                    tools_said.append((call.name, outcome.content, outcome.is_error))
                    fact_ids.extend(outcome.fact_ids)
                    results.append(ToolResult(call.id, outcome.content, outcome.is_error))
                chat.append(ChatMessage("assistant", reply.content))
                chat.append(ChatMessage("user", tuple(results)))
        except LLMUnavailable as exc:
            log.warning("turn for %s failed: %s", inbound.user_id, exc)
            refused = isinstance(exc, LLMRefused)
            kept = (
                "Your message is saved, but it is not sent to the model again: ask in other words"
                if refused
                else "Your message is saved"
            )
            return TurnResult(
                reply=f"Sorry, I can't answer right now: {exc}. {kept}.",
                user_message_id=stored.id,
                reply_message_id=None,
                conversation_id=conversation_id,
                usage=usage,
                context_tokens=sandwich.tokens,
                failed=True,
                refused=refused,
                vector_search=sandwich.vector_search,
            )
        answer = final_answer(reply.text, tools_said)
        if stream is not None:
            await stream.finish(answer, reply.text)
        conversation = await self._messages.get_conversation(conversation_id)
        source = KIT_WROTE if kits_own(answer) else inbound.source
        saved = await self._messages.add(
            conversation, "assistant", answer, at=self._clock.now(), source=source
        )
        await self._facts.touch(inbound.user_id, fact_ids, now)
        return TurnResult(
            reply=answer,
            user_message_id=stored.id,
            reply_message_id=saved.id,
            conversation_id=conversation_id,
            fact_ids=tuple(dict.fromkeys(fact_ids)),
            days=sandwich.days_used,
            tools_used=tuple(tools_used),
            usage=usage,
            context_tokens=sandwich.tokens,
            followup_offered=note is not None,
            vector_search=sandwich.vector_search,
        )
