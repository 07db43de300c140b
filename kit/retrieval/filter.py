"""Wide, then filter: the small model keeps the relevant ones among the best ~50 candidates.

Opt-in (`memory.filter = "model"`). The ranking stays Kit's: the model only says which of
the numbered candidates help answer the message, and what it keeps goes into the sandwich
in Kit's order, at most `top_k` per layer as without the filter. The call is bounded in
input tokens (candidates past `filter_max_input_tokens` are not shown), output tokens and
time (`asyncio.timeout`). Any failure (timeout, the model unreachable, an answer that is
not exactly one `keep_relevant` call naming shown candidates) falls back to the unfiltered
ranking, logged by its reason and never by quoting the model. Tokens are recorded in the
usage log like every call (purpose "filter").
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, tzinfo
from typing import Any

from kit.config import MemorySettings
from kit.embed.base import Vectors
from kit.errors import LLMOutputError, LLMUnavailable
from kit.llm.base import LLM, ChatMessage, LLMRequest, SystemBlock, ToolSpec, Usage
from kit.llm.tokens import estimate_tokens
from kit.model_settings import ModelRole
from kit.prompts import Prompts
from kit.retrieval.hits import Hit, SearchResult
from kit.retrieval.kinds import KINDS, Kind
from kit.retrieval.search import MemorySearch
from kit.untrusted.neutralise import neutralise

log = logging.getLogger(__name__)

TOOL_NAME = "keep_relevant"
PURPOSE = "filter"
_LINE_CHARS = 600  # one long candidate must not take the whole budget


def keep_tool(shown: int) -> ToolSpec:
    return ToolSpec(
        TOOL_NAME,
        "Record which candidates help answer the message. Call it once.",
        {
            "type": "object",
            "properties": {
                "keep": {
                    "type": "array",
                    "items": {"type": "integer", "minimum": 1, "maximum": shown},
                    "maxItems": shown,
                    "description": "the numbers of the candidates to keep; [] when none helps",
                }
            },
            "required": ["keep"],
            "additionalProperties": False,
        },
    )


@dataclass(frozen=True)
class FilterOutcome:
    hits: tuple[Hit, ...]  # what goes on: the kept candidates, or all of them after a fallback
    filtered: bool  # False: the unfiltered ranking (see `reason`)
    reason: str  # why it fell back; "" when the model's answer was used
    shown: int  # candidates shown to the model
    seconds: float
    usage: Usage = field(default_factory=Usage)

    @property
    def asked(self) -> bool:
        """Whether the model was asked at all (not when there was nothing to show it)."""
        return self.shown > 0


def parse_keep(raw: Mapping[str, Any], shown: int) -> list[int]:
    """The tool input as distinct 1-based candidate numbers, or `LLMOutputError` naming
    the problem (never quoting the answer)."""
    if not isinstance(raw, Mapping) or set(raw) != {"keep"}:
        raise LLMOutputError('the answer must be an object {"keep": [numbers]}')
    numbers = raw["keep"]
    if not isinstance(numbers, list):
        raise LLMOutputError("'keep' must be a list of candidate numbers")
    if len(numbers) > shown:
        raise LLMOutputError(f"'keep' names {len(numbers)} candidates; only {shown} were shown")
    bad = [n for n in numbers if isinstance(n, bool) or not isinstance(n, int)]
    if bad:
        raise LLMOutputError(f"'keep' holds {len(bad)} entries that are not integers")
    outside = [n for n in numbers if not 1 <= n <= shown]
    if outside:
        raise LLMOutputError(f"'keep' names {len(outside)} numbers not among the {shown} shown")
    if len(set(numbers)) != len(numbers):
        raise LLMOutputError("'keep' names a candidate twice")
    return list(numbers)


def _line(number: int, hit: Hit, tz: tzinfo) -> str:
    text = neutralise(hit.shown, inline=True)
    if len(text) > _LINE_CHARS:
        text = text[:_LINE_CHARS] + "…"
    if hit.fact is not None:
        return f"[{number}] (fact, {hit.fact.category}) {text}"
    if hit.day is not None:
        return f"[{number}] {hit.day.day.isoformat()} (day summary) {text}"
    when = hit.at.astimezone(tz).strftime("%Y-%m-%d")
    who = neutralise(hit.message.speaker or hit.message.role, inline=True) if hit.message else ""
    return f"[{number}] {when} {who}: {text}"


class ModelFilter:
    def __init__(
        self,
        llm: LLM,
        prompts: Prompts,
        background: ModelRole,
        memory: MemorySettings,
        tz: tzinfo,
    ) -> None:
        self._llm = llm
        self._prompts = prompts
        self._role = background  # the background model and its limits
        self._memory = memory
        self._tz = tz

    def _shown(self, query: str, candidates: Sequence[Hit]) -> list[str]:
        """Numbered lines, best first, as many as fit the input budget."""
        budget = self._memory.filter_max_input_tokens - estimate_tokens(
            self._prompts.render("filter", today="YYYY-MM-DD", question=query, candidates="")
        )
        lines: list[str] = []
        for number, hit in enumerate(candidates[: self._memory.filter_candidates], 1):
            line = _line(number, hit, self._tz)
            budget -= estimate_tokens(line) + 1
            if budget < 0:
                break
            lines.append(line)
        return lines

    async def keep(
        self, user_id: str, query: str, candidates: Sequence[Hit], *, now: datetime
    ) -> FilterOutcome:
        started = time.perf_counter()
        lines = self._shown(query, candidates)
        if not candidates:
            return FilterOutcome((), False, "no candidates", 0, 0.0)
        if not lines:
            log.warning("memory filter skipped: no candidate fits memory.filter_max_input_tokens")
            return FilterOutcome(tuple(candidates), False, "input budget too small", 0, 0.0)
        request = LLMRequest(
            model=self._role.model,
            system=(SystemBlock("You choose which recalled memories help answer a message."),),
            messages=(
                ChatMessage.text(
                    "user",
                    self._prompts.render(
                        "filter",
                        today=now.astimezone(self._tz).date().isoformat(),
                        question=neutralise(query, inline=True),
                        candidates="\n".join(lines),
                    ),
                ),
            ),
            max_tokens=self._role.output(self._memory.filter_max_output_tokens),
            tools=(keep_tool(len(lines)),),
            tool_choice=TOOL_NAME,
            purpose=PURPOSE,
            user_id=user_id,
        )
        usage = Usage()

        def fallback(reason: str) -> FilterOutcome:
            log.warning("memory filter fell back to the unfiltered ranking: %s", reason)
            seconds = time.perf_counter() - started
            return FilterOutcome(tuple(candidates), False, reason, len(lines), seconds, usage)

        try:
            async with asyncio.timeout(self._memory.filter_timeout_seconds):
                reply = await self._llm.complete(request)
            usage = reply.usage
            calls = [u for u in reply.tool_uses if u.name == TOOL_NAME]
            if len(calls) != 1:
                raise LLMOutputError(f"the model did not call {TOOL_NAME} exactly once")
            numbers = set(parse_keep(calls[0].input, len(lines)))
        except TimeoutError:
            return fallback(f"no answer within {self._memory.filter_timeout_seconds:g} s")
        except LLMUnavailable:
            return fallback("the model is unavailable")
        except LLMOutputError as exc:
            return fallback(str(exc))
        except Exception as exc:  # an optional step must never cost the owner a reply
            log.exception("memory filter failed unexpectedly")
            return fallback(f"unexpected {type(exc).__name__}")
        kept = tuple(hit for n, hit in enumerate(candidates, 1) if n in numbers)
        seconds = time.perf_counter() - started
        return FilterOutcome(kept, True, "", len(lines), seconds, usage)


class FilteredSearch:
    """What enters the sandwich: Kit's ranking, then (with the filter on) the model's choice
    among the best `filter_candidates`. Same call shape as `MemorySearch.search`."""

    def __init__(
        self, search: MemorySearch, model_filter: ModelFilter | None, memory: MemorySettings
    ) -> None:
        self.inner = search
        self.model_filter = model_filter
        self._memory = memory

    async def search(
        self,
        user_id: str,
        query: str,
        *,
        now: datetime,
        k: int,
        kinds: Sequence[Kind] = KINDS,
        query_vector: Vectors | None = None,
        exclude_message_ids: frozenset[int] = frozenset(),
    ) -> SearchResult:
        result, _ = await self.search_with_outcome(
            user_id,
            query,
            now=now,
            k=k,
            kinds=kinds,
            query_vector=query_vector,
            exclude_message_ids=exclude_message_ids,
        )
        return result

    async def search_with_outcome(
        self,
        user_id: str,
        query: str,
        *,
        now: datetime,
        k: int,
        kinds: Sequence[Kind] = KINDS,
        query_vector: Vectors | None = None,
        exclude_message_ids: frozenset[int] = frozenset(),
    ) -> tuple[SearchResult, FilterOutcome | None]:
        """The result and, with the filter on, what the filter did (for evaluation)."""
        width = k if self.model_filter is None else max(k, self._memory.filter_candidates)
        wide = await self.inner.search(
            user_id,
            query,
            now=now,
            k=width,
            kinds=kinds,
            query_vector=query_vector,
            exclude_message_ids=exclude_message_ids,
        )
        if self.model_filter is None:
            return wide, None
        candidates = wide.hits[: self._memory.filter_candidates]
        outcome = await self.model_filter.keep(user_id, query, candidates, now=now)
        hits = outcome.hits if outcome.filtered else wide.hits
        top = _top_per_layer(hits, k)
        return SearchResult(query, top, wide.query_vector, wide.embed_ms), outcome


def _top_per_layer(hits: Sequence[Hit], k: int) -> tuple[Hit, ...]:
    """The first `k` of each layer, keeping the merged order."""
    counts: dict[Kind, int] = {}
    kept: list[Hit] = []
    for hit in hits:
        counts[hit.kind] = counts.get(hit.kind, 0) + 1
        if counts[hit.kind] <= k:
            kept.append(hit)
    return tuple(kept)
