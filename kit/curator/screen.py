"""What may never become a fact: secrets, and statements about the assistant itself.

Every text an operation would store is screened for secrets: the content, and the subject and
reason (kept in the fact and its history) too.

The prompts tell the model the same rules; this is the check that does not depend on the model
obeying. A screened operation is dropped (with a recorded reason) and the rest of the pass
goes on. Reasons never quote the text, so a secret cannot leak into logs or pass records.
"""

from __future__ import annotations

import re

from kit.curator.ops import Operation, new_content
from kit.secrets import find_secret
from kit.tools import TOOL_SPECS

# The assistant's own tools are not facts about the owner. Names with an underscore are
# distinctive enough to match alone; "remember" is an ordinary word, so only "remember tool".
_TOOL_NAMES = sorted({t.name for t in TOOL_SPECS} | {"apply_operations"})
_TOOL_MENTION = re.compile(
    r"\b("
    + "|".join(re.escape(n) for n in _TOOL_NAMES if "_" in n)
    + r")\b|\b("
    + "|".join(re.escape(n) for n in _TOOL_NAMES)
    + r")\s+(tool|function)\b",
    re.I,
)
# "an assistant manager", "the assistant coach": a job title of the owner's world, not Kit.
# Nouns only: "the assistant stores facts" is still Kit.
_TITLE = (
    r"manager|director|professor|coach|editor|producer|principal|teacher|engineer|chef|"
    r"attorney|buyer|curator|secretary|superintendent|supervisor|librarian|planner|"
    r"designer|instructor|trainer|lecturer|analyst|accountant|officer|dean|vice|vp|"
    r"leader|captain|referee|conductor|minister|treasurer"
)
_ASSISTANT = re.compile(
    r"\b(the|this|an?|your|my) (AI )?assistant('s)?\b(?!\s+(?:" + _TITLE + r")s?\b)"
    r"|\bas an AI\b|\blanguage model\b"
    r"|\bsystem prompt\b|\bmy (own )?(tools|memory|instructions|architecture)\b",
    re.I,
)
# Facts are written in the third person about the owner; "I"/"my" in a fact is the model
# talking about itself (or ambiguous about who is meant). Quoted speech is allowed, and so is
# a word of a compound ("me-time", "a do-it-yourself kit").
_FIRST_PERSON = re.compile(r"(?<![\w-])(?:I|I'(?:m|ve|d|ll)|[Mm]e|[Mm]y|[Mm]yself)(?![\w-])")
_QUOTED = re.compile(r"\"[^\"]*\"|“[^”]*”|'[^']{3,}'")


def self_reference(text: str) -> str | None:
    """Why `text` reads as the assistant talking about itself, or None."""
    if _TOOL_MENTION.search(text):
        return "it describes the assistant's own tools, not the owner"
    if _ASSISTANT.search(text):
        return "it is about the assistant itself, not the owner"
    if _FIRST_PERSON.search(_QUOTED.sub("", text)):
        return "it is written in the first person (facts are about the owner, in third person)"
    return None


def screen(text: str) -> str | None:
    """Why `text` must not be stored as a fact, or None when it may be."""
    secret = find_secret(text)
    if secret is not None:
        return f"it contains what looks like {secret}; secrets are never stored"
    return self_reference(text)


def screen_op(op: Operation) -> str | None:
    """Why this operation must not be applied, or None when it may be."""
    content = new_content(op)
    if content is not None and (why := screen(content)) is not None:
        return why
    for field in ("subject", "reason"):
        text = vars(op).get(field)
        if isinstance(text, str) and (secret := find_secret(text)) is not None:
            return f"its {field} contains what looks like {secret}; secrets are never stored"
    return None
