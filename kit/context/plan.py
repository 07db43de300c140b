"""What the context builder decided for one message, as data: the sections in prompt order,
each item with its score and why it is there, what was cut to fit, token counts and the time
each stage took. The turn sends exactly `system`; `kit context` and `Kit.context` show the
same plan, so "why did Kit say that?" has an exact answer.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from kit.llm.base import SystemBlock
from kit.llm.tokens import estimate_tokens
from kit.memory.days import Day
from kit.memory.fact_rows import Fact
from kit.retrieval.hits import Hit, SearchResult


@dataclass(frozen=True)
class ContextItem:
    kind: str  # fact | day | message | summary | index
    id: int | None
    text: str  # exactly as the model sees it
    tokens: int
    reason: str  # why it was chosen (or, among `dropped`, why it was cut)
    score: float | None = None


@dataclass(frozen=True)
class ContextSection:
    name: str  # prompt | index | core | recent | time | summary | facts | activity
    title: str
    cached: bool  # part of the prompt-cached prefix
    tokens: int  # of the section as rendered (heading included)
    items: tuple[ContextItem, ...] = ()
    dropped: tuple[ContextItem, ...] = ()  # candidates cut by a cap or the budget


@dataclass(frozen=True)
class Stage:
    name: str
    ms: float
    note: str = ""
    # Ran during the stage after it, whose time includes this one's (not added to a total).
    alongside: bool = False


@dataclass(frozen=True)
class ContextReport:
    """A plan without its Python objects: what the control socket and `--json` carry."""

    message: str
    system: tuple[SystemBlock, ...]
    sections: tuple[ContextSection, ...]
    stages: tuple[Stage, ...]
    memory_tokens: int
    tokens: int
    budget_tokens: int
    trimmed: int
    # What the search went without ("": search by meaning served; kit/retrieval/serving.py)
    vector_search: str = ""


@dataclass(frozen=True)
class Sandwich:
    """The plan for one turn. `system` is what the model gets."""

    system: tuple[SystemBlock, ...]
    core_facts: tuple[Fact, ...]
    recent_days: tuple[Day, ...]
    relevant: tuple[Hit, ...]
    trimmed: int  # items dropped to fit the budget
    memory_tokens: int
    search: SearchResult
    sections: tuple[ContextSection, ...] = ()
    stages: tuple[Stage, ...] = ()
    budget_tokens: int = 0
    # What the search went without ("": search by meaning served): a daemon's turn before
    # the embedding model and the vectors are in (kit/retrieval/serving.py)
    vector_search: str = ""

    @property
    def tokens(self) -> int:
        return sum(estimate_tokens(b.text) for b in self.system)

    @property
    def fact_ids(self) -> tuple[int, ...]:
        ids = [f.id for f in self.core_facts] + [h.id for h in self.relevant if h.kind == "fact"]
        return tuple(dict.fromkeys(ids))

    @property
    def days_used(self) -> tuple[date, ...]:
        shown = [d.day for d in self.recent_days]
        shown += [h.day.day for h in self.relevant if h.day is not None]
        return tuple(dict.fromkeys(shown))

    def section(self, name: str) -> ContextSection | None:
        return next((s for s in self.sections if s.name == name), None)

    def report(self) -> ContextReport:
        return ContextReport(
            message=self.search.query,
            system=self.system,
            sections=self.sections,
            stages=self.stages,
            memory_tokens=self.memory_tokens,
            tokens=self.tokens,
            budget_tokens=self.budget_tokens,
            trimmed=self.trimmed,
            vector_search=self.vector_search,
        )
