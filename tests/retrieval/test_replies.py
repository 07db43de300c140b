"""Kit's own replies can weigh less than what the owner said (`RankingParams.reply_weight`),
except when the question asks what Kit said; evaluation imports an assistant's turns as Kit's
replies (role "assistant")."""

from __future__ import annotations

import dataclasses
from datetime import UTC, datetime

import pytest

from kit.api import Kit
from kit.eval.locomo import Turn
from kit.memory.messages import NewMessage
from kit.retrieval.query import asks_about_replies

pytestmark = pytest.mark.stores

DAY = datetime(2023, 5, 8, 10, tzinfo=UTC)
NOW = datetime(2023, 8, 16, 12, tzinfo=UTC)


def test_a_question_about_what_kit_said_is_told_apart() -> None:
    for text in (
        "What did you recommend for my sneakers?",
        "Which approach have you suggested for my savings?",
        "Remind me of your advice on the garden",
        "What you told me about the boiler",
    ):
        assert asks_about_replies(text), text
    for text in (
        "Would you suggest a new pair of sneakers?",  # advice now, not about earlier advice
        "What did I say about the boiler?",
        "Can you list my trips?",
    ):
        assert not asks_about_replies(text), text


def test_an_assistants_turn_is_imported_as_kits_reply() -> None:
    assert Turn("D1:2", 1, "Assistant", "hello", DAY).role == "assistant"
    assert Turn("D1:1", 1, "User", "hi", DAY).role == "user"
    assert Turn("D1:3", 1, "Caroline", "hi", DAY).role == "user"


async def test_replies_weigh_less_unless_the_question_asks_what_kit_said(kit: Kit) -> None:
    await kit.import_messages(
        [
            NewMessage("user", "The greyhound needs a new harness", DAY, "Me"),
            NewMessage("assistant", "The greyhound needs a new harness", DAY, "Kit"),
        ],
        conversation="dogs",
    )
    await kit.settle()
    s = kit.services.search

    async def scores(query: str, weight: float) -> dict[str, float]:
        s.params = dataclasses.replace(s.params, recency_boost=0.0, reply_weight=weight)
        hits = await kit.search(query, kinds=("message",), now=NOW)
        return {h.message.role: h.score for h in hits if h.message is not None}

    same, less = await scores("greyhound harness", 1.0), await scores("greyhound harness", 0.5)
    assert less["user"] == pytest.approx(same["user"])
    assert less["assistant"] == pytest.approx(same["assistant"] * 0.5)
    asked = "what did you recommend for the greyhound harness"
    assert await scores(asked, 0.5) == pytest.approx(await scores(asked, 1.0))
