"""Long messages are shown by the passage that matched, inside the memory budget (issue 28:
BEAM's 15 retrieved turns cost ~8,500 tokens against a 1,200-token budget)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from kit.api import Kit
from kit.llm.tokens import estimate_tokens
from kit.memory.messages import NewMessage
from kit.retrieval.passages import LONG_TOKENS, PASSAGE_TOKENS, best_passage, split
from kit.tools import format_hits

FILLER = (
    "Here is a long explanation of how the deployment pipeline works in practice. "
    "It covers the build stage, the test stage and the release stage in some detail. "
)
ANSWER = "Your sourdough starter needs feeding every twelve hours at room temperature."
LONG = FILLER * 6 + ANSWER + " " + FILLER * 6
WHEN = datetime(2024, 3, 1, 9, 0, tzinfo=UTC)


def test_a_short_message_is_its_own_passage() -> None:
    assert split("I adopted a greyhound called Biscuit.") == ()
    assert best_passage("I adopted a greyhound.", {"greyhound"}) is None


def test_a_long_message_is_cut_into_bounded_runs_of_sentences_that_cover_it() -> None:
    passages = split(LONG)
    assert estimate_tokens(LONG) > LONG_TOKENS and len(passages) > 3
    assert all(estimate_tokens(p.of(LONG)) <= PASSAGE_TOKENS for p in passages)
    covered = "".join(p.of(LONG) for p in passages).replace(" ", "")
    assert covered == LONG.replace(" ", "")  # nothing lost, only spaces between them
    assert any(ANSWER in p.of(LONG) for p in passages)  # sentences stay whole
    # one sentence longer than a passage is cut at spaces, and a line break ends a sentence
    words = " ".join(f"word{n}" for n in range(200))
    cut = split(words)
    assert len(cut) > 1 and all(not p.of(words).startswith(" ") for p in cut)
    assert all(p.of(words).split()[0].startswith("word") for p in cut)
    code = "def f():\n" + "\n".join(f"    x{n} = {n}" for n in range(80))
    cuts = split(code)
    assert len(cuts) > 1  # each passage begins at the start of a line (after its indent)
    assert all(p.start == 0 or code[: p.start].rstrip(" ").endswith("\n") for p in cuts)


def test_the_passage_shown_holds_the_most_of_the_querys_words() -> None:
    found = best_passage(LONG, {"sourdough", "starters", "feeding"})
    assert found is not None
    passage, part, parts = found
    assert ANSWER in passage.of(LONG) and parts == len(split(LONG))
    assert split(LONG)[part - 1] == passage
    first, number, _ = best_passage(LONG, {"nothing", "shared"}) or (None, 0, 0)
    assert first == split(LONG)[0] and number == 1  # no word in any: its first passage


@pytest.mark.stores
async def test_search_and_context_show_a_long_turn_by_its_passage(kit: Kit) -> None:
    await kit.import_messages(
        [
            NewMessage("assistant", LONG, WHEN, "Assistant", "D1:2"),
            NewMessage("user", "How often should I feed my sourdough starter?", WHEN, "Me"),
        ],
        conversation="bread",
    )
    await kit.settle()
    hits = await kit.search("sourdough starter feeding", kinds=("message",), now=WHEN, k=5)
    hit = next(h for h in hits if h.ref == "D1:2")
    assert hit.text == LONG  # the message itself is whole
    assert ANSWER in hit.shown and hit.shown.startswith("… ") and hit.shown.endswith(" …")
    assert estimate_tokens(hit.shown) <= PASSAGE_TOKENS + 2
    line = format_hits([hit], UTC)
    assert f"#{hit.id}, part {hit.part} of {hit.parts}" in line and estimate_tokens(line) < 90
    plan = await kit.context("how often do I feed the sourdough starter?", at=WHEN)
    activity = plan.section("activity")
    assert activity is not None
    shown = next(i for i in activity.items if i.id == hit.id)
    assert f"(message #{hit.id}, part {hit.part} of {hit.parts})" in shown.text
    assert ANSWER in shown.text and shown.tokens < estimate_tokens(LONG) // 4
