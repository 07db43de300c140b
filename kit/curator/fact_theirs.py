"""What a fact names as someone else's (kit/curator/fact_terms.py files those words as
theirs): what people of someone's are to do ("wants his kids to learn ...": their act, not the
subject's), and what "his", "her" or "their" names once the fact has named someone ("their
mental health")."""

from __future__ import annotations

import re

from kit.curator.clause_words import PEOPLE, word_key
from kit.curator.fact_holders import OWNER_WORDS
from kit.curator.fact_purposes import is_verb
from kit.curator.presupposed import GIVEN_ENDS
from kit.curator.wording import STOP, stem
from kit.dates.words import MONTHS, WEEKDAYS


def their_acts(listed: list[re.Match[str]], spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Where a fact says what people of someone's are to do (`wants his kids to learn ...`,
    `asked her boss to approve ...`): from a `to` and a verb right after "his", "her", "their"
    or "my" and a word for people, to the end of the clause: their act, not the subject's."""
    found = []
    for n, match in enumerate(listed[:-3]):
        if match.group().lower() not in ("his", "her", "their", "my"):
            continue
        person, to, verb = (m.group() for m in listed[n + 1 : n + 4])
        if stem(person.lower()) not in PEOPLE or to.lower() != "to" or not verb.islower():
            continue
        if is_verb(verb):
            at = listed[n + 2].start()
            end = next((b for a, b in spans if a <= at < b), at)
            for a, b in spans:  # "... to learn love | and loyalty": more of what they learn
                if a >= end and _joined(listed, a, end):
                    end = b
            found.append((at, end))
    return found


def _joined(listed: list[re.Match[str]], start: int, end: int) -> bool:
    """Whether the clause at `start` opens with "and" or "or" and follows straight on `end`."""
    first = next((m for m in listed if m.start() >= start), None)
    before = [m for m in listed if end <= m.start() < start]
    return first is not None and first.group().lower() in ("and", "or") and not before


def possessions(listed: list[re.Match[str]], owner: set[str]) -> list[tuple[int, int]]:
    """Where a fact names something of someone else's ("people ... their mental health",
    "sent it to Greg ... his feedback"): up to four words after "his", "her" or "their" once
    the fact has named people or someone by name (else it may be the owner's own: "the owner
    improved her reading"), to a word that ends a noun phrase."""
    spans = []
    for i, match in enumerate(listed):
        if match.group().lower() not in ("his", "her", "their"):
            continue
        if not any(stem(m.group()) in PEOPLE or _named(m, owner) for m in listed[:i]):
            continue
        end = match.end()
        for following in listed[i + 1 : i + 5]:
            if following.group().lower() in GIVEN_ENDS:
                break
            end = following.end()
        spans.append((match.end(), end))
    return spans


def _named(match: re.Match[str], owner: set[str]) -> bool:
    """A name not the owner's, not opening the fact ("Greg"; not "The", "Caroline")."""
    word = match.group()
    return (
        match.start() > 0
        and word[:1].isupper()
        and word_key(word) not in owner
        and word.lower() not in STOP | OWNER_WORDS
        and word.lower() not in MONTHS
        and word.lower() not in WEEKDAYS
    )
