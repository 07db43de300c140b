"""The public Python API: what scripts, benchmarks and channels use.

async with Kit.open(data_dir="~/.local/share/kit") as kit:
    result = await kit.send("Remember that Ana's birthday is on 3 May")
    hits = await kit.search("Ana birthday")
"""

from __future__ import annotations

import dataclasses
from contextlib import AsyncExitStack, asynccontextmanager
from pathlib import Path
from typing import TYPE_CHECKING

from kit.api_access import Access
from kit.api_facts import FactKeeping
from kit.api_forget import Forgetting
from kit.api_reminders import Reminding
from kit.api_upkeep import Upkeep
from kit.clock import check_time, local_date, to_iso
from kit.config import load_settings
from kit.memory.fact_times import as_of_time
from kit.turn import Inbound

if TYPE_CHECKING:
    from collections.abc import AsyncIterator, Callable, Iterable, Iterator, Sequence
    from datetime import date, datetime, tzinfo

    from kit.clock import Clock
    from kit.config import Settings
    from kit.context.plan import Sandwich
    from kit.curator.passes import OnPass
    from kit.curator.questions import Question
    from kit.curator.records import PassRecord
    from kit.curator.reports import PassOutcome, UndoResult
    from kit.embed.base import Embedder
    from kit.forget.receipts import (
        ReceiptMatch,
    )
    from kit.inbox.service import Answered
    from kit.llm.base import LLM, TextSink
    from kit.memory.days import Day
    from kit.memory.messages import ChatHistory, Message, NewMessage
    from kit.notes.store import Erased, Note, NoteInfo, NoteRevision, NoteWrite
    from kit.retrieval.hits import Hit
    from kit.retrieval.kinds import Kind
    from kit.tools import DayRecord
    from kit.turn import TurnResult

IMPORT_BATCH = 1000


def _batches(items: Iterable[NewMessage], size: int) -> Iterator[list[NewMessage]]:
    batch: list[NewMessage] = []
    for item in items:
        batch.append(item)
        if len(batch) == size:
            yield batch
            batch = []
    if batch:
        yield batch


class Kit(FactKeeping, Upkeep, Forgetting, Reminding, Access):
    """The public Python API (pinned by tests/test_public_api.py). Its facts, upkeep,
    forgetting, reminders and access tokens live in kit/api_facts.py, kit/api_upkeep.py,
    kit/api_forget.py, kit/api_reminders.py and kit/api_access.py."""

    @classmethod
    @asynccontextmanager
    async def open(
        cls,
        data_dir: Path | str | None = None,
        *,
        config: Path | str | None = None,
        settings: Settings | None = None,
        llm: LLM | None = None,
        embedder: Embedder | None = None,
        clock: Clock | None = None,
        with_embedder: bool = True,
        background: bool = True,
        model_later: bool = False,
        record_model: bool = True,
    ) -> AsyncIterator[Kit]:
        """Open a Kit on a data directory. With `background`, window summaries and embedding
        backfill run in a task owned by this context; otherwise call `settle()`. The
        embedding model is loaded before the Kit is handed over, unless `model_later` (it then
        loads on first use; a daemon loads it in the background, kit/retrieval/vectors.py).
        Without `record_model`, opening writes nothing of its own (kit/app.py `build`)."""
        if settings is None:
            settings = load_settings(config, data_dir)
        elif data_dir is not None:
            settings = dataclasses.replace(settings, data_dir=Path(data_dir))
        # the composition root loads the whole core (numpy, the secret detector, every
        # store): imported here, so `from kit import Kit` stays cheap (tests/cli/test_startup.py)
        import asyncio

        from kit.app import build

        async with AsyncExitStack() as stack:
            services = await build(
                settings,
                stack,
                llm=llm,
                embedder=embedder,
                clock=clock,
                with_embedder=with_embedder,
                model_later=model_later,
                record_model=record_model,
            )
            kit = cls(services)
            if not background:
                yield kit
                return
            async with asyncio.TaskGroup() as group:
                worker = group.create_task(services.background.run(), name="kit-background")
                services.background.notify()  # pick up anything left from a previous run
                try:
                    yield kit
                finally:
                    worker.cancel()

    @property
    def tz(self) -> tzinfo:
        """The owner's time zone (schedule.timezone)."""
        return self.services.tz

    def now(self) -> datetime:
        """Now, by Kit's clock (a test's fake clock in tests)."""
        return self.services.clock.now()

    def today(self) -> date:
        """The owner's calendar day now."""
        return local_date(self.now(), self.tz)

    async def send(
        self,
        text: str,
        *,
        user: str | None = None,
        channel: str = "api",
        conversation: str = "default",
        at: datetime | None = None,
        on_text: TextSink | None = None,
    ) -> TurnResult:
        """Send a message as `user` and get Kit's reply (streamed to `on_text` if given)."""
        return await self.turn(Inbound(self._user(user), text, channel, conversation, at), on_text)

    async def turn(self, inbound: Inbound, on_text: TextSink | None = None) -> TurnResult:
        """One turn of a message that arrived on a channel (who, where, and in a group who
        spoke): stored first, answered, the reply stored (`send` for the usual case)."""
        return await self.services.agent.turn(inbound, on_text)

    async def context(
        self,
        message: str,
        *,
        user: str | None = None,
        channel: str = "api",
        conversation: str = "default",
        at: datetime | None = None,
    ) -> Sandwich:
        """Exactly what Kit would put in front of the model for `message` in that
        conversation (sections, items with score and reason, tokens, stage timings), built
        by the turn's own code path; nothing is written and no model is called."""
        from kit.agent import validate_text

        s = self.services
        text = validate_text(message)
        now = s.clock.now() if at is None else check_time(at, "the message time")
        user_id = self._user(user)
        conv = await s.messages.find_conversation(user_id, channel, conversation)
        sandwich, _ = await s.agent.plan(user_id, text, now, conv)
        return sandwich

    async def memory_index(self, *, user: str | None = None) -> str:
        """The memory index Kit shows the model (what memory holds, in a few lines); "" when
        memory is empty."""
        index = await self.services.context.memory_index(self._user(user))
        return index.text

    async def import_messages(
        self,
        items: Iterable[NewMessage],
        *,
        user: str | None = None,
        conversation: str = "import",
        source: str = "import",
        allow_forgotten: bool = False,
        on_forgotten: Callable[[Sequence[ReceiptMatch]], None] | None = None,
    ) -> int:
        """Store messages in one transaction (all or nothing). Returns how many were new: a
        message the conversation already holds (same time, role, speaker and text) is not
        added again, so importing a file twice adds nothing the second time. `items` is
        consumed in batches, so a generator over a huge file never sits in memory whole.

        Messages a `kit forget` erased (their fingerprints are in one of the user's forget
        receipts) are refused: ForgottenMessages names the receipt, nothing is imported. With
        `allow_forgotten` they are imported, and `on_forgotten` hears which receipts they
        match (those receipts then no longer verify)."""
        from kit.forget.receipts import ForgetReceipts, ForgottenCheck, ForgottenMessages

        s = self.services
        user_id = self._user(user)
        existed = await s.messages.find_conversation(user_id, "import", conversation)
        conv = existed or await s.messages.conversation(user_id, "import", conversation)
        check = ForgottenCheck(await ForgetReceipts(s.db, s.forget_ledger).all_of([user_id]))

        def watched(batches: Iterable[list[NewMessage]]) -> Iterator[list[NewMessage]]:
            for batch in batches:
                for m in batch:
                    check.see(to_iso(m.at), m.role, m.speaker, m.text)
                yield batch

        try:
            async with s.db.transaction() as tx:
                batches = _batches(items, IMPORT_BATCH)
                count = await s.messages.import_new(
                    tx, conv, watched(batches) if check else batches, source
                )
                refusal = None if allow_forgotten else check.refusal("this import")
                if refusal is not None:
                    raise refusal
        except ForgottenMessages:
            if existed is None:
                await s.messages.drop_if_empty(conv)
            raise
        if check.matches and on_forgotten is not None:
            on_forgotten(check.matches)
        s.background.notify()
        return count

    async def search(
        self,
        query: str,
        *,
        user: str | None = None,
        now: datetime | None = None,
        k: int | None = None,
        kinds: Sequence[Kind] = ("fact", "day", "message"),  # KINDS (tests/cli/test_startup.py)
        as_of: date | datetime | None = None,
    ) -> list[Hit]:
        """Hybrid-ranked hits (facts, days, messages) as of `now` (default: the clock's now).
        With `as_of`, what Kit knows about that time: the facts that held then (superseded
        ones included), and the messages and days up to then."""
        s = self.services
        at = None if as_of is None else as_of_time(as_of, s.tz)
        result = await s.search.search(
            self._user(user),
            query,
            now=at or now or s.clock.now(),
            k=k or self.settings.memory.top_k,
            kinds=kinds,
            facts_as_of=at,
        )
        return list(result.hits)

    # -- the contradiction inbox (kit/inbox/) ---------------------------------------------------

    async def inbox(self, *, user: str | None = None, everything: bool = False) -> list[Question]:
        """Questions a pass set aside for the owner, waiting for an answer (oldest first); or
        with `everything`, answered, expired and withdrawn ones too (newest first)."""
        inbox = self.services.inbox
        if everything:
            return await inbox.questions(self._user(user))
        return await inbox.waiting(self._user(user))

    async def answer_question(
        self, question_id: int, answer: str, *, user: str | None = None
    ) -> Answered:
        """Answer a question: "keep-old", "take-new" or "keep-both" (one owner pass,
        undoable). One clear InputError, and nothing changed, when it cannot be answered."""
        answered = await self.services.inbox.answer(self._user(user), question_id, answer)
        self.services.background.notify()  # embed what it wrote
        return answered

    async def curate(
        self,
        *,
        user: str | None = None,
        retry_parked: bool = False,
        on_pass: OnPass | None = None,
    ) -> list[PassOutcome]:
        """Curate the user's uncurated messages now (the idle sweep does this on its own), or
        retry the batches parked after repeated failures. `on_pass` hears of each pass."""
        curator = self.services.curator
        if retry_parked:
            outcomes = await curator.retry_parked(self._user(user), on_pass=on_pass)
        else:
            outcomes = await curator.curate_user(self._user(user), on_pass=on_pass)
        self.services.background.notify()  # embed the new facts
        return outcomes

    async def chat_history(
        self,
        conversation: str,
        *,
        user: str | None = None,
        channel: str = "terminal",
        limit: int = 20,
    ) -> ChatHistory:
        """A conversation's latest messages and its rolling summary, as a front-end shows them
        when it is opened again (`llm chat -c` style)."""
        return await self.services.messages.history(
            self._user(user), channel, conversation, limit=limit
        )

    async def passes(
        self, *, user: str | None = None, limit: int = 20, include_noop: bool = False
    ) -> list[PassRecord]:
        """Recent curation, REM-review and undo passes, newest first."""
        return await self.services.curator.passes.recent(
            self._user(user), limit=limit, include_noop=include_noop
        )

    async def undo_pass(self, pass_id: int, *, user: str | None = None) -> UndoResult:
        """Put the facts a pass touched back as they were before it."""
        return await self.services.curator.undo(self._user(user), pass_id)

    async def expire_facts(self, category: str, *, user: str | None = None) -> list[int]:
        """Retire every fact of `category` past its expiry now, those REM held back because
        too many fell due at once included. Returns their ids."""
        return await self.services.rem.expiry.release(self._user(user), category)

    async def add_note(
        self,
        data: bytes | str,
        *,
        name: str | None = None,
        file_name: str = "",
        description: str | None = None,
        replace: bool = False,
        user: str | None = None,
        actor: str = "api",
        source: str = "",
    ) -> NoteWrite:
        """Keep a document as a note (UTF-8 text or Markdown, at most 256 KB; secrets withheld),
        named `name` or after `file_name`. An existing name is replaced only with `replace`
        (the old version stays in the note's history)."""
        written = await self.services.notes.add(
            self._user(user),
            data,
            name=name,
            file_name=file_name,
            description=description,
            replace=replace,
            actor=actor,
            source=source,
        )
        self.services.background.notify()  # embed its sections
        return written

    async def notes(self, *, user: str | None = None) -> list[NoteInfo]:
        return await self.services.notes.listing(self._user(user))

    async def note(self, name: str, *, user: str | None = None) -> Note:
        return await self.services.notes.get(self._user(user), name)

    async def remove_note(
        self, name: str, *, user: str | None = None, actor: str = "api"
    ) -> NoteInfo:
        """Take a note out of use; its versions stay in its history."""
        return await self.services.notes.remove(self._user(user), name, actor=actor)

    async def erase_note(self, name: str, *, user: str | None = None, actor: str = "api") -> Erased:
        """Erase every kept version of a note; a record keeps only that it happened."""
        user_id = self._user(user)
        erased = await self.services.notes.erase(user_id, name, actor=actor)
        self.services.vectors.forget_cache(user_id)  # its sections' vectors went with it
        return erased

    async def note_revision(self, revision_id: int, *, user: str | None = None) -> str:
        """The text of one kept version of a note (`note_history` lists them)."""
        _, text = await self.services.notes.revision_text(self._user(user), revision_id)
        return text

    async def note_history(
        self, name: str | None = None, *, user: str | None = None
    ) -> list[NoteRevision]:
        return await self.services.notes.history(self._user(user), name)

    async def day(self, day: date, *, user: str | None = None) -> Day | None:
        return await self.services.days.get(self._user(user), day)

    async def days(self, *, user: str | None = None) -> list[Day]:
        return await self.services.days.listing(self._user(user))

    async def day_record(self, day: date, *, user: str | None = None) -> DayRecord:
        """What the chat's `get_day_history` reads: the day's summary, else its messages."""
        from kit.tools import read_day

        s = self.services
        return await read_day(s.days, s.messages, self._user(user), day)

    async def messages_on(self, day: date, *, user: str | None = None) -> list[Message]:
        """Every message of `user` on `day` (the owner's calendar day), in order."""
        return await self.services.messages.on_day(self._user(user), day)

    async def settle(self) -> None:
        """Finish pending background work (window summaries, embeddings) now."""
        await self.services.background.settle()
