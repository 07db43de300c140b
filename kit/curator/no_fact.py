"""What a fact's own wording rules out, before its words are looked for in what it cites.

A curator (or the chat's `remember`) may keep the owner's words so closely that the "fact"
still says what the owner only asked or supposed, and every word of it is then found in the
message. The grounding guard (kit/curator/grounding.py) asks three things of the text first:

- a question ("Should the owner take up running?") is no fact;
- a hypothetical is no fact, even when it keeps its condition: "If the owner ever gets a dog,
  the owner would call it Biscuit" (a real 1.5B model's, issue 29). A condition ("if",
  "unless", "in case") with "would", "'d", "might" or "could", or "if ... ever", says what is
  not so; "would" + a verb outside an "if" is the same ("the owner would call a dog Biscuit").
  A wish or a preference said with "would" is a fact about the owner now ("would like to
  visit Japan", "would rather have tea", "would love to live in Lisbon if they ever move
  abroad"), and a present-tense condition is a habit ("takes the bus if it rains"): both stay;
- a chain of kin ("the owner's sister's sister") must be said as a chain: "my sister's
  husband", "the husband of my sister" or "my sister and her husband"; a message that names
  one sister names no sister's sister (a real 1.5B model's, issue 29).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from kit.curator.clause_words import PEOPLE
from kit.curator.wording import fold, stem

# After "would" / "'d": a wish or a preference, so what the owner wants now, not what might be.
_WISHES = frozenset(
    """like love rather prefer enjoy hate want mind appreciate welcome sooner also really
    definitely probably still never not always""".split()
)
_CONDITION = re.compile(r"\b(?:if|unless|in case|supposing|provided that)\b", re.I)
_MODAL = re.compile(r"\b(?:would|might|could)\b\s+(\w+)|(?<=\w)'d\s+(\w+)", re.I)
_IF_EVER = re.compile(r"\bif\b[^,.;]*\bever\b", re.I)
# "would" after words that make it a past habit or reported speech, not a hypothetical
_REPORTED = re.compile(
    r"\b(?:said|says|told|promised|agreed|knew|thought|hoped|decided|used to|as a (?:kid|child))\b"
    r"[^.;]*\bwould\b",
    re.I,
)


def question(text: str) -> bool:
    """The fact is worded as a question."""
    return text.rstrip().endswith("?")


def hypothetical(text: str) -> bool:
    """The fact says what would, might or could be (module note), not what is."""
    folded = fold(text)
    modals = [(m.group(1) or m.group(2) or "").casefold() for m in _MODAL.finditer(folded)]
    supposed = [verb for verb in modals if verb not in _WISHES]
    if _IF_EVER.search(folded) and (supposed or not modals):
        return True  # "if the owner ever gets a dog, they'd call it Biscuit"; a wish stays
    if not supposed:
        return False
    if _CONDITION.search(folded):
        return True
    bare_would = re.search(r"\bwould\s+(\w+)|(?<=\w)'d\s+(\w+)", folded, re.I)
    if bare_would is None or _REPORTED.search(folded):
        return False
    verb = (bare_would.group(1) or bare_would.group(2) or "").casefold()
    return verb not in _WISHES and verb not in {"have", "be", "often", "usually", "always"}


_WORD = r"[^\W\d_][\w-]*"
_CHAIN = re.compile(rf"\b(?=({_WORD})'s\s+({_WORD})\b)", re.I)  # overlapping: a chain of three


def unsaid_chain(text: str, cited: Sequence[str]) -> str | None:
    """A chain of kin the fact names ("sister's sister") that no cited text says, or None."""
    said = [fold(t) for t in cited]
    for match in _CHAIN.finditer(fold(text)):
        first, second = match.group(1), match.group(2)
        if stem(first) not in PEOPLE or stem(second) not in PEOPLE:
            continue
        if not any(_says_chain(t, first, second) for t in said):
            return f"{first}'s {second}"
    return None


def _says_chain(said: str, first: str, second: str) -> bool:
    """`said` names the `second` of someone's `first`: "sister's husband", "husband of my
    sister", or "my sister ... her husband"."""
    a, b = stem(first), stem(second)
    words = [(w.group(), stem(w.group())) for w in re.finditer(rf"{_WORD}(?:'s)?", said)]
    for i, (word, key) in enumerate(words):
        nxt = words[i + 1][1] if i + 1 < len(words) else ""
        if key == a and word.endswith("'s") and nxt == b:
            return True  # "sister's husband"
        if key == b and nxt == "of" and any(k == a for _, k in words[i + 2 : i + 5]):
            return True  # "the husband of my sister"
    named = [i for i, (_, k) in enumerate(words) if k == a]
    return any(
        words[j][0] in {"her", "his", "their"} and words[j + 1][1] == b
        for i in named
        for j in range(i + 1, len(words) - 1)
    )  # "my sister and her husband"
