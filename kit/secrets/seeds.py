"""Wallet seed phrases (BIP-39): a run of words from one of its wordlists (the `mnemonic`
package's, in eight languages), numbering ("1. legal 2. winner") and commas allowed between.

Those wordlists are full of ordinary words (apple, milk, bread, onion…), so a run alone is not
a seed: a shopping list one item a line is such a run. A run is taken for a seed only when
- it is named: a label such as "seed phrase", "recovery phrase", "mnemonic", "wallet words",
  "frase semilla" or a wallet's name (Ledger, Trezor, MetaMask…) stands just before it, and it
  has 12 to 24 words; or
- it is what a wallet writes: exactly 12, 15, 18, 21 or 24 words in lower case whose BIP-39
  checksum holds (one list in 16 to 256 passes that by chance), alone in its paragraph, or,
  at 18 words and more, on a line of its own or after a colon ("write these down: …").
Anything else (a longer run, a list with a capital on every line, a run inside prose) is text.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator
from functools import cache

from mnemonic import Mnemonic

from kit.secrets.base import SEED, Secret

LENGTHS = (12, 15, 18, 21, 24)  # the lengths BIP-39 defines
_NEAR = 2_000  # characters
# So many wordlist words with a valid checksum (one list in 64 passes by chance at 18 words)
# are a seed on a line of their own even after other words ("write these down: …").
_ANNOUNCED = 18
_AROUND = 0  # words outside an unnamed run, in its paragraph: a seed pasted alone
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
_LABEL = re.compile(
    r"(?i:(?<![^\W_])(?:seed(?:[ -]?phrase|[ -]?words?)?|(?:recovery|backup|secret|wallet)"
    r"[ -](?:phrase|words|seed)|mnemonic(?:[ -]phrase)?|(?:12|15|18|21|24)[ -]words?"
    r"|ledger|trezor|metamask|electrum|exodus|phantom|trust ?wallet|coinbase wallet"
    r"|frase (?:semilla|semente|de recuperación|de recuperação|di recupero|mnemonica)"
    r"|palabras|phrase (?:de récupération|secrète|mnémonique)|mots de récupération"
    r"|wiederherstellungs(?:phrase|wörter)|seed-phrase|сид[- ]фраза|мнемонич\w*|секретная фраза)"
    r"(?![^\W_]))[^\n]{0,20}$"
)
_BLANK_LINE = re.compile(r"\n[ \t]*\n")


@cache
def _mnemonics() -> tuple[tuple[Mnemonic, frozenset[str]], ...]:
    out = []
    for lang in _LANGUAGES:
        mnemonic = Mnemonic(lang)
        out.append(
            (mnemonic, frozenset(unicodedata.normalize("NFC", w) for w in mnemonic.wordlist))
        )
    return tuple(out)


@cache
def _any_list() -> frozenset[str]:
    return frozenset().union(*(words for _, words in _mnemonics()))


def _word(found: str) -> str:
    return (found if found.isascii() else unicodedata.normalize("NFC", found)).lower()


def find_seeds(text: str) -> Iterator[Secret]:
    words = list(_WORD.finditer(text))
    if len(words) < LENGTHS[0]:
        return
    lowered = [_word(w.group()) for w in words]
    if not _has_run(lowered, _any_list()):
        return  # no 12 words in a row from any list (most text): no list is read one by one

    def joined(i: int) -> bool:  # word i follows word i-1 with only separators between
        return _BETWEEN.fullmatch(text, words[i - 1].end(), words[i].start()) is not None

    for mnemonic, wordlist in _mnemonics():
        run_start = 0
        for i, word in enumerate(lowered):
            if word not in wordlist:
                continue
            if i == 0 or lowered[i - 1] not in wordlist or not joined(i):
                run_start = i
            last = i + 1 == len(words) or lowered[i + 1] not in wordlist or not joined(i + 1)
            if last and i - run_start + 1 >= LENGTHS[0]:
                yield from _seed(text, words, lowered, run_start, i + 1, mnemonic)


def _has_run(lowered: list[str], wordlist: frozenset[str]) -> bool:
    run = 0
    for word in lowered:
        run = run + 1 if word in wordlist else 0
        if run >= LENGTHS[0]:
            return True
    return False


def _seed(
    text: str,
    words: list[re.Match[str]],
    lowered: list[str],
    start: int,
    end: int,
    mnemonic: Mnemonic,
) -> Iterator[Secret]:
    """The seed in the run words[start:end], if it is one (see the module's note). A label
    word that is itself in the wordlist ("seed", "phrase") may open the run."""
    for skip in range(0, min(3, end - start - LENGTHS[0] + 1)):
        first = start + skip
        count = end - first
        before = text[max(0, words[first].start() - 80) : words[first].start()]
        if count <= LENGTHS[-1] and _LABEL.search(before.rstrip(" \t\n:=-–—.)0123456789")):
            yield Secret(SEED, words[first].start(), words[end - 1].end())
            return
    count = end - start
    if count not in LENGTHS:
        return
    span = text[words[start].start() : words[end - 1].end()]
    if span != span.lower():
        return
    if not _little_else(text, words, start, end) and not (
        count >= _ANNOUNCED and _a_line_of_its_own(text, words, start, end)
    ):
        return
    if mnemonic.check(" ".join(lowered[start:end])):
        yield Secret(SEED, words[start].start(), words[end - 1].end())


def _a_line_of_its_own(text: str, words: list[re.Match[str]], start: int, end: int) -> bool:
    """The run ends its line and opens it or follows a colon: "write these down: <24 words>"."""
    line_start = text.rfind("\n", 0, words[start].start()) + 1
    line_end = text.find("\n", words[end - 1].end())
    after = text[words[end - 1].end() : len(text) if line_end < 0 else line_end]
    before = text[line_start : words[start].start()].rstrip()
    return not after.strip(" \t.") and (not before or before.endswith(":"))


def _little_else(text: str, words: list[re.Match[str]], start: int, end: int) -> bool:
    """No more than _AROUND words besides the run in its paragraph (up to blank lines, looking no
    further than _NEAR characters either way)."""
    near_start = max(0, words[start].start() - _NEAR)
    blanks = list(_BLANK_LINE.finditer(text, near_start, words[start].start()))
    begin = blanks[-1].end() if blanks else near_start
    stop = _BLANK_LINE.search(text, words[end - 1].end(), words[end - 1].end() + _NEAR)
    finish = stop.start() if stop else words[end - 1].end() + _NEAR
    outside = 0
    for i in range(start - 1, -1, -1):
        if words[i].start() < begin:
            break
        outside += 1
    for i in range(end, len(words)):
        if words[i].start() >= finish:
            break
        outside += 1
    return outside <= _AROUND
