"""A fact's act (its main verb), and whether a clause says it (grounding round 31F).

A fact whose act no cited message says as done, while its other words come only from what a
hedge describes (`should I still go ahead with the pilot?` for "is running the pilot",
`trying to figure out if I should go to the quiz night` for "went to the quiz night"), rests
on the hedge alone: everything but the act is given by the question, and the act is the
very thing the message leaves open. kit/curator/judge.py reads the act here, and whether the
cited messages leave it open (`act_left_open`, holding the fact's words by
kit/curator/holding.py); the guard's terms leave light verbs ("went", "got", "has") out, so the
act is read from the text.
"""

from __future__ import annotations

from kit.curator.clause_words import PEOPLE
from kit.curator.clauses import Clause
from kit.curator.fact_terms import Term
from kit.curator.holding import as_given, holding
from kit.curator.related import family, near, thing, verb_form, wordnet_or_none
from kit.curator.source import Source
from kit.curator.wording import same, stem, tokens

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


def act_left_open(act: str, terms: list[Term], sources: list[Source], termed: bool) -> list[str]:
    """Whether a fact's act (`act_of`) is said as done nowhere in its cited messages, and
    either is said in a form of its own only inside a hedge (`trying to figure out if I should
    go` for "went": the guard's terms leave such verbs out) or is unsaid while every soft word
    of the fact they say is said only inside a hedge (`which one should I choose for trail
    runs?` for "bought ... for trail runs"): the fact rests on the hedge alone (the words to
    name: the act, or the hedged words). Not where a clause says the act as so. `termed`: the
    act is a term of the fact's, which no message says."""
    own, forms = act_forms(act)
    hedged_act = False
    for s in sources:
        fams = s.family or tuple(frozenset() for _ in s.clauses)
        for c, fam in zip(s.clauses, fams, strict=False):
            if not (forms & (c.words | fam) or any(same(stem(act), w) for w in c.stems)):
                continue
            if not _open(s, c) and not c.negated:
                return []  # the act said as done
            unrealised = bool(c.words & _MODAL)  # "if I should go"; not "if I'm using it right"
            hedged_act = hedged_act or (
                bool(own & (c.words | fam)) and unrealised and not c.negated
            )
    if hedged_act and not termed:
        return [act]
    if own & _HAVING:  # "the feedback from Ana's team" in a question: a thing it presupposes had
        return []
    hedged_only: list[str] = []
    for term in terms:
        if term.kind != "word" or term.shown.lower() == act or term.key in PEOPLE:
            continue
        where = [(s, c) for s in sources for c in holding(term, s, related=False)]
        if any(not _open(s, as_given(c, term)) for s, c in where):
            return []  # said as so somewhere ("my ..." too): the act may rest on that clause
        hedged_only += [term.shown] if where else []
    return hedged_only


_HAVING = frozenset({"have", "get"})
# A modal or an infinitive's `to`: the act it governs is not done (a doubt on a done act's
# manner, `if I'm using it correctly`, takes the act as so)
_MODAL = frozenset("should could would can might may shall will must to i'll i'd".split())


def _open(source: Source, clause: Clause) -> bool:
    """A clause that leaves what it says open: hedged, and not a question someone answered."""
    return clause.hedged and not (clause.asks and source.answered)
