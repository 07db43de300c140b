"""Another's act the speaker only weighs doing too (issue 29, round 34B).

`A friend of mine adopted a dog last spring, maybe I should too` does not say "the owner
adopted a dog": the act is the friend's, and the speaker's own part is only a thought of doing
the same. The word-level guard holds a clause about someone else against a fact about the
owner, but not always against a fact about a named speaker of a chat, whose words of others
it reads leniently. Here, in a message whose speaker weighs doing it too (a modal or a hedge,
then the act said again by a pro-form: `maybe I should do it too`, `I might too`, `we could
do the same`), a verb whose subject is a person named by a common noun (`a buddy of mine`,
`my sister`, `a coworker`: WordNet's kinds of person, kit/curator/persons.py) is that person's
act; kit/curator/intended.py reads such a place as another's.

What it cannot tell: the speaker's own act said after the thought (`... and so I did`), and a
subject far from its verb. Deterministic; no model.
"""

from __future__ import annotations

import re

from kit.curator.persons import person

# The speaker weighs the same act: a first person, a modal or a hedge, and the act said
# again by a pro-form (`do it`, `do the same`, a bare `too`).
_WEIGHED = re.compile(
    r"\b(?:i|we)(?: (?:really|also|probably|definitely|totally|just))?"
    r" (?:should|could|might|may|ought to|want to|wanna|'d like to|would like to|need to)"
    r"(?: (?:really|also|probably|definitely|totally|just))?"
    r"(?: (?:do|try) (?:it|that|this|the same|so))?(?: too| as well)\b"
    r"|\b(?:i|we)(?: (?:should|could|might|may|ought to|want to|wanna|'d like to))"
    r" (?:do|try) the same\b"
)
# What may stand between a subject and its verb: an adverb or two.
_BETWEEN = frozenset("just also recently finally really actually even".split())
_OWN = frozenset({"mine", "ours"})  # "a buddy of mine": the person before "of"
_SPEAKER = frozenset({"i", "we", "me", "us"})


def weighs_doing_too(said: str) -> bool:
    """Whether a message's speaker weighs doing someone else's act too (module note)."""
    return _WEIGHED.search(said.lower()) is not None


def done_by_person(before: list[str]) -> bool:
    """Whether the verb after `before` (its sentence's words, lower case) has a person named by
    a common noun as its subject (`a buddy of mine | adopted`, `my sister | adopted`), not one
    the speaker is part of (`my sister and I`)."""
    words = [w for w in before if w not in _BETWEEN]
    if not words or _SPEAKER & set(words[-5:]):
        return False
    if words[-1] in _OWN and len(words) >= 3 and words[-2] == "of":
        return person(words[-3])  # "a buddy of mine"
    return len(words) >= 2 and words[-2] in {"my", "our", "a", "an"} and person(words[-1])
