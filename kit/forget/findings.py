"""What `kit forget --verify` reports: the places it looked at and what it found left in them
(verify.py, derived.py look). Places, counts and ids: never text."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass

from kit.forget.receipts import ReceiptInfo

MESSAGES = "messages"
FACTS = "facts and their history"
DAYS = "day summaries"
SUMMARIES = "conversation summaries"
NOTES = "notes and their history"
REMINDERS = "reminders"
RECORDS = "records (curation passes, REM reports, curation errors)"
INDEX = "search index (FTS)"
VECTORS = "vectors"
GRAPHS = "saved vector graphs"
MEMORY = "vectors in this process's memory"
PLACES = (
    MESSAGES,
    FACTS,
    DAYS,
    SUMMARIES,
    NOTES,
    REMINDERS,
    RECORDS,
    INDEX,
    VECTORS,
    GRAPHS,
    MEMORY,
)
# Derived from the rows (rebuildable): `kit forget --verify --repair` erases what is left there.
DERIVED = (INDEX, VECTORS, GRAPHS, MEMORY)

SHOWN_IDS = 10  # ids a leftover lists (its count says how many in all)


@dataclass(frozen=True)
class Leftover:
    place: str  # one of PLACES
    what: str  # what is there, as a plural noun phrase: never the text itself
    count: int
    ids: tuple[int, ...] = ()  # the first SHOWN_IDS rows of it

    def line(self) -> str:
        ids = ""
        if self.ids:
            more = "" if self.count <= len(self.ids) else ", …"
            ids = f" (ids {', '.join(map(str, self.ids))}{more})"
        return f"{self.place}: {self.what}: {self.count:,}{ids}"


@dataclass(frozen=True)
class Verification:
    receipt: ReceiptInfo
    places: tuple[str, ...]  # every place looked at
    leftovers: tuple[Leftover, ...]

    @property
    def ok(self) -> bool:
        return not self.leftovers


def leftover(place: str, what: str, ids: Collection[int]) -> Leftover | None:
    found = sorted(set(ids))
    return Leftover(place, what, len(found), tuple(found[:SHOWN_IDS])) if found else None
