"""The words a turn's reply ends with when the model wrote none of its own (kit/agent.py).

Issue 29's run 6: after calling `remember`, a local 1.5B model answered 9 turns of 10 with
nothing but its tool's result (`<tool_response> Stored as fact #2 (preferences).
</tool_response>`). The provider's edge takes the template's tags out (kit/llm/template_tags.py);
what is left is either nothing or the tool's result said again. Neither is an answer, and
dressing one up would put words in the model's mouth: the owner is told plainly that the model
gave no answer of its own, and what its tools said.

On a streamed channel (the TUI, `kit chat`) the model's words are shown as they come, before
the turn can tell whether they are an answer. `HeldStream` holds back what could be the start
of Kit's note until the next words tell: a model that copies the note is never shown saying it
(a terminal cannot take back what it printed), and the stream ends with the turn's answer.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from kit.llm.base import TextSink
from kit.reminders.tools import SCHEDULE_REMINDER

EMPTY_REPLY = "Sorry, I came up empty on that one; could you rephrase?"
# The source of a reply Kit wrote in the model's place (`kits_own`), stored with it: the model's
# window leaves such replies out and curation does not read them, however their words change.
KIT_WROTE = "kit"
_SHOWN_CHARS = 160
# Kit's note below is Kit's words. A model that writes them has copied an earlier turn's note
# from its window (issue 29's run 7: the 1.5B answered 8 turns with "... remember: Stored as
# fact #2", "#3", ... and no tool ran: the owner was told of stores that never happened).
_NOTE = "(The model gave no answer of its own"
# A store the model claims that no tool of its turn made (the same run with the note kept out of
# the window: "I stored the fact ... as fact #3" for 8 turns, with no tool called). The owner
# would believe it remembered; it is not shown, and they are told what happened.
UNMADE_STORE = (
    "(The model said it stored something, but no tool stored anything this turn. If it "
    "matters, ask me to remember it.)"
)
_STORE_CLAIM = re.compile(
    r"\b(?:stored|saved|remembered|added|recorded|noted|kept)\b[^\n]{0,200}?\bfact #(\d+)"
    r"|\bfact #(\d+)[^.\n]{0,40}?\b(?:stored|saved|added|recorded)\b",
    re.IGNORECASE,
)
_FACT_ID = re.compile(r"#(\d+)")
# The same for a reminder: "I scheduled a reminder for you ..." with no reminder tool run (the
# lead's chat-only run after run 8, turn 9).
UNMADE_REMINDER = (
    "(The model said it set a reminder, but none was set this turn. Ask me again, with the "
    "time, if you want one.)"
)
_REMINDER_CLAIM = re.compile(
    r"(?<!shall )(?<!should )(?<!can )(?<!could )(?<!would )(?<!did )(?<!do )(?<!if )"
    r"\bI(?:'ve| have)?\s+(?:just\s+|now\s+)?(?:scheduled|set(?:\s+up)?|created|added)\b"
    r"[^.\n]{0,40}?\breminder",
    re.IGNORECASE,
)


def final_answer(text: str, tools_said: Sequence[tuple[str, str, bool]]) -> str:
    """The reply to store and send: the model's `text`, or a plain note when it is empty, only
    repeats what a tool of this turn said (`tools_said`: name, result, is_error), or claims a
    store no tool made. A tool that failed is not named: its message was for the model (the
    usual "rephrase?")."""
    unmade = _unmade_claim(text, tools_said)
    answer = "" if _NOTE in text or unmade else text.strip()
    if answer and not any(_normal(answer) == _normal(result) for _, result, _ in tools_said):
        return answer
    done = [(name, result) for name, result, failed in tools_said if not failed]
    if not done:
        return unmade or EMPTY_REPLY
    said = "; ".join(f"{name}: {_first_line(result)}" for name, result in done)
    return f"{_NOTE}, only what its tools said. {said})"


def kits_own(text: str) -> bool:
    """A reply Kit wrote because the model gave none (`final_answer`'s own words): it is stored
    as KIT_WROTE, so the model's window leaves it out (with the message it answered) and a small
    model does not take it up as its own way of talking (kit/agent.py `window_as_chat`)."""
    return text in (EMPTY_REPLY, UNMADE_STORE, UNMADE_REMINDER) or text.startswith(_NOTE)


def _unmade_claim(text: str, tools_said: Sequence[tuple[str, str, bool]]) -> str:
    """What Kit says instead when `text` claims an action no tool of this turn did: a fact
    stored under a number no tool answered with, or a reminder set with no reminder tool run
    ("" when it claims none)."""
    made = {
        int(number)
        for _, result, failed in tools_said
        if not failed
        for number in _FACT_ID.findall(result)
    }
    for claim in _STORE_CLAIM.finditer(text):
        if int(claim.group(1) or claim.group(2)) not in made:
            return UNMADE_STORE
    ran = {name for name, _, failed in tools_said if not failed}
    if SCHEDULE_REMINDER not in ran and _REMINDER_CLAIM.search(text):
        return UNMADE_REMINDER
    return ""


def _normal(text: str) -> str:
    return " ".join(text.split()).casefold()


def _first_line(result: str) -> str:
    line = next((line.strip() for line in result.splitlines() if line.strip()), "(nothing)")
    return line if len(line) <= _SHOWN_CHARS else line[: _SHOWN_CHARS - 1].rstrip() + "…"


class HeldStream:
    """A turn's text on its way to a streamed channel (`sink`), less Kit's note copied by the
    model: text that could be the note's beginning waits for the next chunk; once the whole
    note is seen, nothing more of that model call is shown. `finish` ends it with the answer."""

    def __init__(self, sink: TextSink) -> None:
        self._sink = sink
        self._held = ""
        self._copied = False  # this call's text holds Kit's note: the rest is not shown
        self.shown = False  # some of the turn's text reached the channel

    async def write(self, chunk: str) -> None:
        if self._copied:
            return
        text = self._held + chunk
        at = text.find(_NOTE)
        if at >= 0:
            self._copied, self._held = True, ""
            await self._show(text[:at])
            return
        keep = _note_begun(text)
        self._held = text[len(text) - keep :]
        await self._show(text[: len(text) - keep])

    async def next_call(self) -> None:
        """A tool round ended: its held words were not the note; the next call starts afresh."""
        if not self._copied:
            await self._show(self._held)
        self._held, self._copied = "", False

    async def finish(self, answer: str, text: str) -> None:
        """End with the turn's `answer` (from `final_answer`; `text` is the model's last)."""
        if answer == text.strip():
            await self._show(self._held)
        else:
            await self._show(f"\n\n{answer}" if self.shown else answer)
        self._held = ""

    async def _show(self, text: str) -> None:
        if text:
            self.shown = True
            await self._sink(text)


def _note_begun(text: str) -> int:
    """The length of the longest end of `text` that begins Kit's note (0: none)."""
    start = text.find(_NOTE[0], max(0, len(text) - len(_NOTE) + 1))
    while start >= 0:
        if _NOTE.startswith(text[start:]):
            return len(text) - start
        start = text.find(_NOTE[0], start + 1)
    return 0
