"""What a choice passed over: "chose self-editing | over hiring a $500 copyeditor", "went with
the bus | instead of the car". Its own clause (kit/curator/clauses.py), and a denial: the
copyeditor was not hired. `over` is no contrast without a verb of choosing before it ("over the
weekend", "over 3 months")."""

from __future__ import annotations

import itertools
import re

CONTRAST = re.compile(r"(?:over|instead of|rather than)\s", re.IGNORECASE)
_CHOICE = re.compile(
    r"\b(?:chose|choose|chooses|choosing|chosen|prefer|prefers|preferred|preferring|picked|"
    r"pick|picks|opted|opt|opts|selected|favou?r|favou?rs|favou?red|took|taking|went with)\b",
    re.IGNORECASE,
)
_CONTRAST_END = re.compile(
    r"\s(?=(?:to|so|because|since|as|for|while|but|after|before|when|until|once)\s)",
    re.IGNORECASE,
)
_CONTRAST_CUT = re.compile(r"\s(?=(?:over|instead of|rather than)\s)", re.IGNORECASE)


def contrasts(sentence: str, offset: int, part: tuple[int, int]) -> list[tuple[int, int]]:
    start, end = part
    text = sentence[start - offset : end - offset]
    cuts = []
    for c in _CONTRAST_CUT.finditer(text):
        if text[c.end() :].lower().startswith("over ") and not _CHOICE.search(text[: c.start()]):
            continue  # "over the weekend", "over 3 months"
        cuts.append(c.start())
        after = _CONTRAST_END.search(text, c.end())  # "... to stay within my budget": so
        while after is not None and _goes_on(text[c.end() : after.start()]):
            after = _CONTRAST_END.search(text, after.end())
        if after is not None:
            cuts.append(after.start())
    bounds = [0, *sorted({c + 1 for c in cuts}), len(text)]
    return [(start + a, start + b) for a, b in itertools.pairwise(bounds) if b > a]


def passed_over(piece: str, before: str) -> bool:
    """A clause a choice passed over ("chose X | over Y"; not "long sagas, | over 5 books")."""
    if not CONTRAST.match(piece):
        return False
    return not piece.lower().startswith("over") or bool(_CHOICE.search(before))


def _goes_on(passed: str) -> bool:
    """Whether the word after a contrast's passed-over verb goes on with it ("instead of going
    | to the May 2 event", "rather than moving | to Leeds"): a verb in -ing alone before it."""
    marker = CONTRAST.match(passed.lstrip())
    words = passed.lstrip()[marker.end() if marker else 0 :].split()
    return len(words) == 1 and words[0].lower().endswith("ing")
