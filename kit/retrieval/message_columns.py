"""What a search scores a message by, kept in memory per user as columns beside its
conversations' links (kit/retrieval/links.py), read with them incrementally by id (issue 33,
round 19).

A search scored every message candidate from its row, so it read the row of every one the
query's fit could lift into the top k (~210 a turn at 100k, most cold). From these columns it
scores them all without their rows (kit/retrieval/message_scores.py) and reads only the rows
it shows. Per message: its role and speaker (indexes into a table of names), its day and time,
the days its text names and whether it places something in time (as stored, m038 / m039, or
parsed once here where NULL, as the fit would), and a 64-bit key of its line (`_line_key`'s
speaker or role and casefolded words) for merging repeats.
"""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

import numpy as np

from kit.dates.text import mentions_time, said_days

EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
MICROSECOND = timedelta(microseconds=1)


def micros(at: datetime) -> int:
    """`at` as whole microseconds since the epoch (exact, unlike a float's seconds)."""
    return (at - EPOCH) // MICROSECOND


class MessageColumns:
    """One user's messages' scoring inputs, by position (the links' positions). What the fit
    reads as Python objects is kept as such, each distinct role, speaker and day once (a
    list holds a reference a message); what is compared in bulk as arrays."""

    def __init__(self) -> None:
        self._shared: dict[object, object] = {}
        self.role: list[str] = []
        self.speaker: list[str] = []
        self.day: list[date] = []
        self.said_days: list[str] = []
        self.says_time: list[bool] = []
        self.micros = np.zeros(0, dtype=np.int64)
        self.line = np.zeros(0, dtype=np.int64)

    def reserve(self, capacity: int) -> None:
        """Room for `capacity` messages (the arrays' contents kept)."""
        self.micros = np.resize(self.micros, capacity)
        self.line = np.resize(self.line, capacity)

    def set(
        self,
        position: int,
        role: str,
        speaker: str,
        text: str,
        at: datetime,
        day: date,
        said: str | None,
        says: bool | None,
    ) -> None:
        """The message at `position` (the next one: positions are filled in order)."""
        shared = self._shared
        self.role.append(shared.setdefault(role, role))  # type: ignore[arg-type]
        self.speaker.append(shared.setdefault(speaker, speaker))  # type: ignore[arg-type]
        self.day.append(shared.setdefault(day, day))  # type: ignore[arg-type]
        self.said_days.append(said_days(text, day) if said is None else said)
        self.says_time.append(mentions_time(text) if says is None else says)
        self.micros[position] = micros(at)
        line = ((speaker or role).casefold(), " ".join(text.casefold().split()))
        self.line[position] = hash(line)
