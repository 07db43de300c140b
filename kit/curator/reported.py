"""What a hedged sentence's past-tense clauses state (kit/curator/clauses.py reads it; grounding
round 25; the hedges themselves: kit/curator/hedge_scope.py).

A clause inside a question, a wish, a plan or a doubt that a relative or adverbial word opens
(`that`, `which`, `who`, `like`, `as`, `since`, `because`, `after`, `when`, `while`) and that
says something in the past or the perfect is said as so, whatever hedge opens the sentence:
`ideas like Michelle's craft session that lasted 45 minutes and was supervised by Amy`,
`especially since I just attended that "Estate Tax Planning" workshop`, `my accounts, which
are now covered under the clause added on April 30?`, `... as Greg suggested during our mock
interview`. It is its subject's (`like the one Wyatt organized`, `since Bryan agreed to ...`:
theirs, not the speaker's), it ends before a modal (`like Laura suggested | could help`), and
past it the sentence's hedge goes on, when the report was cut out of a clause (after a clause
that was one already, `..., which I chose on March 30, or explore ...`, what follows reads as
before).

Stays hedged: a clause with a supposition or a hedge word of its own (`if`, `as if`, `would`,
`wish`, `might`; a title's words are no hedge), `that`, `which`, `who` after a word of
thinking, saying or asking or opening a question (`not sure that I passed`, `wondering if that
was ...`, `Which games did Omar bring?`), `like` after a subject or a modal (`I'd like the one
I saw`), and what the hedge governs (its clause is cut before the report).

An act `after` names by a gerund is said when its clause names a day, and only days, before
the day the message was said, and no supposition comes before it (round 25D): `considering
continuing the pilot after getting feedback from 2 managers on April 28` (the feedback came;
`after deciding to ...`: the deciding is no hedge of its own), and so is the act `my
decision to` names (`like with my decision to start journaling on April 1?`); `after getting
the job`, `after getting an offer on June 3` (said in May) and `if I sell after deciding on
April 2` say no past. (A name's possessive with a day, `attorney Stephanie's review on May 1`, is a
description: kit/curator/presupposed.py.) So is one `when`, `while`, `about`, `since` or
`before` opens (round 31B: `can you help me structure my answers, especially when talking
about leading a 9-person team ... in 2021?`: the leading was done); a request's `could you`
supposes nothing before it.

What it cannot read: what a report refers back to: the act `like we did` or
`like Laura suggested` is said of (one the hedge governs), and the thing `that lasted ...` or
`like the one Wyatt organized` is said of (measured as given: it stored planted false operations
on fresh15 and fresh11).
"""

from __future__ import annotations

import functools
import itertools
import re
from collections.abc import Callable
from datetime import date
from typing import Literal

from kit.curator.hedge_scope import cut_around
from kit.curator.presupposed import supposes
from kit.curator.related import thing
from kit.dates.text import DateMention, date_mentions
from kit.retrieval.lexicon import lexicon
from kit.retrieval.wordnet import WordNetMissing

_ALSO_PAST = frozenset({"read", "agreed", "freed", "was"})  # not in WordNet's (`_irregular`)
_NOT_PAST = frozenset("hundred sacred naked wicked kindred".split())
_OPENERS = frozenset("that which who like as since because after when while".split())
_RELATIVE = frozenset({"which", "who"})  # its past may come later: "which are now covered"
_PRONOUNS = frozenset("i i've i'd we we've we'd he she they it you".split())
_DETERMINED = frozenset("my our his her their the".split())
_ADVERBS = frozenset("just already recently also once finally first last actually".split())
_PERFECT = frozenset("had have has".split())
# Before these `that`, `which`, `who` open what is thought, said or asked, not a relative
# clause ("not sure that I passed", "wondering if that was ...", "wondering which one ...").
_NO_ANTECEDENT = frozenset(
    """sure worried think thought thinking wonder wondering hope hoping hoped know knew believe
    feel felt say said says told tell realize realized realise realised guess afraid
    concerned convinced certain glad happy doubt wish wished assume suppose suspect heard hear
    seem seems mean means so such now fact idea chance news noticed learned see saw sense
    aware proud mentioned confirmed show showed ensure confident surprised upset relieved
    expect expected imagine pretend if whether and but or because since as like than is was
    are were be been not out ask asked asking decide deciding choose choosing remember forget
    recall""".split()
)
_LIKING = frozenset("i'd we'd would i we you they to really also don't didn't not".split())
_MODAL = re.compile(r"\b(?:(?i:could|would|might|can|will|should|must)|may)\b")  # not "May 9"
_TOKEN = re.compile(r"[\w'-]+|[,;:?!.]")


@functools.cache
def _irregular() -> frozenset[str]:
    """The irregular pasts and past participles WordNet lists among its verbs' exceptions
    (`went`, `chose`, `taught`, `been`): not a form in -ing, a present in -s, `am`, `are`;
    none without WordNet (only pasts in -ed are read then)."""
    try:
        forms = lexicon().inflected("verb")
    except WordNetMissing:
        return frozenset()
    return frozenset(
        f for f in forms if "_" not in f and not f.endswith(("ing", "s")) and f not in ("am", "are")
    )


def past(word: str, regular: bool = False) -> bool:
    """Whether a word is a verb in the past or a past participle (a rule of thumb); `regular`:
    in -ed only (where an irregular form may be a noun: `which is a bit much`)."""
    low = word.lower()
    if not regular and (low in _ALSO_PAST or low in _irregular()):
        return True
    return low.endswith("ed") and len(low) > 3 and not low.endswith("eed") and low not in _NOT_PAST


def reports(sentence: str, offset: int, day: date | None = None) -> list[tuple[int, int]]:
    """Where clauses that state a past inside `sentence` open: from their opening word to the
    end of their past verb (module note), as offsets into the folded text; `day`: the day it
    was said (an act `after` names by a gerund is past when the day it names is)."""
    tokens = [(m.group(), m.start(), m.end()) for m in _TOKEN.finditer(sentence)]
    found = []
    for i, (word, start, _) in enumerate(tokens):
        low = word.lower()
        if low == "decision" and _decided(tokens, i):  # "my decision to start ... on April 1"
            verb = _past_gerund(sentence, start, tokens[i + 2 : i + 3], day, gerund=False)
            found.extend([] if verb is None else [(offset + start, offset + verb)])
        if low not in _OPENERS and low not in _DATED_GERUND:
            continue
        before = tokens[i - 1][0].lower() if i else ""
        if low in ("that", "which", "who") and (not before or before in _NO_ANTECEDENT):
            continue  # "Which games did Omar bring?", "wondering who ...": a question
        if low == "that" and not before.isalpha():
            continue
        if low == "like" and before in _LIKING:
            continue  # "I'd like the one I saw": a wish, not a comparison
        verb = _past_verb(tokens[i + 1 : i + 9], low) if low in _OPENERS else None
        if verb is None and low in _DATED_GERUND:
            verb = _past_gerund(sentence, start, tokens[i + 1 : i + 2], day)
        if verb is not None:
            found.append((offset + start, offset + verb))
    return found


def _past_verb(tokens: list[tuple[str, int, int]], opener: str) -> int | None:
    """The end of the past verb the words after an opener begin with (a subject, adverbs, a
    perfect's auxiliary before it), if they do."""
    words = [w.lower() for w, _, _ in tokens]
    i = 2 if words[:2] in (["the", "one"], ["the", "ones"]) else 0  # "like the one Wyatt ran"
    subject = _subject(tokens[i:])
    if subject == 0 and opener not in ("that", "which", "who"):
        return None  # "as if", "when did I": no subject of its own
    i += subject
    while i < len(words) and (words[i] in _ADVERBS or words[i] in _PERFECT):
        i += 1
    if i < len(words) and past(tokens[i][0]):
        return tokens[i][2]
    if opener in _RELATIVE and subject == 0:  # "which are now covered ...": later, same clause
        for word, _, end in itertools.takewhile(lambda t: t[0] not in ",;:?!.", tokens[i:]):
            if past(word, regular=True):
                return end
    return None


# The words before a gerund that is done when its clause names only past days ("after
# getting feedback on April 28", "when talking about leading the team in 2021", round 31B).
_DATED_GERUND = frozenset("after when while about since before".split())
# "considering X after getting feedback on April 28": the feedback came (a day before the
# message's own); "after getting the job (in June)", "if I sell after deciding ..." say no past.
_SUPPOSED_BEFORE = re.compile(r"\b(?:if|unless|whether|would|could|might|suppose)\b", re.I)
_CLAUSE_END = re.compile(r"[;:?!]|[.,](?!\d)")


_ASKING = re.compile(r"\b(?:could|would|can|will)\s+(?:you|u)\b", re.IGNORECASE)


def _asking(before: str) -> str:
    """`before` without a request's modal (`could you help me ...`): it supposes nothing."""
    return _ASKING.sub(" ", before)


def _decided(tokens: list[tuple[str, int, int]], i: int) -> bool:
    """Whether `decision` at `i` is the speaker's, with the act decided after it (`my decision
    to ...`)."""
    owner = tokens[i - 1][0].lower() if i else ""
    return owner in ("my", "our") and [w.lower() for w, _, _ in tokens[i + 1 : i + 2]] == ["to"]


def _past_gerund(
    sentence: str,
    at: int,
    following: list[tuple[str, int, int]],
    day: date | None,
    gerund: bool = True,
) -> int | None:
    """The end of the gerund an `after` at `at` opens (`gerund` False: the verb `my decision
    to` names), if its clause names only days before `day` and no supposition comes before it
    in the sentence."""
    if day is None or not following or _SUPPOSED_BEFORE.search(_asking(sentence[:at])):
        return None
    verb, _, end = following[0]
    if not verb.islower() or (gerund and not (verb.endswith("ing") and len(verb) > 4)):
        return None
    stop = _CLAUSE_END.search(sentence, end)
    named = date_mentions(sentence[at : stop.start() if stop else len(sentence)], day)
    return end if named and all(_before(m, day) for m in named) else None


def _before(mention: DateMention, day: date) -> bool:
    """Whether a date said ends before `day`: one said without a year in `day`'s year (`April
    28` said on 6 May: this April's, whichever year the resolver chose)."""
    last = mention.span.end
    if mention.year_said or mention.relative:
        return last < day
    return (last.month, last.day) < (day.month, day.day)


def _subject(tokens: list[tuple[str, int, int]]) -> int:
    """How many of the words a subject takes: a pronoun, a name, a determiner and a noun."""
    words = [w for w, _, _ in tokens]
    if not words:
        return 0
    if words[0].lower() in _PRONOUNS:
        return 1
    if words[0][:1].isupper():
        return 2 if len(words) > 1 and words[1][:1].isupper() else 1
    if words[0].lower() in _DETERMINED:
        for n in (2, 3):  # "my mentor", "the head chef" ... before the verb
            if len(words) > n and (past(words[n]) or words[n].lower() in _ADVERBS | _PERFECT):
                return n
    return 0


def cut_reports(
    sentence: str, offset: int, parts: list[tuple[int, int]], day: date | None = None
) -> tuple[list[tuple[int, int]], list[tuple[int, int]], set[int]]:
    """`parts` (a sentence's clauses) cut where a report opens, the reports' spans, and where
    a cut was new (after a clause that was already one, what follows reads as before)."""
    spans, fresh = reports(sentence, offset, day), set()
    for at, verb in spans:
        if any(a < at < b for a, b in parts):
            fresh.add(at)
        parts = cut_around(parts, (at, at))
        after = _MODAL.search(sentence, verb - offset)  # "like Laura suggested | could help"
        if after and not re.search(r"[,;:?!.]", sentence[verb - offset : after.start()]):
            parts = cut_around(parts, (offset + after.start(), offset + after.start()))
    return parts, spans, fresh


def reported(
    piece: str, start: int, spans: list[tuple[int, int]], after: bool, hedges: Callable[[str], bool]
) -> bool:
    """Whether a clause (`piece`, at `start`) is a report: one `reports` found, or one going on
    with the report before it (`after`), with no hedge of its own (`hedges`; a title's words
    are none; nor is the gerund an `after` opens: `after deciding to ...`, the deciding done)."""
    opens = any(a <= start < b for a, b in spans) or (after and goes_on(piece))
    own = _AFTER_GERUND.sub("after ", untitled(piece), count=1)
    return opens and not hedges(own) and not supposes(own, "")


_AFTER_GERUND = re.compile(r"^\W*after\s+[a-z]+ing\b")


_LEADS = _OPENERS | {"the", "one", "ones", "especially", "and", "but", "so", "even"}
_SPEAKER = frozenset("i i've i'd i'm we we've we'd we're".split())
_SOMEONE = frozenset("he she they he's she's they've his her their".split())


def whose(piece: str) -> Literal["self", "other"] | None:
    """Whom a report is about when its subject says it (`like the one Wyatt organized`: Wyatt;
    `since I just attended`: the speaker); None when it does not say (`that lasted ...`)."""
    words = [w for w in _TOKEN.findall(piece) if w.lower() not in _LEADS]
    first = words[0] if words else ""
    if first.lower() in _SPEAKER:
        return "self"
    if first.lower() in _SOMEONE:
        return "other"
    if first[:1].isupper() and not first.startswith("I'") and not _describes(words[1:2]):
        return "other"
    return None


def _describes(following: list[str]) -> bool:
    """Whether a capitalised word describes the plural thing after it (`TikTok accounts`,
    `Canon lenses`): a brand or a title, no one who did something."""
    word = following[0] if following else ""
    plural = word.endswith("s") and not word.endswith(("ss", "'s"))
    return plural and word.islower() and thing(word)


# "..., that lasted 45 minutes | and was supervised by Amy": the report goes on.
_GOES_ON = re.compile(r"^\W*(?:and|or|but)\s+(?:(?:just|also|then)\s+)?([\w'-]+)", re.IGNORECASE)


def goes_on(piece: str) -> bool:
    """Whether a clause with no subject goes on with a report before it: `and` and a past."""
    found = _GOES_ON.match(piece)
    return found is not None and past(found.group(1))


_TITLE = re.compile(r"\b(?!I\b|I')[A-Z][\w'-]*")


def untitled(piece: str) -> str:
    """`piece` without its capitalised words (but `I`): a title's hedge words (`"Dream Big
    Planning" seminar`) hedge nothing a report says."""
    return _TITLE.sub(" ", piece)
