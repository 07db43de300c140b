"""Where a cited message holds a fact's term (kit/curator/fact_terms.py): the clauses of a
`Source` (kit/curator/source.py) that say it (in its own forms, in a form WordNet relates to it,
a name in the plural, a day by its weekday, a number written another way), and how a clause is
read for it: as a fact or only hedged, wished or denied, of whom (the speaker, someone else, a
thing), and whether a "my ...", a feeling or someone's thing makes it the speaker's own.
kit/curator/judge.py weighs what these find; kit/curator/unsaid_act.py reads them too."""

import dataclasses

from kit.curator.clause_words import PEOPLE, word_key
from kit.curator.clauses import Clause, plain
from kit.curator.example_of import exemplified
from kit.curator.fact_terms import Term
from kit.curator.linking import said_otherwise
from kit.curator.number_forms import ordinal_said_as
from kit.curator.related import defined_as, defines, family, near, one_way
from kit.curator.said_days import names_month, same_day, whole_months
from kit.curator.someone import plain_person, someone_said
from kit.curator.source import Source
from kit.curator.speaker_own import asked_of_listener, leading, of_others
from kit.curator.wording import number_of, same, stem, tokens
from kit.dates.words import WEEKDAYS


def holding(
    term: Term, source: Source, related: bool = True, level: str = "related"
) -> list[Clause]:
    """The clauses of `source` that say `term`; `related`: a word in a form WordNet relates
    to it (kit/curator/related.py) too, or (`level` "family") only in one of its own forms,
    inflected or derived."""
    if term.kind == "date":
        assert term.span is not None
        offsets = [at for span, at in source.spans if same_day(span, term)]
        if whole_months(term.span):  # "June 2024": "starting June"; no day of it
            offsets += [at for span, at in source.months if same_day(span, term)]
        said_then = source.day is not None and term.span.start <= source.day <= term.span.end
        if source.message_id is None:
            return [c for c in source.clauses if term.key in " ".join(sorted(c.words))]
        hits = [
            dataclasses.replace(c, hedged=False)
            if any(a <= at < b for at in offsets for a, b in c.given_spans)
            else c
            for c in source.clauses
            if any(c.start <= at < c.end for at in offsets)
        ]
        digits = {n for t in tokens(term.shown) if (n := number_of(t.group())) is not None}
        if not hits and digits and not names_month(term.shown):  # "4 years ago", "for 4 years"
            hits = [c for c in source.clauses if digits <= c.numbers]
        if not hits and (day := _bare_weekday(term.shown)):  # "on Friday": "this Friday, May 10"
            on_day = [
                at
                for span, at in source.spans
                if span.start == span.end and WEEKDAYS[day] == span.start.weekday()
            ]
            hits = [
                c
                for c in source.clauses
                if _forms_of_name(day) & c.words or any(c.start <= at < c.end for at in on_day)
            ]
        if said_then and not hits and source.clauses:
            hits = [plain(source.clauses[0])]  # the day it was said
        return hits
    if term.kind == "number":
        written = source.numbers or tuple(frozenset() for _ in source.clauses)
        held = zip(source.clauses, written, strict=True)
        alike = ordinal_said_as(term.shown)  # "the first attempt" / "my initial attempt"
        return [c for c, more in held if term.key in c.numbers | more or alike & c.words]
    if word_key(term.shown) in source.names:  # the speaker's own name
        return [plain(c) for c in source.clauses[:1]]
    if term.kind == "name":
        keys = _forms_of_name(term.key)
        return [c for c in source.clauses if keys & c.words]
    if term.key == _FAMILY:  # "we", "our": the speaker's family
        return [
            c for c in source.clauses if c.words & _WE or any(same(_FAMILY, s) for s in c.stems)
        ]
    if not related or not source.forms:
        return [c for c in source.clauses if _stem_said(term, c)]
    if level == "family":
        mine = _family(term)
        return [
            c
            for c, forms in zip(source.clauses, source.family, strict=True)
            if _stem_said(term, c) or mine & forms
        ]
    people = term.key in PEOPLE
    close, own = _near(term, "noun" if people else "")
    return [
        c
        for c, forms, kin in zip(source.clauses, source.forms, source.kin, strict=True)
        if _stem_said(term, c)
        or close & forms
        or own & kin
        or (people and _defined(close | own, c))
        or (not people and _defined_by(own, c))
        or (plain_person(term.key) and someone_said(term.key, c.words, source.capitalised))
        or (term.key == _TEAM and c.words & _WE)  # "we", "our": the speaker's team too
    ]


def _stem_said(term: Term, clause: Clause) -> bool:
    """Whether a clause says a word in its stem's forms. A word for people only by one of
    the same word or of a kind of it (the stems put "wife", "husband" and "boyfriend" all
    under partner: "with her wife" is not said by "with my husband")."""
    if term.key not in PEOPLE:
        return any(same(term.key, s) for s in clause.stems) or said_otherwise(term.shown, clause)
    return any(same(term.key, stem(w)) and one_way(term.shown, w) for w in clause.words)


def _defined(words: frozenset[str], clause: Clause) -> bool:
    """Whether a clause says a word for people by a word WordNet defines by it ("some
    workmates": coworkers; "the gang": friends). Not by a word for people of its own ("my
    brother" is no friend, though WordNet's third sense of it is a buddy)."""
    return any(
        words & defined_as(w) for w in clause.words if stem(w) not in _RELATIONS and len(w) > 2
    )


def _defined_by(own: frozenset[str], clause: Clause) -> bool:
    """Whether a clause says a word by a word WordNet defines by it ("joined": become part
    of; a member), one way: not a word the fact's word is defined by."""
    return any(own & defines(w) for w in clause.words if len(w) > 2)


_RELATIONS = PEOPLE - {stem("person")}  # "folks" is people in general, not one relation


def _family(term: Term) -> frozenset[str]:
    words = [term.shown, *([term.phrase] if term.phrase else [])]
    return frozenset().union(*map(family, words))


def _near(term: Term, only: str = "") -> tuple[frozenset[str], frozenset[str]]:
    """A word's forms a message may say it in (related.near), and its own family."""
    words = [term.shown, *([term.phrase] if term.phrase else [])]
    close = frozenset().union(*(near(w, only) for w in words))
    return close, frozenset().union(*map(family, words))


def _bare_weekday(shown: str) -> str:
    """The weekday a fact's date is and says no more of ("on Friday", "Fridays"; not "last
    Friday", "Friday, 3 May"): any Friday its messages name says it, however they date it."""
    words = [t.group().lower() for t in tokens(shown)]
    words = words[1:] if words[:1] == ["on"] else words
    if len(words) != 1:
        return ""
    day = words[0].removesuffix("s")
    return day if day in WEEKDAYS else ""


def _forms_of_name(key: str) -> frozenset[str]:
    """A name as a message may say it: itself, in the plural or the singular ("on Sundays":
    "every Sunday"; "Airbnbs": "an Airbnb"), never another name."""
    if key.endswith("s") and len(key) > 3:
        return frozenset({key, key[:-1]})
    return frozenset({key, f"{key}s"})


_FAMILY = stem("family")
_TEAM = stem("team")
_WE = frozenset({"we", "our", "us", "we're", "we've", "ours"})


def owned(clause: Clause, term: Term) -> Clause:
    """A clause that names something of someone else's ("I'm supporting their mental
    health"), as it holds a term outside what it names (the supporting is the speaker's), or
    one the fact too gives as someone's ("supporting their mental health")."""
    if not clause.theirs or clause.holder != "self":
        return clause
    inside = any(same(term.key, p) for p in clause.possessed)
    return dataclasses.replace(clause, theirs=False) if term.theirs or not inside else clause


def felt_as_own(source: Source, clause: Clause, term: Term, felt: frozenset[str]) -> Clause:
    """A clause about someone else that says its speaker felt the term's feeling ("who said
    something that really upset me": kit/curator/felt.py), as it holds that word where the
    fact too says it felt (`felt`: "was upset"): the speaker's own."""
    if clause.holder != "other" and not clause.theirs:
        return clause
    feelings = of_clause(source, clause, source.felt)
    if term.key not in feelings or term.key not in felt:
        return clause
    return dataclasses.replace(clause, holder="self", theirs=False)


def of_clause(
    source: Source, clause: Clause, by_clause: tuple[frozenset[str], ...]
) -> frozenset[str]:
    """What a by-clause reading of `source` (Source.referred, Source.felt) holds for `clause`
    (a clause of its, maybe narrowed by spared/as_given: matched by where it starts)."""
    return next(
        (r for c, r in zip(source.clauses, by_clause, strict=False) if c.start == clause.start),
        frozenset(),
    )


def wished(clause: Clause, term: Term) -> bool:
    """A clause that only wishes, plans or supposes (a question aside: its names are asked
    about, and an answer may say them), unless its "my ..." names the term."""
    return clause.supposed and not clause.asks and as_given(clause, term).hedged


def as_given(clause: Clause, term: Term) -> Clause:
    """A clause that only wonders or asks, as it holds a term its "my ..." names: not hedged
    ("I'm considering new sneakers with my increased budget of $650": the budget is so)."""
    if not clause.hedged:
        return clause
    if term.kind == "date":
        return clause  # holding already read its "my ..." (the date's own offset)
    owned = clause.given | clause.beyond  # past `to`, `for`, `with` too
    given = term.key in owned or any(same(term.key, g) for g in owned)
    return dataclasses.replace(clause, hedged=False) if given else clause


def holds_up(source: Source, clause: Clause, holder: str, hedged: bool, negated: bool) -> bool:
    """Whether `clause` of `source` holds up a term of the fact as the fact says it."""
    if clause.hedged and not hedged and not (clause.asks and source.answered):
        return False
    if clause.negated and not negated:
        return False
    if holder == "owner":  # the owner's own words, about the owner (or a thing)
        mine = source.owner or asked_of_listener(clause, source.answered)  # "your decision"
        return mine and clause.holder != "other" and not clause.theirs
    if holder == "other" and source.owner and clause.holder == "self" and clause.own_subject:
        example = exemplified(source.clauses, clause)  # "my Kindle acts up, | like I ..."
        # the owner speaking of someone ("I met Carla"), not of self
        return clause.others or (example is not None and example.others)
    return True


def whose(source: Source, clause: Clause, who: str) -> bool:
    """Whether `clause` can be about whom the fact's clause is about (_who): the owner's kin
    in the owner's words ("my grandma") or said to the owner ("your grandma"); someone's kin
    in their words or under their name ("Maria's grandma", "her grandma"); a named person
    in the owner's words about self only where the clause names them or "he", "she"."""
    if not who:
        return True
    words = clause.words | leading(source.clauses, clause).words  # "your kids grow | and ..."
    if who == "~owner":
        return source.owner or bool(words & _YOUR)
    if who.startswith("~"):
        return who[1:] in source.names or who[1:] in words or bool(words & _THIRD)
    if source.owner and clause.holder == "self" and clause.own_subject:
        example = exemplified(source.clauses, clause)  # "my Kindle acts up, | like I noticed"
        named = example is not None and who in example.words
        return who in clause.words or bool(clause.words & _THIRD) or named
    if who in source.names and not source.owner:  # the speaker's words, of someone else
        return clause.start not in of_others(source.clauses) or who in clause.words
    return True


_YOUR = frozenset({"your", "yours", "ur"})
_THIRD = frozenset({"he", "she", "they", "him", "her", "them", "his", "their", "hers"})
