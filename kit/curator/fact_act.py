"""A fact's act: its main verb after its subject, or a describing word after `is` (round 17B).

kit/curator/intended.py looks for the act a fact says as done in what the fact cites; this
module reads that act out of the fact (`relocating`, `joined`, `resilient`; `climbing` in
`goes rock climbing`), its tense, and the head of what it is done to (`the brainstorming
session`: session), which stands in for the act where the message never says it. A fact that
frames or denies its act itself names none here. Moved out of kit/curator/intended.py in round
34D, unchanged. Deterministic; no model.
"""

from __future__ import annotations

import re

from kit.curator.act_frames import IN_FACT, NEGATIONS, lemmas
from kit.curator.related import thing, wordnet_or_none
from kit.curator.wording import HEDGES, fold

# What may stand before a fact's act: its subject and auxiliaries.
_LEADING = re.compile(
    r"^\s*(?:while|when|after|before|since|starting|during|in|on|for|as|once|by)\b[^,]*,\s*",
    re.I,
)
_SUBJECT = frozenset({"owner", "user", "he", "she", "they", "we", "i", "it"})
_AUXILIARY = frozenset(
    """has have had do does did will would can could may might shall should also already
    just now recently finally successfully often usually always regularly""".split()
)
_DEGREE = frozenset({"as", "so", "very", "really", "more", "too", "quite", "pretty", "most"})
_COPULA = frozenset({"is", "are", "was", "were", "am", "be", "been", "seems", "feels"})
_SKIP = frozenset(
    """the a an owner owner's user user's is are was were am be been being has have had do
    does did will shall can also already just now still recently finally successfully
    currently often usually always regularly really actually who that this these those his
    her their its my our your as""".split()
)
WORD = re.compile(r"[a-z][a-z'-]*", re.I)


def read_act(fact: str) -> tuple[str, str, list[str]] | None:
    """The fact's act (its main verb, or a describing word after `is`), its tense (_tense),
    and the words after it; None when the fact frames or denies it itself, or names no act."""
    main = _LEADING.sub("", fold(fact))  # "While preparing ..., the owner tried ..."
    shown = WORD.findall(main)
    words = [w.lower() for w in shown]
    for i, word in enumerate(words):
        if word in _SKIP or word.endswith("'s") or shown[i][:1].isupper():
            continue
        last = max((j for j in range(i) if words[j] not in _DEGREE), default=-1)
        if last > 0 and words[last - 1 : last + 1] == ["had", "to"]:
            last -= 1  # "had to take a break": the act is done, `had` its auxiliary (31E)
        if not _verb_here(word, words[last] if last >= 0 else "", shown[last] if last >= 0 else ""):
            continue
        tense = _tense(word, words[:i])  # of "went", in "went hiking"
        if ("verb", _GO) in lemmas(word):
            ahead = words[i + 1 : i + 2 + _KIND]
            gerund = next((j for j, w in enumerate(ahead) if w.endswith("ing")), None)
            if gerund is not None and "verb" in {p for p, _ in lemmas(ahead[gerund])}:
                i, word = i + 1 + gerund, ahead[gerund]  # "goes rock climbing": climbing
        said = words[: i + 2]
        if IN_FACT.search(" ".join(said)) or any(w in HEDGES for w in said):
            return None  # the plan said as a plan: "is considering relocating"
        if any(w in NEGATIONS or w.endswith("n't") for w in words[:i]):
            return None  # the act denied
        return word, tense, words[i + 1 :]
    return None


def _tense(word: str, before: list[str]) -> str:
    """ "going" (`is relocating`), "done" (`relocated`, `has found`, `met`) or "now"."""
    if word.endswith("ing") and before[-1:] and before[-1] in _COPULA:
        return "going"
    if word.endswith("ed") or _PERFECT & set(before):
        return "done"
    if before[-1:] and before[-1] in _SINGULAR and not word.endswith("s"):
        return "done"  # "the owner set up": a singular subject's bare form is the past
    irregular = all(lemma != word for _, lemma in lemmas(word))
    return "done" if irregular and not word.endswith("s") else "now"


_PERFECT = frozenset({"has", "have", "had", "was", "were"})
# "goes rock climbing", "went salsa dancing": go and a gerund say the gerund's act (round 34B).
_GO = "go"
_KIND = 2  # words naming the doing's kind between them
_SINGULAR = frozenset({"owner", "user", "he", "she"})


def _verb_here(word: str, previous: str, shown: str) -> bool:
    """Whether `word`, after `previous`, is the fact's main verb: a verb after its subject
    (`the owner`, a name, a pronoun) or an auxiliary, or one inflected (-s, -ed; -ing only
    after `is`); a describing word only just after `is` (`is resilient`)."""
    net = wordnet_or_none()
    inflected_after_subject = previous in _SUBJECT and word.endswith(("s", "ed"))
    if net is None or (thing(word) and not inflected_after_subject):
        return False  # "the owner tracks progress": a verb, whatever else it names
    parts = {p for p, _ in net.lemmas(word)}
    if previous in _COPULA and "adj" in parts:
        return True
    if "verb" not in parts:
        return False
    if word.endswith("ing"):
        return previous in _COPULA
    after_subject = previous in _SUBJECT or (shown[:1].isupper() and not shown.endswith("'s"))
    inflected = word.endswith(("s", "ed")) or all(lemma != word for _, lemma in net.lemmas(word))
    return after_subject or previous in _AUXILIARY or inflected


def head_of(rest: list[str]) -> str | None:
    """The head of what the act is done to: the last word of the first noun phrase after it
    (`Laura's late-night brainstorming session on ...`: session)."""
    phrase: list[str] = []
    for word in rest:
        if word in {"for", "with", "to", "at", "in", "on", "into", "from", "about", "of"}:
            if phrase:
                break
            continue
        if word in _SKIP or word in {"a", "an", "some", "many", "any"}:
            if phrase:
                break
            continue
        if word in {"and", "or", "by", "which", "who", "that"}:
            break
        phrase.append(word)
    nouns = [w for w in phrase if not w.endswith("'s")]
    if nouns and (parts := lemmas(nouns[-1])) and all(p != "noun" for p, _ in parts):
        return None  # "stays | focused": what the act is, not what it is done to (34C)
    return nouns[-1] if nouns and len(nouns[-1]) >= 3 else None
