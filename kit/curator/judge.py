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
from typing import Literal

from kit.curator.category import kind_named
from kit.curator.clause_words import PEOPLE
from kit.curator.clauses import Clause
from kit.curator.committed import committed, frames
from kit.curator.denial_scope import says_by_denial
from kit.curator.denied import denied_only, spared
from kit.curator.denied_act import denials
from kit.curator.fact_terms import Term, fact_terms
from kit.curator.felt import as_felt
from kit.curator.grounding_reasons import reason as _reason
from kit.curator.holding import (
    as_given,
    felt_as_own,
    holding,
    holds_up,
    of_clause,
    owned,
    whose,
    wished,
)
from kit.curator.others_named import others_named
from kit.curator.referred import NO_ONE, Sided, on_their_side
from kit.curator.related import family, opposites, thing, weight
from kit.curator.source import Source
from kit.curator.speaker_own import of_others
from kit.curator.swapped_modifier import pairs, swapped
from kit.curator.unsaid_act import act_left_open, act_of
from kit.curator.weighing import Readings
from kit.curator.wording import tokens

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
    own_forms = _own_forms(text)  # what the fact itself says, as an opposite is looked for
    said_weight = total_weight = 0.0
    relayed: list[str] = []  # soft words said only in a form WordNet relates to them
    denied_names: list[str] = []  # names said only where they are denied
    stated = False  # whether an informative soft word of the fact is said as a fact
    kinds: list[tuple[str, float]] = []  # unsaid words that may name a said word's kind
    held: list[str] = []  # the soft words said as the fact says them
    for term in terms:
        where = [(s, c) for s in sources for c in holding(term, s)]
        said = where  # where it is said as it is (a related form found only elsewhere
        if term.kind == "word":  # supports it, but is not held against it)
            said = [(s, c) for s in sources for c in holding(term, s, related=False)]
        kin = term.kind == "word" and term.key in PEOPLE and thing(term.shown)
        if term.kind == "name" or kin:
            # who, not what: said as it is in any clause, but not only in a wish or an "if"
            # ("if I ever get a dog, I'd call it Biscuit": no dog, no Biscuit yet)
            fits = [c for s, c in where if hedged or term.aim or not wished(c, term)]
            fits = [c for c in fits if negated or not (c.example and c.negated)]
            if chooses:  # "chose Nike over Adidas": which side of the choice a name is on
                fits = [c for c in fits if not c.negated or term.passed_over or negated]
            if denied_only(term, fits, negated):  # judged once the words are read
                denied_names.append(term.shown)
                continue
        elif term.kind == "date":  # when: said as a fact, whoever's clause it sits in
            denied = negated or term.passed_over  # "instead of the May 2 event": passed over
            fits = [c for s, c in where if holds_up(s, spared(c, term), "", hedged, denied)]
        else:
            fits = _said_so(term, where, hedged, negated, named, sided, felt)
            if term.kind == "word" and not fits and not (negated or term.passed_over):
                fits = [  # "isn't easy" for "hard" (kit/curator/denial_scope.py)
                    c for s in sources for c in s.clauses
                    if says_by_denial(term.shown, c.denied) and whose(s, c, term.who)
                    and holds_up(s, dataclasses.replace(c, negated=False), term.holder,
                              hedged or term.aim, False)
                ]  # fmt: skip
        about_owner = term.holder == "owner"
        opposed = term.kind == "word" and not kin and not said
        if opposed and _opposed(term, sources, negated, own_forms):
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
                own = [(s, c) for s in sources for c in holding(term, s, level="family")]
                if _said_so(term, own, hedged, negated, named, sided, felt):
                    said_weight += worth
                else:
                    said_weight += worth * RELATED
                    relayed.append(term.shown)
                continue
            if _chosen(term, framed, sources):  # "chose X" from "I'll go with X"
                said_weight += worth
                continue
            inflected = [(s, c) for s in sources for c in holding(term, s, level="family")]
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
    if act and (open_words := act_left_open(act, terms, sources, termed)):  # "should I go?"
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


def _opposed(
    term: Term, sources: list[Source], negated: bool, own: frozenset[str] = frozenset()
) -> bool:
    """Whether a cited message says, as it is, the opposite of a word the fact says and it
    does not ("failed the test" for "passed the test", "had to decline" for "accepted"); not
    only in a question, a wish or a plan ("how to stay on track" says no one stays). Not an
    "opposite" the fact says itself (`own`): a fact that says "borrows" and "loans", or
    "location" and "studio", does not mean the two as opposites, so neither do its messages."""
    if negated or not any(s.family for s in sources):
        return False
    against = opposites(term.shown) - own
    return bool(against) and any(
        against & forms and not clause.negated and not clause.hedged
        for s in sources
        for clause, forms in zip(s.clauses, s.family, strict=False)
    )


def _own_forms(text: str) -> frozenset[str]:
    """The families of the fact's own words (kit/curator/related.py family)."""
    return frozenset().union(*(family(t.group()) for t in tokens(text)))


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
        if whose(s, c, term.who)
        and (
            holds_up(
                s,
                as_given(owned(felt_as_own(s, spared(c, term), term, felt), term), term),
                term.holder,
                hedged or term.aim,
                denied,
            )
            or _theirs_named(
                s,
                as_given(spared(c, term), term),
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
    if not holds_up(source, clause, "", hedged, negated):  # as a fact, not denied
        return False
    people, things = named
    # "I went to Ana's talk, | where she covered ...": Ana, if the fact has her as its own
    pointed = of_clause(source, clause, source.referred)
    return (
        bool((clause.whom - {term.key}) & people)
        or (bool((pointed - {term.key}) & sided.whom) and term.key in sided.after)
        or len((clause.possessed - {term.key}) & things) >= 2
    )


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


def _only_hedged(own: list[tuple[Source, Clause]], hedged: bool) -> bool:
    """Whether a word the fact says as done is said in a form of its own (`own`: inflected
    or derived, kit/curator/related.py family; not a word WordNet merely relates to it, which
    may be chance) only in clauses that hedge it, none of them holding it up."""
    return not hedged and bool(own) and all(c.hedged for _, c in own)
