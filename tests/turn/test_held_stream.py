"""The stream of a turn's text holds back what could be the start of Kit's note
(kit/turn_reply.py `HeldStream`): wherever the model's pieces break, a copied note never
reaches the channel, and every other text reaches it whole."""

from __future__ import annotations

import pytest

from kit.turn_reply import UNMADE_REMINDER, UNMADE_STORE, HeldStream, final_answer

COPIED = (
    "(The model gave no answer of its own, only what its tools said. "
    "remember: Stored as fact #2 (preferences).)"
)
ANSWERS = [
    "Tea (the green kind) is fine.",
    "Noted (The model of the car is a Fiat).",  # begins like the note, then is not it
    "Ends with a bracket (The model gave",  # an unfinished start is the model's own text
    "(",
]


async def _streamed(pieces: list[str], tools_said: list[tuple[str, str, bool]]) -> str:
    shown: list[str] = []

    async def sink(piece: str) -> None:
        shown.append(piece)

    stream = HeldStream(sink)
    for piece in pieces:
        await stream.write(piece)
    text = "".join(pieces)
    await stream.finish(final_answer(text, tools_said), text)
    return "".join(shown)


def _splits(text: str) -> list[list[str]]:
    """`text` in two pieces at every point, and one character at a time."""
    return [[text[:i], text[i:]] for i in range(len(text) + 1)] + [list(text)]


@pytest.mark.parametrize("answer", ANSWERS)
async def test_an_answer_reaches_the_channel_whole_however_it_is_cut(answer: str) -> None:
    for pieces in _splits(answer):
        assert await _streamed(pieces, []) == answer, pieces


async def test_a_copied_note_never_reaches_the_channel_however_it_is_cut() -> None:
    for before in ("", "Sure. "):
        for pieces in _splits(before + COPIED):
            shown = await _streamed(pieces, [])
            assert "Stored as fact" not in shown, pieces
            assert shown == (f"{before}\n\n{UNMADE_STORE}" if before else UNMADE_STORE), pieces


async def test_a_tool_rounds_held_words_are_shown_when_the_next_call_begins() -> None:
    shown: list[str] = []

    async def sink(piece: str) -> None:
        shown.append(piece)

    stream = HeldStream(sink)
    await stream.write("Let me look (")
    assert "".join(shown) == "Let me look "
    await stream.next_call()
    await stream.write("Found it.")
    await stream.finish("Found it.", "Found it.")
    assert "".join(shown) == "Let me look (Found it."


REMEMBERED = [("remember", "Stored as fact #4 (people).", False)]
SCHEDULED = [("schedule_reminder", "Scheduled reminder #2 for 2026-03-03 09:00.", False)]


@pytest.mark.parametrize(
    ("text", "tools", "reply"),
    [
        # a run's false claims: no tool ran (the lead's chat-only runs after run 8)
        ('I stored the fact "Ana lives in Leeds." as fact #9 in my memory.', [], UNMADE_STORE),
        (
            "I scheduled a reminder for you to remind me where your sister lives.",
            [],
            UNMADE_REMINDER,
        ),
        ("I've set up a reminder for 9am.", REMEMBERED, None),  # the note of what ran instead
        # claims a tool of the turn made good, and words that claim nothing
        ("Stored it as fact #4.", REMEMBERED, "Stored it as fact #4."),
        (
            "I've set a reminder for 9am tomorrow.",
            SCHEDULED,
            "I've set a reminder for 9am tomorrow.",
        ),
        ("Shall I set a reminder for it?", [], "Shall I set a reminder for it?"),
        ("Fact #1 says you live in Leeds.", [], "Fact #1 says you live in Leeds."),
    ],
)
def test_an_action_no_tool_of_the_turn_did_is_not_the_answer(
    text: str, tools: list[tuple[str, str, bool]], reply: str | None
) -> None:
    answer = final_answer(text, tools)
    if reply is None:
        assert answer.startswith("(The model gave no answer of its own") and "#4" in answer
    else:
        assert answer == reply
