"""The grounding guard: is what an operation would store said in the messages it cites?

Before a curation pass applies an INSERT, a REPLACE or an UPDATE of what a fact says, the new
text is held against the messages the operation cites (kit/curator/apply.py):

- every cited message must be one of the batch's, and a person's: a fact never rests on Kit's
  own words (a suggestion of Kit's is not the owner's habit);
- every name, number, amount and date in the text must be in them: case, plurals, "two" and
  "2", "$1,200" and "1200", "14 June" and "June 14", "yesterday" said on 8 May and 7 May
  (kit/dates/); and how often, where they say it ("weekly" is no "daily":
  kit/curator/how_often.py); a number, an amount or a role said of one name or thing is not
  another's (kit/curator/whose_number.py, whose_amount.py, whose_role.py), and a fact about
  one person of a chat never rests only on another's words of themself (other_speaker.py);
- its other words are scored, not required one by one (a curator paraphrases them): each
  weighs by how informative it is (kit/curator/related.py: "found", "became" next to nothing,
  a rare word or a thing the fact names much more), found in any of its forms
  (kit/curator/wording.py) or, for less, in one WordNet relates to it ("teaches" / teacher,
  "took part" / participated); the share said decides;
- and said as a fact, of the right person (kit/curator/clauses.py): what the owner only asked,
  wished, planned or said "if" about ("if I ever move to Berlin", "thinking about a dog")
  holds up only a fact that says as much ("the owner is thinking about getting a dog"); what
  was said of someone else ("my brother is vegan") or by someone else (a forwarded message,
  another speaker) is never a fact about the owner; what a message denies is not a fact;
- and an act that undoes or denies (cancel, skip, quit, give up, ...: kit/curator/undoing.py)
  only where a cited message says that act.

First, what the fact's own wording rules out whatever it cites (kit/curator/no_fact.py: a
question, a hypothetical even with its condition kept, a chain of kin no message says); then
the word-level judgement (kit/curator/judge.py), then the meaning check (kit/curator/meaning.py)
for what falls short on soft words only, then a verb or an adjective said another way
(kit/curator/stand_in.py), and last the readings weighed together (kit/curator/weighing.py:
stored where the rules fall short, asked about where they would store, unless the fact is its
subject's own clause said again, kit/curator/restated.py; never over a hard part missing or
denied, Kit's own words, a question or a hypothetical as the fact).

The text of the facts an UPDATE or REPLACE rewrites counts as support too (it was checked
when it was written). The verdict: "supported" (applied: every hard part there, STORE of the
soft words' weight said), "partial" (every hard part there, ASK or more of the rest: set aside
as a question for the owner, kit/inbox/), or "unsupported" (dropped, with why, the rest of the
pass going on).

Cheap and deterministic: word lists, WordNet, rules, the embedding model's cosines and fitted
weights; no call to a chat model. What it cannot catch: a wrong word
order or relation made of the same words ("prefers Docs over Word" from "Word over Docs"), a
fact that generalises what was said with words that are there ("every month" from "this
month"), and meaning carried by words outside its lists (docs/curation.md).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import replace
from datetime import date

from kit.curator import stand_in, weighing
from kit.curator.chosen import unchosen
from kit.curator.clause_words import word_key
from kit.curator.clauses import Clause, clauses, plain
from kit.curator.committed import commitments
from kit.curator.felt import felt
from kit.curator.how_often import unsaid_frequency
from kit.curator.intended import unmet_act
from kit.curator.introduced import introduced
from kit.curator.judge import Verdict, judge
from kit.curator.meaning import Meanings, sentences
from kit.curator.no_fact import hypothetical, question, unsaid_chain
from kit.curator.number_forms import said
from kit.curator.ops import Insert, Operation, Replace, Update
from kit.curator.other_speaker import spoken_of, subject_speaker
from kit.curator.per_period import unsaid_rate
from kit.curator.planned import as_planned
from kit.curator.referred import referred
from kit.curator.related import family, phrases, says, synonyms, thing
from kit.curator.restated import Spoken, restated
from kit.curator.said_days import bare_months
from kit.curator.source import Source
from kit.curator.swapped_modifier import pairs
from kit.curator.swapped_sides import turned_round
from kit.curator.undoing import unsaid_undoing
from kit.curator.whose_amount import misgiven
from kit.curator.whose_number import misbound
from kit.curator.whose_role import misroled
from kit.curator.with_without import turned_with
from kit.curator.wording import fold, tokens
from kit.dates.text import DateMention, DateSpan, date_mentions, said_spans
from kit.memory.fact_rows import Fact
from kit.memory.messages import Message

__all__ = ["Grounding", "Verdict"]  # a verdict is read where the guard is called


class Grounding:
    """Checks operations against the messages of one batch. `meanings`: the meaning check
    (kit/curator/meaning.py) for what falls short on soft words only, read by `weigh`, and the
    weighing after it (kit/curator/weighing.py); `doubts`: whether the weighing may set aside
    as a question what the rules store (not for what the owner asked Kit to remember)."""

    def __init__(
        self,
        messages: Iterable[Message],
        citable: Iterable[int],
        owner_name: str = "",
        meanings: Meanings | None = None,
        doubts: bool = True,
    ) -> None:
        self._messages = {m.id: m for m in messages}
        self._citable = set(citable)
        self._owner = {word_key(w) for w in owner_name.split() if w}
        self._read: dict[int, Source] = {}
        self._meanings = meanings
        self._doubts = doubts  # whether the weighing may ask about what the rules store

    async def weigh(self, ops: Iterable[Operation], facts: Mapping[int, Fact]) -> None:
        """Read, in one embedding call, the meaning of each operation the word-level check
        leaves short on soft words only, and of the sentences it cites (nothing without a
        meaning check)."""
        if self._meanings is None:
            return
        texts: list[str] = []
        for op in ops:
            text = _new_text(op)
            if text is None:
                continue
            verdict = self._words(op, text, facts)
            if verdict.soft is not None or weighing.weighable(verdict.readings):
                texts += [text, *(s for m in self._cited(op) for s in sentences(m))]
                texts += stand_in.to_read(verdict.unsaid, self._cited(op))
        await self._meanings.read(texts)

    def check(self, op: Operation, facts: Mapping[int, Fact]) -> Verdict:
        """Whether `op` may be applied as it is. `facts`: the facts it names, as they are."""
        text = _new_text(op)
        verdict = self._weighed(op, text, self._check(op, facts))
        if verdict.status == "supported" and text is not None:
            act = unmet_act(text, self._support(op, facts))  # kit/curator/intended.py
            if act is not None:
                return Verdict(
                    "unsupported",
                    f"it says '{act}' as done; its cited messages say it only as meant, "
                    "tried, refused or someone else's",
                )
            if turned_round(text, self._support(op, facts)):  # kit/curator/swapped_sides.py
                return Verdict(
                    "unsupported",
                    "it sets one thing over another the other way round from its cited messages",
                )
            option = unchosen(text, self._support(op, facts))  # kit/curator/chosen.py
            if option is not None:
                return Verdict(
                    "unsupported",
                    f"it says '{option}' was chosen; its cited messages name it and choose another",
                )
            turned = turned_with(text, self._support(op, facts))  # kit/curator/with_without.py
            if turned is not None:
                return Verdict(
                    "unsupported",
                    f"it says '{turned}'; its cited messages say the other way round",
                )
            amount = unsaid_rate(text, self._support(op, facts))  # kit/curator/per_period.py
            if amount is not None:
                return Verdict(
                    "unsupported",
                    f"it says {amount} at a rate; its cited messages say it as a total",
                )
        return verdict

    def _weighed(self, op: Operation, text: str | None, verdict: Verdict) -> Verdict:
        """The verdict as the readings weigh together (kit/curator/weighing.py): stored where
        the rules fall short, asked where they would store; only where the meaning check runs."""
        readings = verdict.readings
        if self._meanings is None or text is None or not weighing.weighable(readings):
            return verdict
        if verdict.status == "supported" and not self._doubts:
            return verdict
        if verdict.status == "supported" and restated(text, self._spoken(op)):
            return verdict  # its subject's own clause said again (kit/curator/restated.py)
        standing = self._meanings.standing(text, self._cited(op))
        if standing is None:
            return verdict
        x = weighing.features(readings, verdict.status, standing)
        status, likelihood = weighing.decide(verdict.status, x)
        if status == verdict.status:
            return verdict
        if status == "supported":
            return _lifted(verdict)
        return replace(
            verdict,
            status="partial",
            reason=f"weighed together (how its words are said, how close it stands to its "
            f"sentence), what its cited messages say of it makes {likelihood:.2f} of 1: too "
            "little to store it without asking",
        )

    def _check(self, op: Operation, facts: Mapping[int, Fact]) -> Verdict:
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
        wrong = misbound(text, self._cited(op))
        if wrong is not None:  # "Christopher, 44, and Emily, 48": not "Emily is 44"
            return Verdict("unsupported", wrong)
        wrong = misroled(text, self._cited(op))
        if wrong is not None:  # "attorney Stephanie": not "Stephanie, the accountant"
            return Verdict("unsupported", wrong)
        wrong = misgiven(text, self._cited(op))
        if wrong is not None:  # "$3,500 for filing fees": not "$3,500 for attorney fees"
            return Verdict("unsupported", wrong)
        person = self._of_another(op, text)
        if person is not None:  # "Melanie: we got a cat" for "Caroline got a cat"
            return Verdict(
                "unsupported",
                f"it is about '{person.capitalize()}', and its cited messages are someone "
                "else's words of themself",
            )
        often = unsaid_frequency(text, self._support(op, facts))
        if often is not None:  # "daily" where the message says "weekly" (how_often.py)
            return Verdict(
                "unsupported", f"it says '{often}', how often its cited messages do not say"
            )
        verdict = self._words(op, text, facts)
        if verdict.status != "unsupported":  # an act that undoes what the message says
            undone = unsaid_undoing(text, self._support(op, facts))
            if undone is not None:
                return Verdict(
                    "unsupported", f"it says '{undone}', an act its cited messages do not say"
                )
        if verdict.soft is None or self._meanings is None:
            return verdict
        if self._meanings.holds(text, self._cited(op)):
            return _lifted(verdict)  # said in other words (kit/curator/meaning.py)
        if _reworded(verdict, self._meanings.best(text, self._cited(op))):
            return _lifted(verdict)
        if self._reworded_words(op, text, verdict, facts, self._meanings):
            return _lifted(verdict)
        return verdict

    def _of_another(self, op: Operation, text: str) -> str | None:
        """The chat's person the fact is about when every message it cites is another's and
        none speaks to or of them (kit/curator/other_speaker.py), else None."""
        if _rewrites(op):
            return None  # the rewritten fact may say it
        content = op.content if isinstance(op, Insert | Replace | Update) else None
        cited = [self._messages[i] for i in op.sources if i in self._messages]
        person = subject_speaker(content or text, self._owner, [m.text for m in cited])
        if person is None or not cited or any(person in self._whose(m) for m in cited):
            return None
        return None if spoken_of(person, (m.text for m in cited)) else person

    def _whose(self, message: Message) -> set[str]:
        """Whose words a message is, by name: the owner's names for the owner's own."""
        names = {word_key(w) for w in _speaker(message).split()}
        return names | self._owner if not names or names <= self._owner else names

    def _reworded_words(
        self,
        op: Operation,
        text: str,
        verdict: Verdict,
        facts: Mapping[int, Fact],
        meanings: Meanings,
    ) -> bool:
        """Whether the fact, with each unsaid verb or adjective its cited messages say another
        way put in their words, is supported word by word (kit/curator/stand_in.py)."""
        words = stand_in.stand_ins(verdict.unsaid, self._cited(op), meanings.cosine)
        if not words:
            return False
        said = self._words(op, stand_in.put_in(text, words), facts)
        return said.status == "supported" and unsaid_undoing(text, self._support(op, facts)) is None

    def _support(self, op: Operation, facts: Mapping[int, Fact]) -> list[str]:
        """The cited messages' text and that of the facts the operation rewrites."""
        rewritten = [facts[i] for i in _rewrites(op) if i in facts]
        return [*self._cited(op), *(f"{f.subject} {f.content}" for f in rewritten)]

    def _spoken(self, op: Operation) -> list[Spoken]:
        """The cited messages as who said them."""
        read = [self._source(self._messages[i]) for i in op.sources if i in self._messages]
        return [Spoken(self._messages[s.message_id or 0].text, s.owner, s.names) for s in read]

    def _cited(self, op: Operation) -> list[str]:
        return [self._messages[i].text for i in op.sources if i in self._messages]

    def _words(self, op: Operation, text: str, facts: Mapping[int, Fact]) -> Verdict:
        """The word-level verdict (module note)."""
        sources: list[Source] = []
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
        sources = as_planned(text, sources, [self._messages[i].text for i in op.sources])
        rewritten = [facts[i] for i in _rewrites(op) if i in facts]
        sources += [_fact_source(f) for f in rewritten]
        if not sources:
            return Verdict("unsupported", "it cites no message it comes from")
        owner = self._owner or introduced(
            self._messages[i] for i, s in zip(op.sources, sources, strict=False) if s.owner
        )
        return judge(text, sources, owner)

    def _source(self, message: Message) -> Source:
        if message.id not in self._read:
            speaker = _speaker(message)
            names = frozenset(word_key(w) for w in speaker.split())
            owner = not speaker or (bool(names) and names <= self._owner)
            folded = fold(message.text)
            spans = [(s, 0) for s in said_spans(message.text, message.day)]
            mentions = date_mentions(folded, message.day)
            spans = [(d, m.start) for m in mentions for d in _years(m, message.day)] or spans
            capitalised = frozenset(
                word_key(t.group()) for t in tokens(message.text) if t.group()[:1].isupper()
            )
            cut, numbers = said(folded, clauses(message.text, message.day))
            months = bare_months(message.text, message.day, [(m.start, m.end) for m in mentions])
            self._read[message.id] = Source(
                message.id, speaker, owner, cut, tuple(spans), message.day, names,
                capitalised=capitalised, forms=_forms(folded, cut, says),
                kin=_forms(folded, cut, synonyms), family=_forms(folded, cut, family),
                months=tuple(months), commitments=commitments(message.text),
                numbers=numbers, referred=referred(folded, cut), felt=felt(folded, cut),
                modified=pairs(folded),
            )  # fmt: skip
        return self._read[message.id]


# Common words put in other words ("neighbourhood" for "area", "turned down" for "declined",
# "take no calls to protect evenings" for "no calls, my evenings are mine"): every hard part
# is said, the soft words mostly (SAID_SHARE of their weight, so at most 40% of it is
# unsaid, however many words that is), none of the unsaid a name and at most one a thing
# (two unsaid nouns are a thing swapped: "an animal shelter" for "the food bank"), and the
# closest sentence means the fact (CLOSE, all-MiniLM-L6-v2's cosine).
SAID_SHARE = 0.6
CLOSE = 0.6


def _reworded(verdict: Verdict, best: float | None) -> bool:
    if verdict.soft is None or best is None or not verdict.unsaid:
        return False
    names = any(word[:1].isupper() for word in verdict.unsaid)
    things = sum(thing(word) for word in verdict.unsaid)
    return verdict.soft >= SAID_SHARE and best >= CLOSE and not names and things <= 1


def _speaker(message: Message) -> str:
    """Whose words a message is: who it was forwarded from, else who said it ("" the owner)."""
    return (message.forwarded_from or message.speaker or "").strip()


def _years(mention: DateMention, day: date | None) -> list[DateSpan]:
    """The days a date mention may name: as resolved, and, for a day and month said without a
    year ("I started on March 13"), that day in the year the message was said as well. The
    year is a guess from the words around it ("by Daniel Dennett" reads as a deadline), and a
    curator dates the fact by the message ("13 March 2024", said on 15 March 2024)."""
    span = mention.span
    if mention.year_said or mention.relative or day is None or span.start.year == day.year:
        return [span]
    shift = day.year - span.start.year
    try:
        moved = DateSpan(
            span.start.replace(year=day.year), span.end.replace(year=span.end.year + shift)
        )
    except ValueError:  # 29 February of another year
        return [span]
    return [span, moved]


def _answered(sources: list[Source], messages: list[Message]) -> list[Source]:
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


def _lifted(verdict: Verdict) -> Verdict:
    """`verdict` stored after all, with what the words read (weighed next: `_weighed`)."""
    return replace(verdict, status="supported", reason="", soft=None, unsaid=())


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


def _fact_source(fact: Fact) -> Source:
    text = f"{fact.subject}: {fact.content}" if fact.subject else fact.content
    folded = fold(text)
    neutral, numbers = said(folded, [plain(c) for c in clauses(text)])
    return Source(
        None, "", True, neutral, (), None,
        forms=_forms(folded, neutral, says), kin=_forms(folded, neutral, synonyms),
        family=_forms(folded, neutral, family),
        numbers=numbers,
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
