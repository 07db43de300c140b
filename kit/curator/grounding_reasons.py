"""Why the grounding guard (kit/curator/grounding.py) did not store an operation, in words:
each kind of problem with the words of the fact it concerns (never a message's words)."""

from __future__ import annotations

from collections.abc import Mapping

SHOWN = 3  # words a reason names at most

_SAYS = {
    "missing-name": "it names {}, which its cited messages do not",
    "missing-number": "it says {}, which its cited messages do not",
    "missing-date": "it dates it {}, which its cited messages do not",
    "missing-kin": "it names {}, which its cited messages do not",
    "word-related": "its cited messages say {} only in other words WordNet relates to them",
    "hard-hedged": "its cited messages say {} only in a question, a wish, a plan or an 'if'",
    "word-hedged": "its cited messages say {} only in a question, a wish, a plan or an 'if'",
    "hard-other": "its cited messages say {} of someone else, not of the owner",
    "word-other": "its cited messages say {} of someone else, not of the owner",
    "hard-negated": "its cited messages deny {}",
    "hard-opposed": "its cited messages say the opposite of {}",
    "word-negated": "its cited messages deny {}",
    "word-missing": "its cited messages do not say {}",
    "hard-mine": "its cited messages say {} of the owner, not of whom the fact is about",
    "word-mine": "its cited messages say {} of the owner, not of whom the fact is about",
}


def reason(problems: Mapping[str, list[str]]) -> str:
    parts = []
    for why, shown in problems.items():
        names = list(dict.fromkeys(shown))
        listed = ", ".join(f"'{n}'" for n in names[:SHOWN])
        if len(names) > SHOWN:
            listed += f" and {len(names) - SHOWN} more"
        parts.append(_SAYS[why].format(listed))
    return "; ".join(parts)
