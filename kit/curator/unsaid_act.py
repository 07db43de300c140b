"""A fact's act (its main verb), and whether a clause says it (grounding round 31F).

A fact whose act no cited message says as done, while its other words come only from what a
hedge describes (`should I still go ahead with the pilot?` for "is running the pilot",
`trying to figure out if I should go to the quiz night` for "went to the quiz night"), rests
on the hedge alone: everything but the act is given by the question, and the act is the
very thing the message leaves open. kit/curator/judge.py reads the act here; the guard's
terms leave light verbs ("went", "got", "has") out, so the act is read from the text.
"""

from __future__ import annotations

from kit.curator.related import family, near, thing, verb_form, wordnet_or_none
from kit.curator.wording import tokens

# Words that stand between a subject and its act: auxiliaries and the adverbs facts use
_BETWEEN = frozenset(
    """is was are were am be been being will would also just recently already still now
    currently often usually regularly sometimes finally successfully""".split()
)
_HAVE = frozenset({"has", "have", "had"})
_DO = frozenset({"do", "does", "did", "doing", "done"})
_SUBJECT = frozenset({"the", "owner", "and", "user"})


def act_of(text: str) -> str:
    """The fact's act: the verb after its subject ("The owner went ...": went; "Jon is
    running ...": running; "The owner has a bike": has); "" where the subject is someone's
    thing ("The owner's plan ...") or no verb follows."""
    net = wordnet_or_none()
    if net is None:
        return ""
    words = [t.group() for t in tokens(text)]
    at = 0
    while at < len(words) and (words[at].lower() in _SUBJECT or words[at][:1].isupper()):
        if words[at].lower().endswith("'s"):
            return ""  # the subject is a thing of someone's
        at += 1
    if at == 0:
        return ""
    while at < len(words) and words[at].lower() in _BETWEEN:
        at += 1
    if at >= len(words):
        return ""
    word = words[at].lower()
    if word in _HAVE and at + 1 < len(words) and _inflected_verb(words[at + 1].lower()):
        word = words[at + 1].lower()  # "has practised": the act is the participle
    if word in _DO or thing(word) or not any(part == "verb" for part, _ in net.lemmas(word)):
        return ""  # "does volunteer work": the act is the noun; "and partner Ana": no verb
    return word


def _inflected_verb(word: str) -> bool:
    return verb_form(word) or word == "been"


def act_forms(act: str) -> tuple[frozenset[str], frozenset[str]]:
    """What says the act: its own forms ("went" as "go", "going"), and those with the words
    of its common senses (related.near)."""
    net = wordnet_or_none()
    lemmas = {lemma for part, lemma in net.lemmas(act) if part == "verb"} if net else set()
    own = frozenset({act, *lemmas}) | family(act)
    return own, own | near(act)
