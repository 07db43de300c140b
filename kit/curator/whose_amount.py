"""Whose amount: a number said of one thing is not said of another (issue 29, round 28A).

"$3,500 for initial patent filing fees and $5,000 for attorney fees" does not say "$3,500 for
attorney fees"; "20% to Douglas, 10% to my parents" does not say "20% to their parents"; "a
$150 gift exchange ... my budget of $400" does not say "a budget of $150". Every number and
word of such a fact is in the message, so the word-level guard stored it. Here an amount or
a share (`$`, `%`; a count, "75 pages", is no one thing's) is bound to the noun phrase it is
said of: after it through `for`, `to`, `per`, `of`, `on`
("$5,000 for attorney fees", "20% of the estate to my parents": both), right after it ("a
$150 gift exchange"), or before it through `is`, `was`, `of`, `at` ("my budget of $400").
Two phrases are the same thing when their last words are the same word and the describing
words of one are among the other's ("budget" and "total gift budget"; not "attorney fees" and
"filing fees"). A fact that binds a number to a thing its cited messages bind only to other
numbers, and bind that number to another thing, is no fact (a number said of nothing may be
a change: "my rent was $1,100 and went up to $1,200").

What it cannot tell: a number said of a thing in other words ("$400 for presents" for "gift
budget"), a thing named by a pronoun ("40% of it"), or a sum worked out from what was said.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from kit.curator.wording import fold, number_of, stem
from kit.dates.words import MONTHS, WEEKDAYS

_TOKEN = re.compile(r"[$£€]?\d[\d,]*(?:\.\d+)?%?k?|[A-Za-z][A-Za-z'-]*|[^\sA-Za-z\d]")
_AFTER = frozenset({"for", "to", "per", "of", "on"})
_BEFORE = frozenset({"is", "was", "of", "at"})
_DETERMINERS = frozenset(
    "the a an my our their his her your its each every this that these those".split()
)
# Words that end a noun phrase (a clause, a verb's place, a time), or are none of its content.
_STOP = frozenset(
    """and or but so because with by from in into over about after before until since as
    than which who that when while if is was are were be been will would can could should
    also just around roughly nearly almost only total for to per of on at it them him me us
    you i we he she they""".split()
)
_PHRASE = 4  # content words a noun phrase may have ("initial patent filing fees")

# Its last word's stem, the describing words' stems, and its last word as written
Phrase = tuple[str, frozenset[str], str]
Pair = tuple[str, Phrase]  # a number's value and the phrase it is said of


def pairs(text: str) -> list[Pair]:
    """Each number of `text` and each noun phrase it is said of."""
    tokens = _TOKEN.findall(fold(text))
    found: list[Pair] = []
    for i, token in enumerate(tokens):
        value = _value(token)
        if value is None:
            continue
        j = i + 1
        for _ in range(2):  # "20% of the estate | to my parents"
            if j < len(tokens) and tokens[j].lower() in _AFTER:
                phrase, j = _forward(tokens, j + 1)
                if phrase is not None:
                    found.append((value, phrase))
                continue
            break
        if i + 1 < len(tokens) and tokens[i + 1].lower() not in _AFTER | _DETERMINERS:
            phrase, _ = _forward(tokens, i + 1)  # "a $150 holiday gift exchange"
            if phrase is not None:
                found.append((value, phrase))
        if i >= 2 and tokens[i - 1].lower() in _BEFORE:
            phrase = _backward(tokens, i - 1)  # "my budget of $400"
            if phrase is not None:
                found.append((value, phrase))
    return found


def misgiven(fact: str, cited: Iterable[str]) -> str | None:
    """Why `fact` gives a number to a thing its cited messages give only other numbers, and
    give that number to another thing, or None."""
    said = [p for text in cited for p in pairs(text)]
    for value, phrase in pairs(fact):
        same = [v for v, p in said if _same(phrase, p)]
        elsewhere = any(v == value and not _same(phrase, p) for v, p in said)
        if same and value not in same and elsewhere:
            return f"it gives {value} to '{phrase[2]}', but its cited messages give it {same[0]}"
    return None


def _value(token: str) -> str | None:
    """An amount's or a share's value ("$3,500", "20%"); None for a count ("75 pages": many
    counts of one thing are no swap) or anything else."""
    if token[:1] not in "$£€" and not token.endswith("%"):
        return None
    return number_of(token.rstrip("%")) if token.endswith("%") else number_of(token)


def _content(word: str) -> bool:
    low = word.lower()
    return word.isalpha() and low not in _STOP and low not in _DETERMINERS


def _forward(tokens: list[str], j: int) -> tuple[Phrase | None, int]:
    """The noun phrase from `tokens[j]` on (its determiner skipped), and where it ends."""
    while j < len(tokens) and tokens[j].lower() in _DETERMINERS:
        j += 1
    words: list[str] = []
    while j < len(tokens) and len(words) < _PHRASE and _content(tokens[j]):
        words.append(tokens[j])
        j += 1
    return _phrase(words), j


def _backward(tokens: list[str], j: int) -> Phrase | None:
    """The noun phrase that ends just before `tokens[j]`."""
    words: list[str] = []
    k = j - 1
    while k >= 0 and len(words) < _PHRASE and _content(tokens[k]):
        words.insert(0, tokens[k])
        k -= 1
    return _phrase(words)


def _phrase(words: list[str]) -> Phrase | None:
    if not words or words[-1].lower() in MONTHS or words[-1].lower() in WEEKDAYS:
        return None
    last = words[-1].lower()
    return stem(last), frozenset(stem(w.lower()) for w in words[:-1]), last


def _same(one: Phrase, other: Phrase) -> bool:
    return one[0] == other[0] and (one[1] <= other[1] or other[1] <= one[1])
