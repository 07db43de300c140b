"""A fact's text as the grounding guard (kit/curator/grounding.py) reads it: its terms (names,
numbers, dates and other words), each with whom its clause is about ("owner", "other" or no
telling, and which other: a name, or someone's kin), whether it sits in what the fact says was
passed over ("chose X over Y") or in a purpose ("for business tips"; round 31B: a thing's
possessive, "the gala's venue", and a "to" after a comma, a number or a noun, "from 3 March to
help with her launch"); and whether the fact hedges ("plans to") or denies ("has never").

Whom each clause is about: kit/curator/fact_holders.py; purposes: kit/curator/fact_purposes.py;
what is someone else's (their acts, their things): kit/curator/fact_theirs.py.
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
from kit.curator.fact_holders import OWNER_WORDS, fact_clauses
from kit.curator.fact_purposes import DETERMINERS, FOR, for_whose, purposes
from kit.curator.fact_theirs import possessions, their_acts
from kit.curator.number_forms import readings
from kit.curator.persons import role
from kit.curator.related import near, phrases, thing, unknown
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


@dataclass
class Term:
    kind: Literal["name", "number", "date", "word"]
    shown: str  # as the operation wrote it (for the reason)
    key: str  # name: folded word; number: one form; word: stem
    holder: str  # "owner", "other" or "" (cannot tell)
    span: DateSpan | None = None
    year_said: bool = True
    passed_over: bool = False  # in "... over X": what the fact says was not chosen
    who: str = ""  # holder "other": whom (`_who` in kit/curator/fact_holders.py)
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
    spans = fact_clauses(text, owner, seen)
    over = [(c.start, c.end) for c in clauses(text) if CONTRAST.match(folded[c.start : c.end])]
    over += [  # "prefers cutting X to cutting Y": Y is passed over, as after "over"
        (m.start(1), c.end)
        for c in clauses(text)
        for m in _PREFER_TO.finditer(folded, c.start, c.end)
    ]
    aims = [(m.start(), c.end) for c in clauses(text) for m in FOR.finditer(folded, c.start, c.end)]
    listed = list(tokens(text))
    aims += for_whose(listed)  # "the movie marathon's snack budget": a budget for it
    aims += purposes(folded, listed, [(c.start, c.end) for c in clauses(text)])
    possessed = possessions(listed, owner)
    acts = their_acts(listed, [(c.start, c.end) for c in clauses(text)])  # "his kids to learn"
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
    return before in DETERMINERS and not (after and thing(after))


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


_PREFER_TO = re.compile(r"\bprefer(?:s|red|ring)?\s+\w+ing\b[^,;.]*?\s(to\s+\w+ing)\b", re.I)


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
