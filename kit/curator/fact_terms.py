"""A fact's text as the grounding guard (kit/curator/grounding.py) reads it: its terms (names,
numbers, dates and other words), each with whom its clause is about ("owner", "other" or no
telling, and which other: a name, or someone's kin), whether it sits in what the fact says was
passed over ("chose X over Y") or in a purpose ("for business tips"; round 31B: a thing's
possessive, "the gala's venue", and a "to" after a comma, a number or a noun, "from 3 March to
help with her launch"); and whether the fact hedges ("plans to") or denies ("has never").
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date
from typing import Literal

from kit.curator.chosen import chosen_words
from kit.curator.clause_words import PEOPLE, word_key
from kit.curator.clauses import clauses
from kit.curator.contrast import CONTRAST
from kit.curator.number_forms import readings
from kit.curator.persons import role
from kit.curator.presupposed import GIVEN_ENDS
from kit.curator.related import near, noun_only, phrases, thing, unknown, wordnet_or_none
from kit.curator.undoing import not_done
from kit.curator.whose_number import bindings
from kit.curator.wished_for import wished_for
from kit.curator.wording import (
    HEDGES,
    NEGATIONS,
    REFUSALS,
    STOP,
    WORRIES,
    fold,
    number_of,
    stem,
    tokens,
)
from kit.dates.text import DateSpan, date_mentions
from kit.dates.words import MONTHS, WEEKDAYS

OWNER_WORDS = frozenset({"owner", "owner's", "owners", "user", "user's"})
_PRONOUNS = frozenset({"he", "she", "they", "his", "her", "their", "him", "them"})


@dataclass
class Term:
    kind: Literal["name", "number", "date", "word"]
    shown: str  # as the operation wrote it (for the reason)
    key: str  # name: folded word; number: one form; word: stem
    holder: str  # "owner", "other" or "" (cannot tell)
    span: DateSpan | None = None
    year_said: bool = True
    passed_over: bool = False  # in "... over X": what the fact says was not chosen
    who: str = ""  # holder "other": whom (_who)
    aim: bool = False  # in "... for business tips": what something is for, hoped or planned
    phrase: str = ""  # word: the two-word lemma it opens ("took part": take_part)
    theirs: bool = False  # in what "her", "his", "their" names ("supporting their health")
    head: bool = False  # word: a noun phrase's last word ("friends from work"): a thing


def fact_terms(
    text: str, owner: set[str], reference: date | None, seen: frozenset[str]
) -> tuple[list[Term], bool, bool]:
    """The terms of a fact's text, each with whom its clause is about; whether the fact
    hedges ("plans to", "is thinking about") and whether it denies ("has never")."""
    folded = fold(text)
    dates = list(date_mentions(folded, reference)) if reference else []
    taken = [(m.start, m.end) for m in dates]
    taken += _labelled_relation(text)  # "Ashlee: The owner's mom ...": the mom, by relation
    found: list[Term] = []
    hedged, negated = wished_for(text), not_done(text)  # "skipped the trip" denies as "not"
    # does; "the owner's dream job" hedges (kit/curator/wished_for.py)
    spans = _fact_clauses(text, owner, seen)
    over = [(c.start, c.end) for c in clauses(text) if CONTRAST.match(folded[c.start : c.end])]
    over += [  # "prefers cutting X to cutting Y": Y is passed over, as after "over"
        (m.start(1), c.end)
        for c in clauses(text)
        for m in _PREFER_TO.finditer(folded, c.start, c.end)
    ]
    aims = [
        (m.start(), c.end) for c in clauses(text) for m in _FOR.finditer(folded, c.start, c.end)
    ]
    listed = list(tokens(text))
    aims += _for_whose(listed)  # "the movie marathon's snack budget": a budget for it
    aims += _purposes(folded, listed, [(c.start, c.end) for c in clauses(text)])
    possessed = _possessed(listed, owner)
    acts = _their_acts(listed, [(c.start, c.end) for c in clauses(text)])  # "his kids to learn"
    bound = bindings(text)  # "her partner Thomas, 45": 45 is Thomas's
    written = [  # "7 PM", "twenty five", "1.2 million": one number each
        r for r in readings(folded) if not any(a < r.end and r.start < b for a, b in taken)
    ]
    read: set[int] = set()
    chosen = chosen_words(text)
    for start, end, clause_holder, clause_who in spans:
        for n, match in enumerate(listed):
            token, at = match.group(), match.start()
            if not start <= at < end or any(a <= at < b for a, b in taken):
                continue
            holder, who = clause_holder, clause_who
            if any(a <= at < b for a, b in acts):
                holder, who = "other", ""
            low = token.lower()
            if (
                low in HEDGES
                and token != "May"
                and not _past_inability(listed, n)
                and low not in chosen  # "chose the Canadian option": a choice made
            ) or low in WORRIES:
                hedged = True
            if low in NEGATIONS or low.endswith("n't"):
                negated = True
                if low not in REFUSALS:
                    continue  # "rejected" is a word the messages must say too (round 27C)
            number = number_of(token)
            passed_over = any(a <= at < b for a, b in over)
            if words := next((r for r in written if r.start <= at < r.end), None):
                if words.start in read:
                    continue  # "PM" of "7 PM": its number is a term already
                read.add(words.start)
                token, number, low = folded[words.start : words.end], words.key, ""
            if number is not None and low not in _SOFT_NUMBERS and not _pronoun(listed, n):
                named = sorted(k for k in bound.get(number, ()) if k not in owner)
                if named and holder == "owner":
                    holder, who = "other", named[0]
                found.append(
                    Term("number", token, number, holder, who=who, passed_over=passed_over)
                )
                continue
            key = word_key(token)
            if key in owner or low in OWNER_WORDS or low in STOP or low in HEDGES:
                continue
            if len(key) < 2 or low in MONTHS or low in WEEKDAYS:
                continue
            initial = at == 0 or folded[max(0, at - 2) : at] in (". ", ": ")  # "Gina: Dancing"
            if _mixed(token) or (
                token[:1].isupper() and (not initial or key in seen or _unknown_name(token))
            ):
                found.append(Term("name", token, key, holder, who=who, passed_over=passed_over))
            else:
                aim = any(a <= at < b for a, b in aims)
                pair = [token, *(m.group() for m in listed[n + 1 : n + 2] if m.start() < end)]
                phrase = min(phrases(pair), default="")
                if (
                    low in PARTICLES
                    and n
                    and found
                    and found[-1].phrase == _verb_with(listed[n - 1].group(), low)
                ):  # "turned down": "down" is said where turn_down is ("rejected")
                    phrase = found[-1].phrase
                if phrase and near(phrase) & REFUSING:
                    negated = True  # "turned down" refuses as "declined" does (NEGATIONS)
                theirs = any(a <= at < b for a, b in possessed)
                found.append(
                    Term("word", token, stem(token), holder, who=who, passed_over=passed_over,
                          aim=aim, phrase=phrase, theirs=theirs, head=_head(listed, n, start, end))
                )  # fmt: skip
    for mention in dates:
        holder = next((h for a, b, h, _ in spans if a <= mention.start < b), "")
        shown = text[mention.start : mention.end]
        over_it = any(a <= mention.start < b for a, b in over)  # "instead of the May 2 event"
        found.append(
            Term("date", shown, shown.lower(), holder, mention.span, mention.year_said,
                 passed_over=over_it)
        )  # fmt: skip
    return found, hedged, negated


# A fact's subject label, a name alone before its text, where the text opens with the one it
# is about by a relation of the owner's ("Ana: The owner's mom tends to worry ...")
_LABEL = re.compile(
    r"^([A-Z][\w'-]*(?: [A-Z][\w'-]*)?): (?:[Tt]he )?(?:[Oo]wner|[Uu]ser)'s ((?:\w+ ?){1,3})"
)


def _labelled_relation(text: str) -> list[tuple[int, int]]:
    """Where a fact's subject label names whom its text names by a relation to the owner
    (`_LABEL`): the text says who they are to the owner, which its cited messages must say;
    their name, the record the fact is filed under, comes from elsewhere (where the text names
    them too, that name is a term of its own)."""
    found = _LABEL.match(text)
    if found is None:
        return []
    after = found.group(2).lower().split()
    if not (stem(after[0]) in PEOPLE or role(after)):
        return []
    return [(0, found.end(1))]


def _their_acts(listed: list[re.Match[str]], spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Where a fact says what people of someone's are to do (`wants his kids to learn ...`,
    `asked her boss to approve ...`): from a `to` and a verb right after "his", "her", "their"
    or "my" and a word for people, to the end of the clause: their act, not the subject's."""
    found = []
    for n, match in enumerate(listed[:-3]):
        if match.group().lower() not in ("his", "her", "their", "my"):
            continue
        person, to, verb = (m.group() for m in listed[n + 1 : n + 4])
        if stem(person.lower()) not in PEOPLE or to.lower() != "to" or not verb.islower():
            continue
        if _verb(verb):
            at = listed[n + 2].start()
            end = next((b for a, b in spans if a <= at < b), at)
            for a, b in spans:  # "... to learn love | and loyalty": more of what they learn
                if a >= end and _joined(listed, a, end):
                    end = b
            found.append((at, end))
    return found


def _joined(listed: list[re.Match[str]], start: int, end: int) -> bool:
    """Whether the clause at `start` opens with "and" or "or" and follows straight on `end`."""
    first = next((m for m in listed if m.start() >= start), None)
    before = [m for m in listed if end <= m.start() < start]
    return first is not None and first.group().lower() in ("and", "or") and not before


def _verb_with(verb: str, particle: str) -> str:
    """The phrasal verb a fact's verb opens with the particle after it, if WordNet holds one
    ("turned", "down": turn_down)."""
    return min(phrases([verb, particle]), default="")


# What a phrasal verb of refusing means ("turned down", "passed up"): the fact says what was
# refused, as with "declined" (wording.NEGATIONS)
REFUSING = frozenset({"reject", "decline", "refuse"})
# A verb's particle that is a word of its own to the guard (the others are STOP words)
PARTICLES = frozenset({"down", "away", "back", "around", "aside", "along"})


def _head(listed: list[re.Match[str]], n: int, start: int, end: int) -> bool:
    """Whether the n-th word ends a noun phrase: after a determiner, a possessive or a
    preposition, with no noun after it ("friends from work", "the shelter"; not "her close
    friends")."""
    before = listed[n - 1].group().lower() if n and listed[n - 1].start() >= start else ""
    after = listed[n + 1].group() if n + 1 < len(listed) and listed[n + 1].start() < end else ""
    return before in _DETERMINERS and not (after and thing(after))


_DETERMINERS = frozenset(
    """a an the his her their its my our your this that these those from at in of on with
    for by about into to""".split()
)


def _possessed(listed: list[re.Match[str]], owner: set[str]) -> list[tuple[int, int]]:
    """Where a fact names something of someone else's ("people ... their mental health",
    "sent it to Greg ... his feedback"): up to four words after "his", "her" or "their" once
    the fact has named people or someone by name (else it may be the owner's own: "the owner
    improved her reading"), to a word that ends a noun phrase."""
    spans = []
    for i, match in enumerate(listed):
        if match.group().lower() not in ("his", "her", "their"):
            continue
        if not any(stem(m.group()) in PEOPLE or _named(m, owner) for m in listed[:i]):
            continue
        end = match.end()
        for following in listed[i + 1 : i + 5]:
            if following.group().lower() in GIVEN_ENDS:
                break
            end = following.end()
        spans.append((match.end(), end))
    return spans


def _named(match: re.Match[str], owner: set[str]) -> bool:
    """A name not the owner's, not opening the fact ("Greg"; not "The", "Caroline")."""
    word = match.group()
    return (
        match.start() > 0
        and word[:1].isupper()
        and word_key(word) not in owner
        and word.lower() not in STOP | OWNER_WORDS
        and word.lower() not in MONTHS
        and word.lower() not in WEEKDAYS
    )


def _for_whose(listed: list[re.Match[str]]) -> list[tuple[int, int]]:
    """Where a fact names a thing as what another is for by its possessive (`the movie
    marathon's snack budget`, `the gala's venue`: the budget for the marathon), with the words
    that describe it after its determiner: a purpose, as after `for`, which may be only
    planned (`planning a movie marathon`). Not a person's (`her brother's car`), not a name's
    (capitalised: a name's term of its own)."""
    spans = []
    for i, match in enumerate(listed):
        word = match.group()
        low = word.lower()
        if not low.endswith("'s") or not word.islower() or low in OWNER_WORDS:
            continue
        key = word_key(word)
        if stem(key) in PEOPLE or not thing(key):
            continue
        start = match.start()
        for before in reversed(listed[max(0, i - 3) : i]):
            if before.group().lower() in _DETERMINERS or not before.group().islower():
                break
            start = before.start()
        spans.append((start, match.end()))
    return spans


# A purpose: what follows "for" may be only hoped or planned ("reads it for business tips":
# "hoping it'll give me tips"; "a budget for the movie weekend": "planning a movie weekend"),
# and so may what a step is "toward" ("a step toward having a family": "my goal of ...").
_FOR = re.compile(r"\b(?:for|towards?)\b", re.IGNORECASE)
# ... and a `to` that opens a verb after a comma, a number or a noun, or in `in order to`,
# `so as to` (`..., to focus on the application`, `from 6 January 2025 to support her
# business`); not after a verb or a name (`decided to continue`, `agreed with Alexis to cut`).
_ORDER = frozenset({"order", "as"})


def _purposes(
    folded: str, listed: list[re.Match[str]], spans: list[tuple[int, int]]
) -> list[tuple[int, int]]:
    """Where a purpose `to` opens runs to the end of its clause (`_ORDER`'s note)."""
    found = []
    for n, match in enumerate(listed[1:-1], start=1):
        if match.group().lower() != "to":
            continue
        before, after = listed[n - 1], listed[n + 1]
        if not after.group().islower() or not _verb(after.group()):
            continue
        word = before.group()
        comma = "," in folded[before.end() : match.start()]
        if comma or word.lower() in _ORDER or number_of(word) is not None or noun_only(word):
            end = next((b for a, b in spans if a <= match.start() < b), len(folded))
            found.append((match.start(), end))
    return found


def _verb(word: str) -> bool:
    """Whether WordNet knows a word as a verb (none without WordNet)."""
    net = wordnet_or_none()
    return net is not None and any(part == "verb" for part, _ in net.lemmas(word))


_SOFT_NUMBERS = frozenset({"once", "single", "both", "pair", "couple", "half", "second"})
_OCCASIONS = frozenset(
    "day morning afternoon evening night weekend summer winter spring autumn".split()
)
# before "one": a count of occasions, not some one of them ("for one night", "spent one day")
_COUNTING = frozenset(
    stem(w)  # by stem: "spent", "took" too
    for w in "for only just in within after than about over under per spend stay take last".split()
)
_RATE = frozenset("a an per each every".split())
_POINTING = frozenset("the this that which another each every any no".split())


def _pronoun(listed: list[re.Match[str]], n: int) -> bool:
    """Whether the n-th word is "one" standing for a thing, no count: "the one", "this one",
    "over one paying more"."""
    if listed[n].group().lower() != "one":
        return False
    before = listed[n - 1].group().lower() if n else ""
    after = listed[n + 1].group().lower() if n + 1 < len(listed) else ""
    later = listed[n + 2].group().lower() if n + 2 < len(listed) else ""
    if after in _OCCASIONS and stem(before) not in _COUNTING and later not in _RATE:
        return True  # "went biking one weekend": some weekend, no count of them
    if before in _POINTING:  # "the one with", not "the one job"
        return not (after and thing(after))
    return len(after) > 5 and after.endswith("ing")


def _fact_clauses(
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


_PREFER_TO = re.compile(r"\bprefer(?:s|red|ring)?\s+\w+ing\b[^,;.]*?\s(to\s+\w+ing)\b", re.I)
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


def _unknown_name(token: str) -> bool:
    """Whether a fact's first word is a name though no cited message says it: written as a
    name ("Natalie", "Natalie's") and no word WordNet knows ("Photography", "Grace" may be
    either; round 28A: "Natalie invited the owner" from "invited by Tamara" was stored)."""
    word = token.removesuffix("'s")
    return len(word) >= 3 and word.isalpha() and word.istitle() and unknown(word)


def _mixed(token: str) -> bool:
    """Whether a word is a name written in mixed case ("edX", "iPhone", "eBay"): a capital
    after a small letter (round 28A: "a course on edX" from "via Coursera" was stored)."""
    return token.isalpha() and token[:1].islower() and any(c.isupper() for c in token[1:])


def _past_inability(listed: list[re.Match[str]], n: int) -> bool:
    """Whether the word at `n` is the `could` of `could not`: what the owner was unable to
    do, a denial as `couldn't` is, not a possibility."""
    after = listed[n + 1].group().lower() if n + 1 < len(listed) else ""
    return listed[n].group().lower() == "could" and after == "not"
