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
governed by a frame that only means, tries or refuses it:

- meant: `considering`, `thinking of`, `hoping`, `want to`, `wish`, `a goal to`, ...; a bare
  act named as a purpose (`a meeting for adoption`); the own clause of a wish, a hope or a
  wait (`wish I was that resilient`, `can't wait 'til my studio starts welcoming`);
- arranged: `gonna`, `going to`, `planning to`, `determined to`, `looking forward to`, ...;
  a promise or a booking (`I'll`, `will`, `booked`: round 22B), except for a decision, which
  the outcome it arranges says is made (`picked 'The Name of the Wind'` from `I'll try ...`);
  a proposal (`let's send the invite`); through `make sure to` (`I'll make sure to enable
  2FA`), and on to a second verb in its base form that `and` joins with no new subject (`I'll
  finish the proposal and send out the invite`: round 27A; not `tried to fix it and gave up`);
- possible: `I can`, `we could` before another verb whose object is the fact's thing (`I can
  add dance-inspired items to my store` says no items are sold: round 27A; `I can speak French`
  says the act itself, an ability, and is left alone);
- generic: a noun-only form of the act, bare, as the subject of `is` (`For me, adoption is a
  way of giving back` names the idea, not an adoption: round 27A; not `our adoption is final`);
- asked: `how do I`, `how to`, `should I`, `whether to` before the act itself
  (round 27D: `how do I track my progress in Excel?` says no tracking); help asked for
  with it (round 34B: `any advice on reaching my audience?` says none reached); an act
  asked about in one cited message and promised in another (`should I go for the prepaid
  plan?` / `I'll go for it`) is a decision made, as it was before;
- tried: `trying to`, `searching for`, `looking for`, `applied for`, unless the sentence says
  it came off (`and managed to bring it down`);
- refused or denied: `decline`, `turned down`, `refused`, `rejected`; a negation just before
  the act (`have never practiced`); a verb of not doing (round 24D, kit/curator/undoing.py's
  NOT_DONE: `skipping the Denver trip`, `bailed on`, `called off`, `backed out of`; a frame
  of its own, `undone`, not held against a fact whose act is one), which makes a form of the
  act after an article a noun (`the Denver trip` for `went to Denver`).

A frame governs the act right after it (a few adverbs between: `considering | using`), a noun
form of it as its object (`considering a job relocation`), or the head within a few words, and
never across a new clause (`, and I've`, `how`, `that`, a subject); a relative clause puts the
thing before it in one too (`the grant I applied for`, `the offer I turned down`). A noun-only
form of the act before another noun (`my relocation budget`) names no act. A fact that itself
says the plan, the try, the refusal or the future (`is considering relocating`, `applied for`,
`will attend`), or denies the act, is left alone; so is one that says the act going on after a
try or an arrangement (`is learning Spanish` from `trying to learn Spanish`).

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

from kit.curator.echoed import done_by_person, weighs_doing_too
from kit.curator.evaluated import weighed
from kit.curator.offered import offered_by
from kit.curator.persons import person
from kit.curator.related import family, thing, wordnet_or_none
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
from kit.curator.wording import HEDGES, fold, stem

Says = Callable[[str, str], str | None]  # a word, the next: how it says the act, or None

# What may stand before a fact's act: its subject and auxiliaries.
_LEADING = re.compile(
    r"^\s*(?:while|when|after|before|since|starting|during|in|on|for|as|once|by)\b[^,]*,\s*",
    re.I,
)
_SUBJECT = frozenset({"owner", "user", "he", "she", "they", "we", "i", "it"})
_AUXILIARY = frozenset(
    """has have had do does did will would can could may might shall should also already
    just now recently finally successfully often usually always regularly""".split()
)
_DEGREE = frozenset({"as", "so", "very", "really", "more", "too", "quite", "pretty", "most"})
_COPULA = frozenset({"is", "are", "was", "were", "am", "be", "been", "seems", "feels"})
_SKIP = frozenset(
    """the a an owner owner's user user's is are was were am be been being has have had do
    does did will shall can also already just now still recently finally successfully
    currently often usually always regularly really actually who that this these those his
    her their its my our your as""".split()
)
# Frames, read on the words just before the act in the message (and in the fact: a fact that
# says one is left alone). Meant and undecided; arranged (a fact that says the act going on,
# `is celebrating on 12 September`, is what an arrangement says); tried; refused.
_MEANT = (
    r"consider(?:s|ed|ing)?|thinking (?:of|about)|think(?:s)? (?:of|about)|hop(?:e|es|ed|ing)"
    r"|hopefully|wants? to|wanted to|wanna|would like|'d like|would love|'d love"
    r"|wish(?:es|ed|ing)?|dream(?:s|ed|ing)? (?:of|about)|goal (?:is |was )?to|aim(?:s|ing)? to"
    r"|intend(?:s|ed|ing)? to|interested in|keen to|weighing|ideal"
    r"|look(?:s|ed|ing)? into"  # "I'll look into setting up a power of attorney" (round 28A)
)
# An act asked about ("how do I track my progress", "should I use the STAR method"): meant,
# but only the verb right after it (`how to incorporate Heather's suggestion`: the
# suggestion was made) (round 27D; round 22B's L4).
_ASKED = (
    r"how (?:do|can|should|could|would) (?:i|we)|how to|should (?:i|we)|whether to"
    # help asked for with an act: "any advice on reaching my audience?" (round 34B)
    r"|(?:advice|tips|help|ideas|suggestions|pointers) (?:on|with|for|about)"
)
_ARRANGED = (
    r"plan(?:s|ned|ning)? (?:to|on)|gonna|going to|determined to|can'?t wait(?: to)?"
    r"|cannot wait(?: to)?|about to|looking forward to|excited to|ready to"
    # a booking, a promise: what they name is still to come (a decision they arrange is
    # made: `_DECIDED`) (round 22B)
    r"|booked|booking|'ll|will"
    r"|let's"  # a proposal: "let's send the invite" (round 27A)
)
# A place taken, a date set, an invitation: what they name is going on or to come, not done
# ("I've enrolled in a workshop" says no workshop completed; it says one taken) (round 28A).
# An invitation only as `invited by X to`: `X invited me to` cost an unseen set a supported
# fact (measured), the owner's part often said after it in other words.
_SET = (
    r"scheduled|enrol(?:l|ls|led|ling)? (?:in|for)|sign(?:s|ed|ing)? up (?:for|to)"
    r"|regist(?:er|ers|ered|ering) (?:for|to)|invited by [a-z]+ to"
)
_TRIED = (
    r"try(?:ing)? to|tries to|tried to|attempt(?:s|ed|ing)? to|search(?:es|ed|ing)? for"
    r"|look(?:s|ed|ing)? for|hunting for|appl(?:y|ies|ied|ying) (?:for|to)"
)
_REFUSED = (
    r"declin(?:e|es|ed|ing)|turn(?:s|ed|ing)? down|refus(?:e|es|ed|ing)(?: to)?"
    r"|reject(?:s|ed|ing)?|said no to|say no to|pass(?:ed)? on"
)
_FRAMES = tuple(
    (kind, re.compile(rf"\b(?:{words})$"))
    for kind, words in (
        ("meant", _MEANT), ("arranged", _ARRANGED), ("set", _SET), ("tried", _TRIED),
        ("refused", _REFUSED),
        ("undone", NOT_DONE.pattern),  # skipped, called off, backed out of (round 24D)
        ("asked", _ASKED),
    )
)  # fmt: skip
# A wish, a hope or a wait whose own clause holds the act: its subject and an auxiliary
# between ("wish I was that | resilient", "can't wait 'til my studio starts | welcoming").
_WISHED = re.compile(
    r"\b(?:wish(?:es|ed)?|hop(?:e|es|ing)|dream(?:s|ing)?|imagine|wait (?:'til|til|till|until))"
    r"(?: that)? (?:i|we|he|she|they|it|you|(?:my|our|his|her|their|the) [a-z'-]+(?: [a-z'-]+)?)"
    r"(?: (?:was|were|had|could|would|'d|will|can|get to|be|is|are|starts?|begins?|finally"
    r"|really|so|that|as|more|already))*$"
)
# ... and a thing a relative clause puts in one ("the grant I applied for").
_AFTER = re.compile(
    r"(?:that |which )?(?:i|we|i've|we've|i'm|we're|i'd|i was|we were|i am)"
    r"(?: (?:just|already|recently|also|really|still))? "
    rf"(?P<frame>{_TRIED}|{_REFUSED}|consider(?:ed|ing)|hop(?:ed|ing) for|wanted|want"
    r"|plan(?:ned|ning) (?:on|for)|(?:was |am |'m )?thinking (?:of|about))\b"
)
# A fact in the future says an arrangement as one ("will attend", "is set to start").
_FUTURE = r"will|'ll|shall|set to|scheduled|due to|upcoming"
_IN_FACT = re.compile(rf"\b(?:{_MEANT}|{_ARRANGED}|{_SET}|{_TRIED}|{_REFUSED}|{_FUTURE})\b")
# A try the same sentence says came off ("trying to cut it, and managed to bring it down").
_ACHIEVED = frozenset({"managed", "succeeded", "able"})
# A negation right before the act denies it ("have never practiced"); in the fact, it denies
# the act itself.
_NEGATIONS = frozenset({"not", "never", "no", "cannot"})
_WORD = re.compile(r"[a-z][a-z'-]*", re.I)
# Words that end what a frame governs: a new clause, a question inside it, a subject.
_CLAUSE = frozenset(
    """how what if whether that which who whom when why where because so and but or since
    while until til 'til before after i i'm i've i'd i'll you you're we we're we've he he's
    she she's they they're it it's there there's is was are were has""".split()
)
# What may stand between a frame and the act it governs: "considering | really | moving".
_SOFT = frozenset(
    """really actually finally also just still seriously even maybe possibly eventually
    definitely start starting begin begins beginning get by""".split()
)  # "by": "I'll start by | opening ..." (round 28A)
ACT_GAP = 4  # words a frame may stand before the act it governs ("considering | using")
HEAD_GAP = 8  # ... and before the head of what the act is done to ("decline | Laura's ...")
_ARTICLES = frozenset({"the", "a", "an", "my", "our", "his", "their"})
_SENTENCE = re.compile(r"(?<=[.!?])\s+|\n+")


def unmet_act(fact: str, cited: Iterable[str]) -> str | None:
    """The act `fact` says as done that `cited` says only meant, tried or refused (module
    note), or None."""
    act = _act(fact)
    if act is None:
        return None
    word, tense, rest = act
    cited = list(cited)
    said = [fold(t).lower() for t in cited]
    forms = _forms(word)
    particle = rest[0] if rest[:1] and rest[0] in _PARTICLES else ""
    words = _WORD.findall(fold(fact).lower())
    subject = words[: words.index(word)] if word in words else words
    others, agents = others_of(subject, cited), agents_of(words, subject, cited)

    def says(w: str, n: str) -> str | None:
        return _says_act(w, n, forms, particle)

    # a fact about a person named by a common noun ("a friend of Melanie's adopted") says
    # that one's act: not read as another's (kit/curator/echoed.py)
    mine = not any(person(w.removesuffix("'s")) for w in subject)
    frames = [f for s in said for f in _framings(s, says, ACT_GAP, others, agents, echo=mine)]
    if not frames:
        head = _head(rest)
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


def _act(fact: str) -> tuple[str, str, list[str]] | None:
    """The fact's act (its main verb, or a describing word after `is`), its tense (_tense),
    and the words after it; None when the fact frames or denies it itself, or names no act."""
    main = _LEADING.sub("", fold(fact))  # "While preparing ..., the owner tried ..."
    shown = _WORD.findall(main)
    words = [w.lower() for w in shown]
    for i, word in enumerate(words):
        if word in _SKIP or word.endswith("'s") or shown[i][:1].isupper():
            continue
        last = max((j for j in range(i) if words[j] not in _DEGREE), default=-1)
        if last > 0 and words[last - 1 : last + 1] == ["had", "to"]:
            last -= 1  # "had to take a break": the act is done, `had` its auxiliary (31E)
        if not _verb_here(word, words[last] if last >= 0 else "", shown[last] if last >= 0 else ""):
            continue
        tense = _tense(word, words[:i])  # of "went", in "went hiking"
        if ("verb", _GO) in _parts(word):
            ahead = words[i + 1 : i + 2 + _KIND]
            gerund = next((j for j, w in enumerate(ahead) if w.endswith("ing")), None)
            if gerund is not None and "verb" in {p for p, _ in _parts(ahead[gerund])}:
                i, word = i + 1 + gerund, ahead[gerund]  # "goes rock climbing": climbing
        said = words[: i + 2]
        if _IN_FACT.search(" ".join(said)) or any(w in HEDGES for w in said):
            return None  # the plan said as a plan: "is considering relocating"
        if any(w in _NEGATIONS or w.endswith("n't") for w in words[:i]):
            return None  # the act denied
        return word, tense, words[i + 1 :]
    return None


def _tense(word: str, before: list[str]) -> str:
    """ "going" (`is relocating`), "done" (`relocated`, `has found`, `met`) or "now"."""
    if word.endswith("ing") and before[-1:] and before[-1] in _COPULA:
        return "going"
    if word.endswith("ed") or _PERFECT & set(before):
        return "done"
    if before[-1:] and before[-1] in _SINGULAR and not word.endswith("s"):
        return "done"  # "the owner set up": a singular subject's bare form is the past
    irregular = all(lemma != word for _, lemma in _parts(word))
    return "done" if irregular and not word.endswith("s") else "now"


_PERFECT = frozenset({"has", "have", "had", "was", "were"})
# "goes rock climbing", "went salsa dancing": go and a gerund say the gerund's act (round 34B).
_GO = "go"
_KIND = 2  # words naming the doing's kind between them
_SINGULAR = frozenset({"owner", "user", "he", "she"})


def _verb_here(word: str, previous: str, shown: str) -> bool:
    """Whether `word`, after `previous`, is the fact's main verb: a verb after its subject
    (`the owner`, a name, a pronoun) or an auxiliary, or one inflected (-s, -ed; -ing only
    after `is`); a describing word only just after `is` (`is resilient`)."""
    net = wordnet_or_none()
    inflected_after_subject = previous in _SUBJECT and word.endswith(("s", "ed"))
    if net is None or (thing(word) and not inflected_after_subject):
        return False  # "the owner tracks progress": a verb, whatever else it names
    parts = {p for p, _ in net.lemmas(word)}
    if previous in _COPULA and "adj" in parts:
        return True
    if "verb" not in parts:
        return False
    if word.endswith("ing"):
        return previous in _COPULA
    after_subject = previous in _SUBJECT or (shown[:1].isupper() and not shown.endswith("'s"))
    inflected = word.endswith(("s", "ed")) or all(lemma != word for _, lemma in net.lemmas(word))
    return after_subject or previous in _AUXILIARY or inflected


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
    if any(p in ("verb", "adj") for p, _ in _parts(word)):
        return "verb"
    return None if following and thing(following) else "noun"


# The particles of a phrasal verb: `set up` and `set aside` are two acts (round 28A).
_PARTICLES = frozenset("up down out off aside away back over".split())


def _parts(word: str) -> tuple[tuple[str, str], ...]:
    net = wordnet_or_none()
    return () if net is None else net.lemmas(word)


def _verb(word: str) -> bool:
    """A word only a verb can be here (not an article, a noun or a describing word)."""
    parts = {p for p, _ in _parts(word)}
    return "verb" in parts and not parts & {"noun", "adj"}


def _head(rest: list[str]) -> str | None:
    """The head of what the act is done to: the last word of the first noun phrase after it
    (`Laura's late-night brainstorming session on ...`: session)."""
    phrase: list[str] = []
    for word in rest:
        if word in {"for", "with", "to", "at", "in", "on", "into", "from", "about", "of"}:
            if phrase:
                break
            continue
        if word in _SKIP or word in {"a", "an", "some", "many", "any"}:
            if phrase:
                break
            continue
        if word in {"and", "or", "by", "which", "who", "that"}:
            break
        phrase.append(word)
    nouns = [w for w in phrase if not w.endswith("'s")]
    if nouns and (parts := _parts(nouns[-1])) and all(p != "noun" for p, _ in parts):
        return None  # "stays | focused": what the act is, not what it is done to (34C)
    return nouns[-1] if nouns and len(nouns[-1]) >= 3 else None


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
        words = [w.group().lower() for w in _WORD.finditer(sentence)]
        for n, word in enumerate(words):
            following = words[n + 1] if n + 1 < len(words) else ""
            if how := says(word, following):
                if how == "verb" and modifier(words[:n], following):
                    continue  # "my audition notes": notes, no audition
                if found and words[n - 1 : n] in (["these"], ["those"]):
                    continue  # "... during these interviews": the ones said before
                if how == "verb" and _undone_noun(words[:n]):
                    how = "noun"  # "skipping the Denver trip": a noun here, not the act
                frame = _frame(words[:n], gap, how)
                if frame is None and how == "verb" and _base(word):
                    frame = _coordinated(words[:n], gap)  # "I'll finish it and | send"
                if frame is None and how == "noun" and _generic(words[:n], following):
                    frame = "generic"  # "For me, adoption is a way of giving back"
                if frame is None and how == "verb" and weighed(word, words[:n], words[n + 1 :]):
                    frame = "generic"  # "Joining a choir can be uplifting" (round 31E)
                if frame is None and how != "verb":
                    frame = _framed_after(" ".join(words[n + 1 : n + 7]))
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
    return bool(_ARTICLES & set(before[-2:])) and NOT_DONE.search(" ".join(before[-5:])) is not None


def _framed_after(after: str) -> str | None:
    """A frame the words after a thing put it in: "the grant | I applied for", "the offer |
    I turned down", "the bike | I'm considering"."""
    found = _AFTER.match(after)
    if found is None:
        return None
    frame = found.group("frame")  # "wanted", "hoping for": a wish, so meant
    return next((kind for kind, pattern in _FRAMES if pattern.search(frame)), "meant")


def _frame(before: list[str], gap: int, said: str) -> str | None:
    """The frame among the words `before` a place that governs it: at most `gap` words
    before it, with no clause opening between; `said`: how the place says it ("verb" or
    "noun": the act, governed at once or as a frame's object; "head": what it is done to,
    not given as a description)."""
    act = said != "head"
    if said == "verb":
        before = _unwrapped(before)  # "I'll | make sure to | enable"
    if said == "noun" and before[-1:] == ["for"]:
        return "meant"  # a purpose: "a council meeting for adoption"
    if act and any(w in _NEGATIONS or w.endswith("n't") for w in before[-2:]):
        return "refused"  # "have never practiced"
    if said == "verb" and _WISHED.search(" ".join(before[-8:])):
        return "meant"  # "wish I was that resilient", "can't wait 'til my studio starts ..."
    for back in range(gap + 1):
        between = before[len(before) - back :] if back else []
        if any(w in _CLAUSE for w in between[1 if between[:1] in _POINTING else 0 :]):
            return None  # a clause opens; not "rejecting | that offer": a determiner there
        if said == "verb" and any(w not in _SOFT and not w.endswith("ly") for w in between):
            return None  # the frame governs another verb: "trying to set limits by limiting"
        if said == "noun" and any(_verb(w) for w in between):
            return None  # ... and a noun only as its own object: "considering a job relocation"
        ending = " ".join(before[max(0, len(before) - back - 4) : len(before) - back])
        for kind, pattern in _FRAMES:
            if kind == "asked" and (said != "verb" or back):
                continue
            if pattern.search(ending):
                return kind
        if not act and _POSSIBLE.search(ending):
            return "possible"  # "I can add | dance-inspired items": sold? not said
    return None


# A word that opens a clause or points at a thing: right after a frame, it points (round 28A).
_POINTING = (["that"], ["this"])
# What a promise may go through to its act: "I'll make sure to enable 2FA" (round 27A).
_THROUGH = (["make", "sure", "to"], ["making", "sure", "to"])
# A possibility another verb opens on the fact's thing ("I can add dance-inspired items").
_POSSIBLE = re.compile(r"\b(?:i|we) (?:can|could)$")
COORDINATED_GAP = 8  # words a first verb may stand before `and` and the second verb


def _generic(before: list[str], following: str) -> bool:
    """Whether a noun-only form of the act, bare and the subject of `is`, names the idea of
    it, not an act done ("adoption is a way of giving back"; not "the adoption is final")."""
    return following == "is" and not (before[-1:] and before[-1] in _DETERMINED)


_DETERMINED = _ARTICLES | {"this", "that", "her", "your", "its", "whose"}


def _base(word: str) -> bool:
    """Whether `word` is a verb's base form ("send"; not "sent", "sends")."""
    return any(p == "verb" and lemma == word for p, lemma in _parts(word))


def _unwrapped(before: list[str]) -> list[str]:
    """The words before an act without a "make sure to" just before it."""
    for through in _THROUGH:
        if before[-len(through) :] == through:
            return before[: -len(through)]
    return before


def _coordinated(before: list[str], gap: int) -> str | None:
    """The frame of a first verb that `and` joins to a second in its base form, with no new
    subject between ("I'll finish the playlist and | send out", "going to pick a caterer and
    | book"): the frame governs both. A finite second verb is said on its own ("tried to fix
    it and | gave up")."""
    if before[-1:] != ["and"]:
        return None
    first = before[:-1]
    for j in range(len(first) - 1, max(-1, len(first) - 1 - COORDINATED_GAP), -1):
        if first[j] in _CLAUSE:
            return None
        if any(p == "verb" for p, _ in _parts(first[j])):
            frame = _frame(first[:j], gap, "verb")
            if frame is not None:
                return frame
    return None
