"""The grounding guard: is what an operation would store said in the messages it cites?

Before a curation pass applies an INSERT, a REPLACE or an UPDATE of what a fact says, the new
text is held against the messages the operation cites (kit/curator/apply.py):

- every cited message must be one of the batch's, and a person's: a fact never rests on Kit's
  own words (a suggestion of Kit's is not the owner's habit);
- every name, number, amount and date in the text must be in them: case, plurals, "two" and
  "2", "$1,200" and "1200", "14 June" and "June 14", "yesterday" said on 8 May and 7 May
  (kit/dates/);
- its other words are scored, not required one by one (a curator paraphrases them): each
  weighs by how informative it is (kit/curator/related.py: "found", "became" next to nothing,
  a rare word or a thing the fact names much more), found in any of its forms
  (kit/curator/wording.py) or, for less, in one WordNet relates to it ("teaches" / teacher,
  "took part" / participated); the share said decides;
- and said as a fact, of the right person (kit/curator/clauses.py): what the owner only asked,
  wished, planned or said "if" about ("if I ever move to Berlin", "thinking about a dog")
  holds up only a fact that says as much ("the owner is thinking about getting a dog"); what
  was said of someone else ("my brother is vegan") or by someone else (a forwarded message,
  another speaker) is never a fact about the owner; what a message denies is not a fact.

The text of the facts an UPDATE or REPLACE rewrites counts as support too (it was checked
when it was written). The verdict: "supported" (applied: every hard part there, STORE of the
soft words' weight said), "partial" (every hard part there, ASK or more of the rest: set aside
as a question for the owner, kit/inbox/), or "unsupported" (dropped, with why, the rest of the
pass going on).

Cheap and deterministic: word lists, WordNet and rules, no model. What it cannot catch: a wrong word
order or relation made of the same words ("prefers Docs over Word" from "Word over Docs"), a
fact that generalises what was said with words that are there ("every month" from "this
month"), and meaning carried by words outside its lists (docs/curation.md).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import date
from typing import Literal

from kit.curator.clauses import PEOPLE, Clause, clauses, plain, word_key
from kit.curator.fact_terms import Term, fact_terms
from kit.curator.grounding_reasons import reason as _reason
from kit.curator.introduced import introduced
from kit.curator.meaning import Meanings, sentences
from kit.curator.no_fact import hypothetical, question, unsaid_chain
from kit.curator.ops import Insert, Operation, Replace, Update
from kit.curator.related import (
    family,
    near,
    opposites,
    phrases,
    says,
    synonyms,
    thing,
    weight,
)
from kit.curator.said_days import names_month, same_day
from kit.curator.wording import fold, number_of, same, stem, tokens
from kit.dates.text import DateSpan, date_mentions, said_spans
from kit.memory.fact_rows import Fact
from kit.memory.messages import Message

Status = Literal["supported", "partial", "unsupported"]


@dataclass(frozen=True)
class Verdict:
    status: Status
    reason: str = ""  # why it is not supported (names words of the operation, never a message)
    # Every hard part holds and only soft words fall short of STORE: the share of their weight
    # said (what a meaning check may lift); None otherwise
    soft: float | None = None
    unsaid: tuple[str, ...] = ()  # with `soft`: the soft words no cited message says


@dataclass(frozen=True)
class _Source:
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


class Grounding:
    """Checks operations against the messages of one batch. `meanings`: the meaning check
    (kit/curator/meaning.py) for what falls short on soft words only, read by `weigh`."""

    def __init__(
        self,
        messages: Iterable[Message],
        citable: Iterable[int],
        owner_name: str = "",
        meanings: Meanings | None = None,
    ) -> None:
        self._messages = {m.id: m for m in messages}
        self._citable = set(citable)
        self._owner = {word_key(w) for w in owner_name.split() if w}
        self._read: dict[int, _Source] = {}
        self._meanings = meanings

    async def weigh(self, ops: Iterable[Operation], facts: Mapping[int, Fact]) -> None:
        """Read, in one embedding call, the meaning of each operation the word-level check
        leaves short on soft words only, and of the sentences it cites (nothing without a
        meaning check)."""
        if self._meanings is None:
            return
        texts: list[str] = []
        for op in ops:
            text = _new_text(op)
            if text is not None and self._words(op, text, facts).soft is not None:
                texts += [text, *(s for m in self._cited(op) for s in sentences(m))]
        await self._meanings.read(texts)

    def check(self, op: Operation, facts: Mapping[int, Fact]) -> Verdict:
        """Whether `op` may be applied as it is. `facts`: the facts it names, as they are."""
        text = _new_text(op)
        if text is None:
            return Verdict("supported")  # nothing new is said: a confidence, an expiry
        if question(text):  # the owner's question copied as the "fact" (kit/curator/no_fact.py)
            return Verdict("unsupported", "it is worded as a question: a question is no fact")
        if hypothetical(text):
            return Verdict(
                "unsupported", "it says what would or might be (a hypothetical): that is no fact"
            )
        chain = unsaid_chain(text, self._cited(op))
        if chain is not None:
            return Verdict(
                "unsupported", f"it names '{chain}', a relation its cited messages do not say"
            )
        verdict = self._words(op, text, facts)
        if verdict.soft is None or self._meanings is None:
            return verdict
        if self._meanings.holds(text, self._cited(op)):
            return Verdict("supported")  # said in other words (kit/curator/meaning.py)
        return verdict

    def _cited(self, op: Operation) -> list[str]:
        return [self._messages[i].text for i in op.sources if i in self._messages]

    def _words(self, op: Operation, text: str, facts: Mapping[int, Fact]) -> Verdict:
        """The word-level verdict (module note)."""
        sources: list[_Source] = []
        for message_id in op.sources:
            message = self._messages.get(message_id)
            if message is None or (message_id not in self._citable and message.role == "user"):
                return Verdict(
                    "unsupported",
                    f"it cites message {message_id}, which is not one of this batch's",
                )
            if message.role != "user":
                return Verdict(
                    "unsupported",
                    f"it cites Kit's own message {message_id}: a fact comes from what people "
                    "said, never from Kit's words",
                )
            sources.append(self._source(message))
        sources = _answered(sources, [self._messages[i] for i in op.sources])
        rewritten = [facts[i] for i in _rewrites(op) if i in facts]
        sources += [_fact_source(f) for f in rewritten]
        if not sources:
            return Verdict("unsupported", "it cites no message it comes from")
        owner = self._owner or introduced(
            self._messages[i] for i, s in zip(op.sources, sources, strict=False) if s.owner
        )
        return _judge(text, sources, owner)

    def _source(self, message: Message) -> _Source:
        if message.id not in self._read:
            speaker = (message.forwarded_from or message.speaker or "").strip()
            names = frozenset(word_key(w) for w in speaker.split())
            owner = not speaker or (bool(names) and names <= self._owner)
            folded = fold(message.text)
            spans = [(s, 0) for s in said_spans(message.text, message.day)]
            spans = [(m.span, m.start) for m in date_mentions(folded, message.day)] or spans
            capitalised = frozenset(
                word_key(t.group()) for t in tokens(message.text) if t.group()[:1].isupper()
            )
            cut = tuple(clauses(message.text))
            self._read[message.id] = _Source(
                message.id, speaker, owner, cut, tuple(spans), message.day, names,
                capitalised=capitalised, forms=_forms(folded, cut, says),
                kin=_forms(folded, cut, synonyms), family=_forms(folded, cut, family),
            )  # fmt: skip
        return self._read[message.id]


def _answered(sources: list[_Source], messages: list[Message]) -> list[_Source]:
    """A question someone else answered in another cited message ("How long have you been
    married?" "5 years!"): the answer says what the question asked about."""
    marked = []
    for source, message in zip(sources, messages, strict=True):
        answered = any(
            other.at >= message.at and other.id != message.id and other.speaker != message.speaker
            for other in messages
        )
        marked.append(replace(source, answered=answered) if answered else source)
    return marked


def _new_text(op: Operation) -> str | None:
    if isinstance(op, Insert | Replace):
        return f"{op.content}" if not op.subject else f"{op.subject}: {op.content}"
    if isinstance(op, Update) and (op.content is not None or op.subject is not None):
        return " ".join(t for t in (op.subject, op.content) if t)
    return None


def _rewrites(op: Operation) -> Sequence[int]:
    if isinstance(op, Update):
        return (op.fact_id,)
    if isinstance(op, Replace):
        return op.fact_ids
    return ()


def _fact_source(fact: Fact) -> _Source:
    text = f"{fact.subject}: {fact.content}" if fact.subject else fact.content
    neutral = tuple(plain(c) for c in clauses(text))
    folded = fold(text)
    return _Source(
        None, "", True, neutral, (), None,
        forms=_forms(folded, neutral, says), kin=_forms(folded, neutral, synonyms),
        family=_forms(folded, neutral, family),
    )  # fmt: skip


def _forms(
    folded: str, cut: Sequence[Clause], what: Callable[[str], frozenset[str]]
) -> tuple[frozenset[str], ...]:
    """What each clause's words and two-word lemmas say through WordNet (related.says, or
    their synonyms)."""
    found = []
    for clause in cut:
        words = [t.group() for t in tokens(folded[clause.start : clause.end])]
        keys = [*words, *phrases(words)]
        found.append(frozenset().union(*(what(k) for k in keys)))
    return tuple(found)


# -- the verdict ------------------------------------------------------------------------------


def _judge(text: str, sources: list[_Source], owner: set[str]) -> Verdict:
    reference = min((s.day for s in sources if s.day is not None), default=None)
    seen = frozenset(n for s in sources for n in s.capitalised) | frozenset(
        n for s in sources for n in s.names
    )
    terms, hedged, negated = fact_terms(text, owner, reference, seen)
    chooses = any(t.passed_over for t in terms)
    problems: dict[str, list[str]] = {}
    said_weight = total_weight = 0.0
    relayed: list[str] = []  # soft words said only in a form WordNet relates to them
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
        elif term.kind == "date":  # when: said as a fact, whoever's clause it sits in
            fits = [c for s, c in where if _fits(s, c, "", hedged, negated)]
        else:
            fits = _said_so(term, where, hedged, negated)
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
                own = [(s, c) for s in sources for c in _holding(term, s, level="family")]
                if _said_so(term, own, hedged, negated):
                    said_weight += worth
                else:
                    said_weight += worth * RELATED
                    relayed.append(term.shown)
                continue
            if not said:  # unsaid: scored, not a problem of its own
                problems.setdefault("word-missing", []).append(term.shown)
                continue
        if fits:
            continue
        why = _why(term, said, about_owner, hedged)
        if kin and why == "word-missing":
            why = "missing-kin"  # whose kin is who, not what: "brother" where they said father
        problems.setdefault(why, []).append(term.shown)
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
ASK = 0.5
RELATED = 0.75
THING = 0.75
FLOOR = 1.5


def _opposed(term: Term, sources: list[_Source], negated: bool) -> bool:
    """Whether a cited message says, as it is, the opposite of a word the fact says and it
    does not ("failed the test" for "passed the test", "had to decline" for "accepted")."""
    if negated or not any(s.family for s in sources):
        return False
    against = opposites(term.shown)
    return bool(against) and any(
        against & forms and not clause.negated
        for s in sources
        for clause, forms in zip(s.clauses, s.family, strict=False)
    )


def _worth(term: Term) -> float:
    words = [term.shown, *([term.phrase] if term.phrase else [])]
    worth = min(weight(w) for w in words)
    if term.head or thing(term.shown):
        worth = max(worth, THING)
    return worth


def _said_so(
    term: Term, where: list[tuple[_Source, Clause]], hedged: bool, negated: bool
) -> list[Clause]:
    """The clauses of `where` that hold up a soft word as the fact says it: as a fact (or
    hedged or denied as the fact is), of whom the fact says it."""
    denied = negated or term.passed_over
    return [
        c
        for s, c in where
        if _fits(s, _as_given(_owned(c, term), term), term.holder, hedged or term.aim, denied)
        and _whose(s, c, term.who)
    ]


def _holding(
    term: Term, source: _Source, related: bool = True, level: str = "related"
) -> list[Clause]:
    """The clauses of `source` that say `term`; `related`: a word in a form WordNet relates
    to it (kit/curator/related.py) too, or (`level` "family") only in one of its own forms,
    inflected or derived."""
    if term.kind == "date":
        assert term.span is not None
        offsets = [at for span, at in source.spans if same_day(span, term)]
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
        if said_then and not hits and source.clauses:
            hits = [plain(source.clauses[0])]  # the day it was said
        return hits
    if term.kind == "number":
        return [c for c in source.clauses if term.key in c.numbers]
    if word_key(term.shown) in source.names:  # the speaker's own name
        return [plain(c) for c in source.clauses[:1]]
    if term.kind == "name":
        return [c for c in source.clauses if term.key in c.words]
    if term.key == _FAMILY:  # "we", "our": the speaker's family
        return [
            c for c in source.clauses if c.words & _WE or any(same(_FAMILY, s) for s in c.stems)
        ]
    if not related or not source.forms:
        return [c for c in source.clauses if any(same(term.key, s) for s in c.stems)]
    if level == "family":
        mine = _family(term)
        return [
            c
            for c, forms in zip(source.clauses, source.family, strict=True)
            if any(same(term.key, s) for s in c.stems) or mine & forms
        ]
    close, own = _near(term)
    return [
        c
        for c, forms, kin in zip(source.clauses, source.forms, source.kin, strict=True)
        if any(same(term.key, s) for s in c.stems) or close & forms or own & kin
    ]


def _family(term: Term) -> frozenset[str]:
    words = [term.shown, *([term.phrase] if term.phrase else [])]
    return frozenset().union(*map(family, words))


def _near(term: Term) -> tuple[frozenset[str], frozenset[str]]:
    """A word's forms a message may say it in (related.near), and its own family."""
    words = [term.shown, *([term.phrase] if term.phrase else [])]
    return frozenset().union(*map(near, words)), frozenset().union(*map(family, words))


_FAMILY = stem("family")
_WE = frozenset({"we", "our", "us", "we're", "we've", "ours"})


def _owned(clause: Clause, term: Term) -> Clause:
    """A clause that names something of someone else's ("I'm supporting their mental
    health"), as it holds a term outside what it names (the supporting is the speaker's), or
    one the fact too gives as someone's ("supporting their mental health")."""
    if not clause.theirs or clause.holder != "self":
        return clause
    inside = any(same(term.key, p) for p in clause.possessed)
    return dataclasses.replace(clause, theirs=False) if term.theirs or not inside else clause


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
    given = term.key in clause.given or any(same(term.key, g) for g in clause.given)
    return dataclasses.replace(clause, hedged=False) if given else clause


def _fits(source: _Source, clause: Clause, holder: str, hedged: bool, negated: bool) -> bool:
    """Whether `clause` of `source` holds up a term of the fact as the fact says it."""
    if clause.hedged and not hedged and not (clause.asks and source.answered):
        return False
    if clause.negated and not negated:
        return False
    if holder == "owner":  # the owner's own words, about the owner (or a thing)
        return source.owner and clause.holder != "other" and not clause.theirs
    if holder == "other" and source.owner and clause.holder == "self" and clause.own_subject:
        return clause.others  # the owner speaking of someone ("I met Carla"), not of self
    return True


def _whose(source: _Source, clause: Clause, who: str) -> bool:
    """Whether `clause` can be about whom the fact's clause is about (_who): the owner's kin
    in the owner's words ("my grandma") or said to the owner ("your grandma"); someone's kin
    in their words or under their name ("Maria's grandma", "her grandma"); a named person
    in the owner's words about self only where the clause names them or "he", "she"."""
    if not who:
        return True
    if who == "~owner":
        return source.owner or bool(clause.words & _YOUR)
    if who.startswith("~"):
        return who[1:] in source.names or who[1:] in clause.words or bool(clause.words & _THIRD)
    if source.owner and clause.holder == "self" and clause.own_subject:
        return who in clause.words or bool(clause.words & _THIRD)
    return True


_YOUR = frozenset({"your", "yours", "ur"})
_THIRD = frozenset({"he", "she", "they", "him", "her", "them", "his", "their", "hers"})


def _why(term: Term, where: list[tuple[_Source, Clause]], about_owner: bool, hedged: bool) -> str:
    kind = "word" if term.kind == "word" else "hard"
    if not where:
        return f"{kind}-missing" if kind == "word" else f"missing-{term.kind}"
    if any(c.hedged for _, c in where) and not hedged:
        return f"{kind}-hedged"
    if about_owner and any(c.holder == "other" or c.theirs or not s.owner for s, c in where):
        return f"{kind}-other"
    if not about_owner and any(c.holder == "self" and s.owner for s, c in where):
        return f"{kind}-mine"
    return f"{kind}-negated"
