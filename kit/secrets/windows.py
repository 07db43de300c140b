"""Stretches of a text around the places a cheap scan found, for the costly patterns to run
in: a 256 KB note that names a password once is read closely around that one place."""

from __future__ import annotations

import re
from collections.abc import Iterator


def near(
    text: str, found: Iterator[re.Match[str]], before: int, after: int
) -> Iterator[tuple[int, int]]:
    """(start, end) of the stretches from `before` characters before each match to `after`
    characters after it, overlapping ones joined, in order."""
    start = end = -1
    for match in found:
        lo, hi = max(0, match.start() - before), min(len(text), match.end() + after)
        if start >= 0 and lo <= end:
            end = max(end, hi)
            continue
        if start >= 0:
            yield start, end
        start, end = lo, hi
    if start >= 0:
        yield start, end


def keyword_hits(text: str, keywords: re.Pattern[str]) -> Iterator[re.Match[str]]:
    """`keywords` (lowercase literals) found in `text` whatever its case. Positions are the
    text's own: when lowering changes a length (a rare letter such as "İ") the whole text
    counts as one hit."""
    lowered = text.lower()
    if len(lowered) == len(text):
        return keywords.finditer(lowered)
    whole = re.compile(r"(?s).+").match(text)
    return iter(() if whole is None or not keywords.search(lowered) else (whole,))
