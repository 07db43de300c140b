"""Numbers written over several words, as the grounding guard compares them: a clock time
("7:00 PM", "7pm", "19:00", "noon"), a number in words ("twenty-five", "a hundred and
twenty"), a number with its scale ("1.2 million", "3 grand"), a percentage ("15 per cent") and
a duration in hours or minutes ("an hour and a half", "90 minutes"). Each reading has the one
form a fact's term takes (`key`) and every form a message saying it holds up (`says`): "7 PM"
is "19:00" in a fact, and "7 PM" in a message says "19:00", "7:00" and "7". One word numbers
stay with wording.number_of, which this builds on.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace

from kit.curator.clauses import Clause
from kit.curator.related import lemma_key, near
from kit.curator.wording import NUMBER_WORDS, ORDINAL_WORDS, TENS, number_of, plain


@dataclass(frozen=True)
class Reading:
    start: int
    end: int
    key: str  # the number in a fact's one form
    says: frozenset[str]  # what a message saying it holds up


_UNITS = (
    "one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen"
    "|sixteen|seventeen|eighteen|nineteen"
)
_TENS = "|".join(TENS)
_ORDINALS = "first|second|third|fourth|fifth|sixth|seventh|eighth|ninth"
_SMALL = rf"(?:(?:{_TENS})(?:[- ](?:{_UNITS}|{_ORDINALS}))?|{_UNITS})"
_CHUNK = rf"(?:(?:a|{_SMALL})\s+hundred(?:\s+(?:and\s+)?{_SMALL})?|{_SMALL})"
# "twenty-five", "a hundred and twenty", "two thousand five hundred"; "a" only before a scale
_WORDS = re.compile(
    rf"\b(?:(?:a|{_CHUNK})\s+(?:thousand|million|billion)(?:,?\s+(?:and\s+)?{_CHUNK})?"
    rf"|{_CHUNK})\b",
    re.IGNORECASE,
)
_SCALES = {"thousand": 1_000, "grand": 1_000, "million": 1_000_000, "billion": 1_000_000_000}
# "1.2 million", "3 grand", "$1.5M", "twenty thousand" is _WORDS'
_SCALED = re.compile(
    r"(?<![\d.,])([$£€]?)(\d[\d,]*(?:\.\d+)?)(?:\s*(thousand|million|billion|grand)\b|(bn|m)\b)",
    re.IGNORECASE,
)
_MERIDIEM = r"(?:([ap])\.?\s?m\b\.?)"
_HOURS = rf"\d{{1,2}}|{_UNITS}"
# "7 PM", "7:30 p.m.", "7.30pm", "seven pm"; "19:00"; "noon", "midnight"
_CLOCK = re.compile(
    rf"(?<![\d.:$£€])\b({_HOURS})(?:[:.](\d\d))?\s*{_MERIDIEM}"
    r"|(?<![\d.:$£€])\b(\d{1,2}):(\d\d)\b(?!:)"
    r"|\b(noon|midday|midnight)\b",
    re.IGNORECASE,
)
_ORDINAL = re.compile(r"\b(\d+)(?:st|nd|rd|th)\b", re.IGNORECASE)
_PERCENT = re.compile(r"(\d[\d,]*(?:\.\d+)?)\s*(?:%|percent\b|per\s+cent\b)", re.IGNORECASE)
# "an hour and a half", "1.5 hours", "90 minutes", "two-hour"
_DURATION = re.compile(
    rf"\b(?:an?|one)\s+hour\s+and\s+a\s+half\b"
    rf"|\b(\d+(?:\.\d+)?|{_SMALL}|half\s+an)[\s-]+(hours?|hrs?|minutes?|mins?)\b",
    re.IGNORECASE,
)


def readings(text: str) -> list[Reading]:
    """The numbers `text` (folded: wording.fold) writes over several words or in
    a form one word's reading misses, in order, none overlapping."""
    found: list[Reading] = []
    for reader in (_clocks, _durations, _percents, _scaled, _in_words, _ordinals):
        for reading in reader(text):
            if not any(r.start < reading.end and reading.start < r.end for r in found):
                found.append(reading)
    return sorted(found, key=lambda r: r.start)


def said(text: str, cut: Sequence[Clause]) -> tuple[tuple[Clause, ...], tuple[frozenset[str], ...]]:
    """Every number a message's text says, in each form it holds up, by clause of `cut`: read
    whole, so "a hundred and twenty" is one number where "and" cuts a clause; and the clauses,
    each with the numbers its descriptions give (kit/curator/presupposed.py reads one word's:
    "7" of "should I skip my 7pm yoga class?", and now "19:00")."""
    found = readings(text)
    numbers, given = [], []
    for c in cut:
        mine = [r for r in found if r.start < c.end and c.start < r.end]
        numbers.append(frozenset().union(*(r.says for r in mine)))
        owned = [r.says for r in mine if any(a <= r.start < b for a, b in c.given_spans)]
        given.append(replace(c, given=c.given.union(*owned)) if owned else c)
    return tuple(given), tuple(numbers)


def _clocks(text: str) -> list[Reading]:
    found = []
    for m in _CLOCK.finditer(text):
        if m.group(6):
            hour = {"noon": 12, "midday": 12, "midnight": 0}[m.group(6).lower()]
            key = f"{hour:02d}:00"
            found.append(Reading(m.start(), m.end(), key, frozenset({key, str(hour or 12)})))
            continue
        if m.group(1):
            hour, minutes = int(_value(m.group(1))), int(m.group(2) or 0)
            if not 1 <= hour <= 12 or minutes > 59:
                continue
            day = hour % 12 + (12 if m.group(3).lower() == "p" else 0)
            key = f"{day:02d}:{minutes:02d}"
            forms = {key, f"{hour}:{minutes:02d}"} | ({str(hour)} if not minutes else set())
            if day > 12:  # as before this reading ("am" a stop word): "7 PM" holds up "7 AM"
                forms.add(f"{hour % 12:02d}:{minutes:02d}")
        else:
            hour, minutes = int(m.group(4)), int(m.group(5))
            if hour > 23 or minutes > 59:
                continue
            key = f"{hour}:{minutes:02d}"  # as number_of reads it: no morning or evening said
            twelve = hour % 12 or 12
            forms = {key, f"{twelve}:{minutes:02d}", f"{hour:02d}:{minutes:02d}"}
            if hour < 12:  # "7:00" is morning or evening
                forms.add(f"{hour + 12:02d}:{minutes:02d}")
            if not minutes:
                forms |= {str(hour), str(twelve)}
        found.append(Reading(m.start(), m.end(), key, frozenset(forms)))
    return found


def _durations(text: str) -> list[Reading]:
    found = []
    for m in _DURATION.finditer(text):
        if m.group(1) is None:  # "an hour and a half"
            amount, in_hours = 1.5, True
        else:
            said_as = m.group(1).lower()
            amount = 0.5 if said_as.startswith("half") else _value(said_as)
            in_hours = m.group(2).lower().startswith("h")
        minutes = amount * 60 if in_hours else amount
        key = plain(amount)
        forms = {key, plain(minutes)}
        if minutes % 15 == 0:  # "90 minutes" is "1.5 hours"; "50 minutes" no whole of one
            forms.add(plain(minutes / 60))
        # "50 hours": "hours" stays a word to say; "10-minute" is one word, a count
        end = m.end(1) if m.group(1) and "-" not in text[m.end(1) : m.start(2)] else m.end()
        found.append(Reading(m.start(), end, key, frozenset(forms)))
    return found


def _percents(text: str) -> list[Reading]:
    found = []
    for m in _PERCENT.finditer(text):
        key = number_of(m.group(1))
        if key is not None:
            found.append(Reading(m.start(), m.end(), key, frozenset({key})))
    return found


def _scaled(text: str) -> list[Reading]:
    found = []
    for m in _SCALED.finditer(text):
        scale = (m.group(3) or m.group(4)).lower()
        if scale in ("m", "bn") and not m.group(1):  # "5m" is five metres or minutes
            continue
        factor = _SCALES.get(scale, 1_000_000 if scale == "m" else 1_000_000_000)
        key = plain(float(m.group(2).replace(",", "")) * factor)
        found.append(Reading(m.start(), m.end(), key, frozenset({key})))
    return found


def _in_words(text: str) -> list[Reading]:
    found = []
    for m in _WORDS.finditer(text):
        if " " not in m.group().strip() and "-" not in m.group():
            continue  # one word: number_of's
        key = plain(_value(m.group()))
        found.append(Reading(m.start(), m.end(), key, frozenset({key})))
    return found


def _ordinals(text: str) -> list[Reading]:
    """ "3rd", "21st": one word to a message, two to a fact's reading ("rd" no word)."""
    return [
        Reading(m.start(), m.end(), str(int(m.group(1))), frozenset({str(int(m.group(1)))}))
        for m in _ORDINAL.finditer(text)
    ]


def _value(words: str) -> float:
    """A number written in digits or in words ("twenty-five", "a hundred and twenty")."""
    if words[:1].isdigit():
        return float(words.replace(",", ""))
    total, current = 0.0, 0.0
    for word in re.split(r"[\s-]+", words.lower()):
        if word in ("and", ""):
            continue
        if word == "a":
            current = current or 1
        elif word == "hundred":
            current = (current or 1) * 100
        elif word in _SCALES:
            total += (current or 1) * _SCALES[word]
            current = 0
        else:
            current += float(NUMBER_WORDS[word])
    return total + current


def ordinal_said_as(word: str) -> frozenset[str]:
    """What an ordinal a fact writes in letters may be said as beside its number: the words
    of its adjective's common senses ("first" ~ inaugural, maiden); none for a number in
    digits or a count ("3rd", "three": a count has no such words)."""
    low = lemma_key(word)
    if low not in ORDINAL_WORDS:  # not "3rd", "three"
        return frozenset()
    return near(low, "adj") - {low}
