"""The chat model's tool arguments, checked at the edge against the tool's own input schema.

Every tool call passes here before its tool runs (kit/tools.py), so one bad value (a date in
the year 10000, an id of 2^70, a list where a sentence belongs) is the tool's "Not done: ..."
answer, never an exception inside the tool and never a value stored as its Python repr. The
schema checked is the one the model is shown (`ToolSpec.input_schema`); the part of JSON Schema
Kit's tools use is supported, and a test holds every tool to it (`check_schema`).

Coercion is forgiving where a model's near-miss is unambiguous: an integer may come as 3.0,
"3" or "#3"; an enum value in any case, with spaces around; null is an optional argument
left out. Bounds hold where a schema says nothing: integers within +-2^53 (exact in JSON and
inside SQLite's 64 bits), finite numbers, strings of at most `MAX_STRING_CHARS` characters,
cleaned (no control characters, lone surrogates made U+FFFD). Tools keep their own checks of
meaning (a time in the past, a note that does not exist) and their own, kinder length limits.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from typing import Any

from kit.errors import InputError
from kit.llm.base import ToolSpec
from kit.untrusted.clean import clean_text

MAX_INT = 2**53
MAX_STRING_CHARS = 100_000  # a whole message; above every tool's own limit, so theirs speak first
_TYPES = ("string", "integer", "number", "boolean")
_KEYWORDS = frozenset({"type", "description", "enum", "minimum", "maximum", "maxLength"})
_WHOLE = re.compile(r"#?[+-]?[0-9]{1,20}")


def check_schema(spec: ToolSpec) -> None:
    """Fail (at test time) if a tool's schema uses what `checked_input` does not check."""
    schema = spec.input_schema
    assert schema.get("type") == "object", spec.name
    assert set(schema) <= {"type", "properties", "required"}, spec.name
    properties = schema.get("properties", {})
    assert set(schema.get("required", ())) <= set(properties), spec.name
    for name, prop in properties.items():
        assert set(prop) <= _KEYWORDS and prop.get("type") in _TYPES, (spec.name, name)
        if "enum" in prop:
            assert prop["type"] == "string" and all(v == v.lower() for v in prop["enum"])


def checked_input(spec: ToolSpec, args: object) -> dict[str, Any]:
    """`args` as the tool's schema asks (coerced, bounded, only its own arguments, a missing
    or null optional one left out), or an InputError saying which argument and why."""
    if not isinstance(args, Mapping):
        raise InputError(f"{spec.name} takes its arguments as an object, not {_kind(args)}")
    properties: Mapping[str, Mapping[str, Any]] = spec.input_schema.get("properties", {})
    unknown = [k for k in args if k not in properties]
    if unknown:
        takes = ", ".join(properties) or "no arguments"
        raise InputError(f"{spec.name} takes {takes}; {_shown(unknown[0])} is not one of them")
    checked: dict[str, Any] = {}
    for name, prop in properties.items():
        value = args.get(name)
        if value is None:
            if name in spec.input_schema.get("required", ()):
                about = prop.get("description") or _describe(prop)
                raise InputError(f"{spec.name} needs {name} ({about})")
            continue
        checked[name] = _coerce(name, prop, value)
    return checked


def _coerce(name: str, prop: Mapping[str, Any], value: object) -> Any:
    kind = prop["type"]
    if kind == "integer":
        return _integer(name, prop, value)
    if kind == "number":
        return _number(name, prop, value)
    if kind == "boolean":
        if not isinstance(value, bool):
            raise InputError(f"{name} must be true or false (got {_shown(value)})")
        return value
    if not isinstance(value, str):
        raise InputError(f"{name} must be {_describe(prop)} (got {_kind(value)})")
    text = clean_text(value)
    limit = int(prop.get("maxLength", MAX_STRING_CHARS))
    if len(text) > limit:
        raise InputError(
            f"{name} must be at most {limit:,} characters (got {len(text):,}); say it shorter"
        )
    if "enum" in prop:
        choice = text.strip().lower()
        if choice not in prop["enum"]:
            raise InputError(
                f"{name} must be {_describe(prop)} (got {_shown(text)}); nothing else is "
                "possible, so tell the owner if what they asked for is not among them"
            )
        return choice
    return text


def _integer(name: str, prop: Mapping[str, Any], value: object) -> int:
    number: int | None = None
    if isinstance(value, bool):
        number = None
    elif isinstance(value, int):
        number = value
    elif isinstance(value, float) and math.isfinite(value) and value.is_integer():
        number = int(value) if abs(value) <= MAX_INT else None
    elif isinstance(value, str) and _WHOLE.fullmatch(value.strip()):
        number = int(value.strip().lstrip("#"))
    low, high = _bounds(prop)
    if number is None or not low <= number <= high:
        raise InputError(f"{name} must be {_describe(prop)} (got {_shown(value)})")
    return number


def _number(name: str, prop: Mapping[str, Any], value: object) -> float:
    low, high = _bounds(prop)
    if (
        isinstance(value, bool)
        or not isinstance(value, int | float)
        or (isinstance(value, float) and not math.isfinite(value))
        or not low <= value <= high
    ):
        raise InputError(f"{name} must be {_describe(prop)} (got {_shown(value)})")
    return float(value)


def _bounds(prop: Mapping[str, Any]) -> tuple[int | float, int | float]:
    return max(prop.get("minimum", -MAX_INT), -MAX_INT), min(prop.get("maximum", MAX_INT), MAX_INT)


def _describe(prop: Mapping[str, Any]) -> str:
    """What a value of `prop` must be, in words."""
    kind = prop["type"]
    if "enum" in prop:
        return "one of " + ", ".join(prop["enum"])
    if kind in ("integer", "number"):
        low, high = _bounds(prop)
        what = "a whole number" if kind == "integer" else "a number"
        return f"{what} from {low:,} to {high:,}"
    if kind == "boolean":
        return "true or false"
    return "text (a string)"


def _kind(value: object) -> str:
    names = {list: "a list", dict: "an object", bool: "true/false", int: "a number"}
    return names.get(type(value), "a number" if isinstance(value, float) else "a value")


def _shown(value: object) -> str:
    """A value from the model, echoed back short (never a 5,000-digit integer whole)."""
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 64:
        return f"an integer of about {int(value.bit_length() * math.log10(2)) + 1:,} digits"
    text = " ".join(repr(value).split())
    return text if len(text) <= 40 else text[:37] + "..."
