"""Checking the small model's bullet-list answers (daily summaries, condensed days) before they
are stored: bad output is rejected whole with a reason, never half-kept."""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass

from kit.errors import KitError, LLMOutputError, LLMUnavailable, shown
from kit.llm.base import LLM, LLMReply, LLMRequest
from kit.secrets import withhold_secrets
from kit.untrusted.fingerprint import fingerprint

log = logging.getLogger(__name__)

_BULLET = re.compile(r"^(\s*)(?:[-*•+]|\d{1,3}[.)])\s+(.*\S)\s*$")
_HEADING = re.compile(r"^\s*#{1,6}\s+(.*\S)\s*$")
_REFUSAL = re.compile(
    r"^\W*(i'?m sorry|i am sorry|sorry[,.!]|i can(?:'|no)t|i cannot|i'?m unable|i am unable|"
    r"i'?m not able|i am not able|i won'?t|as an ai|unfortunately,? i)",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class BulletText:
    text: str  # normalised: "## Heading" lines and "- bullet" lines
    bullets: int


async def ask(llm: LLM, request: LLMRequest, *, what: str) -> LLMReply:
    """One model call for `what`. Any failure but the model being unreachable (or the budget
    spent) becomes `LLMOutputError`, so it counts against that day like a bad answer, and a
    broken adapter cannot fail the whole job night after night."""
    try:
        return await llm.complete(request)
    except LLMUnavailable:
        raise
    except Exception as exc:  # a broken adapter or answer, or a call too big for the budget
        if not isinstance(exc, KitError):
            log.exception("the model call for %s crashed", what)
        raise LLMOutputError(f"the model call failed: {shown(exc)}") from exc


def parse_bullets(reply: LLMReply, *, what: str, max_bullets: int | None = None) -> BulletText:
    """Normalise a bullet-list answer, or raise `LLMOutputError` saying what is wrong with it.

    A preamble before the first bullet or heading is dropped; unbulleted lines after it are
    continuations of the bullet above. Rejected: a cut-off answer, an empty one, a refusal, an
    answer without bullets and one with too many. A secret repeated in it is withheld: its
    value becomes "[secret withheld]" and the rest of the line stays.
    """
    if reply.stop_reason == "max_tokens":
        raise LLMOutputError(f"{what} was cut off at the token limit")
    text = reply.text.strip()
    if not text:
        raise LLMOutputError(f"{what} came back empty")
    first = text.splitlines()[0].strip()
    if _REFUSAL.match(first):
        raise LLMOutputError(f"{what} was a refusal ({fingerprint(text)})")
    lines: list[str] = []
    bullets = 0
    for raw in text.splitlines():
        if not raw.strip():
            continue
        heading = _HEADING.match(raw)
        bullet = _BULLET.match(raw)
        if heading:
            lines.append(f"## {heading.group(1).strip('# ')}")
        elif bullet:
            indent = "  " if bullet.group(1) else ""
            lines.append(f"{indent}- {bullet.group(2)}")
            bullets += 1
        elif lines and lines[-1].lstrip().startswith("- "):
            lines[-1] += " " + raw.strip()  # a wrapped bullet
        # anything else before the first bullet is a preamble ("Here is the summary:")
    if bullets == 0:
        raise LLMOutputError(f"{what} has no bullet points ({fingerprint(text)})")
    if max_bullets is not None and bullets > max_bullets:
        raise LLMOutputError(f"{what} has {bullets} bullets; at most {max_bullets} were asked for")
    return BulletText(_tidy(withhold_secrets("\n".join(lines))), bullets)


def _tidy(body: str) -> str:
    """Drop headings left with nothing under them."""
    lines = body.splitlines()
    kept = [
        line
        for i, line in enumerate(lines)
        if not line.startswith("## ") or (i + 1 < len(lines) and not lines[i + 1].startswith("## "))
    ]
    return "\n".join(kept)


def count_bullets(text: str) -> int:
    return sum(1 for line in text.splitlines() if _BULLET.match(line))


def merge_bullets(texts: list[str]) -> str:
    """Normalised bullet texts (a long day summarised in parts) as one: each heading once, in
    the order first seen, with every part's bullets under it in order."""
    if len(texts) == 1:
        return texts[0]
    sections: dict[str, list[str]] = {}
    for text in texts:
        heading = ""
        for line in text.splitlines():
            if line.startswith("## "):
                heading = line
                sections.setdefault(heading, [])
            else:
                sections.setdefault(heading, []).append(line)
    lines: list[str] = []
    for heading, bullets in sections.items():
        if bullets:
            lines += ([heading] if heading else []) + bullets
    return "\n".join(lines)
