"""Frozen dataclasses <-> JSON values, for the control socket.

Decoding follows the dataclass's type hints, so a field another module adds (with a default)
travels without touching this file. Datetimes travel as ISO 8601 with their offset, dates as
YYYY-MM-DD, tuples as lists.
"""

from __future__ import annotations

import dataclasses
import types
from datetime import date, datetime
from typing import Any, Literal, TypeVar, Union, get_args, get_origin, get_type_hints

from kit.errors import KitError

T = TypeVar("T")


class ProtocolError(KitError):
    """The other end of the control socket sent something this Kit cannot read."""


def encode(value: Any) -> Any:
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: encode(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, datetime):
        return value.isoformat()
    if isinstance(value, date):
        return value.isoformat()
    if isinstance(value, list | tuple):
        return [encode(v) for v in value]
    if isinstance(value, dict):
        return {str(k): encode(v) for k, v in value.items()}
    if value is None or isinstance(value, str | int | float | bool):
        return value
    raise TypeError(f"cannot send a {type(value).__name__} over the control socket")


def decode(hint: Any, value: Any) -> Any:
    """`value` (from JSON) as the type `hint` describes."""
    try:
        return _decode(hint, value)
    except (TypeError, ValueError, KeyError) as exc:
        raise ProtocolError(
            f"the Kit daemon sent data this client cannot read ({exc}); the daemon and this "
            "command may be different versions: restart the daemon (`kit run`)"
        ) from exc


def _decode(hint: Any, value: Any) -> Any:
    if hint is Any:
        return value
    origin = get_origin(hint)
    if origin in (Union, types.UnionType):
        if value is None:
            return None
        options = [a for a in get_args(hint) if a is not type(None)]
        if len(options) != 1:
            raise TypeError(f"cannot decode the union {hint}")
        return _decode(options[0], value)
    if origin is Literal:
        if value not in get_args(hint):
            raise ValueError(f"{value!r} is not one of {get_args(hint)}")
        return value
    if origin is tuple:
        args = get_args(hint)
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(_decode(args[0], v) for v in _list(value))
        return tuple(_decode(a, v) for a, v in zip(args, _list(value), strict=True))
    if origin is list:
        (item,) = get_args(hint)
        return [_decode(item, v) for v in _list(value)]
    if origin is dict:
        _, item = get_args(hint)
        if not isinstance(value, dict):
            raise TypeError(f"expected an object, got {type(value).__name__}")
        return {k: _decode(item, v) for k, v in value.items()}
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        if not isinstance(value, dict):
            raise TypeError(f"expected an object for {hint.__name__}")
        hints = get_type_hints(hint)
        fields = {f.name for f in dataclasses.fields(hint) if f.init}
        return hint(**{k: _decode(hints[k], v) for k, v in value.items() if k in fields})
    if hint is datetime:
        return datetime.fromisoformat(_str(value))
    if hint is date:
        return date.fromisoformat(_str(value))
    if hint is float and isinstance(value, int | float) and not isinstance(value, bool):
        return float(value)
    if hint in (str, int, bool) and type(value) is hint:
        return value
    raise TypeError(f"expected {getattr(hint, '__name__', hint)}, got {type(value).__name__}")


def decode_as(cls: type[T], value: Any) -> T:
    result: T = decode(cls, value)
    return result


def _list(value: Any) -> list[Any]:
    if not isinstance(value, list):
        raise TypeError(f"expected a list, got {type(value).__name__}")
    return value


def _str(value: Any) -> str:
    if not isinstance(value, str):
        raise TypeError(f"expected a string, got {type(value).__name__}")
    return value


def event_fields(event: str, value: Any) -> dict[str, Any]:
    """What an event line carries besides its id and name: a dataclass's fields, else the value
    under the event's own name ({"text": "Hel"})."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        fields: dict[str, Any] = encode(value)
        return fields
    return {event: encode(value)}


def event_value(hint: Any, message: dict[str, Any]) -> Any:
    """The value an event line carries (see `event_fields`), as the type `hint` describes."""
    name = message.get("event")
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        return decode(hint, {k: v for k, v in message.items() if k not in ("id", "event")})
    return decode(hint, message.get(str(name)))
