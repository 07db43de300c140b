"""What a hedged clause still states (kit/curator/clauses.py reads it): a hedge (`thinking of`,
`can you help me`, `not sure how`) governs its verb, not what the clause takes as given.

- **A definite description presupposes what it names.** In `I'm thinking of attending the
  March 15 workshop at East Janethaven Media Center`, the attending is a plan; the workshop, its
  day and its place are not: `the`, `this`, `these`, `those`, `that` open a phrase whose words
  are given, up to the first word that ends a noun phrase (`to`, `for`, `is`, ...) or, after a
  preposition (`of`, `with`, `from`, `at`, `in`, `on`, `by`), where no name, number or day
  follows it (`the call with the creative director` stops at `with`; `the workshop at East
  Janethaven` goes on).
- **A relative clause in the past states its head.** In `how to use the $2,000 emergency fund
  I received on June 9` and `the workshop, which Patrick suggested`, the fund and the workshop
  are so, whatever the clause before only asks or plans: the noun phrase that ends a hedged
  clause is given when the next clause is about it (`which`, `that`, `who`, or a subject with
  no comma before it) and says something done (a past tense, a present perfect).

What it cannot tell: a noun after `that` from a clause after it (`that workshop` /
`worried that moving ...`: only a word that is no pronoun, no verb in `-ing` and no subject
opens a description), a past participle used as an adjective from a past tense (`the
increased budget` is no relative clause: there is no subject), and a supposition's own
descriptions: an `if`, a `would` or a `might` presupposes nothing (`if I win the $500 prize`
does not say there is one), so they are left as they are.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from kit.curator.wording import number_of, stem
from kit.dates.words import MONTHS, WEEKDAYS

Word = tuple[str, int, int]  # a word, its start and end in the folded text

DEFINITE = frozenset({"the", "this", "these", "those", "that", "my", "our"})
# Words that end a noun phrase (kit/curator/clauses.py GIVEN_ENDS, plus the prepositions a
# phrase goes on through only before a name, a number or a day).
_ENDS = frozenset(
    """to for and but that which who whom if because so when while is are was were has have
    had will would can could might may should isn't wasn't i i'm i've i'd i'll we you he she
    they it or as than since until before after about into like""".split()
)
_THROUGH = frozenset({"of", "with", "from", "at", "in", "on", "by"})
_NOT_AFTER_THAT = frozenset(
    """i i'm i've i'd i'll we we're we've you you're he she they it it's is was would will
    could might should can my our your his her their the a an this these those""".split()
)
_RELATIVE = frozenset({"which", "that", "who", "whom"})
_SUBJECT = frozenset({"i", "we", "he", "she", "they", "i've", "we've", "they've"})
_PAST = frozenset(
    """received got bought made took gave sent paid won met set built wrote went did had
    found left began started finished attended joined signed booked chose picked suggested
    recommended told showed taught led ran held spent sold lent brought kept heard saw
    read earned saved raised moved""".split()
)
_NOT_PAST = frozenset({"need", "feed", "seed", "speed", "indeed", "bed", "red", "shed"})
_STOPS = frozenset({"and", "but", "so", "because", "if", "since", "though", "although"})


def described(words: Sequence[Word]) -> tuple[frozenset[str], tuple[tuple[int, int], ...]]:
    """The stems, numbers and character ranges of the definite descriptions in a clause's
    `words` (module note)."""
    found: set[str] = set()
    spans: list[tuple[int, int]] = []
    for i, (word, _, end) in enumerate(words):
        low = word.lower()
        if low not in DEFINITE:
            continue
        following = words[i + 1 : i + 2]
        if not following or _opens_clause(following[0][0], low == "that"):
            continue  # "worried that moving ...", "is this your ...": no description
        phrase = _phrase(words[i + 1 : i + 11])
        for said, _, stop in phrase:
            found.add(stem(said))
            if (n := number_of(said)) is not None:
                found.add(n)
            end = stop
        if phrase:
            spans.append((words[i][1], end))
    return frozenset(found), tuple(spans)


def last_phrase(words: Sequence[Word]) -> tuple[frozenset[str], tuple[tuple[int, int], ...]]:
    """The noun phrase that ends a clause (from its last determiner, possessive or number):
    what a relative clause after it is about ("... use the $2,000 emergency fund")."""
    opens = [
        i
        for i, (w, _, _) in enumerate(words)
        if w.lower() in DEFINITE | {"a", "an"} or number_of(w) is not None
    ]
    if not opens or len(words) - opens[-1] > 10:
        return frozenset(), ()
    # the phrase starts at the earliest opener with no end word between it and the end
    start = opens[-1]
    for i in reversed(opens):
        if any(w.lower() in _ENDS for w, _, _ in words[i + 1 :]):
            break
        start = i
    phrase = words[start:]
    found = {stem(w) for w, _, _ in phrase} | {
        n for w, _, _ in phrase if (n := number_of(w)) is not None
    }
    return frozenset(found), ((phrase[0][1], phrase[-1][2]),)


def states_head(words: Sequence[Word], joined: bool) -> bool:
    """Whether a clause's `words` are a relative clause that says something done: `which`,
    `that`, `who`, or (`joined`: no comma before it) a subject, then a past tense or a present
    perfect within its first words ("I received on June 9", "which Patrick ... suggested")."""
    lowered = [w.lower() for w, _, _ in words[:10]]
    if not lowered:
        return False
    if lowered[0] not in _RELATIVE and not (joined and lowered[0] in _SUBJECT):
        return False
    for word in lowered[1:]:
        if word in _STOPS:
            return False
        if _past(word):
            return True
    return False


def _past(word: str) -> bool:
    if word in _PAST or word in ("i've", "we've", "they've", "have", "has"):
        return True
    return word.endswith("ed") and len(word) > 4 and word not in _NOT_PAST


def _opens_clause(word: str, that: bool) -> bool:
    """Whether the word after a determiner says it is none: a pronoun, a possessive, a verb
    ("this is", "is this your ..."), or after `that` a verb in -ing ("worried that moving")."""
    low = word.lower()
    if word == "May":  # the month
        return False
    return low in _NOT_AFTER_THAT or (that and low.endswith("ing") and len(low) > 5)


def _phrase(words: Sequence[Word]) -> list[Word]:
    """The words of a noun phrase after its determiner (module note)."""
    taken: list[Word] = []
    for i, (word, start, end) in enumerate(words):
        low = word.lower()
        if low in _THROUGH:
            ahead = words[i + 1 : i + 4]
            if ahead and ahead[0][0].lower().endswith("ing"):
                break  # "the process of obtaining an API key": a verb, not a description
            if not any(_anchor(w) for w, _, _ in ahead):
                break
            continue
        if low in _ENDS and word != "May":
            break
        taken.append((word, start, end))
    return taken


def _anchor(word: str) -> bool:
    """A name, a number or a day: what a prepositional phrase adds to a description."""
    low = word.lower()
    return (
        (word[:1].isupper() and word != "I")
        or number_of(word) is not None
        or low in MONTHS
        or low in WEEKDAYS
    )



# What makes a clause a supposition (kit/curator/clauses.py _SUPPOSE), less what only looks
# like one: a request ("could you", "would you"), a wish ("I'd love to", "would like"), and an
# "if" or "whether" after a verb of asking or knowing ("wondering if", "not sure whether"): an
# embedded question, whose descriptions are presupposed as any question's are.
_SUPPOSING = re.compile(
    r"\b(?:if|unless|ever|would|could|might|i'd|we'd|maybe|perhaps|possibly|someday|"
    r"dream|dreams|dreaming|wish|wishes|wishing)\b|\bone day\b",
    re.IGNORECASE,
)
_NOT_SUPPOSING = re.compile(
    r"\b(?:could|would|can|will)\s+(?:you|u)\b"
    r"|\b(?:i'd|we'd|i would|we would|would)\s+(?:like|love)\b"
    r"|\b(?:wonder\w*|not sure|unsure|ask\w*|know|see|check|curious|decid\w*|figure out|"
    r"tell me|find out)\s+(?:if|whether)\b",
    re.IGNORECASE,
)
_ASKING_IF = re.compile(
    r"\b(?:wonder\w*|not sure|unsure|ask\w*|know|see|check|curious|decid\w*|figure out|"
    r"tell me|find out)\s+(?:if|whether)\W*$",
    re.IGNORECASE,
)
MODAL = frozenset({"would", "might", "could", "may"})
_OPENS_SUPPOSITION = frozenset(
    "if unless whether ever maybe perhaps possibly someday i'd we'd".split()
)


def supposes(piece: str, before: str) -> bool:
    """Whether a clause is a supposition in its own words (`piece`), or continues one: the
    clause before it (`before`, its text) ends on an "if" that is no embedded question."""
    if _SUPPOSING.search(_NOT_SUPPOSING.sub(" ", piece)):
        return True
    ends_if = re.search(r"\b(?:if|unless|whether)\W*$", before, re.IGNORECASE)
    return bool(ends_if) and not _ASKING_IF.search(before)


def modal_subject(words: Sequence[Word]) -> Sequence[Word]:
    """The words before a supposition's first modal, when nothing before it supposes ("the
    extra $2,000 | would be nice", "my new schedule | might clash"): the subject a modal
    is said of is outside its scope. None for "if the grant would ..." or a modal first."""
    for i, (word, _, _) in enumerate(words):
        low = word.lower()
        if low in _OPENS_SUPPOSITION:
            return ()
        if low in MODAL:
            return words[:i]
    return ()


_JOINS = frozenset("and but so then plus also just already recently since because after".split())


def done(words: Sequence[Word]) -> bool:
    """Whether a clause with no subject of its own, joined to a hedged one, says something
    done: its first verb, after `and`, `but`, `so`, `since`, `after` (and `just`, `already`),
    is a past tense ("I'm planning the trip to Rome | and booked the flights on May 3"): the
    hedge governs its own clause, not one joined to it as a fact."""
    lowered = [w.lower() for w, _, _ in words]
    i = 0
    while i < len(lowered) and lowered[i] in _JOINS:
        i += 1
    return 0 < i < len(lowered) and _past(lowered[i]) and lowered[i] not in ("have", "has")
