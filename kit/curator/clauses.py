"""A text cut into clauses, each with what the grounding guard (kit/curator/grounding.py) asks
of it: its words, numbers and names; who it is about (the speaker, someone else, or a thing);
and whether it says what is so, or only asks, wishes, plans or denies it.

"My spouse Alexis, who's 32 and works in graphic design, and I have shared finances since 2020,
can you help?" is four clauses: "My spouse Alexis" (someone else), "who's 32", "works in
graphic design" (still Alexis), "and I have shared finances since 2020" (the speaker), and a
request. Rules of thumb, not a parser: what it cannot tell it leaves neutral.

Each clause is read by: kit/curator/clause_words.py (its words), kit/curator/clause_holder.py
(whom it is about), kit/curator/clause_mood.py (hedged, supposed or denied) and
kit/curator/question_opener.py (whether a question opens there)."""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass, replace
from datetime import date

from kit.curator.clause_holder import Holder, holder_of, names_others, of_others, thing_they
from kit.curator.clause_mood import CHOICE_MADE, SUPPOSE, denies, hedges
from kit.curator.clause_words import LEAD, PEOPLE, POSSESSIVE, WORD, word_key
from kit.curator.compared import compared
from kit.curator.contrast import contrasts, passed_over
from kit.curator.denial_scope import deadline_given, denied_head, subject_given
from kit.curator.gerund_subject import gerund_subject
from kit.curator.hedge_scope import (
    cut_around,
    given_that,
    presupposing,
    request,
    requester,
    right_call,
    unhedged,
)
from kit.curator.inserted import inserts, resumes
from kit.curator.presupposed import joined, owned, presupposed, supposes
from kit.curator.question_opener import opens_question
from kit.curator.reported import cut_reports, reported, whose
from kit.curator.undoing import not_done
from kit.curator.wished_for import wished_for
from kit.curator.wording import STOP, fold, number_of, stem

# A point between digits ("$2.99", "Python 3.11", "v1.0.0") or inside a word ("Render.com",
# "index.html") ends no sentence.
_SENTENCE = re.compile(r"(?:[^.!?\n]|(?<=\w)\.(?=[a-z0-9]))+[.!?]*", re.UNICODE)
_CLAUSE = re.compile(
    r"\s*(?:(?<!\d),|,(?!\d)|[;()]|(?<!\d):|:(?!\d)|\s[-–—]\s|\s(?=(?:and|but|so|because|'cause|cause|which|who|whose|while|"
    r"though|although|whereas|plus|in\s+case|with\s+no|without\s+(?:a|an|any))\s)|(?<=\w)\s(?=(?:I|I'm|I've|I'd|I'll|he|she|they|we|we've|we're|"
    r"they've|they're|he's|she's)\s)|\s(?=since\s+(?:it|it's|I|I'm|I've|we|we're|we've|he|she|"
    r"they|they're|there|that|this)\s))\s*",
    re.IGNORECASE,
)
_EXAMPLE = re.compile(r"\W*(?:like|such as|including|e\.g\.|for example|for instance)\s", re.I)
_IF = frozenset({"if", "unless", "whether", "in case"})  # "in case | I decide": a condition
_ALONE = frozenset("maybe perhaps possibly hopefully ideally probably".split())


@dataclass(frozen=True)
class Clause:
    start: int  # offsets in the text
    end: int
    stems: frozenset[str]
    numbers: frozenset[str]
    words: frozenset[str]  # every word, case-folded, possessive off (names are looked up here)
    holder: Holder
    hedged: bool  # a question, a wish, a plan, a condition
    negated: bool
    others: bool  # it names someone besides the speaker ("her", "my sister", "Ana")
    asks: bool = False  # a question (hedged too): its answer, from someone else, may hold it
    theirs: bool = False  # "her", "his", "their": something of someone else's
    own_subject: bool = True  # it says whom it is about (else it goes on with the last one)
    # What "my ..." / "our ..." names in it ("my increased budget of $650", "my close friend
    # Leslie"), and what its hedge does not govern (kit/curator/presupposed.py: "thinking of
    # attending the March 15 workshop"): there, whatever the clause only wonders or asks
    # about. Stems and numbers, and the character ranges (for dates).
    given: frozenset[str] = frozenset()
    given_spans: tuple[tuple[int, int], ...] = ()
    example: bool = False  # "like X", "such as X": an example of what the clause before says
    supposed: bool = False  # a condition or what would follow it ("if I ever", "I'd", "maybe")
    possessed: frozenset[str] = frozenset()  # the stems "her", "his", "their" name ("their health")
    whom: frozenset[str] = frozenset()  # who else it is about: "my team ..." -> team
    beyond: frozenset[str] = frozenset()  # "my transfer to savings": savings (a hedge's given)
    denied: str = ""  # the word its negation denies ("isn't easy": easy; denial_scope.py)


def clauses(text: str, day: date | None = None) -> list[Clause]:
    """The clauses of `text` said on `day` (folded or not: offsets are into `fold(text)`)."""
    folded = fold(text)
    found: list[Clause] = []
    for sentence in _SENTENCE.finditer(folded):
        raw = sentence.group()
        question = raw.rstrip().endswith("?")
        parts = _parts(raw, sentence.start())
        settled = right_call(raw, sentence.start())
        parts = cut_around(parts, settled) if settled else parts
        parts, said, fresh = cut_reports(raw, sentence.start(), parts, day)  # "since I went"
        opener = next(
            (i for i, (s, e) in enumerate(parts) if opens_question(folded[s:e], i == 0)),
            len(parts) - 1,  # no question word: the question is its last clause ("Paris?!")
        )
        holder: Holder = "self"
        whom: frozenset[str] = frozenset()
        hedged = asks = alone = supposed = conditional = False
        requested = question and bool(parts) and request(folded[slice(*parts[opener])])
        before, report, chain = "", False, (False, False, False, False, holder, False)
        held: tuple[bool, bool] | None = None  # a hedge an inserted phrase broke (inserted.py)
        inserted_at = -2
        for i, (start, end) in enumerate(parts):
            piece = folded[start:end]
            tokens = WORD.findall(piece)
            if not tokens:
                continue
            previous = folded[found[-1].start : found[-1].end] if found else ""
            inserting = bool(found) and found[-1].start >= sentence.start()
            inserting = inserting and inserts(piece, previous)
            if inserting and held is None and hedged and not report:
                held = (supposed, conditional)  # "not sure if our backups, | like ..."
            inserted_at = i if inserting else inserted_at
            was_report, report = report, reported(piece, start, said, report, hedges)
            if was_report and not report and chain[5]:  # the sentence's hedge goes on after it
                hedged, asks, supposed, conditional, holder, _ = chain
            elif report and not was_report:
                chain = (hedged, asks, supposed, conditional, holder, start in fresh)
            own = (whose(piece) if report else None) or holder_of(tokens)  # "that Kyle said"
            own = "self" if own is None and requester(piece, tokens) else own  # "can you help me"
            if own is None and _after_apposition(folded, found, sentence.start()):
                own = "other"  # "Danielle, my advisor, | praised my draft": Danielle did
            if own == "other" and thing_they(tokens, folded[sentence.start() : start]):
                own = "neutral"  # "my expenses, | since they were $2,100": the expenses
            holder = own if own is not None else holder
            if own is not None:  # whom a clause about someone else names first ("my team")
                whom = frozenset(
                    k for t in tokens[:4] if (k := stem(t)) in PEOPLE and own == "other"
                )
            # A question runs from the clause that opens it until one that says whom it is
            # about ("can you help me with my budget, and we agreed on $200?": no question).
            asks = question and i >= opener and (i == opener or (asks and own is None))
            asks = asks and not report and not (i == opener and presupposing(piece))
            # A clause with no subject of its own goes on with the one before: "thinking of
            # big changes, like automating the hiring" is still only a thought; so does one
            # after "if", "whether" or a time to come ("wondering if | I made the right
            # choice", "after | I retire"), or "for when" ("a library for when | I have kids").
            # ... and so does one after a hedge said alone ("Maybe, | I'll look into X").
            carried = own is None and not given_that(piece)
            carried = carried or before in (*_IF, "after", "before", "once", "until") or alone
            doubted = carried and hedged and not CHOICE_MADE.search(piece)
            doubted = doubted and not (settled and settled[0] <= start and end <= settled[1])
            # An example of what the clause before says ("I've never used one, | like X")
            # is doubted or denied with it.
            example = bool(_EXAMPLE.match(piece)) and bool(found) and found[-1].end <= start
            resumed = held is not None and own is None and not inserting
            resumed = resumed and resumes(piece, i == inserted_at + 1)  # "..., | are enough"
            hedged = hedges(unhedged(piece)) or before == "for when" or doubted or resumed
            wish = wished_for(piece)  # "my ideal studio" (kit/curator/wished_for.py)
            hedged = hedged or wish
            hedged = hedged or (example and found[-1].hedged and not found[-1].asks)
            hedged = not report and (
                hedged or bool(settled and start >= settled[1] and own is None)
            )
            supposed = hedged and (
                bool(SUPPOSE.search(piece))
                or wish
                or (doubted and supposed)
                or before in _IF
                or before == "for when"
                or (resumed and held is not None and held[0])
            )
            before_it = raw[: start - sentence.start()]
            undone = not_done(piece)  # "skipped the trip" (kit/curator/undoing.py)
            negated = denies(piece, tokens) or undone or passed_over(piece, before_it)
            negated = negated or (example and found[-1].negated)
            alone = all(t.lower() in _ALONE for t in tokens)
            before = " ".join(tokens[-2:] if piece.endswith((" when", " case")) else tokens[-1:])
            before = before.lower()
            opens = joined(folded, start)  # "my calm | and logical demeanor": one description
            given, beyond, given_spans = owned(_words(folded, start if opens < 0 else opens, end))
            conditional = supposed and (
                supposes(piece, previous)
                or (doubted and conditional)
                or (resumed and held is not None and held[1])
            )
            held = None if resumed else held
            # What the hedge does not govern: a description, the subject of a modal
            ask, plan = asks and not requested, hedged or (asks and requested)  # ... it describes
            more, spans = presupposed(_words(folded, start, end), ask, plan, conditional)
            if not undone:  # "whether skipping the trip was smart": no trip given
                given, given_spans = given | more, given_spans + spans
            said_words = _words(folded, start, end)
            if negated and not undone:  # "Running a business isn't easy": the running is so
                subject, subject_spans = subject_given(said_words)
                given, given_spans = given | subject, given_spans + subject_spans
                deadline, deadline_spans = deadline_given(said_words)  # "won't ... by May 2"
                given, given_spans = given | deadline, given_spans + deadline_spans
            doing = gerund_subject(_words(folded, sentence.start(), end), start) if hedged else ()
            if doing:  # "worried that moving the call to May 2 | might clash": it is moving
                given |= {k for w, _, _ in doing for k in (stem(w), word_key(w), number_of(w)) if k}
                given_spans += ((doing[0][1], doing[-1][2]),)
            found.append(
                Clause(
                    start,
                    end,
                    frozenset(stem(t) for t in tokens),
                    frozenset(n for t in tokens if (n := number_of(t)) is not None),
                    frozenset(word_key(t) for t in tokens),
                    holder,
                    asks or hedged,
                    negated,
                    names_others(tokens),
                    asks and not hedged,
                    bool(theirs := of_others(tokens)),
                    own is not None,
                    given,
                    given_spans,
                    example=example,
                    supposed=supposed,
                    possessed=frozenset().union(*theirs),
                    whom=whom,
                    beyond=beyond,
                    denied=denied_head(said_words) if negated else "",
                )
            )
    found = _appositions(folded, found)
    gains = compared(folded, [(c.start, c.end, c.hedged) for c in found])
    return [
        replace(c, given=c.given | g.given, stems=c.stems | g.stems, words=c.words | g.words)
        for c, g in zip(found, gains, strict=True)
    ]


def _words(folded: str, start: int, end: int) -> list[tuple[str, int, int]]:
    return [(m.group(), m.start(), m.end()) for m in WORD.finditer(folded, start, end)]


def _appositions(folded: str, found: list[Clause]) -> list[Clause]:
    """A name ending a clause that the next clause calls "my friend ..." ("I'm thinking of
    asking Michael, my friend from the library"): someone the speaker has, whatever the clause
    wonders about them; given, like what "my ..." names. And a number set off after a name
    ("inviting Christopher, 44, and Emily"): that person's, said as so (whose it is:
    kit/curator/whose_number.py)."""
    marked = list(found)
    for i, (clause, after) in enumerate(itertools.pairwise(found)):
        last = WORD.findall(folded[clause.start : clause.end])[-1:]
        said = WORD.findall(folded[after.start : after.end])
        following = [t.lower() for t in said[:3]]
        if not last or not last[0][:1].isupper() or last[0] == "I":
            continue
        if after.hedged and not after.asks and said and all(number_of(t) for t in said):
            # "thinking of inviting Christopher, 44, and ...": his age is so, whatever the plan
            marked[i + 1] = replace(after, hedged=False, supposed=False)
            continue
        if (
            following[:1]
            and following[0] in POSSESSIVE
            and any(stem(t) in PEOPLE for t in following[1:])
        ):
            name = {word_key(last[0]), stem(last[0])}
            marked[i] = replace(clause, given=clause.given | name)
    return marked


_APPOSED = frozenset({"my", "our", "the", "a", "an"})


def _after_apposition(folded: str, found: list[Clause], begins: int) -> bool:
    """Whether the clause to come follows a name and its apposition in its sentence
    ("Danielle, | my academic advisor, | praised my draft"): the name is its subject."""
    if len(found) < 2 or found[-2].start < begins:
        return False
    name = WORD.findall(folded[found[-2].start : found[-2].end])
    apposed = WORD.findall(folded[found[-1].start : found[-1].end])
    return (
        bool(name)
        and len(name) <= 3
        and all(t[:1].isupper() and t != "I" and t.lower() not in LEAD | STOP for t in name)
        and bool(apposed)
        and apposed[0].lower() in _APPOSED
    )


def _parts(sentence: str, offset: int) -> list[tuple[int, int]]:
    parts, begin = [], 0
    for cut in _CLAUSE.finditer(sentence):
        last = WORD.findall(sentence[begin : cut.start()])[-1:]
        bare = not sentence[cut.start() : cut.end()].strip() and last
        if bare and last[0].lower() in _HELD:
            continue  # "so should | I accept the offer" (the question goes on), "not | so long"
        if cut.start() > begin:
            parts.append((offset + begin, offset + cut.start()))
        begin = cut.end()
    if begin < len(sentence):
        parts.append((offset + begin, offset + len(sentence)))
    return [cut for part in parts for cut in contrasts(sentence, offset, part)]


# A word that cannot end a clause: its verb or subject follows ("should | I", "if | I").
# Nor does "was", "were", "is", "are" ("..., and were | they a hit?": the question goes on).
_HELD = frozenset(
    "should can could would will shall do did does may might must was were is are not".split()
)


def plain(clause: Clause) -> Clause:
    """`clause` read as a plain statement: neither hedged, denied nor of anyone else."""
    return Clause(clause.start, clause.end, clause.stems, clause.numbers, clause.words,
                  "neutral", False, False, True)  # fmt: skip
