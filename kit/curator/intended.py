"""An act said only as meant, tried or refused is not done (issue 29, round 17B).

"I'm considering a job relocation" does not say "the owner is relocating", "I had to decline
Laura's invitation to the brainstorming session" does not say "the owner joined it", and "I'm
gonna chat with local leaders" does not say "John met local leaders". Every word but the verb
may be in the message, so the word-level guard (kit/curator/judge.py) and the meaning check
store such a fact. Here the fact's act (its main verb after its subject, or a describing word
after `is`: `relocating`, `joined`, `resilient`) is looked for in what it cites, in its family
(kit/curator/related.py: relocate, relocation); where the message never says the act, the
head of what the act is done to stands in for it (`the brainstorming session`: session), under
a try, an arrangement or a refusal only (`I'd love to grow my newsletter`: the wish governs
`grow`, not whether the owner writes it). The fact is no fact when every place that says it is
governed by a frame that only means, tries or refuses it (kit/curator/act_frames.py: meant,
arranged, possible, generic, asked, tried, refused or denied). A fact that itself says the
plan, the try, the refusal or the future (`is considering relocating`, `applied for`, `will
attend`), or denies the act, is left alone (kit/curator/fact_act.py reads the fact's act); so
is one that says the act going on after a try or an arrangement (`is learning Spanish` from
`trying to learn Spanish`).

What it cannot tell: whose act a clause states (`a buddy of mine adopted` is not the owner's;
that is the word-level guard's reading, and kit/curator/echoed.py's where the speaker only
weighs doing it too: round 34B), a frame far from what it governs (`thinking of asking
Michael, my friend from the library, for some feedback`), and an act said by a verb outside
the act's family when the thing it is done to is said only inside a try, an arrangement or a
refusal (`I was gonna skip the workshop, but went anyway`: kept out). Deterministic; no model.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

from kit.curator.act_frames import (
    ARTICLES,
    base_form,
    coordinated,
    frame_of,
    framed_after,
    generic,
    lemmas,
)
from kit.curator.echoed import done_by_person, weighs_doing_too
from kit.curator.evaluated import weighed
from kit.curator.fact_act import WORD, head_of, read_act
from kit.curator.offered import offered_by
from kit.curator.persons import person
from kit.curator.related import family, thing
from kit.curator.undoing import NOT_DONE
from kit.curator.whose_act import agents_of, done_by_other, others_of, owned_by_other
from kit.curator.whose_thing import (
    by_other,
    details,
    modifier,
    own,
    relates_only,
    says_details,
)
from kit.curator.wording import fold, stem

Says = Callable[[str, str], str | None]  # a word, the next: how it says the act, or None

# A try the same sentence says came off ("trying to cut it, and managed to bring it down").
_ACHIEVED = frozenset({"managed", "succeeded", "able"})
ACT_GAP = 4  # words a frame may stand before the act it governs ("considering | using")
HEAD_GAP = 8  # ... and before the head of what the act is done to ("decline | Laura's ...")
_SENTENCE = re.compile(r"(?<=[.!?])\s+|\n+")


def unmet_act(fact: str, cited: Iterable[str]) -> str | None:
    """The act `fact` says as done that `cited` says only meant, tried or refused (module
    note), or None."""
    act = read_act(fact)
    if act is None:
        return None
    word, tense, rest = act
    cited = list(cited)
    said = [fold(t).lower() for t in cited]
    forms = _forms(word)
    particle = rest[0] if rest[:1] and rest[0] in _PARTICLES else ""
    words = WORD.findall(fold(fact).lower())
    subject = words[: words.index(word)] if word in words else words
    others, agents = others_of(subject, cited), agents_of(words, subject, cited)

    def says(w: str, n: str) -> str | None:
        return _says_act(w, n, forms, particle)

    # a fact about a person named by a common noun ("a friend of Melanie's adopted") says
    # that one's act: not read as another's (kit/curator/echoed.py)
    mine = not any(person(w.removesuffix("'s")) for w in subject)
    frames = [f for s in said for f in _framings(s, says, ACT_GAP, others, agents, echo=mine)]
    if not frames:
        head = head_of(rest)
        if head is None:
            return None
        key = stem(head)
        # the possessives the fact does not name itself (`attended Priya's seminar`)
        theirs = frozenset(
            o for o in others if o.removesuffix("'s") not in words and o not in words
        )
        if relates_only(word):  # "attended Priya's seminar": hers to run, the subject's to attend
            theirs, agents = frozenset(), frozenset()
        wanted = details(words, [*subject, word, head])

        def head_said(w: str, _n: str) -> str | None:
            return "head" if stem(w) == key else None

        frames = [
            f
            for s in said
            for f in _framings(s, head_said, HEAD_GAP, theirs, agents, wanted, echo=mine)
        ]
        if "meant" in frames:  # "I want to share | my blog": a wish's verb, not the act's
            return None
        if frames and set(frames) == {"refused"} and offered_by(said, frozenset({key}), subject):
            return None  # "declining shift requests from Marcus": he asked (34C)
    elif set(frames) == {"refused"} and offered_by(said, forms, subject):
        return None  # "decline Leo's invitation": Leo invited (34C)
    if NOT_DONE.search(word):  # "cancelled" from "call off the clean-up": the act said
        frames = [None if f == "undone" else f for f in frames]
    if not frames or any(f is None for f in frames):
        return None  # said as done somewhere (or nowhere)
    if tense == "going" and all(f in ("tried", "arranged") for f in frames):
        return None  # "is learning Spanish" from "trying to learn Spanish"
    if tense != "done" and all(f == "set" for f in frames):
        return None  # "holds quarterly reviews" from "I've scheduled quarterly reviews"
    if tense == "now" and all(f == "tried" for f in frames):
        return None  # "practises scales daily" from "trying to practise scales daily"
    if stem(word) in _DECIDED and all(f == "arranged" for f in frames):
        return None  # "picked 'The Name of the Wind'" from "I'll try 'The Name of the Wind'"
    if "asked" in frames and {*frames} == {"asked", "arranged"}:
        return None  # a question the owner answers: "should I go for it?" / "I'll go for it"
    return word


# A decision is made when its outcome is arranged ("I'll go with the refundable option").
# (`stem` takes "chose" and "chosen" to "choose".)
_DECIDED = frozenset(
    stem(w) for w in "decided choose picked opted selected settled committed agreed".split()
)


def _forms(word: str) -> frozenset[str]:
    return frozenset(stem(f) for f in family(word) | {word} if len(f) >= 4)


def _says_act(word: str, following: str, forms: frozenset[str], particle: str = "") -> str | None:
    """Whether `word` says the act: "verb", "noun" (a noun-only form: `a job relocation`), or
    None (not the act, or a noun-only form naming another noun: `my relocation budget`; or
    the verb with another particle than the fact's: `setting aside` for `set up`)."""
    if stem(word) not in forms:
        return None
    if particle and following in _PARTICLES and following != particle:
        return None
    if any(p in ("verb", "adj") for p, _ in lemmas(word)):
        return "verb"
    return None if following and thing(following) else "noun"


# The particles of a phrasal verb: `set up` and `set aside` are two acts (round 28A).
_PARTICLES = frozenset("up down out off aside away back over".split())


def _framings(
    said: str,
    says: Says,
    gap: int,
    others: frozenset[str] = frozenset(),
    agents: frozenset[str] = frozenset(),
    wanted: frozenset[str] = frozenset(),
    echo: bool = True,
) -> list[str | None]:
    """For each place of `said` that `says` (a word, the next word), the frame that governs
    it ("meant", "arranged", "tried", "refused", "asked", "undone"; "others": a noun phrase
    another's possessive opens, kit/curator/whose_act.py), or None where it is said as
    done."""
    found: list[tuple[str | None, bool]] = []
    given = False  # a thing already given to another in this message (kit/curator/whose_thing.py)
    too = echo and weighs_doing_too(said)  # "maybe I should too" (kit/curator/echoed.py)
    for sentence in _SENTENCE.split(said):
        words = [w.group().lower() for w in WORD.finditer(sentence)]
        for n, word in enumerate(words):
            following = words[n + 1] if n + 1 < len(words) else ""
            if how := says(word, following):
                if how == "verb" and modifier(words[:n], following):
                    continue  # "my audition notes": notes, no audition
                if found and words[n - 1 : n] in (["these"], ["those"]):
                    continue  # "... during these interviews": the ones said before
                if how == "verb" and _undone_noun(words[:n]):
                    how = "noun"  # "skipping the Denver trip": a noun here, not the act
                frame = frame_of(words[:n], gap, how)
                if frame is None and how == "verb" and base_form(word):
                    frame = coordinated(words[:n], gap)  # "I'll finish it and | send"
                if frame is None and how == "noun" and generic(words[:n], following):
                    frame = "generic"  # "For me, adoption is a way of giving back"
                if frame is None and how == "verb" and weighed(word, words[:n], words[n + 1 :]):
                    frame = "generic"  # "Joining a choir can be uplifting" (round 31E)
                if frame is None and how != "verb":
                    frame = framed_after(" ".join(words[n + 1 : n + 7]))
                if frame == "tried" and _ACHIEVED & set(words[n + 1 :]):
                    frame = None
                if frame is None and owned_by_other(words[:n], others):
                    frame = "others"  # "thanks to Linda's recommendation" (round 28A)
                if frame is None and how == "verb" and done_by_other(words[:n], agents):
                    frame = "others"  # "my friend Megan recommended" (round 28A)
                if frame is None and how == "verb" and too and done_by_person(words[:n]):
                    frame = "others"  # "a buddy of mine adopted ... maybe I should too"
                if frame is None and how != "verb" and by_other(words[n + 1 :], agents):
                    frame = "others"  # "the mural by artist Jonas Whitfield"
                if frame is None and how != "verb" and given and not own(words[:n]):
                    frame = "others"  # "Nadia's rehearsals ... the two rehearsals"
                given = given or frame == "others"
                found.append((frame, bool(wanted) and says_details(words, n, wanted)))
    if any(near for _, near in found):  # "Gareth's thesis on river ecology ... my thesis"
        found = [place for place in found if place[1]]
    return [frame for frame, _ in found]


def _undone_noun(before: list[str]) -> bool:
    """Whether a form of the act just after `before` follows an article that a verb of not
    doing governs ("skipping the Denver | trip"; not "blend my | love": a noun there too,
    but read as the act, as round 17B did)."""
    return bool(ARTICLES & set(before[-2:])) and NOT_DONE.search(" ".join(before[-5:])) is not None
