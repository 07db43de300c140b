"""What a denial in a clause attaches to (grounding round 32E): the predicate right after it,
not the subject the clause opens with.

"Running a business isn't easy" denies "easy" of running a business: the running is so (a
subject phrase before a denied "be" and its adjective is given, as what "my ..." names is:
kit/curator/denied.py spares it). And the word a denial stands before is what it denies: its
head (`denied`), read against a fact's word by its opposite ("isn't easy" says "hard";
kit/curator/judge.py) and against the fact's own act ("I have never practiced any ...").
A deadline a feared denial is measured against is given too ("worried it won't be ready by
April 10": the date is so; round 33E).
Rules of thumb on one clause's words, not a parser. Deterministic; no model.
"""

from __future__ import annotations

from collections.abc import Sequence

from kit.curator.related import describing, family, sense_opposites
from kit.curator.wording import NEGATIONS, REFUSALS, WORRIES, stem
from kit.dates.words import MONTHS, WEEKDAYS

Word = tuple[str, int, int]  # a word, its start and end in the folded text

# What may stand between a denial and the word it denies: auxiliaries, degree words, fillers
# ("haven't ever really tried", "isn't always that easy", "won't be ready").
_BETWEEN = frozenset(
    """be been being have has had do does did is are was were am will would can could should
    ever even really always that so too very quite exactly all any actually just yet""".split()
)
_BE = frozenset("is are was were am".split())
_BE_DENIED = frozenset("isn't aren't wasn't weren't ain't isnt arent wasnt werent".split())
_BE_CLITIC = ("'s", "'re", "'m")


def negation_at(words: Sequence[Word]) -> int:
    """Where a clause's first negation word stands ("not", "never", "didn't"; not a verb of
    refusing, which is an act of its own: "declined the offer"); -1: none."""
    for i, (word, _, _) in enumerate(words):
        low = word.lower()
        if (low in NEGATIONS and low not in REFUSALS) or low.endswith("n't"):
            return i
    return -1


def denied_head(words: Sequence[Word]) -> str:
    """The word a clause's negation denies: the first after it that is no auxiliary, degree
    word or filler ("I have never practiced": practiced; "isn't easy": easy); "" if none."""
    at = negation_at(words)
    if at < 0:
        return ""
    for word, _, _ in words[at + 1 :]:
        low = word.lower()
        if low not in _BETWEEN:
            return low
    return ""


def subject_given(words: Sequence[Word]) -> tuple[frozenset[str], tuple[tuple[int, int], ...]]:
    """The subject phrase of a denied "be" whose predicate is an adjective ("Running a
    business isn't easy": the stems of running, business; "The drive wasn't long"): what
    the denial presupposes, not what it denies. Its stems and its character range."""
    at = negation_at(words)
    if at <= 0:
        return frozenset(), ()
    low = words[at][0].lower()
    be = at
    if low not in _BE_DENIED:  # "is not", "it's not"
        before = words[at - 1][0].lower()
        if before in _BE:
            be = at - 1
        elif not before.endswith(_BE_CLITIC):
            return frozenset(), ()
    subject = words[:be]
    if not subject or not _adjective(denied_head(words)):
        return frozenset(), ()
    return frozenset(stem(w) for w, _, _ in subject), ((subject[0][1], subject[-1][2]),)


def _adjective(word: str) -> bool:
    return bool(word) and describing(word)


def says_by_denial(word: str, denied: str) -> bool:
    """Whether denying `denied` says a fact's `word`: it is the word's opposite in the word's
    most common senses ("isn't easy" says "hard"; "didn't lose" says "found")."""
    return bool(denied) and bool(sense_opposites(word) & (family(denied) | {denied}))


def deadline_given(words: Sequence[Word]) -> tuple[frozenset[str], tuple[tuple[int, int], ...]]:
    """A date a feared denial is measured against ("worried my resume won't be ready by April
    10, 2024"): a fear of missing a deadline says the deadline, and that it is wanted met. The
    date's stems and its character range; none for a denial of what was so ("didn't finish
    by Friday": whether Friday was the deadline is left open)."""
    at = negation_at(words)
    if at < 0 or not any(w.lower() in _FEARS for w, _, _ in words[:at]):
        return frozenset(), ()
    for i in range(at + 1, len(words)):
        if words[i][0].lower() not in _BY:
            continue
        date = list(_date_words(words[i + 1 :]))
        if date and any(w.lower() in MONTHS or w.lower() in WEEKDAYS for w, _, _ in date):
            return frozenset(stem(w) for w, _, _ in date), ((date[0][1], date[-1][2]),)
    return frozenset(), ()


def _date_words(words: Sequence[Word]) -> Sequence[Word]:
    """The run of date words a deadline opens with ("April 10, 2024", "next Friday")."""
    run = []
    for word in words:
        low = word[0].lower()
        if not (low in MONTHS or low in WEEKDAYS or low.isdigit() or low in _DATE_FILL):
            break
        run.append(word)
    return run


_BY = frozenset({"by", "until", "till"})
_FEARS = WORRIES | frozenset("afraid scared fear fearing terrified anxious stressed".split())
_DATE_FILL = frozenset({"the", "of", "this", "next", "st", "nd", "rd", "th"})
