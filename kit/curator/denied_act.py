"""A denial read against a fact's act, both ways (grounding round 32E).

- A fact that says an act as done, where a cited clause denies that very act with what it is
  done to ("I have never practiced any probability problems" for "has practiced many
  probability problems"), and no clause says the act so with those words: the words said
  apart elsewhere ("I've spent hours practicing card problems") do not undo the denial.
- A fact that denies ("never enjoyed dance classes"), where a cited clause says the word its
  denial denies as so ("I used to love the studio") and no cited clause denies any word of
  the fact: the messages say the opposite of the fact's denial.

What a denial denies is the word right after it (kit/curator/denial_scope.py). Clauses are the
cited messages' clauses of whom the fact is about, each with its words' families
(kit/curator/related.py). Deterministic; no model.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from kit.curator.clauses import Clause
from kit.curator.denial_scope import denied_head, negation_at
from kit.curator.fact_terms import Term
from kit.curator.related import family
from kit.curator.unsaid_act import act_forms
from kit.curator.wording import STOP, same, stem, tokens

# Where a fact's own denial stands: after its subject and an auxiliary ("The owner has never")
_SUBJECT_AND_AUX = 3
Held = Sequence[tuple[Clause, frozenset[str]]]  # a clause and its words' families


class Cited(Protocol):
    """A cited message as kit/curator/judge.py reads it (its Source)."""

    @property
    def owner(self) -> bool: ...
    @property
    def clauses(self) -> tuple[Clause, ...]: ...
    @property
    def family(self) -> tuple[frozenset[str], ...]: ...
    @property
    def names(self) -> frozenset[str]: ...


def denials(
    text: str, terms: Sequence[Term], sources: Sequence[Cited], act: str, denying: bool
) -> list[tuple[str, str]]:
    """The fact's problems with what its messages deny (a problem's kind, the fact's word):
    its `act` denied ("hard-negated"), or what the fact denies (`denying`: a fact that
    denies and does not hedge) said as so ("hard-opposed"). Only the clauses of whom the
    fact is about: the owner's own for a fact about the owner, none about someone else."""
    keys = frozenset(t.key for t in terms if t.kind == "word")
    about_owner = any(t.holder == "owner" for t in terms)
    mine = [
        (c, f)
        for s in sources
        if s.owner or not about_owner
        for c, f in zip(s.clauses, s.family, strict=False)
        if c.holder != "other"
    ]
    found = []
    if denying and (head := denial_unsaid(text, keys, mine)):  # "I used to love it"
        found.append(("hard-opposed", head))
    if act and denied_act(act, keys - {stem(act)}, mine):  # "I have never practiced any"
        found.append(("hard-negated", act))
    elif act:  # "So many people marched. I missed it": the speaker did not
        named = {t.key for t in terms if t.kind == "name"}
        speakers = [s for s in sources if (s.owner if about_owner else s.names & named)]
        if any(missed(act, s.clauses, s.family) for s in speakers):
            found.append(("hard-negated", act))
    return found


def missed(act: str, clauses: Sequence[Clause], families: Sequence[frozenset[str]]) -> bool:
    """Whether a speaker says the act as done, then that they did not take part in it with a
    verb of not doing and a word pointing back ("I missed it", "we skipped that"), and never
    says the act with "I" or "we" (the act is others')."""
    _, forms = act_forms(act)
    done = missed_it = False
    for clause, fam in zip(clauses, families, strict=False):
        if _says(clause, fam, act, forms):
            if clause.words & _FIRST_PERSON:
                return False  # "I went to the parade. I almost missed it"
            done = done or not (clause.negated or clause.hedged)
        pointing = clause.words - STOP - _POINTING
        undone = clause.negated and not clause.denied and not clause.hedged  # "missed", "skipped"
        if done and undone and clause.words & _FIRST_PERSON and len(pointing) <= 1:
            missed_it = True
    return missed_it


_FIRST_PERSON = frozenset({"i", "we", "i'm", "i've", "we've", "we're", "me", "us"})
_POINTING = frozenset({"it", "that", "this", "them", "one", "those", "these"})


def denied_act(act: str, keys: frozenset[str], held: Held) -> bool:
    """Whether a clause denies the fact's `act` with some of the fact's words (`keys`, its
    soft words' stems; not what the clause presupposes, "my ..."), and no clause says the
    act as so with those words."""
    own, forms = act_forms(act)
    for clause, _ in held:
        denied = family(clause.denied) | {clause.denied}
        if clause.hedged or not clause.denied or not denied & own:
            continue
        objects = {k for k in keys if k not in clause.given and _has(clause, k)}
        if objects and not any(
            _says(other, fam, act, forms) and not (other.negated or other.hedged)
            and all(_has(other, k) for k in objects)
            for other, fam in held
        ):  # fmt: skip
            return True
    return False


def denial_unsaid(text: str, keys: frozenset[str], held: Held) -> str:
    """The word a denying fact denies ("never enjoyed dance classes": enjoyed), where a
    clause says it as so ("I used to love ...": love, one of its senses) and no clause denies
    it or any of the fact's words (`keys`); "" otherwise."""
    words = [(t.group(), t.start(), t.end()) for t in tokens(text)]
    if not 0 <= negation_at(words) <= _SUBJECT_AND_AUX:
        return ""  # its predicate's own denial, not one inside a clause of its ("so it won't")
    head = denied_head(words)
    if not head or head in STOP:
        return ""
    _, forms = act_forms(head)
    said = any(_says(c, fam, head, forms) and not (c.negated or c.hedged) for c, fam in held)
    denied = any(
        c.negated and (_says(c, fam, head, forms) or any(_has(c, k) for k in keys))
        for c, fam in held
    )
    return head if said and not denied else ""


def _says(clause: Clause, fam: frozenset[str], word: str, forms: frozenset[str]) -> bool:
    return bool(forms & (clause.words | fam)) or any(same(stem(word), s) for s in clause.stems)


def _has(clause: Clause, key: str) -> bool:
    return any(same(key, s) for s in clause.stems)
