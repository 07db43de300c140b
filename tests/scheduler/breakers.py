"""A small model that fails in a new way on every call: each background answer is unusable,
and no two are alike (so no cache, dedupe or "same error again" check can hide a loop).

Chat turns get "ok": the owner's replies are not what this is about. Every answer carries a
usage close to what the request costs, so the budget sees realistic spending.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

from kit.llm.base import LLMReply, LLMRequest, TextBlock, ToolUse, Usage
from kit.llm.tokens import estimate_request

Breaker = Callable[[int, LLMRequest], LLMReply]


def _usage(request: LLMRequest, output: int = 60) -> Usage:
    return Usage(estimate_request(request) - request.max_tokens, output)


def _text(text: str, stop: str = "end_turn") -> Breaker:
    return lambda n, r: LLMReply((TextBlock(text.format(n=n)),), stop, _usage(r))


def _tool(name: str, data: Callable[[int], dict[str, object]]) -> Breaker:
    return lambda n, r: LLMReply(
        (ToolUse(f"t{n}", name.format(n=n), data(n)),), "tool_use", _usage(r)
    )


def _crash(n: int, request: LLMRequest) -> LLMReply:
    raise RuntimeError(f"the adapter broke in way {n}")


CURATION: tuple[Breaker, ...] = (
    _text("Sure! Here are the operations you asked for, take {n}."),
    _tool("apply_ops_{n}", lambda n: {"operations": []}),
    _tool("apply_operations", lambda n: {"operations": [{"op": f"MERGE{n}", "content": "x"}]}),
    _text('{{"operations": [{{"op": "INSERT", "content": "cut {n}', stop="max_tokens"),
    _tool("apply_operations", lambda n: {"operations": [{"op": "UPDATE", "id": 90_000 + n}]}),
    _tool("apply_operations", lambda n: {"operations": f"not a list {n}"}),
    _crash,
)
BULLETS: tuple[Breaker, ...] = (
    lambda n, r: LLMReply((TextBlock(" " * n + "\n"),), "end_turn", _usage(r)),  # blank
    _text("I'm sorry, I can't summarise this ({n})."),
    _text("A paragraph with no bullets at all, variant {n}."),
    _text("- the answer was cut off here {n}", stop="max_tokens"),
    lambda n, r: LLMReply(
        (TextBlock("\n".join(f"- bullet {i} of {n}" for i in range(100 + n))),),
        "end_turn",
        _usage(r),
    ),
    _crash,
)
REVIEW: tuple[Breaker, ...] = (
    _text("All of these facts look fine to me ({n})."),
    _tool("review_{n}", lambda n: {"reviews": []}),
    _tool("review_facts", lambda n: {"reviews": f"keep them {n}"}),
    _tool(
        "review_facts",
        lambda n: {"reviews": [{"id": 90_000 + n, "action": "keep", "reason": f"r{n}"}]},
    ),
)
WINDOW: tuple[Breaker, ...] = (
    lambda n, r: LLMReply((TextBlock("\n" * n),), "end_turn", _usage(r)),  # blank
    _text("Earlier the owner talked about {n} and then", stop="max_tokens"),
    _crash,
)


def _family(purpose: str) -> tuple[Breaker, ...]:
    if purpose.startswith("curate:"):
        return CURATION
    if purpose in ("daily_summary", "rem_condense"):
        return BULLETS
    if purpose == "rem_review":
        return REVIEW
    return WINDOW


@dataclass
class EverNewFailure:
    """A `FakeLLM` default. `crashes=False` leaves out the raising breakers, so every call
    is an answer with a usage (what the budget tests need); purposes in `always_crash` raise
    on every call (a new message each time)."""

    crashes: bool = True
    always_crash: tuple[str, ...] = ()
    calls: Counter[str] = field(default_factory=Counter)  # background calls by purpose
    n: int = 0

    def __call__(self, request: LLMRequest) -> str | LLMReply:
        if request.purpose == "chat":
            return "ok"
        self.n += 1
        self.calls[request.purpose.split(":")[0]] += 1
        if request.purpose in self.always_crash:
            return _crash(self.n, request)
        family = [b for b in _family(request.purpose) if self.crashes or b is not _crash]
        return family[self.n % len(family)](self.n, request)

    @property
    def total(self) -> int:
        return sum(self.calls.values())
