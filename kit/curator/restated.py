"""A fact that says again, word for word, what its speaker said of themselves.

Why: the weighing (kit/curator/weighing.py) doubts a short fact however plainly it is said: a
fact of two or three words has little for it to read, and below its bar the fact goes to the
owner as a question ("The owner is an avid birder." from "as I'm an avid birder, ..."). When the
fact's words, past its subject, run in the same order and unbroken in one clause the speaker
said of themselves as a fact (not asked, wished, planned, supposed or denied, not of someone
else), the fact is that clause in the third person: there is nothing left to doubt. Only the
small words a person changes in saying it of someone else (articles, `is` / `I'm`, `has` /
`I've`, `my`) are passed over, and a word may be in another form of the same use
("prefer" / "prefers", "coaching" / "coached"; not "delays" / "delayed").

This only keeps the weighing from asking about what the rules store; it stores nothing the
word-level judgement (kit/curator/judge.py) does not.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from kit.curator.clause_words import word_key
from kit.curator.clauses import Clause, clauses
from kit.curator.related import feeling_of
from kit.curator.wording import fold, stem, tokens

# Words a fact said of someone else changes or drops from what the speaker said of themselves
_PERSON = frozenset(
    """a an the is am are was were be been being has have had i me my mine myself he him his
    she her hers they them their we us our owner""".split()
)
# Words that end a clause by opening the next one as what it is about ("grateful for what")
_OPENING = frozenset("what that which who whom how where when why".split())
MIN_WORDS = 2  # one word run together is no clause said again


@dataclass(frozen=True)
class Spoken:
    """A cited message as who said it."""

    text: str
    owner: bool  # the owner's own words
    names: frozenset[str]  # the speaker's name, folded


def restated(fact: str, spoken: Sequence[Spoken]) -> bool:
    """Whether `fact` is a clause of what its subject said of themselves, word for word, or
    says they have what they call theirs ("The owner has a steady hand." from "... my steady
    hand ...")."""
    words = [word_key(t.group()) for t in tokens(_unnamed(fact))]
    for said in spoken:
        if not _about_speaker(words, said):
            return False
    run = _kept(words, frozenset().union(*(s.names for s in spoken)))
    if len(run) < MIN_WORDS:
        return False
    if any(_theirs(words, run, said) for said in spoken):
        return True
    return any(
        _contains(_kept(words, said.names), run)
        for said in spoken
        for words in _said_as_fact(said.text)
    )


def _said_as_fact(text: str) -> list[list[str]]:
    """The words of each clause of `text` said as so; a clause that ends in what opens the
    next ("grateful for what | I learned") runs on into it, as one."""
    found = clauses(text)
    said = [_words(text, c) if _as_fact(c) else [] for c in found]
    joined = [
        said[i] + said[i + 1]
        for i in range(len(found) - 1)
        if said[i] and said[i + 1] and said[i][-1] in _OPENING
    ]
    return [w for w in said if w] + joined


def _theirs(words: list[str], run: list[str], said: Spoken) -> bool:
    """The fact says its subject has what the speaker calls "my ...", word for word: "my"
    takes it as so even where the clause worries, asks or denies something of it ("I'm
    afraid my steady hand won't show in an interview"); not where it is only supposed ("if
    my ...", "I'd ...")."""
    verb = 2 if words[:2] == ["the", "owner"] else 1
    if words[verb : verb + 1] not in (["has"], ["have"]):
        return False
    supposed = [(c.start, c.end) for c in clauses(said.text) if c.supposed]
    found = list(tokens(fold(said.text)))
    said_words = [word_key(t.group()) for t in found]
    for at, word in enumerate(said_words):
        if word != "my" or any(a <= found[at].start() < b for a, b in supposed):
            continue
        if _contains(_kept(said_words[at + 1 :], said.names)[: len(run)], run):
            return True
    return False


def _unnamed(fact: str) -> str:
    """The fact without the name it gives its subject in passing ("The owner, Ana, is ...":
    "I'm Ana, a ..." says the name in a clause of its own)."""
    head, comma, rest = fold(fact).partition(", ")
    if comma and head.lower() == "the owner" and ", " in rest:
        return f"{head} {rest.split(', ', 1)[1]}"
    return fact


def _about_speaker(words: list[str], said: Spoken) -> bool:
    """The fact's subject is the one who said the message: the owner or the speaker's name."""
    if said.owner and words[:2] == ["the", "owner"]:
        return True
    return bool(words) and words[0] in said.names


def _as_fact(clause: Clause) -> bool:
    """A clause the speaker says of themselves as so."""
    return not (
        clause.hedged or clause.negated or clause.asks or clause.supposed or clause.theirs
    ) and (clause.holder != "other")


def _words(text: str, clause: Clause) -> list[str]:
    return [word_key(t.group()) for t in tokens(fold(text)[clause.start : clause.end])]


def _kept(words: list[str], names: frozenset[str]) -> list[str]:
    """The words that carry what is said: the person's small words and the speaker's own
    name passed over, contractions with them ("I'm", "I've")."""
    kept = []
    for word in words:
        head = word.split("'")[0]
        if word in _PERSON or head in _PERSON or word in names:
            continue
        kept.append(word)
    return kept


def _contains(said: list[str], run: list[str]) -> bool:
    width = len(run)
    return any(
        all(_same_word(a, b) for a, b in zip(said[i : i + width], run, strict=True))
        for i in range(len(said) - width + 1)
    )


def _same_word(said: str, fact: str) -> bool:
    """The same word in the same use: as it is, with or without a person's or a plural's -s
    ("prefer" / "prefers"), or a verb in another of its forms ("coaching" / "coached",
    "using" / "uses"); not a verb for a noun ("scared of train delays" says no train was
    delayed)."""
    if said == fact or said.removesuffix("s") == fact.removesuffix("s"):
        return True
    if feeling_of(said, fact):  # "I prefer ..." says "likes ...": a way of liking is liking
        return True
    verbs = said.endswith(("ed", "ing")) and fact.endswith(("ed", "ing", "s"))
    return verbs and (stem(said) == stem(fact) or _base(said) == _base(fact))


def _base(verb: str) -> str:
    """A verb form without its ending ("using", "uses", "used": "us"), for the short verbs
    wording.stem keeps whole."""
    for ending in ("ing", "ed", "es", "s"):
        if verb.endswith(ending) and len(verb) - len(ending) >= 2:
            verb = verb[: -len(ending)]
            break
    return verb.removesuffix("e")
