"""Grading an answer against the key with a published judge: Mem0's LoCoMo judge prompt
(prompts/eval_judge.md, from mem0ai/mem0 evaluation/metrics/llm_judge.py, word for word).

It asks for a one-sentence reason and a JSON object `{"label": "CORRECT" | "WRONG"}`. The
verdict is read from the answer's plain text, as Mem0's harness reads it (the JSON object,
fenced or not), never from a tool call, so any model on either provider can judge. An answer
with no readable label is "unreadable": it counts as wrong and is reported on its own.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Literal

from kit.llm.base import LLM, ChatMessage, LLMRequest, Usage
from kit.model_settings import ModelRole
from kit.prompts import Prompts

Verdict = Literal["CORRECT", "WRONG", "unreadable"]
PURPOSE = "eval_judge"
MAX_TOKENS = 300  # a sentence and a small JSON object
_FENCED = re.compile(r"```(?:json)?\s*(\{.*?\})\s*```", re.DOTALL)
_OBJECT = re.compile(r"\{[^{}]*\}", re.DOTALL)
_WORD = re.compile(r"\b(CORRECT|WRONG)\b")


@dataclass(frozen=True)
class Grade:
    verdict: Verdict
    usage: Usage

    @property
    def correct(self) -> bool:
        return self.verdict == "CORRECT"


def read_verdict(text: str) -> Verdict:
    """The label in a judge's answer: its JSON object's "label" (the last object that has
    one), else the one bare CORRECT or WRONG it names; anything else is unreadable."""
    candidates = _FENCED.findall(text) + _OBJECT.findall(text)
    for raw in reversed(candidates):
        try:
            value = json.loads(raw)
        except json.JSONDecodeError:
            continue
        label = value.get("label") if isinstance(value, dict) else None
        if isinstance(label, str) and label.strip().upper() in ("CORRECT", "WRONG"):
            return "CORRECT" if label.strip().upper() == "CORRECT" else "WRONG"
    words = set(_WORD.findall(text))
    if len(words) == 1:
        return "CORRECT" if words == {"CORRECT"} else "WRONG"
    return "unreadable"


class Judge:
    def __init__(self, llm: LLM, prompts: Prompts, role: ModelRole) -> None:
        self._llm = llm
        self._prompts = prompts
        self._role = role

    async def grade(self, question: str, gold: str, answer: str) -> Grade:
        prompt = self._prompts.render(
            "eval_judge", question=question, gold_answer=gold, generated_answer=answer
        )
        reply = await self._llm.complete(
            LLMRequest(
                model=self._role.model,
                system=(),
                messages=(ChatMessage.text("user", prompt),),
                max_tokens=self._role.output(MAX_TOKENS),
                purpose=PURPOSE,
                temperature=self._role.temperature,
            )
        )
        return Grade(read_verdict(reply.text), reply.usage)
