"""Scoring an answer against the key without a judge: exact match and token F1, normalised
as the LoCoMo and SQuAD evaluations do (case, punctuation, the articles "a", "an", "the" and
"and" aside), so a run can be set beside published exact/F1 numbers as well as judged ones."""

from __future__ import annotations

import re
import string
from collections import Counter

_ARTICLES = re.compile(r"\b(a|an|the|and)\b")
_PUNCTUATION = str.maketrans("", "", string.punctuation)


def normalise(text: str) -> str:
    text = text.lower().replace(",", " ").translate(_PUNCTUATION)
    return " ".join(_ARTICLES.sub(" ", text).split())


def exact_match(answer: str, gold: str) -> bool:
    return normalise(answer) == normalise(gold)


def token_f1(answer: str, gold: str) -> float:
    """The harmonic mean of the shared words' share of the answer and of the key."""
    said, wanted = normalise(answer).split(), normalise(gold).split()
    shared = sum((Counter(said) & Counter(wanted)).values())
    if not said or not wanted or not shared:
        return float(said == wanted)
    precision, recall = shared / len(said), shared / len(wanted)
    return 2 * precision * recall / (precision + recall)
