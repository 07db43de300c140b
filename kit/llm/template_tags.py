"""A chat template's own tags taken out of a model's reply, at the edge (kit/llm/openai.py).

A local model on a server that renders its chat template (Qwen2.5 on llama-cpp-python's
server, issue 29's run 6) may write the template's markup into its answer: after a tool round
it answered `<tool_response> Stored as fact #2 (preferences). </tool_response>`, the wrapping
its template gives a tool's result, replayed. Those tags are the template's, never words for
the owner. A `<tool_response>` block is the tool's own result coming back (Kit wrote it, the
model did not), so it goes with its content; the other tags (`<tool_call>` left over, Qwen's
and Llama's turn markers) go alone. What is left is the model's own text; when nothing is,
the chat turn says so in plain words (kit/agent.py). A streamed reply is cleaned as it
comes (`StreamCleaner`): what may still be a tag is held until it is known.
"""

from __future__ import annotations

import re

_ECHO_OPEN, _ECHO_CLOSE = "<tool_response>", "</tool_response>"
# An echo block (to its end tag, or to the reply's end when the model stopped inside it).
_ECHO = re.compile(r"<tool_response>.*?(?:</tool_response>|\Z)", re.S)
_MARKERS = (
    "</tool_response>",
    "<tool_call>",
    "</tool_call>",
    "<|im_start|>",
    "<|im_end|>",
    "<|endoftext|>",
    "<|eot_id|>",
    "<|start_header_id|>",
    "<|end_header_id|>",
)
_ROLES = r"(?:assistant|user|system|tool)"
_MARKER = re.compile(
    r"<\|im_start\|>" + _ROLES + r"?\n?"
    r"|<\|start_header_id\|>" + _ROLES + r"?<\|end_header_id\|>\n*"
    r"|" + "|".join(re.escape(m) for m in _MARKERS)
)
_KNOWN = (_ECHO_OPEN, *_MARKERS)
_OPENED_TURN = re.compile(r"<\|(?:im_start|start_header_id)\|>[a-z]*(?:<\|end_header_id\|>)?$")


def has_tags(text: str) -> bool:
    return "<" in text and (_ECHO_OPEN in text or _MARKER.search(text) is not None)


def strip_tags(text: str) -> str:
    """`text` without template tags or echoed tool results; unchanged when it has none."""
    if not has_tags(text):
        return text
    return _MARKER.sub("", _ECHO.sub("", text)).strip()


def _open_tail(text: str) -> int:
    """Where a trailing fragment that may be the start of a tag begins (len(text) if none)."""
    if (opened := _OPENED_TURN.search(text)) is not None:  # its role may still be coming
        return opened.start()
    start = text.rfind("<", max(0, len(text) - max(map(len, _KNOWN))))
    if start < 0 or ">" in text[start:]:
        return len(text)
    fragment = text[start:]
    return start if any(k.startswith(fragment) for k in _KNOWN) else len(text)


class StreamCleaner:
    """A streamed reply's text with its template tags taken out as it comes: each piece
    gives what can be shown now; the rest is shown (cleaned) at `end`."""

    def __init__(self) -> None:
        self._raw = ""
        self._shown = 0

    def take(self, piece: str) -> str:
        self._raw += piece
        return self._release(self._raw[: _open_tail(self._raw)])

    def end(self) -> str:
        return self._release(self._raw)

    def _release(self, known: str) -> str:
        cleaned = _MARKER.sub("", _ECHO.sub("", known))
        # Cleaning a longer text keeps the cleaned shorter one as its start: only new text shows.
        new, self._shown = cleaned[self._shown :], max(self._shown, len(cleaned))
        return new
