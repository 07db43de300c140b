"""A tool call a local model writes as its reply's text (Qwen's format on a server without a
function-calling chat format, issue 29's run), read back as the call it is; and, while a reply
streams, the text held back until it is known not to be one (kit/llm/openai.py)."""

from __future__ import annotations

import json
import re

from kit.llm.base import LLMRequest
from kit.llm.json_repair import Unreadable, loads_lenient


def written_call(text: str, request: LLMRequest) -> tuple[str, str, str] | None:
    """A tool call a local model wrote as its text, whole: `{"name": "search_memory",
    "arguments": {...}}`, perhaps inside `<tool_call>` tags or a code fence (Qwen's format; a
    llama-cpp-python server without a function-calling chat format passes it on as text, and
    Kit stored it as the reply, issue 29). Only a call of a tool the request offered."""
    offered = {t.name for t in request.tools}
    body = _WRAPPER.sub("", text).strip()
    if not offered or request.tool_choice is not None or not body.startswith("{"):
        return None
    if not body.endswith("}"):
        return None
    try:
        value = loads_lenient(body)
    except Unreadable:
        return None
    if not isinstance(value, dict) or value.get("name") not in offered:
        return None
    arguments = value.get("arguments", value.get("parameters", {}))
    if isinstance(arguments, str):
        return ("", str(value["name"]), arguments)
    return ("", str(value["name"]), json.dumps(arguments))


_WRAPPER = re.compile(r"</?tool_call>|^\s*```(?:json)?|```\s*$")
_CALL_OPENERS = ("{", "<tool_call>", "```")


class Held:
    """Streamed text held back while it may still be a tool call written as text (written_call):
    a reply opening with "{", "<tool_call>" or a fence is shown when it ends, unless it was a
    call; any other is shown as it comes."""

    def __init__(self, possible: bool) -> None:
        self._deciding = possible
        self._held: list[str] = []

    def take(self, piece: str) -> str:
        """What of `piece` (and what was held) to show now."""
        if not self._deciding:
            return piece
        self._held.append(piece)
        start = "".join(self._held).lstrip()
        if not start or any(start.startswith(o) or o.startswith(start) for o in _CALL_OPENERS):
            return ""
        self._deciding = False
        return self.rest()

    def rest(self) -> str:
        shown, self._held = "".join(self._held), []
        return shown
