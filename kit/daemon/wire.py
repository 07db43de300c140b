"""The control socket's wire format: one JSON object per line, read strictly, written safely.

Reading: a request is one flat JSON object. Every value is a string, a 64-bit integer, a finite
number, true, false or null: no op takes a list or an object, so nesting is refused outright
(and nesting too deep for the parser itself is caught, not left to end the daemon). NaN,
Infinity and integers outside 64 bits are refused by name before Python turns them into
values nothing downstream expects (SQLite overflows, Python's 4,300-digit limit).

Writing: a lone surrogate in outgoing text travels as its \\u escape instead of failing to
encode (the client gets back exactly the id it sent); a value JSON cannot carry (NaN, a
structure nested past the recursion limit) raises ValueError for the caller to turn into an
error answer.
"""

from __future__ import annotations

import json
import math
from typing import Any

from kit.errors import InputError

INT_LIMIT = 2**63  # SQLite's INTEGER; far above any id Kit hands out
MAX_ID_CHARS = 200  # a request id is echoed back in every line of the answer

_NOT_AN_OBJECT = (
    "control socket: each line must be one JSON object (the protocol is in docs/socket-protocol.md)"
)
_SCALAR = str | int | float | bool | None


def _whole_number(text: str) -> int:
    # Checked on the digits before int() runs: a 5,000-digit literal never reaches it.
    if len(text.lstrip("-")) > 19 or not -INT_LIMIT <= (value := int(text)) < INT_LIMIT:
        raise InputError(
            f"control socket: integers must fit in 64 bits (got one with "
            f"{len(text.lstrip('-')):,} digits)"
        )
    return value


def _number(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise InputError(f"control socket: {shown(text)} is out of range for a number")
    return value


def _constant(name: str) -> float:
    raise InputError(f"control socket: {name} is not a number this protocol takes")


def parse_request(line: bytes) -> dict[str, Any]:
    """The request on one line, or an InputError saying what is wrong with it."""
    try:
        body = json.loads(
            line, parse_int=_whole_number, parse_float=_number, parse_constant=_constant
        )
    except RecursionError:
        raise InputError(
            "control socket: the request is nested too deeply; send a flat object"
        ) from None
    except InputError:  # from the hooks above
        raise
    except ValueError:  # not JSON, not UTF-8
        raise InputError(_NOT_AN_OBJECT) from None
    if not isinstance(body, dict):
        raise InputError(_NOT_AN_OBJECT)
    for key, value in body.items():
        if not isinstance(value, _SCALAR):
            raise InputError(
                f"control socket: {shown(key)} must be a string, a number, true, false or "
                f"null (got a {'list' if isinstance(value, list) else 'nested object'})"
            )
    return body


def request_id(body: dict[str, Any]) -> int | str | None:
    """The id to answer with: an integer or a short string the client chose (else InputError)."""
    rid = body.get("id")
    if rid is None or (isinstance(rid, int) and not isinstance(rid, bool)):
        return rid
    if isinstance(rid, str) and len(rid) <= MAX_ID_CHARS:
        return rid
    raise InputError(
        f"control socket: 'id' must be an integer or a string of at most {MAX_ID_CHARS} characters"
    )


def answer_line(message: dict[str, Any]) -> bytes:
    """One outgoing line. ValueError (or RecursionError) if the message cannot be JSON."""
    try:
        return json.dumps(message, ensure_ascii=False, allow_nan=False).encode() + b"\n"
    except UnicodeEncodeError:  # a lone surrogate: as a \ud800 escape, which JSON can carry
        return json.dumps(message, allow_nan=False).encode() + b"\n"


def shown(value: object, limit: int = 40) -> str:
    """A value quoted in an error message, cut short: a 30 MB op name is not echoed back."""
    if isinstance(value, str) and len(value) > limit:
        return f"{value[:limit]!r}... ({len(value):,} characters)"
    return repr(value)
