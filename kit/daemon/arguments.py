"""A control socket request's fields read as an operation's arguments, checked by the
operation's declaration (kit/surface.py) before anything runs.

A field that is absent or null takes the argument's default (a required one is an error). Ids
are positive integers (not true, not -1), texts are strings within the length the declaration
gives, dates are YYYY-MM-DD (whether an expiry is in range is checked where every front-end's
is), a forget receipt is named by its id, never by a path. Strings are cleaned of lone
surrogates and control characters before they go further.
"""

from __future__ import annotations

import types
import typing
from datetime import date
from typing import Any, Union

from kit.clock import EARLIEST, LATEST
from kit.curator.ops import MAX_ROW_ID
from kit.daemon.wire import shown
from kit.errors import InputError
from kit.forget.receipt import looks_like_id
from kit.operations import Argument, Operation
from kit.surface import Between, ReceiptId, RowId, Text
from kit.untrusted.clean import clean_text

_KINDS = {int: "an integer", str: "a string", bool: "true or false"}


def read_arguments(op: Operation, body: dict[str, Any]) -> dict[str, Any]:
    """`op`'s arguments from a request, by name (the streams left out), or InputError."""
    return {arg.name: _read(arg, body) for arg in op.fields}


def read_user(body: dict[str, Any]) -> str | None:
    """The memory namespace a request names, if it names one."""
    user: str | None = field(body, "user", str, None)
    return user


def field(body: dict[str, Any], name: str, kind: type, default: Any = ...) -> Any:
    """The field `name` as a `kind` (int, str or bool), or `default` when it is absent or
    null (InputError without one)."""
    if name not in body or body[name] is None:
        if default is ...:
            raise InputError(f"control socket: request needs {name!r}")
        return default
    value = body[name]
    if kind is int and isinstance(value, bool):
        value = None  # JSON true is not a fact id
    if not isinstance(value, kind):
        raise InputError(f"control socket: {name!r} must be {_KINDS[kind]}")
    if isinstance(value, str):
        return clean_text(value)  # no lone surrogates or control characters go further
    return value


def _read(arg: Argument, body: dict[str, Any]) -> Any:
    if body.get(arg.wire) is None and not arg.required:
        return arg.default
    kind = _kind(arg.hint)
    value = field(body, arg.wire, str if kind is date else kind)
    if kind is date:
        return _date(value, arg.wire)
    for check in arg.checks:
        value = _check(check, arg.wire, value)
    return value


def _kind(hint: Any) -> type:
    """The one type besides None a field may hold."""
    if typing.get_origin(hint) in (Union, types.UnionType):
        (hint,) = [o for o in typing.get_args(hint) if o is not type(None)]
    if hint not in (str, int, bool, date):
        raise TypeError(f"the control socket cannot carry an argument of type {hint}")
    kind: type = hint
    return kind


def _check(check: Any, name: str, value: Any) -> Any:
    """`value` if it passes `check` (a receipt id folded to its usual form), else InputError."""
    if isinstance(check, Text) and len(value) > check.limit:
        raise InputError(
            f"control socket: {name!r} has {len(value):,} characters, more than {check.limit:,}"
        )
    if isinstance(check, RowId) and not 1 <= value <= MAX_ROW_ID:
        raise InputError(f"control socket: {name!r} must be a positive integer id")
    if isinstance(check, Between) and not check.low <= value <= check.high:
        raise InputError(
            f"control socket: {name} must be a whole number from {check.low} to {check.high} "
            f"(got {value})"
        )
    if isinstance(check, ReceiptId):
        value = value.strip().lower()
        if not looks_like_id(value):  # never a path: the daemon reads no file a client names
            raise InputError(
                f"control socket: {shown(value)} is not a forget receipt id (like "
                "fr-k3m9q2xa7b); over the control socket a receipt is named by its id "
                "(`kit forget --receipts` lists them)"
            )
    return value


def _date(text: str, name: str) -> date:
    try:
        day = date.fromisoformat(text)
    except ValueError:
        day = None
    if day is None or not EARLIEST.date() <= day < LATEST.date():
        raise InputError(
            f"control socket: {name} must be YYYY-MM-DD between {EARLIEST.year} and "
            f"{LATEST.year - 1} (got {shown(text)})"
        )
    return day
