"""A refusal says that what it refuses was offered, by whom it came from (issue 29, round 34C).

"I keep declining weekend shift requests from Marcus" says the owner does not cover the
shifts, and says that Marcus asks for it: to decline a request, an offer or an invitation,
someone must have made it. kit/curator/intended.py holds a fact's act back when the
thing it is done to is said only inside a refusal ("I had to decline Laura's invitation to the
book club" does not say "the owner joined the book club"), or the act only as a refused noun
("I had to decline Leo's invitation"); this module tells it when the refused thing is said as
coming from the fact's own subject (`from Marcus`, `Marcus's`), so that a fact of that one's
act ("Marcus asks the owner to cover weekend shifts", "Leo invited the owner") is not read as
refused.

What it cannot tell: which act of the subject's the refusal presupposes (the offer, not what
was offered); a fact that gives the subject more than the offer ("Laura ran the book club")
is left to the word-level guard, which weighs its verb.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from itertools import pairwise

from kit.curator.wording import stem

_WORD = re.compile(r"[a-z][a-z'-]*")
_AFTER = 4  # words between the thing and `from` ("requests | from Marcus")
_BEFORE = 4  # words between the possessive and the thing ("Marcus's weekend | requests")
# A fact's subject that is the owner: the refusal is the owner's own, so nothing is given.
_OWNER = frozenset({"owner", "owner's", "user", "user's", "i", "we", "my", "our"})
_LEADING = frozenset({"the", "a", "an"})


def offered_by(cited: Iterable[str], keys: frozenset[str], subject: list[str]) -> bool:
    """Whether every mention of the thing or the act (stems `keys`) in `cited` (folded,
    lower-cased) gives it as coming from the fact's subject: `from` and the subject's name
    after it, or the name's possessive before it (module note)."""
    names = {w for w in subject if w not in _LEADING}
    if not names or names & _OWNER:
        return False
    found = False
    for text in cited:
        words = _WORD.findall(text)
        for n, word in enumerate(words):
            if stem(word) not in keys:
                continue
            after = words[n + 1 : n + 2 + _AFTER]
            given = any(a == "from" and b in names for a, b in pairwise(after))
            owned = any(
                w.removesuffix("'s") in names and w.endswith("'s")
                for w in words[max(0, n - _BEFORE) : n]
            )
            if not (given or owned):
                return False
            found = True
    return found
