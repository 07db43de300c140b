"""The frames that hold an act back in a message: meant, tried, refused (issue 29, round 17B).

kit/curator/intended.py looks for a fact's act in what it cites; this module reads, at each
place that says it, the frame that governs it there, and the frames a fact may say itself
(`IN_FACT`: a fact that says one is left alone). Moved out of kit/curator/intended.py in round
34D, unchanged:

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
form of the act before another noun (`my relocation budget`) names no act. Deterministic; no
model.
"""

from __future__ import annotations

import re

from kit.curator.related import wordnet_or_none
from kit.curator.undoing import NOT_DONE

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
IN_FACT = re.compile(rf"\b(?:{_MEANT}|{_ARRANGED}|{_SET}|{_TRIED}|{_REFUSED}|{_FUTURE})\b")
# A negation right before the act denies it ("have never practiced"); in the fact, it denies
# the act itself.
NEGATIONS = frozenset({"not", "never", "no", "cannot"})
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
ARTICLES = frozenset({"the", "a", "an", "my", "our", "his", "their"})


def lemmas(word: str) -> tuple[tuple[str, str], ...]:
    net = wordnet_or_none()
    return () if net is None else net.lemmas(word)


def _verb(word: str) -> bool:
    """A word only a verb can be here (not an article, a noun or a describing word)."""
    parts = {p for p, _ in lemmas(word)}
    return "verb" in parts and not parts & {"noun", "adj"}


def framed_after(after: str) -> str | None:
    """A frame the words after a thing put it in: "the grant | I applied for", "the offer |
    I turned down", "the bike | I'm considering"."""
    found = _AFTER.match(after)
    if found is None:
        return None
    frame = found.group("frame")  # "wanted", "hoping for": a wish, so meant
    return next((kind for kind, pattern in _FRAMES if pattern.search(frame)), "meant")


def frame_of(before: list[str], gap: int, said: str) -> str | None:
    """The frame among the words `before` a place that governs it: at most `gap` words
    before it, with no clause opening between; `said`: how the place says it ("verb" or
    "noun": the act, governed at once or as a frame's object; "head": what it is done to,
    not given as a description)."""
    act = said != "head"
    if said == "verb":
        before = _unwrapped(before)  # "I'll | make sure to | enable"
    if said == "noun" and before[-1:] == ["for"]:
        return "meant"  # a purpose: "a council meeting for adoption"
    if act and any(w in NEGATIONS or w.endswith("n't") for w in before[-2:]):
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


_POINTING = (["that"], ["this"])
# What a promise may go through to its act: "I'll make sure to enable 2FA" (round 27A).
_THROUGH = (["make", "sure", "to"], ["making", "sure", "to"])
# A possibility another verb opens on the fact's thing ("I can add dance-inspired items").
_POSSIBLE = re.compile(r"\b(?:i|we) (?:can|could)$")
COORDINATED_GAP = 8  # words a first verb may stand before `and` and the second verb


def generic(before: list[str], following: str) -> bool:
    """Whether a noun-only form of the act, bare and the subject of `is`, names the idea of
    it, not an act done ("adoption is a way of giving back"; not "the adoption is final")."""
    return following == "is" and not (before[-1:] and before[-1] in _DETERMINED)


_DETERMINED = ARTICLES | {"this", "that", "her", "your", "its", "whose"}


def base_form(word: str) -> bool:
    """Whether `word` is a verb's base form ("send"; not "sent", "sends")."""
    return any(p == "verb" and lemma == word for p, lemma in lemmas(word))


def _unwrapped(before: list[str]) -> list[str]:
    """The words before an act without a "make sure to" just before it."""
    for through in _THROUGH:
        if before[-len(through) :] == through:
            return before[: -len(through)]
    return before


def coordinated(before: list[str], gap: int) -> str | None:
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
        if any(p == "verb" for p, _ in lemmas(first[j])):
            frame = frame_of(first[:j], gap, "verb")
            if frame is not None:
                return frame
    return None
