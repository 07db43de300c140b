"""The request of a pass in the "operations" style: the shared rules and the conversation
(prompts/curate/base.md, cached across the seven categories), the category's own rules and
its current facts (prompts/curate/<category>.md), and the operation schema as the answer's
shape (kit/curator/ops.py). The "extract" style's request is in kit/curator/extract.py."""

from __future__ import annotations

from datetime import datetime, tzinfo

from kit.clock import local_date
from kit.curator.ops import TOOL_NAME, operations_tool
from kit.curator.progress import Batch
from kit.curator.render import fact_lines, other_lines, transcript
from kit.curator.shown import ShownFacts
from kit.llm.base import ChatMessage, LLMRequest, SystemBlock
from kit.model_settings import ModelRole
from kit.prompts import Prompts

# Said when an answer could not be read at all, and the model is asked once more.
AGAIN_OPS = (
    f"Call {TOOL_NAME} once now, or answer with only the JSON object "
    '{"operations": [...]} and nothing else.'
)


def operations_request(
    prompts: Prompts,
    role: ModelRole,
    batch: Batch,
    shown: ShownFacts,
    owner_name: str,
    now: datetime,
    tz: tzinfo,
    transcript_chars: int,
    max_tokens: int,
) -> LLMRequest:
    owner = owner_name or "the owner"
    shared = prompts.render(
        "curate/base",
        owner_name=owner,
        today=local_date(now, tz).isoformat(),
        messages=transcript(batch.messages, tz, owner, max_chars=transcript_chars),
    )
    facts = fact_lines(shown.facts, tz) if shown.facts or shown.complete else "(none)"
    if not shown.complete:  # so the model does not take what it cannot see for unknown
        note = prompts.render(
            "curate/partial",
            shown=len(shown.facts),
            total=shown.total,
            category=batch.category,
        )
        facts = f"{note}\n\n{facts}"
    if shown.elsewhere:
        known = prompts.render(
            "curate/elsewhere", category=batch.category, facts=other_lines(shown.elsewhere)
        )
        facts = f"{facts}\n\n{known}"
    rules = prompts.render(f"curate/{batch.category}", owner_name=owner, facts=facts)
    return LLMRequest(
        model=role.model,
        # The transcript block is the same for all seven categories: cached once.
        system=(SystemBlock(shared, cache=True), SystemBlock(rules)),
        messages=(
            ChatMessage.text(
                "user",
                f"Curate the `{batch.category}` facts from this conversation now.",
            ),
        ),
        max_tokens=max_tokens,
        tools=(operations_tool(),),
        tool_choice=TOOL_NAME,
        purpose=f"curate:{batch.category}",
        user_id=batch.user_id,
    )
