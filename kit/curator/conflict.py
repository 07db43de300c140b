"""When two statements about the same subject disagree: a small rule, without a model.

Two facts disagree when they say the same thing about the same subject with one value
swapped: same category, the same subject (letter case and spacing aside; no subject counts as
a subject: the owner), and their words the same except one run of at most `MAX_SLOT` words in
each ("Ana lives in Lisbon" / "Ana lives in Porto"). The words they share must hold a word
that is neither filler nor the subject itself (the predicate, "lives"): "Ana is a nurse" and
"Ana is a mother" share only the subject and filler, and are not taken to disagree. A
statement that only adds words ("Ana lives in Lisbon with Rui") refines, it does not disagree.

It errs towards asking: "Ana owns a dog" / "Ana owns a cat" disagree by this rule, and the owner
answers "keep both" once. It never changes a fact by itself: it only sets a change aside.
"""

from __future__ import annotations

import re

from kit.curator.guard import FILLER

MAX_SLOT = 4  # words: a value ("Porto", "a red bike"), not a different sentence

_WORD = re.compile(r"[^\W_]+")


def words(text: str) -> list[str]:
    return _WORD.findall(text.casefold())


def same_subject(a: str, b: str) -> bool:
    return " ".join(words(a)) == " ".join(words(b))


def disagree(subject: str, old: str, new: str) -> bool:
    """Whether `new` says what `old` says about `subject` with one value swapped (see above)."""
    return disagree_words(frozenset(words(subject)), words(old), words(new))


def disagree_words(about: frozenset[str], a: list[str], b: list[str]) -> bool:
    """`disagree` on words already split (a pass compares one statement with many facts)."""
    if a == b:
        return False  # the same statement: a duplicate, not a disagreement
    prefix = 0
    while prefix < min(len(a), len(b)) and a[prefix] == b[prefix]:
        prefix += 1
    suffix = 0
    while (
        suffix < min(len(a), len(b)) - prefix and a[len(a) - 1 - suffix] == b[len(b) - 1 - suffix]
    ):
        suffix += 1
    slot_a, slot_b = a[prefix : len(a) - suffix], b[prefix : len(b) - suffix]
    if not slot_a or not slot_b or len(slot_a) > MAX_SLOT or len(slot_b) > MAX_SLOT:
        return False
    shared = a[:prefix] + a[len(a) - suffix :]
    return any(w not in FILLER and w not in about for w in shared)
