"""Naming untrusted text without quoting it.

What a model answers or a person writes may hold a secret, so a log line or a stored rejection
reason never repeats it: it says what kind of value it was, how long, and a short hash, enough
to tell two bad answers apart or to find the same one again, and nothing more.
"""

from __future__ import annotations

import hashlib
import traceback


def fingerprint(value: object) -> str:
    """`a string of 14 characters, #3fa2b1c0`: the shape of `value`, never its text."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, str):
        digest = hashlib.sha256(value.encode("utf-8", "surrogatepass")).hexdigest()[:8]
        return f"a string of {len(value)} characters, #{digest}"
    if isinstance(value, list | tuple):
        return f"a list of {len(value)}"
    if isinstance(value, dict):
        return f"an object with {len(value)} field(s)"
    return f"a {type(value).__name__}"


def frames(exc: BaseException) -> str:
    """Where an exception was raised (its traceback's frames), for a log line, without its
    message: an unexpected error about a model's answer may carry a piece of that answer."""
    return "\n" + "".join(traceback.format_tb(exc.__traceback__)).rstrip()
