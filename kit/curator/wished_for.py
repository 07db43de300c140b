"""A thing named as wished for is not had (issue 29, round 33D).

"Check my ideal dance studio by the water" names a studio the speaker only dreams of, and "our
dream house" a house no one owns; yet "my ..." reads as what the speaker has
(kit/curator/presupposed.py), so "the owner's dance studio is by the water" found every word
said. A possessive followed by a word of wishing used as a modifier (`ideal`, the adjective of
the hedge `ideally`, and `dream`, the noun of the hedge `dream`) names the wished-for thing: its
clause only wishes and supposes it (kit/curator/clauses.py), what follows is not given, and a
fact that says the same wish (`the owner's dream job`) hedges as the message does.
"""

from __future__ import annotations

import re

from kit.curator.wording import STOP

# The modifiers: the wish words of kit/curator/clause_mood.py, said before a noun.
_WISHING = frozenset({"ideal", "dream"})
_POSSESSIVE = r"(?:my|our|your|his|her|their|[^\W\d_][\w-]*'s)"
_WISHED = re.compile(
    rf"\b{_POSSESSIVE}\s+(?:{'|'.join(sorted(_WISHING))})\s+([^\W\d_][\w'-]*)", re.I
)


def wishing(modifier: str, head: str) -> bool:
    """Whether `modifier` before `head` is a word of wishing before a noun (`ideal studio`),
    not the noun itself (`living my dream by ...`)."""
    return modifier.lower() in _WISHING and head.lower() not in STOP


def wished_for(text: str) -> bool:
    """Whether `text` names a thing as someone's wish: `my ideal studio`, `Ana's dream job`."""
    return any(m.group(1).lower() not in STOP for m in _WISHED.finditer(text))
