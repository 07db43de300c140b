"""A model for the crash soak, served by FakeAnthropicServer: answers every kind of call a Kit
process makes (chat, window summaries, curation, day summaries, REM) with valid output after a
little latency, so processes spend time in each phase for a SIGKILL to land in.

Curation is deterministic so a half-applied pass would show: every `people` pass inserts
exactly PEOPLE_INSERTS facts, every other category changes nothing.
"""

from __future__ import annotations

import hashlib
import json
import re
import threading
import time
from typing import Any

from tests.servers.anthropic_api import Spec, text_reply, tool_use_reply

PEOPLE_INSERTS = 2
_CATEGORY = re.compile(r"Curate the `(\w+)` facts")
_SHOWN = re.compile(r"^\[msg (\d+), ", re.MULTILINE)  # messages curation may cite


class SoakModel:
    def __init__(self, latency: float = 0.02) -> None:
        self.latency = latency
        self.calls: dict[str, int] = {}
        self._lock = threading.Lock()
        self._watch: list[tuple[str, int, threading.Event]] = []

    def after_calls(self, kind: str, more: int) -> threading.Event:
        """Set once `more` further calls of `kind` have been answered (a kill lands mid-work)."""
        event = threading.Event()
        with self._lock:
            self._watch.append((kind, self.calls.get(kind, 0) + more, event))
        return event

    def __call__(self, body: dict[str, Any]) -> Spec | str:
        time.sleep(self.latency)  # the server's handler thread: widens every window a little
        kind, answer = self._answer(body)
        with self._lock:
            self.calls[kind] = self.calls.get(kind, 0) + 1
            for watched, target, event in self._watch:
                if watched == kind and self.calls[kind] >= target:
                    event.set()
        return answer

    def _answer(self, body: dict[str, Any]) -> tuple[str, Spec | str]:
        tools = {t.get("name") for t in body.get("tools") or []}
        system = " ".join(b.get("text", "") for b in body.get("system") or [])
        everything = system + json.dumps(body.get("messages"))
        if "apply_operations" in tools:
            said = json.dumps(body.get("messages"))
            found = _CATEGORY.search(said)
            category = found.group(1) if found else "?"
            ops: list[dict[str, Any]] = []
            if category == "people":
                tag = hashlib.sha1(system.encode()).hexdigest()[:10]
                ops = [
                    {
                        "op": "INSERT",
                        "subject": f"P{tag}{n}",
                        "content": f"Person {tag}-{n} is a friend",
                        "confidence": 0.8,
                        "sources": [int(i) for i in _SHOWN.findall(system)][:1],
                    }
                    for n in range(PEOPLE_INSERTS)
                ]
            return "curate", tool_use_reply("apply_operations", {"operations": ops})
        if "review_facts" in tools:
            return "rem_review", tool_use_reply("review_facts", {"reviews": []})
        if "You condense one day" in everything:
            return "rem_condense", text_reply("- Condensed outcome one\n- Condensed outcome two")
        if "daily journal" in everything:
            return "daily_summary", text_reply("- Worked on things\n- Decided stuff\n- Left x open")
        if "You maintain the rolling summary" in everything:
            return "window_summary", text_reply("- Earlier: the owner sent soak messages.")
        return "chat", text_reply("Noted.")
