"""The memory index: a short, byte-stable list of what memory holds, in the cached prefix.

The model sees only a slice of memory each turn; the index tells it what else is there (the
people, projects and topics facts are about, names from recent days, which days are
summarised, the owner's notes), so it knows when `search_memory`, `get_day_history` or
`read_note` is worth calling. It is
derived only from stored rows, alphabetised, and cut to its token cap by a fixed rule (the
most-mentioned first), so its bytes stay identical while memory is unchanged and Anthropic's
prompt cache keeps serving it; a change to facts, days or notes (memory_versions) rebuilds it.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

from kit.categories import IndexLabel, index_lines
from kit.llm.tokens import estimate_tokens
from kit.memory.days import Days
from kit.memory.facts import Facts
from kit.memory.versions import MemoryVersion
from kit.notes.store import Notes
from kit.untrusted.neutralise import neutralise

# Which fact categories' subjects go on which line (each category's record says,
# kit/categories.py), and each line's share of the cap.
_SHARES: tuple[tuple[IndexLabel, float], ...] = (
    ("People", 0.35),
    ("Projects", 0.2),
    ("Topics", 0.25),
)
_LINES: tuple[tuple[str, tuple[str, ...], float], ...] = tuple(
    (label, index_lines().get(label, ()), share) for label, share in _SHARES
)
_LATELY_SHARE = 0.15
# The notes' line (names and one-line descriptions, kit/notes/): its share of the cap, taken
# from the fact lines only when there are notes (without notes the index is as before).
_NOTES_SHARE = 0.2
_NOTE_DESCRIPTION_CHARS = 60
NOTES_LABEL = "Notes (`read_note` reads one)"
LATELY_DAYS = 14  # day summaries the "Lately" names come from
_NAME_CHARS = 40

_WORD = re.compile(r"[^\W\d_][\w'’-]*", re.UNICODE)
_SENTENCE_END = re.compile(r"[.!?:;]\s+")
_NOT_NAMES = frozenset(
    """I I'm I've I'll Kit The A An And But Or So Then This That These Those It Its He She They
    We You My Our Your His Her Their There Here When Where What Who Why How Also After Before
    Today Yesterday Tomorrow Monday Tuesday Wednesday Thursday Friday Saturday Sunday January
    February March April May June July August September October November December""".split()
)


@dataclass(frozen=True)
class IndexLine:
    label: str
    names: tuple[str, ...]  # alphabetised, as shown
    more: int  # left out to fit the cap
    separator: str = ", "


@dataclass(frozen=True)
class MemoryIndexText:
    text: str  # the section as shown (heading included); "" when memory is empty
    lines: tuple[IndexLine, ...]
    days_line: str

    @property
    def tokens(self) -> int:
        return estimate_tokens(self.text)


def _display(name: str) -> str:
    shown = neutralise(" ".join(name.split()), inline=True)
    return shown if len(shown) <= _NAME_CHARS else shown[: _NAME_CHARS - 1] + "…"


def _ranked(counts: Iterable[tuple[str, int]]) -> list[tuple[str, int]]:
    """Names merged case-insensitively (shown as their commonest spelling), most-mentioned
    first, ties alphabetical: the order the cap cuts in."""
    total: Counter[str] = Counter()
    spellings: dict[str, Counter[str]] = {}
    for name, count in counts:
        key = name.casefold()
        total[key] += count
        spellings.setdefault(key, Counter())[name] += count
    best = {k: min(v, key=lambda s: (-v[s], s)) for k, v in spellings.items()}
    return sorted(((best[k], c) for k, c in total.items()), key=lambda x: (-x[1], x[0].casefold()))


def _fit_line(
    label: str, ranked: list[tuple[str, int]], budget: int, separator: str = ", "
) -> IndexLine:
    chosen: list[str] = []
    for name, _ in ranked:
        more = len(ranked) - len(chosen) - 1
        trial = _render_line(IndexLine(label, (*chosen, name), more, separator))
        if estimate_tokens(trial) > budget:
            break
        chosen.append(name)
    names = tuple(sorted(chosen, key=lambda n: (n.casefold(), n)))
    return IndexLine(label, names, len(ranked) - len(chosen), separator)


def _render_line(line: IndexLine) -> str:
    more = f" (+{line.more:,} more)" if line.more else ""
    return f"- {line.label}: {line.separator.join(line.names)}{more}"


def _note_entry(name: str, description: str) -> str:
    """ "packing-list (Packing list for Lisbon)": the name the tools take, and what it is."""
    about = _display(description)
    if len(about) > _NOTE_DESCRIPTION_CHARS:
        about = about[: _NOTE_DESCRIPTION_CHARS - 1] + "…"
    return f"{_display(name)} ({about})" if about else _display(name)


def names_in(texts: Iterable[str]) -> Counter[str]:
    """Capitalised words that do not start a sentence: names of people, places, things."""
    found: Counter[str] = Counter()
    for text in texts:
        for line in text.splitlines():
            body = line.strip().lstrip("-*• ").strip()
            for sentence in _SENTENCE_END.split(body):
                for word in _WORD.findall(sentence)[1:]:
                    word = word.rstrip("'’-")
                    for suffix in ("'s", "’s"):
                        word = word.removesuffix(suffix)
                    if len(word) >= 3 and word[0].isupper() and word not in _NOT_NAMES:
                        found[word] += 1
    return found


class MemoryIndex:
    """Builds a user's index, cached per memory version (and so rebuilt after a write)."""

    def __init__(
        self, facts: Facts, days: Days, cap_tokens: int, notes: Notes | None = None
    ) -> None:
        self._facts = facts
        self._days = days
        self._notes = notes
        self._cap = cap_tokens
        self._cache: dict[str, tuple[MemoryVersion, MemoryIndexText]] = {}

    def cached(self, user_id: str, version: MemoryVersion) -> MemoryIndexText | None:
        hit = self._cache.get(user_id)
        return hit[1] if hit is not None and hit[0] == version else None

    async def get(self, user_id: str, version: MemoryVersion) -> MemoryIndexText:
        hit = self.cached(user_id, version)
        if hit is not None:
            return hit
        index = await self.build(user_id)
        self._cache[user_id] = (version, index)
        return index

    async def build(self, user_id: str) -> MemoryIndexText:
        if self._cap <= 0:
            return MemoryIndexText("", (), "")
        by_category: dict[str, list[tuple[str, int]]] = {}
        for category, subject, count in await self._facts.subjects(user_id):
            by_category.setdefault(category, []).append((subject.strip(), count))
        count, first, last = await self._days.span(user_id)
        days_line = ""
        if count and first is not None and last is not None:
            days_line = (
                f"- Day summaries: {count:,} day{'s' if count != 1 else ''},"
                f" {first.isoformat()} to {last.isoformat()}"
                " (`get_day_history` reads one)"
            )
        header = (
            "## Memory index\n"
            "More is remembered than is shown here: `search_memory` finds what is known about"
            " any of these."
        )
        fixed = estimate_tokens(f"{header}\n{days_line}") + 2
        room = self._cap - fixed
        # Notes by their last change, newest first (the cap keeps those), shown by name.
        notes = [] if self._notes is None else await self._notes.listing(user_id)
        notes.sort(key=lambda n: (-n.updated_at.timestamp(), n.name))
        notes_room = int(room * _NOTES_SHARE) if notes else 0
        room -= notes_room
        lines: list[IndexLine] = []
        seen: set[str] = set()
        carry = 0  # what a line leaves unused passes to the next
        for label, categories, share in _LINES:
            ranked = _ranked(
                (_display(name), n) for c in categories for name, n in by_category.get(c, [])
            )
            budget = int(room * share) + carry
            line = _fit_line(label, ranked, budget)
            used = estimate_tokens(_render_line(line)) + 1 if ranked else 0
            carry = budget - used
            if ranked:
                lines.append(line)
            seen.update(n.casefold() for n in line.names)
        if notes:
            entries = [(_note_entry(n.name, n.description), 0) for n in notes]
            lines.append(_fit_line(NOTES_LABEL, entries, notes_room, "; "))
        lately = names_in(await self._days.latest_texts(user_id, LATELY_DAYS))
        # Names said at least twice, in their own share only: what fact lines leave unused
        # is not handed to them (it would crowd out the retrieved items in the budget).
        ranked = [(n, c) for n, c in _ranked(lately.items()) if c > 1 and n.casefold() not in seen]
        budget = int(room * _LATELY_SHARE)
        recent = _fit_line("Lately (names in recent days)", ranked, budget)
        if recent.names:
            lines.append(IndexLine(recent.label, recent.names, 0))  # a taste, not a census
        if not lines and not days_line:
            return MemoryIndexText("", (), "")
        body = [header, *map(_render_line, lines)]
        if days_line:
            body.append(days_line)
        return MemoryIndexText("\n".join(body), tuple(lines), days_line)
