"""The word before a thing, swapped: a fact that says a thing with one modifier where its cited
message says the same thing with another ("a toy drive" said, "a book drive" in the fact; "an
online class" said, "an in-person class" in the fact).

Why: the thing itself is said, so most of the fact is, and the one unsaid word weighs as a
paraphrase; but the message names the thing's kind or quality, and the fact names another:
it says what the message says is not so. Held as an opposite is (judge.py, "hard-opposed").

What counts: a modifier is a word right before a noun that WordNet knows as an adjective or a
noun, never a determiner, possessive, pronoun, number or name. The two modifiers must be of one
kind (two adjectives or two nouns: "weekly meetings" does not swap "team meetings"), neither of
one family nor synonyms of each other in WordNet ("big" and "large"), and the fact's modifier
said nowhere in the cited messages (then it may be said of the thing elsewhere).
"""

import itertools
from collections.abc import Iterable

from kit.curator.clause_words import PEOPLE
from kit.curator.related import (
    SENSES,
    describing,
    family,
    near,
    synonyms,
    thing,
    verb_form,
    wordnet_or_none,
)
from kit.curator.wording import number_of, stem, tokens

Pair = tuple[str, str]  # (modifier, noun), folded

# Closed-class words that come before a noun without naming its kind or quality
_FUNCTION = frozenset(
    """a an the this that these those my your his her its our their one's whose which what
    some any no every each either neither all both few many much more most several other
    another such own same only just very too so quite rather and or but nor of to in on at by
    for from with into onto about over under after before as than i me you he she it
    we they them us him is are was were be been being am do does did have has had not
    """.split()
)


def _word(token: str) -> bool:
    return token.replace("-", "").isalpha() and token not in _FUNCTION and not number_of(token)


def _noun(word: str) -> bool:
    return bool(_as_noun(word))


def _as_noun(word: str) -> frozenset[str]:
    """A word's noun base forms ("drives": drive); none where it is no noun."""
    net = wordnet_or_none()
    found = net.lemmas(word.strip("'-")) if net is not None else []
    return frozenset(lemma for part, lemma in found if part == "noun")


def _inflected(word: str) -> bool:
    """Whether a word is a verb's inflected form ("organized", "reads", "hiking"): a doing,
    not a thing's kind or quality."""
    return word.endswith(("ed", "ing")) and verb_form(word)


def _base(word: str) -> bool:
    """Whether a word is its own base form in WordNet ("book"; not "books", "borrows")."""
    net = wordnet_or_none()
    return net is not None and all(lemma == word for _, lemma in net.lemmas(word))


def _graded(word: str) -> bool:
    """Whether an adjective grades a quality WordNet names in a common sense ("big": size,
    "good": quality, "new": age): a judgement a paraphrase rewords freely ("a big night" for
    "an awesome night"), not a kind ("virtual", "wooden", "red")."""
    net = wordnet_or_none()
    if net is None:
        return False
    for part, lemma in net.lemmas(word):
        if part != "adj":
            continue
        for offset in net.senses(part, lemma)[:SENSES]:
            if any(symbol == "=" for symbol, *_ in net.synset(part, offset)[1]):
                return True
    return False


def _modifier(word: str) -> bool:
    if word in PEOPLE or not _base(word):  # "the owner plans": a subject, not a modifier
        return False
    return (describing(word) and not _graded(word)) or thing(word)


def pairs(text: str) -> tuple[Pair, ...]:
    """The (modifier, noun) pairs of a text, in order; a capitalised word (a name) is neither."""
    listed = list(tokens(text))
    found: list[Pair] = []
    for i, (one, two) in enumerate(itertools.pairwise(listed)):
        if text[one.end() : two.start()].strip() or two.group()[:1].isupper():
            continue  # not one phrase ("toys, books"), or a name
        if i and one.group()[:1].isupper():
            continue
        first, second = one.group().lower(), two.group().lower()
        if not (_word(first) and _word(second)) or _inflected(second):
            continue
        if _modifier(first) and _noun(second):
            found.append((first, second))
    return tuple(found)


def _kin(one: str, other: str) -> bool:
    """Whether two modifiers may say one thing: one stem, one family, or WordNet synonyms."""
    if stem(one) == stem(other):
        return True
    return bool(
        other in near(one) or one in near(other) or other in synonyms(one)
        or family(one) & family(other)
    )  # fmt: skip


def _one_kind(one: str, other: str) -> bool:
    return describing(one) == describing(other)


def swapped(fact: Iterable[Pair], said: Iterable[Pair], words: frozenset[str]) -> list[str]:
    """The fact's modifiers whose noun the cited messages say with another modifier of the
    same kind, the fact's one said nowhere in them (`words`: their words, folded)."""
    theirs = list(said)
    stems = {stem(w) for w in words}
    found = []
    for modifier, noun in fact:
        if modifier in words or stem(modifier) in stems:
            continue
        others = [m for m, n in theirs if _as_noun(n) & _as_noun(noun) and m != modifier]
        if any(_one_kind(modifier, m) and not _kin(modifier, m) for m in others):
            found.append(modifier)
    return found
