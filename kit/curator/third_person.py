"""A small model's fact in the first person, rewritten in the third about whoever said it.

Asked to write "I live in Leeds" as "the owner lives in Leeds", a 1.5B model copies the
message as it is about half the time (issue 29), and the screen then drops it: "I" in a stored
fact is ambiguous (kit/curator/screen.py). The extract style (kit/curator/extract.py) knows who
said the message a fact cites, so "I", "me" and "my" can only mean that speaker; Kit rewrites
them itself: "I'm allergic to peanuts" said by the owner becomes "The owner is allergic to
peanuts", and "I paint" said by Melanie becomes "Melanie paints". The grounding guard then holds
the rewritten text against the message like any other (and a fact about Melanie is never one
about the owner). Words in quotes are left as they are.

Only the plain forms are rewritten; anything else in the first person ("we", a clause the rules
do not know) stays, and the screen drops it as before.
"""

from __future__ import annotations

import re

from kit.retrieval.lexicon import lexicon
from kit.retrieval.wordnet import WordNetMissing

# "I" + verb forms whose third person is not the verb plus -s.
_IRREGULAR = {  # "and I are" stays plural ("Chris and the owner are"): "are" is in _SAME
    "am": "is",
    "'m": "is",
    "have": "has",
    "'ve": "has",
    "do": "does",
    "go": "goes",
    "'d": "would",
    "'ll": "will",
    "was": "was",
}
# Verbs that do not take -s (modals, the past of "be", ...).
_SAME = frozenset(
    "can could would should will shall might may must did had was were are need dare used "
    "ought".split()
)
# The past tense is the same for every person ("I met" -> "the owner met", never "mets"): a
# word in -ed (not -eed: "I need", "I feed") or a form WordNet's exception lists give a
# verb's other base ("met" -> meet, "went" -> go; kit/retrieval/lexicon.py).
# Words between "I" and its verb ("I really love" -> "the owner really loves").
_ADVERBS = (
    "ever also really never always still often usually sometimes just only recently "
    "currently already even actually finally mostly rarely once now".split()
)
_QUOTED = re.compile(r"\"[^\"]*\"|“[^”]*”")
_I_CLITIC = re.compile(r"(?<![\w-])I('m|'ve|'d|'ll|’m|’ve|’d|’ll)(?![\w-])")
_I_VERB = re.compile(r"(?<![\w-])I ((?:(?:" + "|".join(_ADVERBS) + r") )*)(\w+)(?![\w'-])")
_I_ALONE = re.compile(r"(?<![\w-])I(?![\w'’-])")
_MY = re.compile(r"(?<![\w-])([Mm]y)(?![\w-])")
_MYSELF = re.compile(r"(?<![\w-])([Mm]yself)(?![\w-])")
_ME = re.compile(r"(?<![\w-])([Mm]e)(?![\w-])")


def third_person(text: str, who: str) -> str:
    """`text` with "I", "me", "my", "myself" as `who` ("the owner", "Melanie"): quotes kept."""
    parts: list[str] = []
    last = 0
    for quoted in _QUOTED.finditer(text):
        parts.append(_rewrite(text[last : quoted.start()], who))
        parts.append(quoted.group())
        last = quoted.end()
    parts.append(_rewrite(text[last:], who))
    out = "".join(parts)
    return out[:1].upper() + out[1:] if out[:1].islower() and out != text else out


def _rewrite(text: str, who: str) -> str:
    text = _I_CLITIC.sub(lambda m: f"{who} {_IRREGULAR[_apostrophe(m.group(1))]}", text)
    text = _I_VERB.sub(lambda m: f"{who} {m.group(1)}{_verb(m.group(2))}", text)
    text = _I_ALONE.sub(who, text)
    text = _MYSELF.sub("themself", text)
    text = _MY.sub(f"{who}'s", text)
    return _ME.sub(who, text)


def _apostrophe(clitic: str) -> str:
    return clitic.replace("\u2019", "'")


def _past(low: str) -> bool:
    if low.endswith("ed") and not low.endswith("eed"):
        return True
    if low.endswith(("s", "ing")):
        return False
    try:
        forms = lexicon().lemmas(low)
    except WordNetMissing:  # without WordNet: the -ed rule alone
        return False
    return any(part == "verb" and base != low for part, base in forms)


def _verb(word: str) -> str:
    """The third person singular of the word after "I" (a verb, or an adverb left alone)."""
    low = word.lower()
    if low in _IRREGULAR:
        return _IRREGULAR[low]
    if low in _SAME or not word.isalpha() or not word.islower() or _past(low):
        return word
    if low.endswith(("s", "sh", "ch", "x", "z", "o")):
        return word + "es"
    if len(low) > 1 and low.endswith("y") and low[-2] not in "aeiou":
        return word[:-1] + "ies"
    return word + "s"
