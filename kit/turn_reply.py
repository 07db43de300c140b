"""The words a turn's reply ends with when the model wrote none of its own (kit/agent.py).

Issue 29's run 6: after calling `remember`, a local 1.5B model answered 9 turns of 10 with
nothing but its tool's result (`<tool_response> Stored as fact #2 (preferences).
</tool_response>`). The provider's edge takes the template's tags out (kit/llm/template_tags.py);
what is left is either nothing or the tool's result said again. Neither is an answer, and
dressing one up would put words in the model's mouth: the owner is told plainly that the model
gave no answer of its own, and what its tools said.
"""

from __future__ import annotations

from collections.abc import Sequence

EMPTY_REPLY = "Sorry, I came up empty on that one; could you rephrase?"
_SHOWN_CHARS = 160


def final_answer(text: str, tools_said: Sequence[tuple[str, str]]) -> str:
    """The reply to store and send: the model's `text`, or a plain note when it is empty or
    only repeats what a tool of this turn said (`tools_said`: name, result)."""
    answer = text.strip()
    if answer and not _echo(answer, tools_said):
        return answer
    if not tools_said:
        return answer or EMPTY_REPLY
    said = "; ".join(f"{name}: {_first_line(result)}" for name, result in tools_said)
    return f"(The model gave no answer of its own, only what its tools said. {said})"


def _echo(answer: str, tools_said: Sequence[tuple[str, str]]) -> bool:
    words = _normal(answer)
    return any(words == _normal(result) for _, result in tools_said)


def _normal(text: str) -> str:
    return " ".join(text.split()).casefold()


def _first_line(result: str) -> str:
    line = next((line.strip() for line in result.splitlines() if line.strip()), "(nothing)")
    return line if len(line) <= _SHOWN_CHARS else line[: _SHOWN_CHARS - 1].rstrip() + "…"
