"""A verb or an adjective of a fact that its cited messages say another way ("picked" for
"chose", "excited" for "pumped"): the grounding guard's (kit/curator/grounding.py) last step
for a fact that falls short on soft words only.

WordNet puts few such pairs one step apart (kit/curator/related.py), and the meaning check
(kit/curator/meaning.py) weighs whole sentences, which a one-sentence message cannot make stand
out. Here each unsaid word is set beside the cited messages' words alone, by Kit's own
embedding model: a word WordNet knows only as a verb or an adjective (never a noun, a name or a
number: the details a swapped fact changes) stands for the closest cited word that is only a
verb or an adjective too, of a part of speech they share, at a cosine of STAND_IN or more,
unless WordNet calls either the opposite of the other ("loves" is never "hates"). The fact with
those words put in is then read by the word-level guard again, so the cited word must be said
where the fact needs it: as a fact, by the owner, not denied, not only in a plan or an "if".

STAND_IN was measured with all-MiniLM-L6-v2 (docs/measurements.md, "The grounding guard", round
22): it runs only where the meaning check does, with that model.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence

from kit.curator.related import family, lemma_key, opposites, wordnet_or_none
from kit.curator.wording import number_of, tokens

STAND_IN = 0.6  # the cosine of the two words alone (all-MiniLM-L6-v2)
_SAYING = frozenset({"verb", "adj"})  # the parts of speech a paraphrase rewords


def parts(word: str) -> frozenset[str]:
    """The parts of speech WordNet knows a word as (none: a word it does not know)."""
    net = wordnet_or_none()
    if net is None:
        return frozenset()
    return frozenset(part for part, _ in net.lemmas(lemma_key(word)))


def rewordable(word: str) -> bool:
    """Whether an unsaid word may stand for another: known only as a verb or an adjective,
    not capitalised (a name), not a number."""
    if word[:1].isupper() or number_of(word) is not None:
        return False
    found = parts(word)
    return bool(found) and found <= _SAYING


def offered(word: str, cited: Sequence[str]) -> list[str]:
    """The cited messages' words that may say `word` another way, each once: rewordable too
    (a word that may be a noun, "my next purchase", says no act) and of a part of speech
    `word` has."""
    wanted = parts(word)
    own = lemma_key(word)
    found: dict[str, None] = {}
    for text in cited:
        for token in tokens(text):
            key = lemma_key(token.group())
            if key != own and key not in found and rewordable(token.group()):
                if parts(key) & wanted:
                    found[key] = None
    return list(found)


def to_read(unsaid: Iterable[str], cited: Sequence[str]) -> list[str]:
    """The words the embedding model must read for `stand_ins`."""
    words: list[str] = []
    for word in unsaid:
        if rewordable(word):
            words += [lemma_key(word), *offered(word, cited)]
    return words


def stand_ins(
    unsaid: Iterable[str], cited: Sequence[str], cosine: Callable[[str, str], float | None]
) -> dict[str, str]:
    """Each unsaid word that a cited word says another way, with that word (module note)."""
    found: dict[str, str] = {}
    for word in unsaid:
        if not rewordable(word):
            continue
        scored = [(cosine(lemma_key(word), w), w) for w in offered(word, cited)]
        close = [(c, w) for c, w in scored if c is not None and c >= STAND_IN]
        if not close:
            continue
        _, best = max(close)
        if _opposed(word, best):
            continue
        found[word] = best
    return found


def put_in(text: str, words: dict[str, str]) -> str:
    """`text` with each word put in for the one it stands for."""
    for word, other in words.items():
        text = re.sub(rf"(?<![\w'-]){re.escape(word)}(?![\w'-])", other, text)
    return text


def _opposed(word: str, other: str) -> bool:
    mine = family(word) | {lemma_key(word)}
    theirs = family(other) | {other}
    return bool(opposites(word) & theirs or opposites(other) & mine)
