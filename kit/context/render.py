"""A context report as text: each section with its items, each item's score and why it was
chosen (and what was cut), token counts and the time of each stage. `kit context` prints it; the
MCP server's `get_context` tool returns it."""

from __future__ import annotations

import textwrap
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # `kit --help` loads kit/commands/context.py, which imports this: no core
    from kit.context.plan import ContextItem, ContextReport, ContextSection


def render(report: ContextReport, *, dropped: bool = False) -> str:
    out = [
        f"Context for: {report.message}",
        f"memory {report.memory_tokens:,} tokens (budget {report.budget_tokens:,}), "
        f"whole system prompt {report.tokens:,} tokens"
        + (f", {report.trimmed} items cut to fit the budget" if report.trimmed else ""),
    ]
    if report.vector_search:  # a daemon's first seconds (kit/retrieval/serving.py)
        out.append(f"searched on {report.vector_search}")
    for section in report.sections:
        out.append("")
        out.append(_heading(section))
        for item in section.items:
            out.extend(_item(item))
        if section.dropped and dropped:
            out.append(f"  cut ({len(section.dropped)}):")
            for item in section.dropped:
                out.extend(_item(item, cut=True))
        elif section.dropped:
            out.append(f"  ({len(section.dropped)} cut; --dropped lists them)")
    out.append("")
    out.append("stages:")
    width = max((len(s.name) for s in report.stages), default=0)
    for stage in report.stages:
        notes = [stage.note] if stage.note else []
        if stage.alongside:
            notes.append("during the next stage")
        note = f"  ({'; '.join(notes)})" if notes else ""
        out.append(f"  {stage.name:<{width}}  {stage.ms:8.1f} ms{note}")
    total = sum(s.ms for s in report.stages if not s.alongside)
    out.append(f"  {'total':<{width}}  {total:8.1f} ms")
    return "\n".join(out)


def _heading(section: ContextSection) -> str:
    cached = ", cached" if section.cached else ""
    count = f", {len(section.items)} items" if len(section.items) > 1 else ""
    return f"== {section.title} ({section.tokens:,} tokens{count}{cached})"


def _item(item: ContextItem, *, cut: bool = False) -> list[str]:
    score = "" if item.score is None else f"{item.score:.3f} "
    label = f"#{item.id} " if item.id is not None else ""
    text = item.text.splitlines()[0] if cut and item.text else item.text
    head = f"  {score}{label}{item.reason} · {item.tokens} tokens"
    return [head, textwrap.indent(text, "      ")]
