"""What a hedged clause still states (kit/curator/clauses.py reads it): a hedge (`thinking of`,
`not sure how`, `I'd love to`, `might`) governs its verb, not what the clause takes as given.

- **A definite description presupposes what it names.** In `I'm thinking of attending the
  March 15 workshop at East Janethaven Media Center`, the attending is a plan; the workshop, its
  day and its place are not: `the`, `this`, `these`, `those`, `that`, `my`, `our` open a phrase
  whose words are given, up to the first word that ends a noun phrase (`to`, `for`, `is`, ...)
  or, after a preposition (`of`, `with`, `from`, `at`, `in`, `on`, `by`), where no name, number
  or day follows it (`the call with the creative director` stops at `with`; `my quarrel with
  landlord Pietro from May 2` goes on), and before a verb in -ing (`the process of obtaining`).
  A name's possessive is such a determiner, with its title, where it opens the clause or what
  `if` or `whether` asks about (round 25D: `wondering if attorney Stephanie's review on May 1
  confirms ...`: there was a review); not what the speaker weighs (`thinking about Kevin's
  legal background`: Kevin's, not the speaker's). `more <kind> like <name>` says the name is
  of the kind (`hiring more AI ethics consultants like Linda`: she is one; round 25D).
- **The subject a modal is said of is outside its scope**: `the extra $2,000 | would be nice`,
  `my new schedule | might clash`: its descriptions are given; what would be is not. Not when a
  supposition opens the clause first (`if the grant would ...`, `maybe the ...`).
- **A supposition presupposes nothing**: in an `if`, a `would`, a `might`, `if I win the $500
  prize` does not say there is a prize; but a request (`could you`), a wish (`I'd love to`)
  and an embedded question (`wondering if`, `not sure whether`) are no suppositions.
- **What `my ...` names is given** in any clause, a question's too (`can you remind me when
  my automated transfer to savings is due?`: there is a transfer, to savings): up to six
  words, to the first word that ends a noun phrase, and on through `to`, `for`, `with` when a
  noun phrase follows (round 20; after `to` only a word that is only a noun), up to ten words
  (stems only: a day after `to` stays where it is, `moving my meeting to May 5`; and not under
  a denial, which may deny what follows: `I didn't send my report to Dana`); on through an
  `and` between two describing words (`my calm and logical demeanor`, round 27C: `joined`).
- **A question's descriptions are left as they are**: a fact that answers it often says its
  words (`were the games a hit at the game night?`); measured, reading them as given stored
  false facts on the unseen sets and no supported one more (round 13).

What it cannot tell: a noun after `that` from a clause after it (only a word that is no
pronoun, no auxiliary and, after `that`, no verb in -ing opens a description), a gerund subject
(`moving the call to April 22 might conflict`: a plan or a fact, the words do not say; after a
worry's `that` it is read as done, kit/curator/gerund_subject.py), and
what a description's verb-like words say (`the increased budget`: given as words).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from kit.curator.related import describing, noun_only
from kit.curator.wished_for import wishing
from kit.curator.wording import number_of, stem
from kit.dates.words import MONTHS, WEEKDAYS

Word = tuple[str, int, int]  # a word, its start and end in the folded text

DEFINITE = frozenset({"the", "this", "these", "those", "that", "my", "our"})
# Words that end a noun phrase (as kit/curator/clauses.py GIVEN_ENDS, and a subject or a
# conjunction); the prepositions a phrase goes on through only before a name, a number or a
# day; and the words after a determiner that say it is none (a pronoun, an auxiliary).
_ENDS = frozenset(
    """to for and but that which who whom if because so when while is are was were has have
    had will would can could might may should isn't wasn't i i'm i've i'd i'll we you he she
    they it or as than since until before after about into like""".split()
)
_THROUGH = frozenset({"of", "with", "from", "at", "in", "on", "by"})
_NO_NOUN = frozenset(
    """i i'm i've i'd i'll we we're we've you you're he she they it it's is was would will
    could might should can my our your his her their the a an this these those""".split()
)


def described(words: Sequence[Word]) -> tuple[frozenset[str], tuple[tuple[int, int], ...]]:
    """The stems, numbers and character ranges of the definite descriptions in a clause's
    `words` (module note)."""
    found: set[str] = set()
    spans: list[tuple[int, int]] = []
    for i, (word, _, end) in enumerate(words):
        low = word.lower()
        named = _named_possessive(word) and _subject_at(words, i)  # "if Stephanie's review"
        if low not in DEFINITE and not named:
            continue
        following = words[i + 1 : i + 2]
        if not following or _opens_clause(following[0][0], low == "that"):
            continue  # "worried that moving ...", "is this your ...": no description
        if len(words) > i + 2 and wishing(following[0][0], words[i + 2][0]):
            continue  # "my ideal studio", "the dream job": wished for (wished_for.py)
        phrase = _phrase(words[i + 1 : i + 11])
        if named and phrase:  # ... with its title: "attorney Stephanie's"
            title = words[i - 1 : i] if i and _title(words[i - 1][0]) else []
            phrase = [*title, words[i], *phrase]
            found.add(low[:-2])  # the name as a name ("Hale", not the stem "hal")
        for said, _, stop in phrase:
            found.add(stem(said))
            if (n := number_of(said)) is not None:
                found.add(n)
            end = stop
        if phrase:
            spans.append((words[i][1], end))
    for kind, at in _kinds(words):  # "hiring more AI ethics consultants like Linda"
        found.update(stem(w) for w, _, _ in kind)
        spans.append((kind[0][1], at))
    return frozenset(found), tuple(spans)


def _kinds(words: Sequence[Word]) -> list[tuple[Sequence[Word], int]]:
    """The kinds `more ... like <name>` says the name is of (`more AI ethics consultants like
    Linda`: Linda is one), each with where the name ends."""
    found = []
    for i, (word, _, _) in enumerate(words):
        if word.lower() != "more":
            continue
        for j in range(i + 2, min(i + 6, len(words) - 1)):
            if words[j][0].lower() == "like" and _anchor(words[j + 1][0]):
                kind = words[i + 1 : j]
                if all(w.isalpha() and w.lower() not in _ENDS for w, _, _ in kind):
                    found.append((kind, words[j + 1][2]))
                break
    return found


_NOT_NAMED = frozenset(
    "it that he she there here what who where how when let someone today".split()
)


def _named_possessive(word: str) -> bool:
    """Whether a word is a name's possessive, a determiner as `my` is (`Stephanie's review`;
    not `It's`, `That's`, `Let's`)."""
    low = word.lower()
    return (
        word[:1].isupper()
        and word != "I"
        and low.endswith("'s")
        and len(low) > 3
        and low[:-2] not in _NOT_NAMED
    )


def _subject_at(words: Sequence[Word], i: int) -> bool:
    """Whether the name's possessive at `i` (a title before it) opens the clause or what `if`
    or `whether` asks about: its description is the subject (`wondering if attorney
    Stephanie's review confirms ...`), not what the speaker weighs as theirs (`thinking about
    Kevin's legal background`, `stuck between Greg's session or Leslie's event`)."""
    j = i - 1 if i and _title(words[i - 1][0]) else i
    return j == 0 or words[j - 1][0].lower() in ("if", "whether")


def _title(word: str) -> bool:
    """Whether a word before a name is a title (`attorney`, `landlord`): lower case, a noun
    only."""
    return word.islower() and word not in _ENDS and word not in _THROUGH and noun_only(word)


def _opens_clause(word: str, that: bool) -> bool:
    """Whether the word after a determiner says it is none: a pronoun, a possessive, a verb
    ("this is", "is this your ..."), or after `that` a verb in -ing ("worried that moving")."""
    low = word.lower()
    if word == "May":  # the month
        return False
    return low in _NO_NOUN or (that and low.endswith("ing") and len(low) > 5)


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


# What makes a clause a supposition (`SUPPOSE` in kit/curator/clause_mood.py), less what only
# looks like one: a request ("could you", "would you"), a wish ("I'd love to", "would like"), and an
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


def presupposed(
    words: Sequence[Word], asks: bool, hedged: bool, conditional: bool
) -> tuple[frozenset[str], tuple[tuple[int, int], ...]]:
    """What a clause's `words` state whatever its hedge (module note): its descriptions when it
    plans, wishes or doubts (not a question, not a supposition); in a supposition, those of
    the subject its modal is said of."""
    if conditional:
        return described(modal_subject(words))
    if hedged and not asks:
        return described(words)
    return frozenset(), ()


GIVEN_ENDS = frozenset(
    """to for and but that which who if because so with when while is are was were has have
    had will would can could might may should isn't wasn't""".split()
)
_POSSESSIVE = frozenset({"my", "our"})
_ATTACHED = frozenset({"to", "for", "with"})  # a noun's own phrase: "my transfer to savings"
_OWNED_SPAN = 6  # words after "my" whose range is given (a day in them: kit/curator/judge.py)
_OWNED_WORDS = 10  # ... and whose stems are, once past one of `_ATTACHED`


def owned(
    words: Sequence[Word],
) -> tuple[frozenset[str], frozenset[str], tuple[tuple[int, int], ...]]:
    """The noun phrases after "my" / "our" in a clause's `words`: their stems and numbers, those
    past a `to`, `for`, `with` apart (a hedge does not govern them; a denial may: `I didn't
    send my report to Dana`), and their character ranges (module note)."""
    found: set[str] = set()
    beyond: set[str] = set()
    spans: list[tuple[int, int]] = []
    for i, (word, start, end) in enumerate(words):
        if word.lower() not in _POSSESSIVE:
            continue
        if len(words) > i + 2 and wishing(words[i + 1][0], words[i + 2][0]):
            continue  # "my ideal studio": wished for, not had (kit/curator/wished_for.py)
        ranged = True  # still in the part whose range is given
        for j, (said, _, stop) in enumerate(words[i + 1 : i + 1 + _OWNED_WORDS], start=1):
            low = said.lower()
            if low == "and" and _paired(words[i + j - 1 : i + j + 3]):
                continue  # "my calm and logical demeanor": one description (round 27C)
            if low in GIVEN_ENDS:
                ahead = words[i + j + 1 : i + j + 2]
                if low not in _ATTACHED or not ahead or not _nounish(ahead[0][0], low):
                    break
                ranged = False
                continue
            if j > _OWNED_SPAN and ranged:
                break  # no phrase of its own after six words
            into = found if ranged else beyond
            into.add(stem(said))
            if (n := number_of(said)) is not None:
                into.add(n)
            if ranged:
                end = stop
        spans.append((start, end))
    return frozenset(found), frozenset(beyond), tuple(spans)


_WORDS = re.compile(r"[\w'-]+")


def joined(text: str, at: int) -> int:
    """Where the `my` or `our` starts whose description the `and` at `at` in `text` goes on
    (`my calm | and logical demeanor might not shine`: the demeanor is given as the
    speaker's, though the clause is cut at `and`); -1 when it goes on none (`my car and
    sold it`)."""
    before = [(m.group(), m.start(), m.end()) for m in _WORDS.finditer(text, max(0, at - 80), at)]
    after = [(m.group(), m.start(), m.end()) for m in _WORDS.finditer(text, at, at + 80)][:3]
    before = before[-4:]
    if len(after) < 3 or after[0][0].lower() != "and":
        return -1
    opened = [k for k, (w, _, _) in enumerate(before) if w.lower() in _POSSESSIVE]
    if not opened or opened[-1] == len(before) - 1:
        return -1
    inside = before[opened[-1] + 1 :]
    if any(w.lower() in GIVEN_ENDS for w, _, _ in inside) or not _paired([inside[-1], *after]):
        return -1
    return before[opened[-1]][1]


def _paired(words: Sequence[Word]) -> bool:
    """Whether the `and` second of `words` joins two words that describe one noun after them
    (`calm and logical demeanor`): both adjectives to WordNet, no pronoun, and a word that
    ends no phrase after the second (not `my dog and I`, `my car and sold it`)."""
    if len(words) < 4:
        return False
    first, second, head = (w.lower() for w, _, _ in (words[0], words[2], words[3]))
    return (
        describing(first)
        and describing(second)
        and second not in _NO_NOUN
        and head not in GIVEN_ENDS
        and head not in _NO_NOUN
    )


def _nounish(word: str, after: str) -> bool:
    """Whether a word can open the noun phrase a preposition (`after`) takes: no pronoun, no
    verb in -ing, nothing that ends a phrase; after `to`, only a word WordNet knows only as a
    noun (`my transfer to savings`): `to` opens a verb (`my decision to file a patent`) or
    names where a plan goes (`cut my grocery bill to $300`, `move my desk to the corner
    office`, `move my office to Denver`)."""
    low = word.lower()
    ending = low.endswith("ing") and len(low) > 5
    if low in GIVEN_ENDS or low in _NO_NOUN or ending:
        return False
    return after != "to" or (not _anchor(word) and noun_only(word))
