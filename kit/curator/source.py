"""A cited message (or a fact being rewritten) as the grounding guard reads it: its clauses
(kit/curator/clauses.py) and what kit/curator/grounding.py reads of each; kit/curator/judge.py
and kit/curator/holding.py hold a fact's terms against it."""

from dataclasses import dataclass, field
from datetime import date

from kit.curator.clauses import Clause
from kit.dates.text import DateSpan


@dataclass(frozen=True)
class Source:
    """A cited message (or a fact being rewritten) as the guard reads it."""

    message_id: int | None  # None: the text of a fact the operation rewrites
    speaker: str  # "" for the owner
    owner: bool  # the owner's own words
    clauses: tuple[Clause, ...]
    spans: tuple[tuple[DateSpan, int], ...]  # days its words name, with their offset
    day: date | None
    names: frozenset[str] = field(default_factory=frozenset)  # the speaker's name, folded
    answered: bool = False  # another cited message, by someone else, comes after it
    capitalised: frozenset[str] = field(default_factory=frozenset)  # names in its text
    # What each clause's words say through WordNet (kit/curator/related.py), by clause
    forms: tuple[frozenset[str], ...] = ()
    kin: tuple[frozenset[str], ...] = ()  # the synonyms of each clause's words
    family: tuple[frozenset[str], ...] = ()  # each clause's words' own forms (related.family)
    months: tuple[tuple[DateSpan, int], ...] = ()  # months named by name alone (said_days)
    # What each commitment of the speaker's names ("I'll go with ...": kit/curator/committed.py)
    commitments: tuple[frozenset[str], ...] = ()
    # The numbers each clause writes over several words or in another form ("7:00 PM" says
    # "19:00", "7:00" and "7": kit/curator/number_forms.py), by clause
    numbers: tuple[frozenset[str], ...] = ()
    # Whom each clause's pronoun subject stands for ("where she covered ...": the one the
    # clause before names; kit/curator/referred.py), by clause
    referred: tuple[frozenset[str], ...] = ()
    # The feelings each clause says its speaker felt ("... that really upset me": upset;
    # kit/curator/felt.py), by clause
    felt: tuple[frozenset[str], ...] = ()
    # The (modifier, noun) pairs its words say ("a toy drive": toy, drive;
    # kit/curator/swapped_modifier.py)
    modified: tuple[tuple[str, str], ...] = ()
