"""A choice or a commitment said in other words (issue 29, round 25B).

A curator words what a speaker settles on with a frame verb the speaker did not use: `The owner
chose "Mistborn"` from `I think I'll go with "Mistborn"`, `decided to try the trial period` from
`I'll give the trial period a shot`, `is willing to name Stephanie as guardian` from `I'm okay
with naming Stephanie as the guardian`. The word-level guard (kit/curator/judge.py) finds the
rest of such a fact and misses the frame verb (`chose`, `decided`, `willing`), whose WordNet
relations (kit/curator/related.py) say none of those. Here a fact's frame verb of choosing or
committing (FRAMES) is said where a cited message commits, in the speaker's own first person,
to what the fact says was chosen (COMMITS: `I'll go with`, `I think I'll try`, `I'm okay with`,
`let's go with`, `I've decided on`, `count me in`, `I chose`), and only there:

- the commitment must name what the fact's frame governs: a name or a thing among the first
  words after the frame verb (`chose Frank Herbert's Dune series`: Frank, Herbert, Dune,
  series), said in the commitment's sentence after it (`Kelly went with Dune, and I'll go
  with Mistborn` does not say the owner chose Dune), or anywhere in that sentence when
  nothing follows it (`the charity run sounds fun, count me in!`);
- a question (`should I go with Mistborn?`), a supposition before it (`if it's cheap, I'll
  go with it`), a plan (`I'm thinking of going with ...`: no commitment), someone else's choice
  (`Kelly went with ...`) and a denial (`I won't go with ...`, `I'll never pick ...`, `I'm not
  okay with ...`) commit to nothing, nor does one still between two (`I'll go with either the
  blue tiles or the green ones`).

Whose the commitment is, is the guard's reading of who said what (judge.py: the owner's frame
rests on the owner's messages, a named person's on theirs). Deterministic; no model.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from kit.curator.clause_words import word_key
from kit.curator.related import thing
from kit.curator.wording import STOP, fold, stem, tokens

# A fact's frame verbs of choosing or committing, as stems (`stem` takes "chose" to
# "choose"); "went" only before "with" or "for" ("went with the blue one").
FRAMES = frozenset(
    stem(w)
    for w in "choose pick opt select decide settle willing agree commit choice decision".split()
)
_GO = stem("went")
_GO_WITH = frozenset({"with", "for"})

# The speaker commits: first person, said as so. What follows it is what it commits to.
_ADVERBS = r"(?: (?:probably|definitely|just|also|actually|really|then|now|finally|totally))*"
_DO = (
    r"go (?:with|for)|take|try|give|stick with|pick|choose|opt for|settle (?:on|for)|get|do"
    r"|use|start|join|sign up"
)
COMMITS = re.compile(
    r"\b(?:"
    rf"(?:i|we)(?:'ll| will){_ADVERBS} (?:{_DO})\b"
    rf"|let's{_ADVERBS} (?:{_DO})\b"
    r"|(?:i|we)(?:'ve| have)? (?:decided|settled) (?:to|on)\b"
    r"|(?:i|we)(?:'ve| have)? (?:made up (?:my|our) mind|made (?:my|our|a|the) decision)\b"
    r"|(?:i|we)(?:'ve| have)? (?:chosen|chose|picked|selected|opted for|went with|gone with"
    r"|settled on|settled for)\b"
    r"|(?:i'm|i am|we're|we are)(?: definitely| totally)? (?:going with|sold on|in for"
    r"|(?:totally |perfectly )?(?:okay|ok|fine|good|happy|comfortable|on board) with)\b"
    r"|count (?:me|us) in\b|sign (?:me|us) up\b"
    r")",
    re.IGNORECASE,
)
_DENIED = re.compile(r"^\W*(?:not|never|no)\b", re.IGNORECASE)
_SUPPOSED = re.compile(r"\b(?:if|unless|whether|in case|should i|would i)\b", re.IGNORECASE)
_UNDECIDED = frozenset({"or", "either", "between"})
_SENTENCE = re.compile(r"[^.!?\n]+[.!?]*")
# Where the words the frame governs end in the fact: a purpose, a reason, another clause.
_OBJECT_ENDS = frozenset("for because since so as after while but and partly hoping to".split())
OBJECT_WORDS = 6  # content words after the frame verb that say what was chosen


def commitments(text: str) -> tuple[frozenset[str], ...]:
    """What each commitment of a message's sentences names, from the commitment to the end of
    its sentence (the whole sentence when nothing follows it: `the charity run sounds fun, count
    me in`), as stems and folded words (module note); none in a question or after a
    supposition."""
    found = []
    folded = fold(text)
    for sentence in _SENTENCE.finditer(folded):
        said = sentence.group()
        if said.rstrip().endswith("?"):
            continue
        for match in COMMITS.finditer(said):
            if _DENIED.match(said[match.end() :]) or _SUPPOSED.search(said[: match.start()]):
                continue
            words = [t.group() for t in tokens(said[match.end() :])]
            if all(w.lower() in STOP for w in words):  # "sounds fun, count me in!"
                words = [t.group() for t in tokens(said)]
            if _UNDECIDED & {w.lower() for w in words}:
                continue  # "I'll go with either the blue tiles or the green ones"
            found.append(frozenset(stem(w) for w in words) | {word_key(w) for w in words})
    return tuple(found)


def frames(text: str) -> dict[str, frozenset[str]]:
    """The fact's frame verbs of choosing or committing (as written, lower case), each with
    the names and things it governs (stems and folded words; module note)."""
    listed = [t.group() for t in tokens(fold(text))]
    found: dict[str, frozenset[str]] = {}
    for i, word in enumerate(listed):
        low = word.lower()
        if stem(low) not in FRAMES and not (
            stem(low) == _GO and listed[i + 1 : i + 2] and listed[i + 1].lower() in _GO_WITH
        ):
            continue
        governed: list[str] = []
        for after in listed[i + 1 :]:
            key = after.lower()
            if key in _OBJECT_ENDS and governed:
                break
            if key in STOP or len(key) < 3:
                continue
            governed.append(after)
            if len(governed) == OBJECT_WORDS:
                break
        named = [w for w in governed if w[:1].isupper() or thing(w)]
        found[low] = frozenset(k for w in named for k in (stem(w), word_key(w)))
    return found


def committed(governed: frozenset[str], said: Iterable[frozenset[str]]) -> bool:
    """Whether a commitment (`commitments`) names what a frame verb governs (`frames`)."""
    return bool(governed) and any(governed & words for words in said)
