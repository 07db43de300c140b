"""A day's digest as plain data (the CLI, the TUI and the control socket carry it as it is).

A digest day D covers (D-1 at digest.time, D at digest.time]: what the digest sent at D's
digest.time reports, so a change made after one digest is in the next and none falls between.
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

    @property
    def changed(self) -> bool:
        """Whether memory changed that day: a digest is sent only then."""
        return any(p.lines for p in self.passes) or bool(self.expired or self.remembered)


@dataclass(frozen=True)
class DigestSent:
    """What `kit digest --send` (or the daily job) did for one memory."""

    user_id: str
    day: date
    status: Literal["sent", "empty", "already", "no chat"]
    messages: int = 0
    chats: int = 0
