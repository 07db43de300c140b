"""A text cut into clauses, each with what the grounding guard (kit/curator/grounding.py) asks
of it: its words, numbers and names; who it is about (the speaker, someone else, or a thing);
and whether it says what is so, or only asks, wishes, plans or denies it.

"My spouse Alexis, who's 32 and works in graphic design, and I have shared finances since 2020,
can you help?" is four clauses: "My spouse Alexis" (someone else), "who's 32", "works in
graphic design" (still Alexis), "and I have shared finances since 2020" (the speaker), and a
request. Rules of thumb, not a parser: what it cannot tell it leaves neutral."""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass, replace
from datetime import date
from typing import Literal

from kit.curator.antecedent import THEY, things_before
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
from kit.curator.persons import acting, common
from kit.curator.presupposed import GIVEN_ENDS, joined, owned, presupposed, supposes
from kit.curator.reported import cut_reports, reported, whose
from kit.curator.undoing import not_done
from kit.curator.wished_for import wished_for
from kit.curator.wording import NEGATIONS, STOP, fold, number_of, stem

Holder = Literal["self", "other", "neutral"]

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
_WORD = re.compile(
    r"\$?£?€?\d(?:[\d,]*\d)?(?:\.\d+)?(?::\d\d)?(?:k\b|%)?|[^\W\d_][\w'-]*", re.UNICODE
)

_LEAD = frozenset(
    """and but so then also yeah yes yep oh well plus now just really actually because cause
    especially since kinda sorta even only recently currently finally already
    'cause though although even hey wow thanks thank ok okay sure hmm lol haha btw anyway
    honestly tbh like totally definitely absolutely cool great awesome nice""".split()
)
_SELF = frozenset(
    "i i'm i've i'd i'll im ive me myself we we're we've we'd we'll us ourselves".split()
)
_POSSESSIVE = frozenset({"my", "our"})
SPEAKER = _SELF | _POSSESSIVE  # words by which a clause is the speaker's ("I", "we", "my")
_OTHER = frozenset(
    """he she they he's she's they're they've they'd he'd she'd his her their him them who
    who's whose you you're you've you'd you'll your yours ur""".split()
)
_THEIR = frozenset({"her", "his", "their", "hers", "theirs"})
_THING = frozenset(
    "it it's its this that that's these those there there's here what what's which".split()
)
_DETERMINERS = frozenset("the a an this that these those one some every each".split())
PEOPLE = frozenset(
    stem(w)
    for w in """mother father parent parents sister brother sibling siblings kid son daughter
    partner friend friends colleague colleagues coworker coworkers boss manager neighbour
    neighbor aunt uncle cousin grandmother grandfather grandparents nephew niece roommate
    mentor mentee teacher instructor student students team crew family baby girl boy guy man
    woman person teen teenager mate buddy bestie dog cat pet pets wife husband spouse
    boyfriend girlfriend fiance professor doctor coach client clients customers customer
    daughters sons kids children mom dad grandma grandpa""".split()
)
# After "X's", words that say the 's is "is" or "has" ("Blue's my fave", "Tom's been great").
_AFTER_IS = frozenset(
    """my our your a an the so such really very not been got also just always still never
    definitely totally going""".split()
)
_EXAMPLE = re.compile(r"\W*(?:like|such as|including|e\.g\.|for example|for instance)\s", re.I)
_SUPPOSE = re.compile(
    r"\b(?:if|unless|in case|ever|would|could|might|i'd|we'd|maybe|perhaps|possibly|someday|dream|"
    r"dreams|dreaming|wish|wishes|wishing)\b|\bone day\b",
    re.IGNORECASE,
)
_IF = frozenset({"if", "unless", "whether", "in case"})  # "in case | I decide": a condition
_ALONE = frozenset("maybe perhaps possibly hopefully ideally probably".split())
# A capitalised word opening a clause is a person doing something when a verb follows it.
_SUBJECT_VERBS = frozenset(
    """is was 's has had have and who says said does did will would loves likes love like went
    gave told suggested recommended thinks wants wanted got made took lives works worked
    believes enjoys prefers helped invited asked shared""".split()
)
_QUESTION_OPENERS = frozenset(
    """can could would will should do does did is are am was were have has what how why where
    when which who whom any anything got wanna want shall may might""".split()
)
_HEDGE_WORDS = frozenset(
    """if whether would could might maybe perhaps possibly wondering wonder hope hoping
    hopefully wish wishing want wants wanna dream dreams dreaming keen interested planning
    plan plans goal goals aiming aim torn deciding decide unsure someday considering thinking
    exploring should i'd we'd you'd prospective""".split()
)
_HEDGE_PHRASES = re.compile(
    r"\bnot sure\b|\bone day\b|\bin case\b|\bwould like\b|\bthinking (?:of|about)\b|\bin mind\b"
    r"|\b(?:decision|choice)s? to make\b"  # "a decision to make about X": X is weighed
    r"|\bthinks? (?:of|about) (?!\w*thing\b)\w+ing\b"  # "I'll think about getting one"
    r"|\blooking (?:into|for|at)\b|\b(?:stuck|choosing|picking) between\b",
    re.IGNORECASE,
)
_IDIOMS = re.compile(
    r"\bcan'?t wait\b|\bcouldn'?t agree\b|\bno doubts?\b|\bnot only\b|\bnever give up\b"
    r"|\bwon'?t give up\b|\bno worries\b|\bno problem\b|\bnot gonna give up\b"
    r"|\bnot (?:so |that |too )?long (?:ago|after|before)\b"  # a time ("not so long ago")
    r"|\bnot (?:sure|certain)\b",  # a doubt (a hedge, _HEDGE_PHRASES), not a denial
    re.IGNORECASE,
)


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


def word_key(token: str) -> str:
    low = token.casefold().strip("'-")
    return low[:-2] if low.endswith("'s") else low


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
            (i for i, (s, e) in enumerate(parts) if _opens_question(folded[s:e], i == 0)),
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
            tokens = _WORD.findall(piece)
            if not tokens:
                continue
            previous = folded[found[-1].start : found[-1].end] if found else ""
            inserting = bool(found) and found[-1].start >= sentence.start()
            inserting = inserting and inserts(piece, previous)
            if inserting and held is None and hedged and not report:
                held = (supposed, conditional)  # "not sure if our backups, | like ..."
            inserted_at = i if inserting else inserted_at
            was_report, report = report, reported(piece, start, said, report, _hedged)
            if was_report and not report and chain[5]:  # the sentence's hedge goes on after it
                hedged, asks, supposed, conditional, holder, _ = chain
            elif report and not was_report:
                chain = (hedged, asks, supposed, conditional, holder, start in fresh)
            own = (whose(piece) if report else None) or _holder(tokens)  # "that Kyle said"
            own = "self" if own is None and requester(piece, tokens) else own  # "can you help me"
            if own is None and _after_apposition(folded, found, sentence.start()):
                own = "other"  # "Danielle, my advisor, | praised my draft": Danielle did
            if own == "other" and _thing_they(tokens, folded[sentence.start() : start]):
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
            doubted = carried and hedged and not _DONE.search(piece)
            doubted = doubted and not (settled and settled[0] <= start and end <= settled[1])
            # An example of what the clause before says ("I've never used one, | like X")
            # is doubted or denied with it.
            example = bool(_EXAMPLE.match(piece)) and bool(found) and found[-1].end <= start
            resumed = held is not None and own is None and not inserting
            resumed = resumed and resumes(piece, i == inserted_at + 1)  # "..., | are enough"
            hedged = _hedged(unhedged(piece)) or before == "for when" or doubted or resumed
            hedged = hedged or wished_for(piece)  # "my ideal studio" (kit/curator/wished_for.py)
            hedged = hedged or (example and found[-1].hedged and not found[-1].asks)
            hedged = not report and (
                hedged or bool(settled and start >= settled[1] and own is None)
            )
            supposed = hedged and (
                bool(_SUPPOSE.search(piece))
                or wished_for(piece)
                or (doubted and supposed)
                or before in _IF
                or before == "for when"
                or (resumed and held is not None and held[0])
            )
            before_it = raw[: start - sentence.start()]
            undone = not_done(piece)  # "skipped the trip" (kit/curator/undoing.py)
            negated = _negated(piece, tokens) or undone or passed_over(piece, before_it)
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
                    _names_others(tokens),
                    asks and not hedged,
                    bool(theirs := _theirs(tokens)),
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
    return [(m.group(), m.start(), m.end()) for m in _WORD.finditer(folded, start, end)]


def _appositions(folded: str, found: list[Clause]) -> list[Clause]:
    """A name ending a clause that the next clause calls "my friend ..." ("I'm thinking of
    asking Michael, my friend from the library"): someone the speaker has, whatever the clause
    wonders about them; given, like what "my ..." names. And a number set off after a name
    ("inviting Christopher, 44, and Emily"): that person's, said as so (whose it is:
    kit/curator/whose_number.py)."""
    marked = list(found)
    for i, (clause, after) in enumerate(itertools.pairwise(found)):
        last = _WORD.findall(folded[clause.start : clause.end])[-1:]
        said = _WORD.findall(folded[after.start : after.end])
        following = [t.lower() for t in said[:3]]
        if not last or not last[0][:1].isupper() or last[0] == "I":
            continue
        if after.hedged and not after.asks and said and all(number_of(t) for t in said):
            # "thinking of inviting Christopher, 44, and ...": his age is so, whatever the plan
            marked[i + 1] = replace(after, hedged=False, supposed=False)
            continue
        if (
            following[:1]
            and following[0] in _POSSESSIVE
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
    name = _WORD.findall(folded[found[-2].start : found[-2].end])
    apposed = _WORD.findall(folded[found[-1].start : found[-1].end])
    return (
        bool(name)
        and len(name) <= 3
        and all(t[:1].isupper() and t != "I" and t.lower() not in _LEAD | STOP for t in name)
        and bool(apposed)
        and apposed[0].lower() in _APPOSED
    )


def _thing_they(tokens: list[str], before: str) -> bool:
    """Whether a clause opened by "they" follows a plural thing in its sentence (`before`)."""
    first = next((t.lower() for t in tokens if t.lower() not in _LEAD), "")
    return first in THEY and things_before(_WORD.findall(before), PEOPLE)


def _parts(sentence: str, offset: int) -> list[tuple[int, int]]:
    parts, begin = [], 0
    for cut in _CLAUSE.finditer(sentence):
        last = _WORD.findall(sentence[begin : cut.start()])[-1:]
        bare = not sentence[cut.start() : cut.end()].strip() and last
        if bare and last[0].lower() in _HELD:
            continue  # "so should | I accept the offer" (the question goes on), "not | so long"
        if cut.start() > begin:
            parts.append((offset + begin, offset + cut.start()))
        begin = cut.end()
    if begin < len(sentence):
        parts.append((offset + begin, offset + len(sentence)))
    return [cut for part in parts for cut in contrasts(sentence, offset, part)]


def _opens_question(piece: str, first_clause: bool) -> bool:
    """Whether a clause starts a question: "can you...", "should I...", "what do...", or a
    question word opening the sentence ("Where is it?"); "who I met..." is no question."""
    tokens = [t.lower() for t in _WORD.findall(piece)]
    while tokens and tokens[0] in _LEAD:
        tokens = tokens[1:]
    if not tokens:
        return False
    first, second = tokens[0], tokens[1] if len(tokens) > 1 else ""
    if first in _WH:
        return first_clause or (first not in ("who", "whom", "which") and second in _AUX)
    return first in _QUESTION_OPENERS and second in _ASKED


# A word that cannot end a clause: its verb or subject follows ("should | I", "if | I").
# Nor does "was", "were", "is", "are" ("..., and were | they a hit?": the question goes on).
_HELD = frozenset(
    "should can could would will shall do did does may might must was were is are not".split()
)
_WH = frozenset("what what's how why where when which who whom any anything got wanna".split())
_AUX = frozenset("do does did is are was were should can could would will have has am".split())
_ASKED = frozenset("you i we it there that this he she they your my anyone u ya".split())


def _holder(tokens: list[str]) -> Holder | None:
    """Who the clause is about, from its first words; None: carried on from the last clause
    ("...I'm 42 and earning $65,000": the earning is still the speaker's)."""
    lowered = [t.lower() for t in tokens]
    i = 0
    while i < len(lowered) and lowered[i] in _LEAD:
        i += 1
    if i >= len(lowered):
        return None
    if lowered[i] == "that" and lowered[i + 1 : i + 2] and lowered[i + 1] in _SUBJECTS:
        i += 1  # "I love | that you chose pottery": whom the subject after "that" names
    first = lowered[i]
    rest = lowered[i + 1 : i + 4]
    joint = " and i " in f" {' '.join(lowered)} " or " and me " in f" {' '.join(lowered)} "
    if first in _LETS:
        return "self"  # "let's": the speaker and whoever is asked along
    if lowered[i:] in _FILLERS:
        return None  # "you know": no one's; what follows goes on with the last one
    if first in _SELF:
        return "self"
    if first in _POSSESSIVE:
        if (rest and stem(rest[0]) in PEOPLE) or (len(rest) > 1 and stem(rest[1]) in PEOPLE):
            return "self" if joint else "other"
        return "self"
    if first in _OTHER:
        return "other"
    if first in _THING:
        return "neutral"
    if first in _DETERMINERS:
        return "other" if any(stem(t) in PEOPLE for t in rest) and not joint else "neutral"
    if tokens[i][:1].isupper() and first not in _QUESTION_OPENERS:
        if first.endswith("'s") and rest[:1] and rest[0] not in _AFTER_IS:
            # "Michael's promotion"; not "Blue's my fave", "Painting's great" (a common word)
            said = word_key(first)
            return "neutral" if common(said) and stem(said) not in PEOPLE else "other"
        following = lowered[i + 1] if i + 1 < len(lowered) else ""
        return "other" if following in _SUBJECT_VERBS and not acting(first) else "neutral"
    titled = len(tokens) > i + 2 and tokens[i + 1][:1].isupper() and tokens[i + 1] != "I"
    if titled and lowered[i + 1] not in _SELF and lowered[i + 2] in _SUBJECT_VERBS:
        return "other"  # a title and a name: "and attorney Mina suggested ..."
    return None


_LETS = frozenset({"let's", "lets"})
_SUBJECTS = _SELF | _OTHER | _POSSESSIVE
_FILLERS = (["you", "know"], ["ya", "know"], ["y'know"], ["you", "see"])


# "wondering if I made the right choice in taking the bonus": the choice was made; only
# whether it was right is in doubt.
_DONE = re.compile(
    r"^\W*(?:i|we)(?:'ve| have)? (?:made|took|taken|chose|picked) the right "
    r"(?:choice|decision|call|move|option|path)\b",
    re.IGNORECASE,
)
_SURE = re.compile(r"\b(?:want|wanna|wanted|need) to make sure\b|\bmake sure\b", re.IGNORECASE)


def _hedged(piece: str) -> bool:
    piece = _SURE.sub(" ", piece)  # "I want to make sure I meet the deadline": a worry, no wish
    tokens = _WORD.findall(piece)
    if _HEDGE_PHRASES.search(piece):
        return True
    for token in tokens:
        low = token.lower()
        if low in _HEDGE_WORDS or (low == "may" and token == "may"):
            return True
    return False


def _negated(piece: str, tokens: list[str]) -> bool:
    if _IDIOMS.search(piece):
        piece = _IDIOMS.sub(" ", piece)
        tokens = _WORD.findall(piece)
    if tokens and tokens[0].lower() == "without":  # "| without a map": its own clause
        return True
    return any(t.lower() in NEGATIONS or t.lower().endswith("n't") for t in tokens)


# After these, "her" is the one something is done to ("I'm visiting her in May", "I gave her a
# book"), not what is hers ("her car").
_AFTER_OBJECT = frozenset(
    """in on at to for with from about and but or so a an the some this that next last every
    today tonight tomorrow yesterday soon again too once twice when while because since
    before after back up out over around off later now then""".split()
)


def _theirs(tokens: list[str]) -> list[frozenset[str]]:
    """What the clause names of someone else's, one set of stems for each "his", "their",
    "hers", or "her" before what is hers ("supporting their mental health": mental, health;
    "theirs" alone: an empty set)."""
    lowered = [t.lower() for t in tokens]
    found = []
    for i, low in enumerate(lowered):
        following = lowered[i + 1] if i + 1 < len(lowered) else ""
        if low == "her" and (
            not following or following in _AFTER_OBJECT or number_of(following) is not None
        ):
            continue  # "visiting her in May": whom, not whose
        if low in _THEIR and not (low == "their" and things_before(tokens[:i], PEOPLE)):
            phrase = itertools.takewhile(lambda w: w not in GIVEN_ENDS, lowered[i + 1 : i + 5])
            found.append(frozenset(stem(w) for w in phrase))
    return found


def _names_others(tokens: list[str]) -> bool:
    lowered = [t.lower() for t in tokens]
    if any(t in _OTHER for t in lowered):
        return True
    if any(stem(t) in PEOPLE for t in lowered):
        return True
    return any(t[:1].isupper() and t != "I" and not t.startswith("I'") for t in tokens[1:])


def plain(clause: Clause) -> Clause:
    """`clause` read as a plain statement: neither hedged, denied nor of anyone else."""
    return Clause(clause.start, clause.end, clause.stems, clause.numbers, clause.words,
                  "neutral", False, False, True)  # fmt: skip
