"""A fact's word said by its clipped form (kit/curator/linking.py): a message's word WordNet
does not know whose letters begin the fact's, which it knows ("the Pride fest" says a
festival). Only a clipping of at least CLIPPED letters that leaves at least CUT letters off:
a short unknown word is more often a name ("Mel", "Cal") than a word cut short, and a word
one or two letters longer is another word, not its long form."""

from __future__ import annotations

from kit.curator.related import lemma_key, unknown

CLIPPED = 4
CUT = 3


def clipped_said(word: str, words: frozenset[str]) -> bool:
    """Whether one of a clause's `words` is a clipped form of the fact's `word`."""
    full = lemma_key(word)
    if not full.isalpha() or unknown(full):
        return False
    return any(_clips(w, full) for w in words)


def _clips(said: str, full: str) -> bool:
    short = said.removesuffix("s") if len(said) > CLIPPED else said
    return (
        len(short) >= CLIPPED
        and len(full) - len(short) >= CUT
        and full.startswith(short)
        and short.isalpha()
        and unknown(short)
        and unknown(said)
    )
