"""Reading the JSON a small model wrote, as it usually gets it wrong: inside a code fence or
after a sentence, with trailing commas, single-quoted or Python-style (True, None), smart
quotes, or an object where a list was asked for. Each repair is a plain text rule, applied
only when the text as written is not JSON; what still does not parse is an error with the
first reason (the reader rejects the answer, never half-reads it). A cut-off answer is not
completed: its end is unknown. Where the items of a list stand each on its own (the extract
style's facts), `whole_items` reads those written in full before the cut.
"""

from __future__ import annotations

import json
import re
from typing import Any

_FENCE = re.compile(r"```(?:json|JSON)?\s*(.*?)```", re.DOTALL)
_TRAILING_COMMA = re.compile(r",\s*([}\]])")
_SMART = str.maketrans({"“": '"', "”": '"', "„": '"', "‘": "'", "’": "'"})
_PYTHON = re.compile(r"(?<![\w\"'])(True|False|None)(?![\w\"'])")
_PYTHON_JSON = {"True": "true", "False": "false", "None": "null"}


class Unreadable(ValueError):
    """No JSON value could be read from the text."""


def loads_lenient(text: str) -> Any:
    """The JSON value in `text`, repaired if need be; `Unreadable` with the first parse error
    when no repair yields one."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        first = f"{exc.msg} at line {exc.lineno} column {exc.colno}"
    for candidate in _candidates(text):
        try:
            return json.loads(candidate)
        except json.JSONDecodeError:
            continue
    raise Unreadable(first)


def _candidates(text: str) -> list[str]:
    """Texts that may be the intended JSON, most likely first."""
    found: list[str] = []
    fenced = _FENCE.search(text)
    base = fenced.group(1) if fenced else text
    outer = _outermost(base)
    for piece in (base, outer):
        if piece is None:
            continue
        fixed = _TRAILING_COMMA.sub(r"\1", piece.translate(_SMART))
        found.append(fixed)
        pythonic = _PYTHON.sub(lambda m: _PYTHON_JSON[m.group(1)], fixed)
        if pythonic != fixed:
            found.append(pythonic)
        if "'" in pythonic and '"' not in pythonic:
            found.append(pythonic.replace("'", '"'))
    return found


def _outermost(text: str) -> str | None:
    """From the first "{" or "[" to its matching bracket (strings respected), or None."""
    start = next((i for i, c in enumerate(text) if c in "{["), None)
    if start is None:
        return None
    depth, in_string, escaped = 0, False, False
    for i in range(start, len(text)):
        c = text[i]
        if in_string:
            if escaped:
                escaped = False
            elif c == "\\":
                escaped = True
            elif c == '"':
                in_string = False
        elif c == '"':
            in_string = True
        elif c in "{[":
            depth += 1
        elif c in "}]":
            depth -= 1
            if depth == 0:
                return text[start : i + 1]
    return None


_LIST_UNDER = re.compile(r'"(?P<key>[A-Za-z_]+)"\s*:\s*\[')


def whole_items(text: str, key: str) -> list[Any]:
    """The items of the list under `key` (or of a list the text opens with) that were written
    whole before `text` was cut off; each is JSON as written, never completed or guessed."""
    start = next((m.end() for m in _LIST_UNDER.finditer(text) if m.group("key") == key), None)
    if start is None:
        opened = text.lstrip().removeprefix("```json").removeprefix("```").lstrip()
        if not opened.startswith("["):
            return []
        start = len(text) - len(opened) + 1
    decoder = json.JSONDecoder()
    items: list[Any] = []
    at = start
    while True:
        while at < len(text) and text[at] in " \t\r\n,":
            at += 1
        if at >= len(text) or text[at] == "]":
            return items
        try:
            item, at = decoder.raw_decode(text, at)
        except json.JSONDecodeError:
            return items  # the cut: what follows was not written whole
        if at == len(text) and isinstance(item, int | float):
            return items  # a number the cut may have shortened
        items.append(item)
