"""An act or a thing said as someone else's is not the owner's (issue 29, round 28A).

"thanks to Linda's recommendation of the narrator" does not say "the owner recommended the
narrator", and "she shared some insights from her 2022 interview" does not say "the owner
interviewed". Every word of such a fact is in the message, so the word-level guard stores
it; kit/curator/intended.py reads the place that says the act (or the thing it is done to)
as another's when a named person's possessive (`Linda's`, a capitalised name) or, for a
fact about the owner, `his` / `her` opens the noun phrase the act's own noun heads
(`Linda's recommendation`, `her 2022 Island Media interview`). A fact whose subject is that
person ("Linda recommended ...") is left alone.

And a verb whose subject is another person's name (`my close friend Megan recommended "The
Witcher"`) is that one's act, not the owner's, unless the fact's subject is that person or it
says the act was done by them.

What it cannot tell: whose a thing the act is done to is (`Tamara's workshop` says no
workshop the owner runs, but one the owner went to: the same words), whose act a clause with
its own subject states (`Megan recommended`: the word-level guard's reading), a thing given
as another's after it (`the artwork by Simone Clarke`), or a possessive a name shares with an
ordinary word at the start of a sentence.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from kit.curator.related import unknown
from kit.curator.wording import fold

_POSSESSIVE = re.compile(r"(?:^|(?P<after>[^.!?\s]\s+))(?P<name>[A-Z][a-z]+)'s\b")
_PRONOUNS = frozenset({"his", "her"})
_OWNER = frozenset({"owner", "user", "owner's", "user's", "i", "my"})
# What ends a noun phrase, going back from its head: its determiner, a clause, a verb's place.
_STOP = frozenset(
    """a an the this that these those my our your its their some any and or but to of for
    in on at with from by about as is was are were be been i we you he she they it""".split()
)
PHRASE = 4  # words a possessive may stand before what it owns ("her island media | interview")


def possessors(cited: Iterable[str]) -> frozenset[str]:
    """The people whose possessive the cited messages say (`Tamara's`, lower-cased): a
    capitalised word within a sentence, or one WordNet does not know (not `Today's`)."""
    found: set[str] = set()
    for text in cited:
        for match in _POSSESSIVE.finditer(fold(text)):
            name = match.group("name")
            if match.group("after") or unknown(name):
                found.add(name.lower())
    return frozenset(found)


def others_of(subject: list[str], cited: Iterable[str]) -> frozenset[str]:
    """The possessives that make the act's place another's, for a fact with this subject:
    the people the cited messages give something to, but the subject, and `his` / `her`
    when the fact is about the owner."""
    named = {w.removesuffix("'s") for w in subject}
    others = {p for p in possessors(cited) if p not in named}
    if _OWNER & set(subject):
        others |= _PRONOUNS
    return frozenset(f"{p}'s" if p not in _PRONOUNS else p for p in others)


def owned_by_other(before: list[str], others: frozenset[str]) -> bool:
    """Whether the noun phrase ending at the place after `before` opens with another's
    possessive (`thanks to linda's | recommendation`, `her island media | interview`)."""
    for word in reversed(before[-PHRASE:]):
        if word in others:
            return True
        if word in _STOP or word.endswith("'s"):
            return False
    return False


# A name within a sentence: a capitalised word after a word of the same sentence.
_NAMED = re.compile(r"(?<=[A-Za-z,;:'\"]\s)([A-Z][a-z]+)\b")
_ADVERBS = frozenset("just also already recently really finally then kindly".split())


def agents_of(fact_words: list[str], subject: list[str], cited: Iterable[str]) -> frozenset[str]:
    """The people the cited messages name within a sentence (lower-cased; a name WordNet
    does not know), but the fact's subject and whom it says it was done by (`was hired by
    Northwind`)."""
    by = {w for n, w in enumerate(fact_words) if "by" in fact_words[max(0, n - 3) : n]}
    named = {
        name
        for text in cited
        for m in _NAMED.finditer(fold(text))
        if unknown(name := m.group(1).lower())
    }  # a person's name, no word WordNet knows: not `April`, `Island Media`
    return frozenset(named - set(subject) - by)


def done_by_other(before: list[str], agents: frozenset[str]) -> bool:
    """Whether the verb after `before` has another person's name as its subject (`my friend
    Megan | recommended`, `what Christina | said`)."""
    words = [w for w in before[-3:] if w not in _ADVERBS]
    return bool(words) and words[-1] in agents
