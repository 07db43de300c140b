"""How much of a batch and of a category's facts one curation pass may show, so that the pass
fits `llm.background.context_tokens` (kit/llm/fit.py).

The transcript's share is the same for every category, so the seven passes over a batch read
the same messages and share one cached prefix; the facts get the rest. A hosted model's window
holds a full batch (BATCH_MAX_CHARS) and `curation.facts_budget_tokens` of facts, and nothing
changes; a small one (the `local` preset's 4,096 tokens) gets smaller batches, and each pass
record says its batch was cut to fit.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from kit.config import CATEGORIES, Settings
from kit.curator.ops import operations_tool
from kit.curator.progress import BATCH_MAX_CHARS, Batch
from kit.llm.fit import room
from kit.model_settings import ModelRole
from kit.prompts import Prompts

TRANSCRIPT_SHARE = 0.6  # of what is left, when a full batch does not fit
LABEL_SHARE = 0.8  # of the transcript's characters for the text ("[msg 12, ...] Ana: " is the rest)
MIN_TRANSCRIPT_CHARS = 400  # at least a message or two per pass


@dataclass(frozen=True)
class PassFit:
    context_tokens: int
    transcript_chars: int  # of message text one batch may hold
    facts_tokens: int  # of fact lines one pass may show
    limited: bool  # False: the window holds a full batch and the usual facts
    fits: bool  # False: even the rules and the answer alone fill the window

    def detail(self, batch: Batch) -> dict[str, Any]:
        """What the pass record says about fitting (nothing when nothing was limited)."""
        if not self.limited:
            return {}
        note = (
            f"the batch was cut to {self.transcript_chars:,} characters to fit "
            f"llm.background.context_tokens = {self.context_tokens:,}; the rest follows in "
            "the next batch"
            if batch.fitted
            else f"fitted to llm.background.context_tokens = {self.context_tokens:,}"
        )
        if not self.fits:
            note += "; the window is too small even for the curator's rules and answer"
        return {
            "fit": {
                "context_tokens": self.context_tokens,
                "transcript_chars": self.transcript_chars,
                "facts_tokens": self.facts_tokens,
                "cut": batch.fitted,
                "note": note,
            }
        }


def pass_fit(prompts: Prompts, role: ModelRole, settings: Settings, output: int) -> PassFit:
    owner = settings.owner.name or "the owner"
    base = prompts.render("curate/base", owner_name=owner, today="2026-01-01", messages="")
    rules = max(
        (prompts.render(f"curate/{c}", owner_name=owner, facts="") for c in CATEGORIES), key=len
    )
    partial = prompts.render("curate/partial", shown=1000, total=1000, category="preferences")
    elsewhere = prompts.render("curate/elsewhere", category="preferences", facts="")
    tool = operations_tool()
    schema = json.dumps(dict(tool.input_schema))
    ask = "Curate the `preferences` facts from this conversation now."
    left = room(role, output, base, rules, partial, elsewhere, tool.description, schema, ask)
    facts_budget = settings.curation.facts_budget_tokens
    if left.tokens >= BATCH_MAX_CHARS // 4 + facts_budget:
        return PassFit(role.context_tokens, BATCH_MAX_CHARS, facts_budget, False, True)
    transcript_tokens = int(left.tokens * TRANSCRIPT_SHARE)
    chars = max(MIN_TRANSCRIPT_CHARS, int(transcript_tokens * 4 * LABEL_SHARE))
    facts = max(1, left.tokens - transcript_tokens)
    return PassFit(role.context_tokens, min(chars, BATCH_MAX_CHARS), facts, True, left.fits)
