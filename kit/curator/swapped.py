"""A detail swapped on a thing the message names: "a book drive" where it said "a toy drive".

The word-level check (kit/curator/judge.py) weighs a fact's unsaid words: one unsaid word in a
fact of many may still be stored. But a word before a thing the message names, where the
message names that same thing with another word before it, is no paraphrase: it changes
which one ("an in-person panel" for "a virtual panel", "a book drive" for "a toy drive").
Such a fact is dropped.

Both words must describe (a noun or an adjective, no verb: "loves dogs" / "adores dogs" is
how, not which), the fact's word must be unsaid in every form WordNet relates to it, and the
message's word must be one the fact does not say. A name on either side is left to the
name check. Without WordNet nothing is read (no word is known as a noun).
"""

from __future__ import annotations

import itertools
from collections import defaultdict
from collections.abc import Sequence

from kit.curator.related import near, says, synonyms, wordnet_or_none
from kit.curator.wording import STOP, number_of, stem, tokens


def swapped(text: str, cited: Sequence[str]) -> str | None:
    """The fact's "word thing" whose word the cited messages say otherwise, or None."""
    words = [t.group() for t in tokens(text)]
    before: dict[str, set[str]] = defaultdict(set)  # a thing's stem: the words said before it
    said: set[str] = set()
    for message in cited:
        listed = [t.group() for t in tokens(message)]
        said.update(w.lower() for w in listed)
        for first, second in itertools.pairwise(listed):
            before[stem(second)].add(first)
    if not before:
        return None
    forms = frozenset().union(*(says(w) | synonyms(w) for w in said))
    stems = {stem(w) for w in said}
    own = {stem(w) for w in words}
    for first, second in itertools.pairwise(words):
        if not _describes(first) or not _noun(second) or stem(second) not in before:
            continue
        if stem(first) in stems or near(first) & (forms | said):
            continue
        other = [w for w in before[stem(second)] if _describes(w) and stem(w) not in own]
        if other:
            return f"{first} {second}"
    return None


def _noun(word: str) -> bool:
    """A common word WordNet knows as a noun ("drive", "panel": after a word describing it,
    that is what it is); not a word of grammar ("in", "a", "it" are nouns there too)."""
    low = word.lower().strip("'-")
    net = wordnet_or_none()
    if net is None or word[:1].isupper() or low in STOP or len(low) < 3:
        return False
    return any(part == "noun" for part, _ in net.lemmas(low))


def _describes(word: str) -> bool:
    """A common word that is an adjective ("virtual", "in-person") or a noun as it stands
    ("toy", "book"), used more as either than as a verb ("run", "settled", "cooking" are
    what was done, not which thing). Of the words a fact needs no support for, only the
    nouns ("book", "film": "a film festival"), not "own", "other", "more"."""
    low = word.lower().strip("'-")
    if word[:1].isupper() or number_of(word) is not None or len(low) < 3:
        return False
    net = wordnet_or_none()
    if net is None:
        return False
    found = net.lemmas(low)
    noun = any(part == "noun" and lemma == low for part, lemma in found)
    adjective = any(part == "adj" for part, _ in found)
    uses = {part: 0 for part in ("noun", "adj", "verb")}
    for part, lemma in found:
        if part in uses:
            uses[part] += net.count(part, lemma)
    if uses["verb"] > uses["noun"] + uses["adj"]:
        return False
    return noun and not adjective if low in STOP else noun or adjective
