"""The grounding guard's word-level judgement: a fact's terms (kit/curator/fact_terms.py) held
against the clauses of what it cites (kit/curator/grounding.py reads them into `Source`s).

Every hard part (a name, number, amount, date, place or kin word) must be said, by the right
person, as a fact; the soft words are weighed by how informative they are and how they are said
(in their own forms, or only in a form WordNet relates to them), and the share said decides:
STORE or more is "supported", ASK or more "partial" (a question for the owner), less
"unsupported". The rules, one by one, are in the module note of kit/curator/grounding.py.
"""

import dataclasses
from dataclasses import dataclass, field
from datetime import date
from typing import Literal

from kit.curator.category import kind_named
from kit.curator.clauses import PEOPLE, Clause, plain, word_key
from kit.curator.committed import committed, frames
from kit.curator.denial_scope import says_by_denial
from kit.curator.denied import denied_only, spared
from kit.curator.denied_act import denials
from kit.curator.fact_terms import Term, fact_terms
from kit.curator.felt import as_felt
from kit.curator.grounding_reasons import reason as _reason
from kit.curator.linking import said_otherwise
from kit.curator.number_forms import ordinal_said_as
from kit.curator.others_named import others_named
from kit.curator.referred import NO_ONE, Sided, on_their_side
from kit.curator.related import defined_as, defines, family, near, one_way, opposites, thing, weight
from kit.curator.said_days import names_month, same_day, whole_months
from kit.curator.someone import plain_person, someone_said
from kit.curator.speaker_own import asked_of_listener, leading, of_others
from kit.curator.swapped_modifier import pairs, swapped
from kit.curator.unsaid_act import act_forms, act_of
from kit.curator.weighing import Readings
from kit.curator.wording import number_of, same, stem, tokens
from kit.dates.text import DateSpan
from kit.dates.words import WEEKDAYS

Status = Literal["supported", "partial", "unsupported"]


@dataclass(frozen=True)
class Verdict:
    status: Status
    reason: str = ""  # why it is not supported (names words of the operation, never a message)
    # Every hard part holds and only soft words fall short of STORE: the share of their weight
    # said (what a meaning check may lift); None otherwise
    soft: float | None = None
    unsaid: tuple[str, ...] = ()  # with `soft`: the soft words no cited message says
    # What the judgement read (kit/curator/weighing.py); not part of what a verdict says
    readings: Readings | None = field(default=None, compare=False)


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


def judge(text: str, sources: list[Source], owner: set[str]) -> Verdict:
    reference = min((s.day for s in sources if s.day is not None), default=None)
    seen = frozenset(n for s in sources for n in s.capitalised) | frozenset(
        n for s in sources for n in s.names
    )
    terms, hedged, negated = fact_terms(text, owner, reference, seen)
    named = others_named(text, owner)
    sided = on_their_side(text)  # "went to Ana's talk": whom a pointing subject may be
    felt = as_felt(text)  # "was annoyed": a feeling the owner may be said to feel
    chooses = any(t.passed_over for t in terms)
    framed = frames(text) if any(s.commitments for s in sources) else {}
    problems: dict[str, list[str]] = {}
    said_weight = total_weight = 0.0
    relayed: list[str] = []  # soft words said only in a form WordNet relates to them
    denied_names: list[str] = []  # names said only where they are denied
    stated = False  # whether an informative soft word of the fact is said as a fact
    kinds: list[tuple[str, float]] = []  # unsaid words that may name a said word's kind
    held: list[str] = []  # the soft words said as the fact says them
    for term in terms:
        where = [(s, c) for s in sources for c in _holding(term, s)]
        said = where  # where it is said as it is (a related form found only elsewhere
        if term.kind == "word":  # supports it, but is not held against it)
            said = [(s, c) for s in sources for c in _holding(term, s, related=False)]
        kin = term.kind == "word" and term.key in PEOPLE and thing(term.shown)
        if term.kind == "name" or kin:
            # who, not what: said as it is in any clause, but not only in a wish or an "if"
            # ("if I ever get a dog, I'd call it Biscuit": no dog, no Biscuit yet)
            fits = [c for s, c in where if hedged or term.aim or not _wished(c, term)]
            fits = [c for c in fits if negated or not (c.example and c.negated)]
            if chooses:  # "chose Nike over Adidas": which side of the choice a name is on
                fits = [c for c in fits if not c.negated or term.passed_over or negated]
            if denied_only(term, fits, negated):  # judged once the words are read
                denied_names.append(term.shown)
                continue
        elif term.kind == "date":  # when: said as a fact, whoever's clause it sits in
            denied = negated or term.passed_over  # "instead of the May 2 event": passed over
            fits = [c for s, c in where if _fits(s, spared(c, term), "", hedged, denied)]
        else:
            fits = _said_so(term, where, hedged, negated, named, sided, felt)
            if term.kind == "word" and not fits and not (negated or term.passed_over):
                fits = [  # "isn't easy" for "hard" (kit/curator/denial_scope.py)
                    c for s in sources for c in s.clauses
                    if says_by_denial(term.shown, c.denied) and _whose(s, c, term.who)
                    and _fits(s, dataclasses.replace(c, negated=False), term.holder,
                              hedged or term.aim, False)
                ]  # fmt: skip
        about_owner = term.holder == "owner"
        if term.kind == "word" and not kin and not said and _opposed(term, sources, negated):
            problems.setdefault("hard-opposed", []).append(term.shown)
            continue
        if term.kind == "word" and not kin:
            # A soft word: what it is worth (how informative, kit/curator/related.py) and how
            # it is said: in its own forms, or only in a form WordNet relates to it
            worth = _worth(term)
            total_weight += worth
            if fits:
                stated = stated or worth >= STATED
                held.append(term.shown)
                own = [(s, c) for s in sources for c in _holding(term, s, level="family")]
                if _said_so(term, own, hedged, negated, named, sided, felt):
                    said_weight += worth
                else:
                    said_weight += worth * RELATED
                    relayed.append(term.shown)
                continue
            if _chosen(term, framed, sources):  # "chose X" from "I'll go with X"
                said_weight += worth
                continue
            inflected = [(s, c) for s in sources for c in _holding(term, s, level="family")]
            if not said and _only_hedged(inflected, hedged or term.aim):
                # "wondering if I can afford to enter the contest": the act is said, in a
                # form of its own, only as a wish, a plan or a question; not done
                problems.setdefault("word-hedged", []).append(term.shown)
                continue
            if not said:  # unsaid: scored, not a problem of its own
                problems.setdefault("word-missing", []).append(term.shown)
                kinds.append((term.shown, worth))
                continue
        if fits:
            continue
        why = _why(term, said, about_owner, hedged)
        if kin and why == "word-missing":
            why = "missing-kin"  # whose kin is who, not what: "brother" where they said father
        problems.setdefault(why, []).append(term.shown)
    for shown, worth in kinds:  # "drink" beside "coffee" (kit/curator/category.py)
        if kind_named(shown, held, text):
            problems["word-missing"].remove(shown)
            said_weight += worth
    if not problems.get("word-missing", True):
        del problems["word-missing"]
    if denied_names and not stated:  # "I never made it to Denver": the fact rests on a denial
        problems.setdefault("hard-negated", []).extend(denied_names)
    if not negated and (swap := _swapped(text, sources)):  # "a book drive" for "a toy drive"
        problems.setdefault("hard-opposed", []).extend(swap)
    act = act_of(text) if not (hedged or negated) else ""
    for kind, word in denials(text, terms, sources, act, negated and not hedged):
        problems.setdefault(kind, []).append(word)  # "I have never practiced any ..."
    termed = any(t.shown.lower() == act for t in terms)  # else a verb the terms leave out
    if termed and act not in (w.lower() for w in problems.get("word-missing", ())):
        act = ""  # a term of its own, said somewhere: its own rules weigh it
    if act and (open_words := _act_left_open(act, terms, sources, termed)):  # "should I go?"
        listed = problems.setdefault("word-hedged", [])
        listed.extend(w for w in open_words if w not in listed)
    read = Readings(
        {k: len(v) for k, v in problems.items()}, said_weight, total_weight, stated, hedged,
        negated, {k: sum(t.kind == k for t in terms) for k in ("name", "number", "date", "word")},
        len(relayed),
    )  # fmt: skip
    verdict = _verdict(problems, said_weight, total_weight, relayed)
    return dataclasses.replace(verdict, readings=read)


def _verdict(
    problems: dict[str, list[str]], said_weight: float, total_weight: float, relayed: list[str]
) -> Verdict:
    hard = {k: v for k, v in problems.items() if not k.startswith("word")}
    if hard:
        return Verdict("unsupported", _reason(hard))
    share = said_weight / total_weight if total_weight else 1.0
    # asked rather than dropped: what is unsaid costs at most a share of FLOOR (one common
    # word left unsaid in a short fact is a question for the owner, not a drop)
    near = 1.0 - (total_weight - said_weight) / max(total_weight, FLOOR)
    if set(problems) - {"word-missing"}:  # a word said only as a wish, of another, denied
        if near >= ASK and "word-missing" in problems:
            return Verdict("partial", _reason(problems))
        return Verdict("unsupported", _reason(problems))
    if share >= STORE:
        return Verdict("supported")
    unsaid = tuple(problems.get("word-missing", ()))
    if near >= ASK:
        return Verdict("partial", _reason(problems or {"word-related": relayed}), share, unsaid)
    return Verdict("unsupported", _reason(problems or {"word-related": relayed}), share, unsaid)


# The soft words' share that stores a fact, and the share below which it is dropped (between
# the two it is asked about), each word weighted by how informative it is; a word said only in
# a form WordNet relates to it counts RELATED of itself (WordNet relates words freely). A word
# that is mostly a noun weighs at least THING: a paraphrase rewords what was done and how, and
# keeps the things it was done to.
STORE = 0.8
# A word this informative, said as a fact, states what a fact says beside a name the cited
# messages deny ("I've never celebrated with Stephen, since we've been together five years").
STATED = 0.5
ASK = 0.5
RELATED = 0.75
THING = 0.75
FLOOR = 1.5


def _opposed(term: Term, sources: list[Source], negated: bool) -> bool:
    """Whether a cited message says, as it is, the opposite of a word the fact says and it
    does not ("failed the test" for "passed the test", "had to decline" for "accepted"); not
    only in a question, a wish or a plan ("how to stay on track" says no one stays)."""
    if negated or not any(s.family for s in sources):
        return False
    against = opposites(term.shown)
    return bool(against) and any(
        against & forms and not clause.negated and not clause.hedged
        for s in sources
        for clause, forms in zip(s.clauses, s.family, strict=False)
    )


def _swapped(text: str, sources: list[Source]) -> list[str]:
    """The fact's modifiers a cited message says its noun with another of
    (kit/curator/swapped_modifier.py)."""
    said = [p for s in sources for p in s.modified]
    if not said:
        return []
    words = frozenset(w for s in sources for c in s.clauses for w in c.words)
    return swapped(pairs(text), said, words)


def _chosen(term: Term, framed: dict[str, frozenset[str]], sources: list[Source]) -> bool:
    """Whether a frame verb of choosing is said by a commitment to what it governs, in the
    words of whom the fact's clause is about (kit/curator/committed.py)."""
    whose = [s for s in sources if s.owner] if term.holder == "owner" else sources
    mine = [s for s in whose if term.holder != "other" or not term.who or term.who in s.names]
    return committed(
        framed.get(term.shown.lower(), frozenset()), (c for s in mine for c in s.commitments)
    )


def _worth(term: Term) -> float:
    words = [term.shown, *([term.phrase] if term.phrase else [])]
    worth = min(weight(w) for w in words)
    if term.head or thing(term.shown):
        worth = max(worth, THING)
    return worth


def _said_so(
    term: Term,
    where: list[tuple[Source, Clause]],
    hedged: bool,
    negated: bool,
    named: tuple[frozenset[str], frozenset[str]] = (frozenset(), frozenset()),
    sided: Sided = NO_ONE,
    felt: frozenset[str] = frozenset(),
) -> list[Clause]:
    """The clauses of `where` that hold up a soft word as the fact says it: as a fact (or
    hedged or denied as the fact is), of whom the fact says it. `named`: whom and what the
    fact itself names besides the owner (`others_named`)."""
    denied = negated or term.passed_over
    return [
        c
        for s, c in where
        if _whose(s, c, term.who)
        and (
            _fits(
                s,
                _as_given(_owned(_felt(s, spared(c, term), term, felt), term), term),
                term.holder,
                hedged or term.aim,
                denied,
            )
            or _theirs_named(
                s,
                _as_given(spared(c, term), term),
                term,
                hedged or term.aim,
                denied,
                named,
                sided,
            )
        )
    ]


def _theirs_named(
    source: Source,
    clause: Clause,
    term: Term,
    hedged: bool,
    negated: bool,
    named: tuple[frozenset[str], frozenset[str]],
    sided: Sided = NO_ONE,
) -> bool:
    """A word the owner said of someone or something else ("my team has been encouraging",
    "their insole improved comfort by 20%") holds up a fact about the owner that names that
    one too ("finds his team encouraging", "the Ortholite insole improved comfort by 20%"):
    the fact says whose it is. The one is whom the clause is about (not a person it names
    later), never the word itself; a thing ("their ...") must be named by two of its words
    (one may be what the owner did to it)."""
    if term.holder != "owner" or not source.owner or term.key in PEOPLE:
        return False
    if clause.holder != "other" and not clause.theirs:
        return False
    if not _fits(source, clause, "", hedged, negated):  # as a fact, not denied
        return False
    people, things = named
    # "I went to Ana's talk, | where she covered ...": Ana, if the fact has her as its own
    pointed = _of_clause(source, clause, source.referred)
    return (
        bool((clause.whom - {term.key}) & people)
        or (bool((pointed - {term.key}) & sided.whom) and term.key in sided.after)
        or len((clause.possessed - {term.key}) & things) >= 2
    )


def _holding(
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


def _owned(clause: Clause, term: Term) -> Clause:
    """A clause that names something of someone else's ("I'm supporting their mental
    health"), as it holds a term outside what it names (the supporting is the speaker's), or
    one the fact too gives as someone's ("supporting their mental health")."""
    if not clause.theirs or clause.holder != "self":
        return clause
    inside = any(same(term.key, p) for p in clause.possessed)
    return dataclasses.replace(clause, theirs=False) if term.theirs or not inside else clause


def _felt(source: Source, clause: Clause, term: Term, felt: frozenset[str]) -> Clause:
    """A clause about someone else that says its speaker felt the term's feeling ("who said
    something that really upset me": kit/curator/felt.py), as it holds that word where the
    fact too says it felt (`felt`: "was upset"): the speaker's own."""
    if clause.holder != "other" and not clause.theirs:
        return clause
    feelings = _of_clause(source, clause, source.felt)
    if term.key not in feelings or term.key not in felt:
        return clause
    return dataclasses.replace(clause, holder="self", theirs=False)


def _of_clause(
    source: Source, clause: Clause, by_clause: tuple[frozenset[str], ...]
) -> frozenset[str]:
    """What a by-clause reading of `source` (Source.referred, Source.felt) holds for `clause`
    (a clause of its, maybe narrowed by spared/_as_given: matched by where it starts)."""
    return next(
        (r for c, r in zip(source.clauses, by_clause, strict=False) if c.start == clause.start),
        frozenset(),
    )


def _wished(clause: Clause, term: Term) -> bool:
    """A clause that only wishes, plans or supposes (a question aside: its names are asked
    about, and an answer may say them), unless its "my ..." names the term."""
    return clause.supposed and not clause.asks and _as_given(clause, term).hedged


def _as_given(clause: Clause, term: Term) -> Clause:
    """A clause that only wonders or asks, as it holds a term its "my ..." names: not hedged
    ("I'm considering new sneakers with my increased budget of $650": the budget is so)."""
    if not clause.hedged:
        return clause
    if term.kind == "date":
        return clause  # _holding already read its "my ..." (the date's own offset)
    owned = clause.given | clause.beyond  # past `to`, `for`, `with` too
    given = term.key in owned or any(same(term.key, g) for g in owned)
    return dataclasses.replace(clause, hedged=False) if given else clause


def _fits(source: Source, clause: Clause, holder: str, hedged: bool, negated: bool) -> bool:
    """Whether `clause` of `source` holds up a term of the fact as the fact says it."""
    if clause.hedged and not hedged and not (clause.asks and source.answered):
        return False
    if clause.negated and not negated:
        return False
    if holder == "owner":  # the owner's own words, about the owner (or a thing)
        mine = source.owner or asked_of_listener(clause, source.answered)  # "your decision"
        return mine and clause.holder != "other" and not clause.theirs
    if holder == "other" and source.owner and clause.holder == "self" and clause.own_subject:
        return clause.others  # the owner speaking of someone ("I met Carla"), not of self
    return True


def _whose(source: Source, clause: Clause, who: str) -> bool:
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
        return who in clause.words or bool(clause.words & _THIRD)
    if who in source.names and not source.owner:  # the speaker's words, of someone else
        return clause.start not in of_others(source.clauses) or who in clause.words
    return True


_YOUR = frozenset({"your", "yours", "ur"})
_THIRD = frozenset({"he", "she", "they", "him", "her", "them", "his", "their", "hers"})


def _why(term: Term, where: list[tuple[Source, Clause]], about_owner: bool, hedged: bool) -> str:
    kind = "word" if term.kind == "word" else "hard"
    if not where:
        return f"{kind}-missing" if kind == "word" else f"missing-{term.kind}"
    if any(c.hedged for _, c in where) and not hedged:
        return f"{kind}-hedged"
    if about_owner and any(c.holder == "other" or c.theirs or not s.owner for s, c in where):
        return f"{kind}-other"
    if not about_owner and any(c.holder == "self" and s.owner for s, c in where):
        return f"{kind}-mine"
    if any(term.who in s.names and c.start in of_others(s.clauses) for s, c in where):
        return f"{kind}-other"  # a speaker's "she", "you" held against a fact of the speaker
    return f"{kind}-negated"


def _act_left_open(act: str, terms: list[Term], sources: list[Source], termed: bool) -> list[str]:
    """Whether a fact's act (kit/curator/unsaid_act.py) is said as done nowhere in its cited
    messages, and either is said in a form of its own only inside a hedge (`trying to figure
    out if I should go` for "went": the guard's terms leave such verbs out) or is unsaid
    while every soft word of the fact they say is said only inside a hedge (`which one
    should I choose for trail runs?` for "bought ... for trail runs"): the fact rests on the
    hedge alone (the words to name: the act, or the hedged words). Not where a clause says
    the act as so. `termed`: the act is a term of the fact's, which no message says."""
    own, forms = act_forms(act)
    hedged_act = False
    for s in sources:
        fams = s.family or tuple(frozenset() for _ in s.clauses)
        for c, fam in zip(s.clauses, fams, strict=False):
            if not (forms & (c.words | fam) or any(same(stem(act), w) for w in c.stems)):
                continue
            if not _open(s, c) and not c.negated:
                return []  # the act said as done
            unrealised = bool(c.words & _MODAL)  # "if I should go"; not "if I'm using it right"
            hedged_act = hedged_act or (
                bool(own & (c.words | fam)) and unrealised and not c.negated
            )
    if hedged_act and not termed:
        return [act]
    if own & _HAVING:  # "the feedback from Ana's team" in a question: a thing it presupposes had
        return []
    hedged_only: list[str] = []
    for term in terms:
        if term.kind != "word" or term.shown.lower() == act or term.key in PEOPLE:
            continue
        where = [(s, c) for s in sources for c in _holding(term, s, related=False)]
        if any(not _open(s, _as_given(c, term)) for s, c in where):
            return []  # said as so somewhere ("my ..." too): the act may rest on that clause
        hedged_only += [term.shown] if where else []
    return hedged_only


_HAVING = frozenset({"have", "get"})
# A modal or an infinitive's `to`: the act it governs is not done (a doubt on a done act's
# manner, `if I'm using it correctly`, takes the act as so)
_MODAL = frozenset("should could would can might may shall will must to i'll i'd".split())


def _open(source: Source, clause: Clause) -> bool:
    """A clause that leaves what it says open: hedged, and not a question someone answered."""
    return clause.hedged and not (clause.asks and source.answered)


def _only_hedged(own: list[tuple[Source, Clause]], hedged: bool) -> bool:
    """Whether a word the fact says as done is said in a form of its own (`own`: inflected
    or derived, kit/curator/related.py family; not a word WordNet merely relates to it, which
    may be chance) only in clauses that hedge it, none of them holding it up."""
    return not hedged and bool(own) and all(c.hedged for _, c in own)
