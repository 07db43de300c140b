"""Frozen dataclasses made from database rows without their `__init__`.

A frozen dataclass's `__init__` sets each field through `object.__setattr__`: for a message
(14 fields) ~4 µs of the ~7 a row took, and a turn's search reads ~150 message rows and ~30
facts (issue 33, round 16). A reader that makes its rows here gives every field itself, in
a dict: tests/core/test_frozen_rows.py holds that each one sets every field and nothing else.
"""

from __future__ import annotations

from typing import Any, TypeVar

T = TypeVar("T")


def made(cls: type[T], fields: dict[str, Any]) -> T:
    """An instance of the frozen dataclass `cls` holding `fields` (every one of its fields)."""
    item = object.__new__(cls)
    object.__setattr__(item, "__dict__", fields)
    return item
