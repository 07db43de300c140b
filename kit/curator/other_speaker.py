"""A fact about one person of a chat resting only on what another said of themself (issue 29,
round 28A).

In a chat of several people (a group, a forwarded message, a conversation imported with its
speakers), "Melanie: we got another cat named Bailey" does not say "Caroline got a cat", and
"Caroline: Thanks, Melanie. Art gives me a sense of freedom" does not say "Melanie feels art
gives her freedom". Every word of such a fact is in the message, and the word-level guard
reads who says it by the fact's own words, so it was stored. Here a fact whose subject is a
person of the chat (its first word: the owner's name, or one a cited message addresses) is
no fact when every message it cites
is someone else's and none speaks to or of that person: no `you`, `your`, and the name only
as whom the speaker addresses (`Thanks, Melanie.`, `Hey Melanie!`), not as whom a sentence is
about (`I saw Melanie's painting`).

What it cannot tell: a message about the person in the third person by a pronoun (`she got a
cat` after a sentence naming her in another message), or a speaker's `we` that takes the
person in (`we got a cat`, said by the person's partner): both are kept out.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from kit.curator.clause_words import word_key
from kit.curator.wording import fold

_ADDRESSED = re.compile(r"\b(?:you|your|yours|yourself|you're|you've|you'll|you'd|ya|u)\b", re.I)


def subject_speaker(content: str, owner: set[str], cited: list[str]) -> str | None:
    """The person of the chat the fact is about: its first word (`Melanie`, `Melanie's`),
    when it is the owner's name or one a cited message addresses ("Thanks, Melanie."), else
    None."""
    first = re.match(r"\s*([A-Z][A-Za-z'-]*)", fold(content))
    if first is None:
        return None
    key = word_key(first.group(1).removesuffix("'s"))
    return key if key in owner or any(_addresses(t, key) for t in cited) else None


def spoken_of(person: str, texts: Iterable[str]) -> bool:
    """Whether any of `texts` speaks to `person` (`you`, `your`) or names them other than as
    whom it addresses ("Thanks, Melanie.")."""
    for text in texts:
        folded = fold(text)
        if _ADDRESSED.search(folded):
            return True
        for found in re.finditer(r"[A-Za-z'-]+", folded):
            if word_key(found.group().removesuffix("'s")) == person and not _vocative(
                folded, found.start(), found.end()
            ):
                return True
    return False


def _addresses(text: str, person: str) -> bool:
    folded = fold(text)
    return any(
        word_key(found.group().removesuffix("'s")) == person
        and _vocative(folded, found.start(), found.end())
        for found in re.finditer(r"[A-Za-z'-]+", folded)
    )


_DETERMINERS = frozenset("my our his her their the a an".split())
_SUBJECTS = frozenset("i it this that he she we they you".split())  # "I am Sam, ..."


def _opening(text: str) -> str:
    words = re.findall(r"[A-Za-z']+", text[:40])
    return words[0].lower() if words else ""


def _vocative(text: str, start: int, end: int) -> bool:
    """Whether the name at text[start:end] is whom the sentence addresses: a comma or the
    sentence's end after it, and before it the sentence's start (not a name an apposition
    follows: "Ingrid, my landlady, ..."), one word opening the sentence ("Hey Bea,",
    "Thanks, Bea.") or a comma when the sentence ends after it ("That's great, Bea!"); not
    a name set off inside a sentence ("a friend, Tamara, who ...")."""
    after = text[end:].lstrip()
    if after and after[0] not in ",.!?":
        return False
    before = text[:start].rstrip()
    if not before or before[-1] in ".!?":  # not "Ingrid, my landlady, fixed ...": set off
        return not (after.startswith(",") and _opening(after[1:]) in _DETERMINERS)
    opening = re.findall(r"[A-Za-z']+", re.split(r"[.!?]", before)[-1])
    if len(opening) == 1 and opening[0].lower() not in _SUBJECTS and "'" not in opening[0]:
        return True  # one word opens the sentence before it: "Hey Bea!", not "I'm Sam,"
    return before[-1] == "," and (not after or after[0] in ".!?")
