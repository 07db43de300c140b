"""A day's digest as plain data (the CLI, the TUI and the control socket carry it as it is).

A digest day D covers (D-1 at digest.time, D at digest.time]: what the digest sent at D's
digest.time reports, so a change made after one digest is in the next and none falls between.
Inbox questions are told as they stand when the digest is read: one answered since is gone.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime
from typing import Literal

LineKind = Literal["learned", "changed", "merged", "retired", "expired", "remembered"]


@dataclass(frozen=True)
class DigestLine:
    """One fact, as a change left it, and where it came from."""

    kind: LineKind
    fact_id: int
    text: str  # the fact as the change left it (clipped to a line)
    detail: str  # what changed: "was: …", "merged #3, #4", the reason it was retired
    source: str  # "from your message at 14:02", "REM's review: unused for 60 days"
    at: datetime  # when the change was made
    live: bool = False  # the fact is in use now: pinning or forgetting it means something
    pinned: bool = False


@dataclass(frozen=True)
class DigestPass:
    """A curation or REM-review pass of the day: what it changed, or why it was refused."""

    pass_id: int
    kind: str  # curate | rem_review | ...
    category: str
    at: datetime  # when it finished
    status: str  # applied | undone | rejected
    lines: tuple[DigestLine, ...] = ()
    dropped: tuple[str, ...] = ()  # operations left out of an applied pass, with why
    reason: str = ""  # why a refused pass was refused

    @property
    def undoable(self) -> bool:
        return self.status == "applied" and bool(self.lines)

    @property
    def shown(self) -> bool:
        """Whether a front-end lists the pass: it changed a fact or left an operation out (a
        pass that only set questions aside is in the digest's questions instead)."""
        return bool(self.lines or self.dropped)


@dataclass(frozen=True)
class DigestQuestion:
    """A change a pass set aside for the owner (kit/inbox/) that still waits for an answer:
    what it would do, what holds now and what would hold instead, each one clipped line."""

    question_id: int
    category: str
    what: str  # "Kit would rewrite #12", "a new fact would disagree with #3"
    now: str  # the facts it concerns, as they were when Kit asked
    new: str  # what would hold instead ("" for a retirement or a change of confidence alone)
    asked_at: datetime
    expires_at: datetime  # unanswered by then: the old facts are kept
    choices: tuple[str, ...]  # keep-old, take-new, keep-both


@dataclass(frozen=True)
class Digest:
    user_id: str
    day: date
    since: datetime
    until: datetime
    passes: tuple[DigestPass, ...] = ()  # applied (or since undone), oldest first
    expired: tuple[DigestLine, ...] = ()  # retired by REM past their expiry
    remembered: tuple[DigestLine, ...] = ()  # written by `remember` when the owner asked
    refused: tuple[DigestPass, ...] = ()  # passes thrown out whole, with why
    # Inbox questions still waiting for an answer (open now, not answered, withdrawn or
    # expired): those asked in the day's window (the first QUESTIONS_LISTED of them, oldest
    # first, and how many more), and how many asked before it.
    questions: tuple[DigestQuestion, ...] = ()
    more_questions: int = 0
    older_questions: int = 0

    @property
    def changed(self) -> bool:
        """Whether memory changed that day."""
        return any(p.lines for p in self.passes) or bool(self.expired or self.remembered)

    @property
    def left_out(self) -> int:
        """Operations the day's passes dropped (unsupported by what was said, or unfit)."""
        return sum(len(p.dropped) for p in self.passes)

    @property
    def news(self) -> bool:
        """Whether the digest is sent (scheduled or `kit digest --send`): memory changed that
        day, or a pass set a question aside that day that still waits, since the owner reads
        the digest and must learn a question is waiting. Questions asked before the day are
        counted in a digest sent anyway, but never send one alone: the owner has heard of
        them (their own message, an earlier digest), and a digest a day about them would nag.
        """
        return self.changed or bool(self.questions)


@dataclass(frozen=True)
class DigestSent:
    """What `kit digest --send` (or the daily job) did for one memory."""

    user_id: str
    day: date
    status: Literal["sent", "empty", "already", "no chat"]
    messages: int = 0
    chats: int = 0
