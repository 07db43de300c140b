"""Whom a clause is about, read from its first words (kit/curator/clauses.py cuts the
clauses): the speaker, someone else or a thing, or no telling (it goes on with the clause
before); and what it names of someone else's ("her car", "their health") and whether it names
anyone besides the speaker. Rules of thumb: what it cannot tell it leaves neutral."""

from __future__ import annotations

import itertools
from typing import Literal

from kit.curator.antecedent import THEY, things_before
from kit.curator.clause_words import LEAD, OTHER, PEOPLE, POSSESSIVE, SELF, WORD, word_key
from kit.curator.persons import acting, common
from kit.curator.presupposed import GIVEN_ENDS
from kit.curator.question_opener import QUESTION_OPENERS
from kit.curator.wording import number_of, stem

Holder = Literal["self", "other", "neutral"]

_THEIR = frozenset({"her", "his", "their", "hers", "theirs"})
_THING = frozenset(
    "it it's its this that that's these those there there's here what what's which".split()
)
_DETERMINERS = frozenset("the a an this that these those one some every each".split())
# After "X's", words that say the 's is "is" or "has" ("Blue's my fave", "Tom's been great").
_AFTER_IS = frozenset(
    """my our your a an the so such really very not been got also just always still never
    definitely totally going""".split()
)
# A capitalised word opening a clause is a person doing something when a verb follows it.
_SUBJECT_VERBS = frozenset(
    """is was 's has had have and who says said does did will would loves likes love like went
    gave told suggested recommended thinks wants wanted got made took lives works worked
    believes enjoys prefers helped invited asked shared""".split()
)


def thing_they(tokens: list[str], before: str) -> bool:
    """Whether a clause opened by "they" follows a plural thing in its sentence (`before`)."""
    first = next((t.lower() for t in tokens if t.lower() not in LEAD), "")
    return first in THEY and things_before(WORD.findall(before), PEOPLE)


def holder_of(tokens: list[str]) -> Holder | None:
    """Who the clause is about, from its first words; None: carried on from the last clause
    ("...I'm 42 and earning $65,000": the earning is still the speaker's)."""
    lowered = [t.lower() for t in tokens]
    i = 0
    while i < len(lowered) and lowered[i] in LEAD:
        i += 1
    if i >= len(lowered):
        return None
    if lowered[i] == "that" and lowered[i + 1 : i + 2] and lowered[i + 1] in _SUBJECTS:
        i += 1  # "I love | that you chose pottery": whom the subject after "that" names
    first = lowered[i]
    rest = lowered[i + 1 : i + 4]
    joint = " and i " in f" {' '.join(lowered)} " or " and me " in f" {' '.join(lowered)} "
    if first in _LETS:
        return "self"  # "let's": the speaker and whoever is asked along
    if lowered[i:] in _FILLERS:
        return None  # "you know": no one's; what follows goes on with the last one
    if first in SELF:
        return "self"
    if first in POSSESSIVE:
        if (rest and stem(rest[0]) in PEOPLE) or (len(rest) > 1 and stem(rest[1]) in PEOPLE):
            return "self" if joint else "other"
        return "self"
    if first in OTHER:
        return "other"
    if first in _THING:
        return "neutral"
    if first in _DETERMINERS:
        return "other" if any(stem(t) in PEOPLE for t in rest) and not joint else "neutral"
    if tokens[i][:1].isupper() and first not in QUESTION_OPENERS:
        if first.endswith("'s") and rest[:1] and rest[0] not in _AFTER_IS:
            # "Michael's promotion"; not "Blue's my fave", "Painting's great" (a common word)
            said = word_key(first)
            return "neutral" if common(said) and stem(said) not in PEOPLE else "other"
        following = lowered[i + 1] if i + 1 < len(lowered) else ""
        return "other" if following in _SUBJECT_VERBS and not acting(first) else "neutral"
    titled = len(tokens) > i + 2 and tokens[i + 1][:1].isupper() and tokens[i + 1] != "I"
    if titled and lowered[i + 1] not in SELF and lowered[i + 2] in _SUBJECT_VERBS:
        return "other"  # a title and a name: "and attorney Mina suggested ..."
    return None


_LETS = frozenset({"let's", "lets"})
_SUBJECTS = SELF | OTHER | POSSESSIVE
_FILLERS = (["you", "know"], ["ya", "know"], ["y'know"], ["you", "see"])


# After these, "her" is the one something is done to ("I'm visiting her in May", "I gave her a
# book"), not what is hers ("her car").
_AFTER_OBJECT = frozenset(
    """in on at to for with from about and but or so a an the some this that next last every
    today tonight tomorrow yesterday soon again too once twice when while because since
    before after back up out over around off later now then""".split()
)


def of_others(tokens: list[str]) -> list[frozenset[str]]:
    """What the clause names of someone else's, one set of stems for each "his", "their",
    "hers", or "her" before what is hers ("supporting their mental health": mental, health;
    "theirs" alone: an empty set)."""
    lowered = [t.lower() for t in tokens]
    found = []
    for i, low in enumerate(lowered):
        following = lowered[i + 1] if i + 1 < len(lowered) else ""
        if low == "her" and (
            not following or following in _AFTER_OBJECT or number_of(following) is not None
        ):
            continue  # "visiting her in May": whom, not whose
        if low in _THEIR and not (low == "their" and things_before(tokens[:i], PEOPLE)):
            phrase = itertools.takewhile(lambda w: w not in GIVEN_ENDS, lowered[i + 1 : i + 5])
            found.append(frozenset(stem(w) for w in phrase))
    return found


def names_others(tokens: list[str]) -> bool:
    lowered = [t.lower() for t in tokens]
    if any(t in OTHER for t in lowered):
        return True
    if any(stem(t) in PEOPLE for t in lowered):
        return True
    return any(t[:1].isupper() and t != "I" and not t.startswith("I'") for t in tokens[1:])
