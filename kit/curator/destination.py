"""Where a planned move goes is not held (issue 29, round 21A).

"Considering switching to Rust" does not say "the owner uses Rust", "thinking of trading my
Honda for a Tesla" does not say "the owner has a Tesla", and "I'm considering moving my office
to Denver" does not say "the owner's office is in Denver". The fact's act (`uses`, `has`, `is
in`) is never said, so kit/curator/intended.py has nothing to look for; what the fact names is
the destination of a move (switch, trade, move, swap, upgrade, ...) that a frame only means,
arranges, tries or refuses (kit/curator/intended.py `governing`). A fact that names such a
destination, said nowhere else in what it cites, is no fact; what is moved (`my Honda`, `my
office`) is the owner's as before. A fact that says the plan itself (`is considering switching
to Rust`, `plans to move the office to Denver`) or the move (`is switching to Rust`: that is
intended.py's reading) is left alone.

What it cannot tell: a destination reached by other words (`thinking of a Tesla instead`), a
frame far from the move, and a move whose destination comes before it (`Denver is where I'd
move`). Deterministic; no model.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from kit.curator.intended import governing, says_plan
from kit.curator.wording import fold, stem

# Verbs that move a thing (or the owner) somewhere else: their `to`/`for`/`into` names where.
_MOVES = frozenset(
    """switch switches switched switching trade trades traded trading move moves moved moving
    swap swaps swapped swapping upgrade upgrades upgraded upgrading transfer transfers
    transferred transferring relocate relocates relocated relocating convert converts converted
    converting migrate migrates migrated migrating exchange exchanges exchanged exchanging
    change changes changed changing downsize downsizing""".split()
)
_TOWARD = frozenset({"to", "for", "into"})
OBJECT_GAP = 4  # words between the move and its `to` ("trading | my old Honda | for")
PLACE_GAP = 4  # words of the destination read after `to`
# What ends a destination: a new clause, a time, a reason.
_END = frozenset(
    """and but or so because since when if while after before next this that which who
    at by in on from with for to soon later eventually someday i we you it""".split()
)
_WORD = re.compile(r"[a-z0-9][a-z0-9'-]*", re.I)
_SENTENCE = re.compile(r"(?<=[.!?])\s+|\n+|[,;:]\s+")
_STOP = frozenset({"a", "an", "the", "my", "our", "some", "new", "one", "whole"})


def planned_destination(fact: str, cited: Iterable[str]) -> str | None:
    """A word of `fact` its cited messages say only as where a move that is only meant,
    arranged, tried or refused goes (module note), or None."""
    shown = _WORD.findall(fold(fact))
    words = [w.lower() for w in shown]
    if says_plan(fact) or any(w in _MOVES for w in words):
        return None
    planned: set[str] = set()
    said: set[str] = set()
    for text in cited:
        for sentence in _SENTENCE.split(fold(text).lower()):
            inside = _destinations(sentence)
            for n, word in enumerate(_WORD.findall(sentence)):
                (planned if n in inside else said).add(stem(word))
    for word, as_shown in zip(words, shown, strict=True):
        if word not in _STOP and len(word) >= 3 and stem(word) in planned - said:
            return as_shown
    return None


def _destinations(sentence: str) -> set[int]:
    """The places of `sentence`'s words that name where a framed move goes."""
    words = _WORD.findall(sentence)
    found: set[int] = set()
    for n, word in enumerate(words):
        if word not in _MOVES or governing(words[:n]) is None:
            continue
        toward = next(
            (j for j in range(n + 1, min(len(words), n + 2 + OBJECT_GAP)) if words[j] in _TOWARD),
            None,
        )
        if toward is None:
            continue
        for j in range(toward + 1, min(len(words), toward + 1 + PLACE_GAP)):
            if words[j] in _END:
                break
            found.add(j)
    return found
