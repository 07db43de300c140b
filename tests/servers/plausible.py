"""A plausible scripted model behind either fake server: it answers each kind of request Kit
makes with a well-formed answer (a reply, curation operations or extracted facts citing the
batch, a day's bullets, condensed bullets, an empty review, a judge's verdict).
bench/real_model.py runs against it to show its scorecard without a real model; tests run the
bench through it."""

from __future__ import annotations

import json
import re
from typing import Any

from tests.servers.providers import Endpoint

_CITABLE = re.compile(r"^\[msg (\d+), ", re.MULTILINE)


def plausible(endpoint: Endpoint) -> None:
    """Make `endpoint` answer like a small, well-behaved model."""

    def answer(body: dict[str, Any]) -> Any:
        spec = _answer(body)
        # Tokens as a model would count them (~4 characters each): the scorecard reads them.
        read = len(json.dumps(body)) // 4
        written = len(json.dumps(spec.get("content") or spec.get("tool_calls") or "")) // 4
        counts = spec["usage"] if spec.get("usage") else {}
        if "input_tokens" in counts:
            counts.update(input_tokens=read, output_tokens=written)
        else:
            counts.update(prompt_tokens=read, completion_tokens=written)
        return spec

    def _answer(body: dict[str, Any]) -> Any:
        system, asked = endpoint.system_of(body), endpoint.asked_of(body)
        tools = str(body.get("tools", "")) + str(body.get("tool_choice", ""))
        if "apply_operations" in tools:
            ops: list[dict[str, Any]] = []
            ids = [int(i) for i in _CITABLE.findall(system)]
            if "`people`" in asked and "Porto" in system and ids:
                ops.append({"op": "INSERT", "subject": "Ana", "confidence": 0.9,
                            "content": "Ana, the owner's sister, lives in Porto",
                            "sources": ids[:1]})  # fmt: skip
            return endpoint.call("apply_operations", {"operations": ops})
        if "list_facts" in tools:  # the extract style (the local preset's): one list a batch
            ids = [int(i) for i in _CITABLE.findall(system)] or [1]
            ana = "Ana, the owner's sister, lives in Porto"
            facts = [{"message": ids[0], "topic": "people", "fact": ana}]
            return endpoint.call("list_facts", {"facts": facts if "Porto" in system else []})
        if "review_facts" in tools:
            return endpoint.call("review_facts", {"reviews": []})
        if "Gold answer:" in asked:
            return endpoint.text('Same topic.\n{"label": "CORRECT"}')
        if "detailed summary" in asked:
            return endpoint.text("## Worked on\n- Planned a visit to Ana in Porto\n## Open\n- Book")
        if "condense" in system.lower() or "condense" in asked.lower():
            return endpoint.text("- Planned a visit to Ana in Porto")
        return endpoint.text("Noted.")

    endpoint.responder = answer
