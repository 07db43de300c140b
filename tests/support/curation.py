"""Shared test helpers for curation: scripted curator replies and quick message/fact setup."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from datetime import datetime
from typing import Any

from kit.api import Kit
from kit.llm.base import LLMReply, LLMRequest, ToolUse, Usage
from kit.memory.fact_rows import Fact
from kit.memory.fact_writer import Provenance
from kit.memory.messages import Conversation, Message

Op = dict[str, Any]


def tool_reply(*ops: Op) -> LLMReply:
    """The model calling apply_operations with these operations."""
    return LLMReply(
        (ToolUse("toolu_1", "apply_operations", {"operations": list(ops)}),),
        "tool_use",
        Usage(100, 20),
        "claude-haiku-4-5",
    )


_CITABLE = re.compile(r"^\[msg (\d+), ", re.MULTILINE)
_CITING = ("INSERT", "REPLACE")


def shown_ids(text: str) -> list[int]:
    """The message ids a curation transcript shows (what operations may cite)."""
    return [int(i) for i in _CITABLE.findall(text)]


def citing_all(request: LLMRequest, reply: LLMReply) -> LLMReply:
    """`reply` with every text-storing operation that cites nothing citing every message it
    was shown: a model that cites its batch, unless the script says which messages."""
    ids = shown_ids(request.system[0].text)
    blocks = []
    for block in reply.content:
        ops = block.input.get("operations") if isinstance(block, ToolUse) else None
        if isinstance(block, ToolUse) and isinstance(ops, list):
            ops = [
                {**op, "sources": ids}
                if isinstance(op, dict) and "sources" not in op and _stores_text(op)
                else op
                for op in ops
            ]
            block = replace(block, input={**block.input, "operations": ops})
        blocks.append(block)
    return replace(reply, content=tuple(blocks))


def _stores_text(op: dict[str, Any]) -> bool:
    return op.get("op") in _CITING or (
        op.get("op") == "UPDATE" and bool(op.get("content") or op.get("subject"))
    )


def category_of(request: LLMRequest) -> str:
    assert request.purpose.startswith("curate:"), request.purpose
    return request.purpose.split(":", 1)[1]


def by_category(
    answers: Mapping[str, LLMReply | str | Callable[[LLMRequest], LLMReply | str]],
) -> Callable[[LLMRequest], LLMReply | str]:
    """A FakeLLM default: each category's scripted answer; no changes for the others. Scripted
    operations that store text and cite nothing cite every message shown (`citing_all`)."""

    def answer(request: LLMRequest) -> LLMReply | str:
        if not request.purpose.startswith("curate:"):
            return "ok"
        step = answers.get(category_of(request), tool_reply())
        reply = step(request) if callable(step) else step
        return citing_all(request, reply) if isinstance(reply, LLMReply) else reply

    return answer


async def say(
    kit: Kit,
    *texts: str,
    at: datetime | None = None,
    role: str = "user",
    source: str = "chat",
    conversation: str = "default",
    user: str | None = None,
) -> list[Message]:
    """Store messages in a conversation without running a turn."""
    s = kit.services
    conv: Conversation = await s.messages.conversation(
        user or kit.settings.owner.user_id, "api", conversation
    )
    return [
        await s.messages.add(conv, role, text, at=at, source=source)  # type: ignore[arg-type]
        for text in texts
    ]


async def add_facts(
    kit: Kit, category: str, contents: Sequence[str], *, user: str | None = None, **fields: Any
) -> list[Fact]:
    return [
        await kit.services.facts.add(
            user or kit.settings.owner.user_id,
            category=category,
            content=content,
            provenance=Provenance(actor="api", reason="test setup"),
            **fields,
        )
        for content in contents
    ]


async def all_facts(kit: Kit, user: str | None = None) -> dict[int, dict[str, Any]]:
    """Every fact (active or not) as its history snapshot: what undo must restore exactly."""
    facts = await kit.services.facts.listing(
        user or kit.settings.owner.user_id, include_inactive=True
    )
    return {f.id: f.snapshot() for f in facts}


async def table_counts(kit: Kit) -> dict[str, int]:
    db = kit.services.db
    return {
        table: int(await db.scalar(f"SELECT COUNT(*) FROM {table}"))
        for table in ("facts", "fact_history", "passes", "curation_state", "curation_parked")
    }
