"""A doing named as the subject of a worry's modal is said (issue 29, round 30B).

In `I'm worried that moving the call to April 22 might clash with other meetings`, the worry is
what `might` says would follow; the moving is what the speaker is doing, named as the subject
after `that` (kit/curator/presupposed.py had left it: a plan or a fact, the words alone do not
say; the chats' worries of this shape are about a change already made or under way). Its words
up to the modal are given, numbers and days too, when the clause is a supposition (its modal
after the gerund); the modal's own verb (`clash`) stays as hedged as before. A subject cut off
by `and` goes on in the next clause of the sentence (`that blocking 2 hours every Tuesday | and
Thursday morning ... might not be enough`: both days are given). Only after a worry's `that`
(`worried that`, `concerned that`: WORRIES), not after `think that` or `if` (`wondering whether
moving ... would help`: asked), nor with a modal or `if` before it in the sentence.
"""

from __future__ import annotations

from collections.abc import Sequence

from kit.curator.presupposed import MODAL
from kit.curator.wording import WORRIES

Word = tuple[str, int, int]  # a word, its start and end in the folded text

_ENDS = MODAL | {"will", "can", "should", "won't", "wouldn't", "couldn't", "mightn't"}
_ASKED = frozenset({"if", "whether", "unless"})


def _gerund(word: str) -> bool:
    low = word.lower()
    return low.endswith("ing") and len(low) > 5 and low.isalpha()


def gerund_subject(sentence: Sequence[Word], start: int) -> tuple[Word, ...]:
    """The words of the clause starting at `start` that belong to a gerund subject of a modal
    (`that moving ... | might`) opened in the sentence's words so far (`sentence`, up to the
    clause's end); () when there is none or the modal does not follow in this clause."""
    opened = -1
    for i, (word, at, _) in enumerate(sentence):
        low = word.lower() if word != "May" else "may-month"  # "to May 3": the month
        if opened < 0:
            before = sentence[i - 1][0].lower() if i else ""
            ahead = sentence[i + 1][0] if i + 1 < len(sentence) else ""
            if low == "that" and _gerund(ahead) and before in WORRIES:
                opened = i + 1
            elif low in _ENDS or low in _ASKED:
                return ()  # a modal or a supposition before any gerund subject
            continue
        if low in _ENDS:
            return tuple(w for w in sentence[opened:i] if w[1] >= start) if at >= start else ()
    return ()
