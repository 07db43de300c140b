"""Every operation a front-end has (the TUI, `kit chat`, `kit rem`, `kit mcp`, `kit context`),
declared once: its name, its arguments with their checks, and its result, as the methods of the
`KitClient` protocol below. Everything else is driven from this declaration (kit/operations.py
reads it at run time):

- `LocalClient` (kit/client.py) implements each operation on the public methods of a `Kit`;
- `SocketClient` and the TUI's `Follower` (kit/daemon/) generate theirs: they pass each call on,
  over the control socket or to whichever engine runs;
- the control socket (kit/daemon/socket_server.py) reads, checks and answers each operation's
  request from its declaration, and `kit.operations.reference()` renders the protocol;
- tests/daemon/test_client_parity.py holds every implementation (the TUI's demo fake too) to it.

An argument is checked where it arrives from outside (the control socket) by its type and by a
marker beside it: `Annotated[str, Text(500)]` is a string of at most 500 characters. A callback
argument marked `Stream("text")` travels back as the answer's "text" events.

To add an operation: declare it here (its docstring's first line is its protocol reference), add
a public method to `Kit` if it needs one, implement it in `LocalClient` and the demo fake. The
socket, the follower and the reference follow on their own.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import date, datetime
from typing import TYPE_CHECKING, Annotated, Literal, Protocol

from kit.access.tokens import MAX_CALL_CHARS, MAX_EXPIRES_DAYS, MAX_NAME_CHARS, MAX_TOKEN_CHARS
from kit.curator.ops import MAX_REASON_CHARS, MAX_SUBJECT_CHARS
from kit.curator.reports import RemProgress
from kit.llm.base import TextSink
from kit.llm.budget import BudgetState
from kit.memory.fact_rows import MAX_CONTENT_CHARS
from kit.retrieval.model_state import ReindexProgress

if TYPE_CHECKING:
    from kit.access.tokens import Grant, NewToken, TokenInfo, TokenUse
    from kit.context.plan import ContextReport
    from kit.curator.questions import Question
    from kit.curator.records import PassRecord
    from kit.curator.reports import OwnerChange, RemReport, UndoResult
    from kit.digest.model import Digest, DigestSent
    from kit.forget.findings import Verification
    from kit.forget.receipts import ReceiptInfo
    from kit.inbox.service import Answered
    from kit.memory.days import Day
    from kit.memory.fact_rows import Fact, HistoryEntry
    from kit.memory.messages import ChatHistory
    from kit.notes.store import Note, NoteInfo
    from kit.reminders.store import Notice, Reminder
    from kit.retrieval.hits import Hit
    from kit.tools import DayRecord
    from kit.turn import TurnResult

# Where each result type above lives: the declaration is read at run time without loading them
# all (a client of the daemon loads what its calls return, not the whole core).
TYPE_HOMES = {
    "Answered": "kit.inbox.service",
    "ChatHistory": "kit.memory.messages",
    "ContextReport": "kit.context.plan",
    "Day": "kit.memory.days",
    "DayRecord": "kit.tools",
    "Digest": "kit.digest.model",
    "DigestSent": "kit.digest.model",
    "Fact": "kit.memory.fact_rows",
    "Grant": "kit.access.tokens",
    "HistoryEntry": "kit.memory.fact_rows",
    "Hit": "kit.retrieval.hits",
    "NewToken": "kit.access.tokens",
    "Note": "kit.notes.store",
    "NoteInfo": "kit.notes.store",
    "Notice": "kit.reminders.store",
    "OwnerChange": "kit.curator.reports",
    "PassRecord": "kit.curator.records",
    "Question": "kit.curator.questions",
    "ReceiptInfo": "kit.forget.receipts",
    "Reminder": "kit.reminders.store",
    "RemReport": "kit.curator.reports",
    "TokenInfo": "kit.access.tokens",
    "TokenUse": "kit.access.tokens",
    "TurnResult": "kit.turn",
    "UndoResult": "kit.curator.reports",
    "Verification": "kit.forget.findings",
}

ProgressSink = Callable[[RemProgress], Awaitable[None]]

# The channel of the local owner's conversations (terminal, TUI, control socket): one
# conversation whichever front-end, daemon or not, carries it.
LOCAL_CHANNEL = "terminal"

SEARCH_K = 10  # hits `search` gives unless asked for another number
MAX_SEARCH_K = 50
MAX_LIMIT = 500  # chat_history and passes: more than a screen shows, and bounded
MAX_COMMAND_CHARS = 2_000  # a slash command and its argument (a /search query, an id)
MAX_RECEIPT_CHARS = 100  # a forget receipt's id is 13; room for spaces around it, no more


# -- the checks an argument carries (read by kit/daemon/arguments.py) --------------------------


@dataclass(frozen=True)
class Text:
    """A string of at most `limit` characters."""

    limit: int


@dataclass(frozen=True)
class RowId:
    """A positive integer within SQLite's range: a fact, pass or reminder id."""


@dataclass(frozen=True)
class Between:
    """A whole number from `low` to `high`."""

    low: int
    high: int


@dataclass(frozen=True)
class ReceiptId:
    """A forget receipt's id, like fr-k3m9q2xa7b (any case, spaces around it dropped): over the
    control socket a receipt is named by its id, never by a path, so the daemon reads no file
    a client names. In-process, `kit forget --verify` also takes a saved copy's path."""


@dataclass(frozen=True)
class Wire:
    """The request field's name, where it differs from the argument's."""

    name: str


@dataclass(frozen=True)
class Stream:
    """A callback fed, across the socket, by the answer's events called `event`."""

    event: str


FactId = Annotated[int, RowId()]
PassId = Annotated[int, RowId()]
ReminderId = Annotated[int, RowId()]
QuestionId = Annotated[int, RowId()]
Answer = Annotated[str, Text(20)]  # keep-old | take-new | keep-both (the inbox checks which)
Content = Annotated[str, Text(MAX_CONTENT_CHARS)]
Subject = Annotated[str, Text(MAX_SUBJECT_CHARS)]  # an owner's fact's subject or category
Reason = Annotated[str, Text(MAX_REASON_CHARS)]
CommandLine = Annotated[str, Text(MAX_COMMAND_CHARS)]
Receipt = Annotated[str, Text(MAX_RECEIPT_CHARS), ReceiptId()]
Limit = Annotated[int, Between(1, MAX_LIMIT)]
HowMany = Annotated[int, Between(1, MAX_SEARCH_K)]
TokenName = Annotated[str, Text(MAX_NAME_CHARS)]
ExpiryDays = Annotated[int, Between(1, MAX_EXPIRES_DAYS)]
CallText = Annotated[str, Text(MAX_CALL_CHARS)]


@dataclass(frozen=True)
class Status:
    mode: Literal["daemon", "standalone"]
    user_id: str
    chat_model: str
    small_model: str
    embedding_model: str | None  # None: lexical search only
    tokens_today: int
    last_rem_at: datetime | None
    uptime_seconds: float
    background: BudgetState | None = None  # today's background token budget
    # Re-embedding every memory with a newly configured embedding model, while the previous
    # one (or word search) serves: how far it got (None: nothing to re-embed)
    reindex: ReindexProgress | None = None
    # A daemon's second moment (the first: its socket accepts): what a search goes without
    # until search by meaning serves ("" from then on), and when it began to, in seconds
    # after the start (None: not yet, or not a daemon). kit/retrieval/serving.py
    vector_search: str = ""
    vector_search_after: float | None = None


class KitClient(Protocol):
    """What front-ends use, whether Kit runs in this process or in a daemon reached over the
    control socket: they never know which. Each request to the control socket may also carry
    "user" (the memory namespace; default owner.user_id)."""

    async def send(
        self,
        text: str,
        *,
        conversation: str = "terminal",
        on_text: Annotated[TextSink | None, Stream("text")] = None,
    ) -> TurnResult:
        """A message to Kit, and its stored turn; the reply streams as "text" events."""
        ...

    async def days(self) -> list[Day]:
        """The daily summaries, newest first."""
        ...

    async def day(self, day: date) -> Day | None:
        """One day's summary, if it has one."""
        ...

    async def facts(
        self, *, category: str | None = None, include_inactive: bool = False, text: str = ""
    ) -> list[Fact]:
        """The facts (of a category; retired ones too if asked) whose text holds `text`."""
        ...

    async def fact_history(self, fact_id: FactId) -> list[HistoryEntry]:
        """Every change to a fact: who, when, why, from which messages."""
        ...

    async def add_fact(
        self,
        content: Content,
        *,
        category: Subject = "person",
        subject: Subject = "",
        pinned: bool = False,
        expires: date | None = None,
        since: date | None = None,
        until: date | None = None,
    ) -> OwnerChange:
        """A fact written by the owner (undoable; the curator never changes it); `since` and
        `until` say when it held, if not from now on."""
        ...

    async def edit_fact(
        self,
        fact_id: FactId,
        content: Content | None = None,
        *,
        subject: Subject | None = None,
        expires: date | None = None,
        clear_expiry: bool = False,
        since: date | None = None,
        until: date | None = None,
    ) -> OwnerChange:
        """A fact rewritten by the owner (undoable); `since` / `until` set when it held."""
        ...

    async def inbox(self, *, everything: bool = False) -> list[Question]:
        """Questions passes set aside for the owner: waiting ones, oldest first, or with
        `everything` answered, expired and withdrawn ones too, newest first."""
        ...

    async def answer_question(self, question_id: QuestionId, answer: Answer) -> Answered:
        """Answer an inbox question: keep-old | take-new | keep-both (one undoable owner pass)."""
        ...

    async def pin_fact(self, fact_id: FactId) -> OwnerChange:
        """Pin a fact: always in context, and the curator leaves it alone."""
        ...

    async def unpin_fact(self, fact_id: FactId) -> OwnerChange:
        """Unpin a fact."""
        ...

    async def deactivate_fact(self, fact_id: FactId, reason: Reason) -> OwnerChange:
        """Retire a fact (kept in its history; undoable)."""
        ...

    async def undo_pass(self, pass_id: PassId) -> UndoResult:
        """Put the facts a pass touched back as they were before it."""
        ...

    async def rem(
        self,
        *,
        dry_run: bool = False,
        only_date: Annotated[date | None, Wire("date")] = None,
        on_progress: Annotated[ProgressSink | None, Stream("progress")] = None,
    ) -> RemReport:
        """Run REM now (condense days, review stale facts, retire copies, expire); steps stream
        as "progress" events."""
        ...

    async def last_rem(self) -> RemReport | None:
        """The last REM run's report."""
        ...

    async def status(self) -> Status:
        """Daemon or standalone, the models, tokens today, the background budget, the last REM."""
        ...

    async def context(self, text: str, *, conversation: str = "terminal") -> ContextReport:
        """What a turn would put before the model for `text` (reads only)."""
        ...

    async def chat_history(
        self, conversation: str = "terminal", *, limit: Limit = 20
    ) -> ChatHistory:
        """The conversation's latest messages and rolling summary (for reopening it)."""
        ...

    async def passes(self, *, limit: Limit = 20) -> list[PassRecord]:
        """Recent passes that changed something, newest first (to choose one to undo)."""
        ...

    async def reminders(self) -> list[Reminder]:
        """The active reminders, the next to fire first."""
        ...

    async def cancel_reminder(self, reminder_id: ReminderId) -> Reminder:
        """Stop a reminder."""
        ...

    async def reminder_notices(self, conversation: str | None = None) -> list[Notice]:
        """Reminders delivered to this front-end's conversations and not shown yet (each is
        handed out once)."""
        ...

    async def notes(self) -> list[NoteInfo]:
        """The notes, by name."""
        ...

    async def note(self, name: str) -> Note:
        """One note, whole."""
        ...

    async def search(self, query: str, *, k: HowMany = SEARCH_K) -> list[Hit]:
        """The best `k` hits across facts, days, messages and notes (reads only)."""
        ...

    async def day_record(self, day: date) -> DayRecord:
        """A day's summary, else its latest messages."""
        ...

    async def remember(self, fact: str, *, category: str = "person", subject: str = "") -> Fact:
        """Keep a fact the owner asked for, screened like the chat's `remember`."""
        ...

    async def memory_index(self) -> str:
        """The memory index the model is shown ("" while memory is empty)."""
        ...

    async def command(self, text: CommandLine, *, conversation: str = "terminal") -> str:
        """A chat's slash command (e.g. "/facts people") answered as text, as on Telegram.
        Nothing is stored and no model is asked (except /rem's)."""
        ...

    async def digest(self, day: date | None = None) -> Digest:
        """The memory digest of a digest day (the one now open without `day`): what Kit
        learned, changed, merged, expired and refused, pass by pass, and the inbox questions
        still waiting for an answer (kit/digest/)."""
        ...

    async def send_digest(self, day: date | None = None) -> DigestSent:
        """Send a digest day's digest now (the open one without `day`) on the channels live
        in the engine: the daemon's Telegram. Standalone there is none: a ConfigError says
        so."""
        ...

    async def forget_receipts(self) -> list[ReceiptInfo]:
        """The receipts of past `kit forget`s, oldest first (counts and hashes, no content)."""
        ...

    async def verify_forget(self, receipt: Receipt) -> Verification:
        """Whether anything a forget erased is back or left (`kit forget --verify`); reads
        only."""
        ...

    async def create_access_token(
        self, name: TokenName, *, read_only: bool = False, expires_days: ExpiryDays | None = None
    ) -> NewToken:
        """A new access token for remote MCP clients (`kit mcp --http`), read-only or not,
        expiring after `expires_days` or never; the answer holds the token, shown this once."""
        ...

    async def access_tokens(self) -> list[TokenInfo]:
        """The access tokens of this memory: names, scope, created, last used, expiry,
        revocation (never the tokens themselves)."""
        ...

    async def revoke_access_token(self, name: TokenName) -> TokenInfo:
        """Revoke an access token by its name: refused from the next call on."""
        ...

    async def access_log(self, *, limit: Limit = 50) -> list[TokenUse]:
        """The audit log of remote calls to this memory (and of those that named no memory's
        token), newest first."""
        ...

    async def authorize(
        self,
        token: Annotated[str, Text(MAX_TOKEN_CHARS)],
        *,
        call: CallText = "",
        peer: CallText = "",
    ) -> Grant:
        """The memory and scope an access token opens, whichever memory this client names;
        the call is written to the audit log either way. Unauthorized (missing, wrong,
        expired or revoked) or RateLimited when it opens none."""
        ...
