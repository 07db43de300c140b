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
# Kit's note below is Kit's words. A model that writes them has copied an earlier turn's note
# from its window (issue 29's run 7: the 1.5B answered 8 turns with "... remember: Stored as
# fact #2", "#3", ... and no tool ran: the owner was told of stores that never happened).
_NOTE = "(The model gave no answer of its own"


def final_answer(text: str, tools_said: Sequence[tuple[str, str, bool]]) -> str:
    """The reply to store and send: the model's `text`, or a plain note when it is empty or
    only repeats what a tool of this turn said (`tools_said`: name, result, is_error). A tool
    that failed is not named: its message was for the model (the usual "rephrase?")."""
    answer = "" if _NOTE in text else text.strip()
    if answer and not any(_normal(answer) == _normal(result) for _, result, _ in tools_said):
        return answer
    done = [(name, result) for name, result, failed in tools_said if not failed]
    if not done:
        return EMPTY_REPLY
    said = "; ".join(f"{name}: {_first_line(result)}" for name, result in done)
    return f"{_NOTE}, only what its tools said. {said})"


def _normal(text: str) -> str:
    return " ".join(text.split()).casefold()


def _first_line(result: str) -> str:
    line = next((line.strip() for line in result.splitlines() if line.strip()), "(nothing)")
    return line if len(line) <= _SHOWN_CHARS else line[: _SHOWN_CHARS - 1].rstrip() + "…"
