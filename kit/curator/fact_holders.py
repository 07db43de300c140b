"""Whom each clause of a fact is about, as kit/curator/fact_terms.py files the fact's terms:
the owner ("The owner", the owner's name), someone else (a name, "a friend", the owner's kin,
and which one) or no telling ("she" may be either); a clause that names nobody goes on with
the clause before. The messages must say each term of the one its clause is about."""

from __future__ import annotations

from kit.curator.clause_words import PEOPLE, word_key
from kit.curator.clauses import clauses
from kit.curator.persons import role
from kit.curator.wording import STOP, number_of, stem, tokens
from kit.dates.words import MONTHS, WEEKDAYS

OWNER_WORDS = frozenset({"owner", "owner's", "owners", "user", "user's"})
_PRONOUNS = frozenset({"he", "she", "they", "his", "her", "their", "him", "them"})


def fact_clauses(
    text: str, owner: set[str], seen: frozenset[str]
) -> list[tuple[int, int, str, str]]:
    """A fact's clauses, each with whom it is about: "owner", "other" or "" (cannot tell),
    and for "other", who (_who). A clause that names nobody is about whom the clause before
    was; "she" is whoever else the fact named before, or the owner when it named nobody
    else."""
    found: list[tuple[int, int, str, str]] = []
    holder, who, introduced = "", "", False
    people_before = False
    previous: list[str] = []
    for clause in clauses(text):
        words = [m.group() for m in tokens(text) if clause.start <= m.start() < clause.end]
        own = _fact_holder(words, owner, introduced, seen)
        if own == "other" and holder == "owner" and found and _owner_only(previous, owner):
            if all(w[:1].isupper() for w in words):
                own = None  # "The owner, Crystal Wilson, earns ...": the owner's own name
        if words and words[0].lower() in _RELATIVE and not _owner_only(previous, owner):
            own = ""  # "for people who lost their jobs": about those people, no telling
        if own is None and people_before and words and all(w[:1].isupper() for w in words):
            own = "other"  # "three kids: Emma, 11": the names after people are those people
        if own is not None:
            holder, who = own, _who(words, owner) if own == "other" else ""
        introduced = introduced or _names_someone(words, owner)
        people_before = people_before or any(stem(w.lower()) in PEOPLE for w in words)
        both = holder == "other" and any(_is_owner(w, owner) for w in words[own is not None :])
        # "a friend made Caroline a bowl", "a mentor the owner met": the two of them, no telling
        entry = (clause.start, clause.end, "" if both else holder, "" if both else who)
        if own is None and found and _more_of_the_same(words):
            entry = (clause.start, clause.end, *found[-1][2:])  # "... | and her changing body"
        found.append(entry)
        previous = words
    return found


_RELATIVE = frozenset({"who", "whom", "whose"})


def _more_of_the_same(words: list[str]) -> bool:
    """A clause that only adds a noun phrase to the one before ("... explore her transition |
    and her changing body"): an "and" or "or", then a determiner or possessive; it stands where
    that one stands, so it is about whom that clause was (not about its subject alone, as
    "| and painted it blue" goes on with the subject)."""
    low = [w.lower() for w in words]
    if len(low) < 3 or low[0] not in ("and", "or") or low[1] not in _NOUN_OPENERS:
        return False
    return not any(stem(w) in PEOPLE for w in low[2:4])  # "and her brother joined": his own


_NOUN_OPENERS = frozenset("a an the his her their its my our your this that these those".split())


def _owner_only(words: list[str], owner: set[str]) -> bool:
    """A clause that is only the owner ("The owner", "Owner"): what follows it names them."""
    named = [w for w in words if w.lower() != "the"]
    return bool(named) and all(_is_owner(w, owner) for w in named)


def _is_owner(word: str, owner: set[str]) -> bool:
    return word_key(word) in owner or word.lower() in OWNER_WORDS


def _who(words: list[str], owner: set[str]) -> str:
    """Whom a clause about someone else is about, as its cited messages must say it: "maria"
    (a name opens it), "~owner" or "~maria" (the owner's or Maria's kin: "John's grandma"),
    or "" (no telling: "a friend")."""
    lowered = [w.lower() for w in words]
    i = 0
    while i < len(lowered) and lowered[i] in _LINKS:
        i += 1
    i = _past_when(words, i)
    i += 1 if lowered[i : i + 1] == ["the"] else 0
    if i >= len(words) or (not words[i][:1].isupper() and lowered[i] not in OWNER_WORDS):
        return ""
    key = word_key(words[i])
    after = lowered[i + 1 :][:3]
    kin = lowered[i].endswith("'s") and (any(stem(a) in PEOPLE for a in after) or role(after))
    if kin:
        return "~owner" if _is_owner(words[i], owner) else f"~{key}"
    return key


def _fact_holder(
    words: list[str], owner: set[str], introduced: bool, seen: frozenset[str]
) -> str | None:
    lowered = [w.lower() for w in words]
    i = 0
    while i < len(lowered) and lowered[i] in _LINKS:
        i += 1  # "because it helps ...": whom the clause is about comes after its link
    linked = i > 0
    i = _past_when(words, i)  # "On 8 May 2024 the owner ...": the owner, after the day
    i += 1 if lowered[i : i + 1] == ["the"] else 0
    if i >= len(lowered):
        return None
    first, after = lowered[i], lowered[i + 1 : i + 4]
    if first in OWNER_WORDS or word_key(words[i]) in owner:
        if first.endswith("'s") and (any(stem(a) in PEOPLE for a in after) or role(after)):
            return "other"
        return "owner"
    if first in _PRONOUNS:
        return ""  # "she" may be the owner or whoever the fact named before: no telling
    if first in ("it", "its", "this", "that", "which", "there"):
        return ""
    if words[i][:1].isupper() and word_key(words[i]) in seen:
        return "other" if len(words) > i + 1 else None  # a name alone is an apposition
    if first in ("a", "an") and after and stem(after[0]) in PEOPLE:
        return "other"
    if linked and lowered[i - 1] == "the" and stem(first) in PEOPLE and len(lowered) > i + 1:
        return "other"  # "after the kids go to bed": the kids, with a verb of their own
    return None


_LINKS = frozenset(
    "but so because cause 'cause since while though although as after before when once".split()
)
_WHEN = frozenset("on in at by since from during until".split())


def _past_when(words: list[str], i: int) -> int:
    """Where a clause goes on after a day it opens with (`On 8 May 2024`, `In June`): a
    preposition of time and only days, months, weekdays and numbers after it; `i` when there
    is none."""
    low = [w.lower() for w in words]
    if i >= len(low) or low[i] not in _WHEN:
        return i
    j = i + 1
    while j < len(low) and (low[j] in MONTHS or low[j] in WEEKDAYS or number_of(words[j])):
        j += 1
    return j if j > i + 1 else i


def _names_someone(words: list[str], owner: set[str]) -> bool:
    if any(stem(w.lower()) in PEOPLE for w in words):
        return True
    return any(
        w[:1].isupper()
        and word_key(w) not in owner
        and w.lower() not in STOP
        and w.lower() not in OWNER_WORDS
        and w.lower() not in MONTHS
        for w in words
    )
