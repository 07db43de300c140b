"""Wallet seed phrases: 12 or more words in a row from one BIP-39 wordlist (the `mnemonic`
package's lists, in nine languages). The lists hold no articles or other function words, so
ordinary prose never makes such a run; numbering ("1. legal 2. winner") and commas may sit
between the words."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator
from functools import cache

from mnemonic import Mnemonic

from kit.secrets.base import SEED, Secret

MIN_WORDS = 12
_LANGUAGES = (
    "english",
    "spanish",
    "french",
    "italian",
    "portuguese",
    "czech",
    "turkish",
    "russian",
)
_WORD = re.compile(r"(?:[^\W\d_]|[\u0300-\u036f])+")  # letters, with combining accents
_BETWEEN = re.compile(r"[\s,;|/·•\-–—]*(?:\d{1,2}[.):]?[\s,;|/·•\-–—]*)?")


@cache
def _wordlists() -> tuple[frozenset[str], ...]:
    return tuple(
        frozenset(unicodedata.normalize("NFC", w) for w in Mnemonic(lang).wordlist)
        for lang in _LANGUAGES
    )


def find_seeds(text: str) -> Iterator[Secret]:
    words = list(_WORD.finditer(text))
    if len(words) < MIN_WORDS:
        return
    lowered = [unicodedata.normalize("NFC", w.group()).lower() for w in words]

    def joined(i: int) -> bool:  # word i follows word i-1 with only separators between
        return _BETWEEN.fullmatch(text, words[i - 1].end(), words[i].start()) is not None

    for wordlist in _wordlists():
        run_start = 0
        for i, word in enumerate(lowered):
            if word not in wordlist:
                continue
            if i == 0 or lowered[i - 1] not in wordlist or not joined(i):
                run_start = i
            last = i + 1 == len(words) or lowered[i + 1] not in wordlist or not joined(i + 1)
            if last and i - run_start + 1 >= MIN_WORDS:
                yield Secret(SEED, words[run_start].start(), words[i].end())
