"""A scripted small model for whole-pipeline tests: a `FakeLLM` default that answers each
request by its purpose, from what the request actually shows it (so a wrong prompt shows up as
a wrong answer, not as a silently passing test).

Conventions the fake understands in the owner's messages:
  "fact <category>: <content>"                 -> curation INSERTs it into <category>
  "fact <category>: <content> until YYYY-MM-DD" -> ... with that expiry
Stale facts whose content mentions a word in `retire` are deactivated by the REM review.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from kit.llm.base import LLMReply, LLMRequest, TextBlock, ToolUse, Usage

_OWNER_LINE = re.compile(r"^\[(\d\d:\d\d)\] Owner: (.+)$", re.MULTILINE)
_FACT = re.compile(
    r"^\[msg (\d+), [\d\- :]+\] [^:\n]+: fact (\w+): (.+?)(?: until (\d{4}-\d\d-\d\d))?$",
    re.MULTILINE,
)
_FACT_ID = re.compile(r"^#(\d+) \(.*?\) (.+)$", re.MULTILINE)
_TIME = re.compile(r"^- \[\d\d:\d\d\] ")
_DETAILED = re.compile(r"<detailed_summary>\n(.*?)\n</detailed_summary>", re.DOTALL)


def _prompt(request: LLMRequest) -> str:
    parts = [b.text for b in request.system]
    for message in request.messages:
        parts += [b.text for b in message.content if isinstance(b, TextBlock)]
    return "\n".join(parts)


def _tool(name: str, data: dict[str, object]) -> LLMReply:
    return LLMReply((ToolUse("toolu_1", name, data),), "tool_use", Usage(200, 40))


@dataclass
class MemoryModel:
    retire: tuple[str, ...] = ()
    seen: list[str] = field(default_factory=list)  # purposes, in call order

    def __call__(self, request: LLMRequest) -> str | LLMReply:
        self.seen.append(request.purpose)
        prompt = _prompt(request)
        if request.purpose == "daily_summary":
            lines = [f"- [{hhmm}] {text}" for hhmm, text in _OWNER_LINE.findall(prompt)]
            return "## Worked on\n" + "\n".join(lines)
        if request.purpose == "rem_condense":
            match = _DETAILED.search(prompt)
            assert match, "the condense prompt must show the detailed summary"
            bullets = [b for b in match.group(1).splitlines() if b.startswith("- ")]
            return "\n".join(f"- {_TIME.sub('', b)} (condensed)" for b in bullets)
        if request.purpose == "rem_review":
            reviews = [
                {"id": int(fact_id), "action": "deactivate", "reason": f"{word} is over"}
                for fact_id, text in _FACT_ID.findall(prompt)
                for word in self.retire
                if word in text
            ]
            return _tool("review_facts", {"reviews": reviews})
        if request.purpose.startswith("curate:"):
            category = request.purpose.removeprefix("curate:")
            ops: list[dict[str, object]] = []
            for said, cat, content, until in _FACT.findall(prompt):
                if cat == category:
                    op: dict[str, object] = {
                        "op": "INSERT",
                        "content": content,
                        "confidence": 0.9,
                        "sources": [int(said)],
                    }
                    if until:
                        op["expires_at"] = until
                    ops.append(op)
            return _tool("apply_operations", {"operations": ops})
        return "ok"
