"""The "extract" curation style: what a small local model can do, turned into what Kit stores.

A 1.5B model given the operation schema (kit/curator/ops.py) answers `{"operations": []}` every
time, or copies each message as a "fact" under a wrong key (issue 29, docs/measurements.md). It
can do something simpler: go through the messages and list, for each that says something
lasting, one fact in the third person with the message's id and a topic. That is all it is
asked here (prompts/extract_facts.md); Kit decides the rest:

- one model call per batch, for every category at once; each category's pass takes the
  candidates of its topic from that one answer (kit/curator/passes.py keeps it for the batch);
- each candidate becomes an INSERT of a fixed confidence, citing its message, and goes through
  the same applier as any operation: the batch's checks, the screen, the grounding guard
  (kit/curator/grounding.py), the contest and the inbox, with a history row and a pass record,
  so a pass of this style is undone like any other;
- a candidate the guard does not find in the message it cites but finds, whole, in another
  message of the batch's people is cited to that message (the model's ids drift by one or two
  on a long list); the pass record says so;
- a candidate the model left in the first person ("I'm allergic to peanuts") is rewritten
  about whoever said its message (kit/curator/third_person.py) before any check;
- a candidate's thanks, greeting or "by the way", said to Kit, is dropped
  (kit/memory/chat_filler.py);
- a candidate that says what an active fact of the category already says (the same words, or
  nearly all of them) is not stored twice: it is dropped, naming that fact.

The model's answer is untrusted: each item is checked on its own (an object, an integer id, a
known topic, a text of 1 to MAX_CONTENT_CHARS characters), and a bad one is dropped alone,
with why; only an answer that is not a list of facts at all is rejected, as for the other style.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime, tzinfo
from typing import Any

from kit.categories import CATEGORY_RECORDS
from kit.clock import local_date
from kit.config import CATEGORIES, CURATION_STYLES
from kit.curator.grounding import Grounding
from kit.curator.ops import MAX_OPERATIONS, MAX_ROW_ID, Insert, InvalidOperations
from kit.curator.progress import Batch
from kit.curator.render import transcript
from kit.curator.third_person import third_person
from kit.curator.wording import tokens
from kit.llm.base import ChatMessage, LLMReply, LLMRequest, SystemBlock, ToolSpec
from kit.llm.json_repair import Unreadable, loads_lenient
from kit.memory.chat_filler import without_filler
from kit.memory.fact_rows import MAX_CONTENT_CHARS, Fact
from kit.model_settings import ModelRole
from kit.prompts import Prompts
from kit.untrusted.fingerprint import fingerprint
from kit.untrusted.neutralise import neutralise

TOOL_NAME = "list_facts"
PROMPT = "extract_facts"
# What a fact the small model listed, and the guard found in its message, is held with: "clearly
# said" by the operation style's scale (0.9+ is kept for what the owner said outright to Kit).
CONFIDENCE = 0.8
# A candidate sharing this much of its words with an active fact (Jaccard) says the same thing.
SAME_WORDS = 0.8
REASON = "listed by the model in the extract style"  # each fact's history row says so


@dataclass(frozen=True)
class Candidate:
    """One fact the model listed: its text, the message it cites, the category it chose, and
    its place in the answer (how the pass record names it: the text may hold a secret)."""

    item: int
    message: int
    category: str
    text: str


@dataclass(frozen=True)
class Extracted:
    """A model's answer, read: the candidates that fit, and why each other item was dropped."""

    candidates: tuple[Candidate, ...]
    dropped: tuple[str, ...]


def style_of(style: str, preset: str) -> str:
    """`curation.style`, or the preset's when it is left empty: a local model extracts."""
    assert style in ("", *CURATION_STYLES)  # checked when the settings were read
    return style or ("extract" if preset == "local" else "operations")


def topics() -> str:
    """The prompt's list of topics, one line per category (kit/categories.py)."""
    return "\n".join(f"- {c.name}: {c.about}" for c in CATEGORY_RECORDS)


ASK = "List the facts now, as JSON."
AGAIN_EXTRACT = (
    f'Call {TOOL_NAME} once now, or answer with only the JSON object {{"facts": [...]}}.'
)


def extract_request(
    prompts: Prompts,
    role: ModelRole,
    batch: Batch,
    owner_name: str,
    now: datetime,
    tz: tzinfo,
    transcript_chars: int,
    max_tokens: int,
) -> LLMRequest:
    """The batch's one request of this style: the prompt, the conversation, the answer's shape."""
    owner = owner_name or "the owner"
    system = prompts.render(
        PROMPT,
        owner_name=owner,
        today=local_date(now, tz).isoformat(),
        topics=topics(),
        messages=transcript(batch.messages, tz, owner, max_chars=transcript_chars),
    )
    return LLMRequest(
        model=role.model,
        system=(SystemBlock(system, cache=True),),
        messages=(ChatMessage.text("user", ASK),),
        max_tokens=max_tokens,
        tools=(extract_tool(),),
        tool_choice=TOOL_NAME,
        purpose="curate:extract",
        user_id=batch.user_id,
    )


def extract_tool() -> ToolSpec:
    """The answer's shape. No length limits: a local server compiles the schema into a grammar
    (see kit/curator/ops.py); the lengths are checked here, item by item."""
    item = {
        "type": "object",
        "properties": {
            "message": {"type": "integer", "description": "the N of [msg N, ...]"},
            "topic": {"type": "string", "enum": list(CATEGORIES)},
            "fact": {"type": "string"},
        },
        "required": ["message", "topic", "fact"],
    }
    return ToolSpec(
        TOOL_NAME,
        "List the facts the conversation states, one per message that states one; an empty "
        "list when it states none.",
        {
            "type": "object",
            "properties": {"facts": {"type": "array", "items": item}},
            "required": ["facts"],
        },
    )


def candidates_from_reply(reply: LLMReply) -> Extracted:
    """The candidates in a model reply (a call of the tool, or its input as JSON text). An
    answer with no list of facts in it is `InvalidOperations` (`unreadable` when it is not
    JSON at all, so the curator asks once more)."""
    if reply.stop_reason == "max_tokens":
        raise InvalidOperations("the answer was cut off at max_tokens before it was complete")
    calls = reply.tool_uses
    if calls:
        if [c.name for c in calls] != [TOOL_NAME]:
            raise InvalidOperations(f"expected one call of {TOOL_NAME}, got {len(calls)} call(s)")
        raw: Any = calls[0].input
    else:
        text = reply.text.strip()
        if not text:
            raise InvalidOperations(
                f"the answer was empty; expected a call of {TOOL_NAME}", unreadable=True
            )
        try:
            raw = loads_lenient(text)
        except Unreadable as exc:
            raise InvalidOperations(
                f"the answer is neither a call of {TOOL_NAME} nor valid JSON ({exc})",
                unreadable=True,
            ) from None
    return read_candidates(raw)


def read_candidates(raw: Any) -> Extracted:
    """`{"facts": [...]}` (or the list alone) as candidates; each bad item dropped alone."""
    items = raw.get("facts") if isinstance(raw, Mapping) else raw
    if not isinstance(items, list):
        raise InvalidOperations('the answer must be an object {"facts": [...]}')
    candidates: list[Candidate] = []
    dropped: list[str] = []
    for n, item in enumerate(items, 1):
        if n > MAX_OPERATIONS:
            dropped.append(
                f"items {n}-{len(items)}: more than {MAX_OPERATIONS} facts in one answer"
            )
            break
        candidate = _candidate(n, item)
        if isinstance(candidate, str):
            dropped.append(f"item {n}: {candidate}")
        else:
            candidates.append(candidate)
    return Extracted(tuple(candidates), tuple(dropped))


def _candidate(n: int, item: Any) -> Candidate | str:
    """The item as a candidate, or why not (never quoting the model's text)."""
    if not isinstance(item, Mapping):
        return f"not an object ({fingerprint(item)})"
    message, topic, text = item.get("message"), item.get("topic"), item.get("fact")
    if isinstance(message, bool) or not isinstance(message, int) or not 1 <= message <= MAX_ROW_ID:
        return f"'message' must be the id of a message (got {fingerprint(message)})"
    if topic not in CATEGORIES:
        return f"unknown topic ({fingerprint(topic)}); one of {', '.join(CATEGORIES)}"
    if not isinstance(text, str) or not text.strip():
        return f"'fact' must be a non-empty text (got {fingerprint(text)})"
    text = " ".join(text.split())
    if len(text) > MAX_CONTENT_CHARS:
        return f"'fact' has {len(text)} characters, more than the {MAX_CONTENT_CHARS} allowed"
    return Candidate(n, message, str(topic), text)


@dataclass(frozen=True)
class Planned:
    """A category's pass, planned from the candidates: the INSERTs to apply and the notes
    for its record (candidates dropped before the applier, citations Kit moved)."""

    inserts: tuple[Insert, ...]
    dropped: tuple[str, ...]
    recited: tuple[str, ...]


def plan(
    extracted: Extracted,
    category: str,
    *,
    grounding: Grounding,
    people_ids: Sequence[int],
    speakers: Mapping[int, str],
    known: Sequence[Fact],
) -> Planned:
    """The INSERTs of `category`'s pass. `people_ids`: the batch's messages of people (what a
    candidate may cite); `speakers`: who "I" is in each of them (`speakers_of`); `known`:
    active facts of the category (not stored twice)."""
    inserts: list[Insert] = []
    dropped: list[str] = []
    recited: list[str] = []
    seen: list[tuple[str, frozenset[str]]] = [(f"fact #{f.id}", _words(f.content)) for f in known]
    for candidate in extracted.candidates:
        if candidate.category != category:
            continue
        text = without_filler(candidate.text)  # "Thanks! ..., by the way." said to Kit
        if candidate.message in speakers:  # "I" in a fact can only mean who said it
            text = third_person(text, speakers[candidate.message])
        op = Insert(text, CONFIDENCE, reason=REASON, sources=(candidate.message,))
        name = f"fact {candidate.item} of the answer"
        same = next((known for known, words in seen if _same(words, _words(op.content))), None)
        if same is not None:
            dropped.append(f"{name} dropped: it says what {same} says")
            continue
        better = _cited_better(op, grounding, people_ids)
        if better is not None:
            recited.append(f"{name}: cited message {candidate.message}, said in {better}")
            op = replace(op, sources=(better,))
        seen.append((f"fact {candidate.item} of the answer", _words(op.content)))
        inserts.append(op)
    return Planned(tuple(inserts), tuple(dropped), tuple(recited))


def speakers_of(batch: Batch, owner_name: str) -> dict[int, str]:
    """Who "I" is in each message of the batch's people: its speaker, the owner by name or
    as "the owner". Forwarded text is left out: its "I" is whoever wrote it first."""
    return {
        m.id: neutralise(m.speaker, inline=True) or owner_name or "the owner"
        for m in batch.messages
        if m.id in batch.owner_message_ids and m.forwarded_from is None
    }


def _cited_better(op: Insert, grounding: Grounding, people_ids: Sequence[int]) -> int | None:
    """Another message of the batch's people that supports `op` whole, when the one it cites
    does not: the nearest to the cited id. None when the cited one holds, or none does."""
    if op.sources[0] in people_ids and grounding.check(op, {}).status == "supported":
        return None
    cited = op.sources[0]
    for other in sorted(people_ids, key=lambda i: (abs(i - cited), i)):
        if other == cited:
            continue
        if grounding.check(replace(op, sources=(other,)), {}).status == "supported":
            return other
    return None


def _words(text: str) -> frozenset[str]:
    return frozenset(m.group().casefold() for m in tokens(text))


def _same(a: frozenset[str], b: frozenset[str]) -> bool:
    if not a or not b:
        return a == b
    return len(a & b) / len(a | b) >= SAME_WORDS
