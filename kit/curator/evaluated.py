"""A doing weighed by a modal names the doing, not one done (issue 29, round 31E).

`Signing up for a choir can be really uplifting` and `it must have been hard giving up the
flat` say what a doing would be like or must have been like for the listener; neither says the
speaker signed up or gave anything up. The gerund is the subject of `can be` / `must have
been` (opening its sentence, before the modal), or comes after `it` + such a modal + a word
or two that weigh it. kit/curator/intended.py reads such a place of the act as "generic", as
it does `adoption is a way of giving back`.

And a doing said by how it seems (round 34B): `rock climbing sounds like a fun way to push
my limits` says what climbing would be like, not that the speaker climbs: a gerund opening its
sentence (after a word or two naming its kind: `rock`, `salsa`) as the subject of `sounds`,
`seems` or `looks`, WordNet's verbs of seeming in the present (`looked` says it was seen).

Only with a modal of what may be or must have been (`can`, `could`, `may`, `might`, `must`,
`would`): `Moving to Leeds was hard` and `it was tough taking a break` say it happened, and
are left alone; so is a gerund with a subject of its own between it and the modal (`Joining
the club, I could be ...`).
"""

from __future__ import annotations

import re

_MODAL = r"(?:can|could|may|might|must|would)"
# The modal after a gerund that opens its sentence: "joining a choir | can be really ...".
_AS_SUBJECT = re.compile(rf"^(?:[a-z0-9'-]+ ){{0,5}}{_MODAL} (?:have been|be)\b")
# The modal before a gerund put after it: "it must have been tough | taking a break".
_PUT_AFTER = re.compile(rf"\bit {_MODAL} (?:have been|be)(?: [a-z'-]+){{1,2}}$")
# A subject or a new clause between the gerund and the modal: the modal is not about it.
_BETWEEN = frozenset(
    """i we you he she they i'm we're you're he's she's they're it it's and but or so that
    which who because if when""".split()
)
GAP = 6  # words a gerund subject may run to before its modal
# A verb of seeming in the present right after the gerund: how it seems, not that it was done.
_SEEMS = frozenset({"sounds", "seems", "looks", "sound", "seem", "look"})
KIND = 2  # words before a gerund that name its kind ("rock | climbing")


def weighed(word: str, before: list[str], after: list[str]) -> bool:
    """Whether the gerund `word`, between the words `before` and `after` it in its sentence,
    is only weighed by a modal (module note)."""
    if not word.endswith("ing"):
        return False
    if len(before) <= KIND and after[:1] and after[0] in _SEEMS:
        return not _BETWEEN & set(before)  # "rock climbing | sounds like fun"
    if not before:
        ahead = after[:GAP]
        upto = next((i for i, w in enumerate(ahead) if re.fullmatch(_MODAL, w)), None)
        if upto is not None and not _BETWEEN & set(ahead[:upto]):
            return _AS_SUBJECT.match(" ".join(after[: upto + 3])) is not None
        return False
    return _PUT_AFTER.search(" ".join(before[-6:])) is not None
