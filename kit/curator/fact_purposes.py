"""Where a fact names a purpose (kit/curator/fact_terms.py marks its words as an aim): what
follows "for" or "toward", a "to" that opens a verb after a comma, a number or a noun, and a
thing named by its possessive as what another is for ("the gala's venue"). What a purpose
names may be only hoped or planned, so the messages may say it as a hope or a plan."""

from __future__ import annotations

import re

from kit.curator.clause_words import PEOPLE, word_key
from kit.curator.fact_holders import OWNER_WORDS
from kit.curator.related import noun_only, thing, wordnet_or_none
from kit.curator.wording import number_of, stem

DETERMINERS = frozenset(
    """a an the his her their its my our your this that these those from at in of on with
    for by about into to""".split()
)


def for_whose(listed: list[re.Match[str]]) -> list[tuple[int, int]]:
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
            if before.group().lower() in DETERMINERS or not before.group().islower():
                break
            start = before.start()
        spans.append((start, match.end()))
    return spans


# A purpose: what follows "for" may be only hoped or planned ("reads it for business tips":
# "hoping it'll give me tips"; "a budget for the movie weekend": "planning a movie weekend"),
# and so may what a step is "toward" ("a step toward having a family": "my goal of ...").
FOR = re.compile(r"\b(?:for|towards?)\b", re.IGNORECASE)
# ... and a `to` that opens a verb after a comma, a number or a noun, or in `in order to`,
# `so as to` (`..., to focus on the application`, `from 6 January 2025 to support her
# business`); not after a verb or a name (`decided to continue`, `agreed with Alexis to cut`).
_ORDER = frozenset({"order", "as"})


def purposes(
    folded: str, listed: list[re.Match[str]], spans: list[tuple[int, int]]
) -> list[tuple[int, int]]:
    """Where a purpose `to` opens runs to the end of its clause (`_ORDER`'s note)."""
    found = []
    for n, match in enumerate(listed[1:-1], start=1):
        if match.group().lower() != "to":
            continue
        before, after = listed[n - 1], listed[n + 1]
        if not after.group().islower() or not is_verb(after.group()):
            continue
        word = before.group()
        comma = "," in folded[before.end() : match.start()]
        if comma or word.lower() in _ORDER or number_of(word) is not None or noun_only(word):
            end = next((b for a, b in spans if a <= match.start() < b), len(folded))
            found.append((match.start(), end))
    return found


def is_verb(word: str) -> bool:
    """Whether WordNet knows a word as a verb (none without WordNet)."""
    net = wordnet_or_none()
    return net is not None and any(part == "verb" for part, _ in net.lemmas(word))
