"""The declaration of kit/surface.py read at run time: each operation's arguments (their types,
checks, request fields and streams) and result, `Relay` (the base of clients that pass every
operation on), and `reference()` (the control socket's protocol, rendered).

An operation is read when first used, and only the types it names are loaded: a client of a
running daemon that asks for its status does not load search or notes.
"""

from __future__ import annotations

import functools
import importlib
import inspect
import types
import typing
from abc import abstractmethod
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from datetime import date
from typing import Any, Union

from kit import surface
from kit.surface import Between, KitClient, ReceiptId, RowId, Stream, Text, Wire

REQUIRED: Any = inspect.Parameter.empty


class _DeclaredTypes(Mapping[str, Any]):
    """The declaration's type names, each imported from its home when an annotation needs it."""

    def __getitem__(self, name: str) -> Any:
        home = surface.TYPE_HOMES.get(name)
        if home is None:
            raise KeyError(name)
        return getattr(importlib.import_module(home), name)

    def __iter__(self) -> Iterator[str]:
        return iter(surface.TYPE_HOMES)

    def __len__(self) -> int:
        return len(surface.TYPE_HOMES)


DECLARED_TYPES = _DeclaredTypes()


@dataclass(frozen=True)
class Argument:
    name: str
    wire: str  # its field in a control socket request
    hint: Any  # the type without its checks: str, int | None, date | None ...
    default: Any  # REQUIRED when it has none
    checks: tuple[Any, ...] = ()  # Text, RowId, Between, ReceiptId
    stream: str | None = None  # a callback: the name of the events that feed it
    payload: Any = None  # ... and what each event carries

    @property
    def required(self) -> bool:
        return self.default is REQUIRED


@dataclass(frozen=True)
class Operation:
    name: str
    summary: str  # its docstring, which the reference shows
    arguments: tuple[Argument, ...]
    result: Any

    @property
    def fields(self) -> tuple[Argument, ...]:
        """The arguments that travel as request fields (not the streams)."""
        return tuple(a for a in self.arguments if a.stream is None)

    @property
    def streams(self) -> dict[str, Argument]:
        """The callback arguments, by the name of the events that feed them."""
        return {a.stream: a for a in self.arguments if a.stream is not None}


def operation_names() -> tuple[str, ...]:
    """Every operation, in the order of the declaration."""
    return tuple(
        name
        for name, member in vars(KitClient).items()
        if not name.startswith("_") and inspect.iscoroutinefunction(member)
    )


@functools.cache
def operation(name: str) -> Operation:
    """The operation `name` as declared (KeyError for one that is not)."""
    if name not in operation_names():
        raise KeyError(name)
    declared = getattr(KitClient, name)
    hints = typing.get_type_hints(declared, localns=DECLARED_TYPES, include_extras=True)
    params = list(inspect.signature(declared).parameters.values())[1:]
    return Operation(
        name,
        inspect.cleandoc(declared.__doc__ or ""),
        tuple(_argument(p, hints[p.name]) for p in params),
        hints["return"],
    )


def operations() -> tuple[Operation, ...]:
    return tuple(operation(name) for name in operation_names())


def _argument(param: inspect.Parameter, hint: Any) -> Argument:
    checks: tuple[Any, ...] = ()
    if typing.get_origin(hint) is typing.Annotated:
        hint, *extras = typing.get_args(hint)
        checks = tuple(extras)
    else:  # `Checked | None`: the checks sit inside the union
        options = []
        for option in typing.get_args(hint) if _is_union(hint) else (hint,):
            if typing.get_origin(option) is typing.Annotated:
                option, *extras = typing.get_args(option)
                checks += tuple(extras)
            options.append(option)
        hint = functools.reduce(lambda a, b: a | b, options)
    wire = next((c.name for c in checks if isinstance(c, Wire)), param.name)
    stream = next((c.event for c in checks if isinstance(c, Stream)), None)
    payload = None
    if stream is not None:
        sink = next(o for o in typing.get_args(hint) if o is not type(None))
        (payload,), _ = typing.get_args(sink)
    kept = tuple(c for c in checks if isinstance(c, Text | RowId | Between | ReceiptId))
    return Argument(param.name, wire, hint, param.default, kept, stream, payload)


def _is_union(hint: Any) -> bool:
    return typing.get_origin(hint) in (Union, types.UnionType)


# -- clients that pass every operation on ---------------------------------------------------


class Relay(KitClient):
    """A `KitClient` whose operations are generated from the declaration: each binds its
    arguments (defaults filled in) and hands them to `relay`. The type checker sees the
    declared signatures (this class subclasses the protocol); tests/daemon/test_client_parity.py
    checks that every operation is there at run time."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        for name in operation_names():
            if name not in vars(cls):
                setattr(cls, name, _relayed(cls, name))

    @abstractmethod
    async def relay(self, op: Operation, arguments: dict[str, Any]) -> Any:
        """Carry out `op` with `arguments` (by name, every one given) and return its result."""


def _relayed(owner: type, name: str) -> Callable[..., Any]:
    declared = getattr(KitClient, name)
    signature = inspect.signature(declared)

    async def relayed(self: Relay, *args: Any, **kwargs: Any) -> Any:
        bound = signature.bind(self, *args, **kwargs)
        bound.apply_defaults()
        arguments = dict(bound.arguments)
        del arguments["self"]
        return await self.relay(operation(name), arguments)

    functools.update_wrapper(relayed, declared)
    relayed.__qualname__ = f"{owner.__qualname__}.{name}"
    return relayed


# -- the control socket's protocol reference -------------------------------------------------


def reference() -> str:
    """Every operation with its request fields, their types, checks and defaults, its result
    and its events: the protocol reference of the control socket, from the declaration."""
    blocks = []
    for op in operations():
        fields = ", ".join(field_text(a) for a in op.fields)
        events = "".join(f'; events "{event}"' for event in op.streams)
        head = f"{op.name}({fields}) -> {type_text(op.result)}{events}"
        summary = " ".join(op.summary.split())
        blocks.append(f"{head}\n    {summary}")
    return "\n".join(blocks) + "\n"


def field_text(arg: Argument) -> str:
    text = f"{arg.wire}: {type_text(arg.hint)}"
    if arg.checks:
        text += f" ({'; '.join(_check_text(c) for c in arg.checks)})"
    if not arg.required:
        text += f" = {_value_text(arg.default)}"
    return text


def _check_text(check: Any) -> str:
    if isinstance(check, Text):
        return f"at most {check.limit:,} characters"
    if isinstance(check, RowId):
        return "a positive id"
    if isinstance(check, Between):
        return f"{check.low} to {check.high}"
    if isinstance(check, ReceiptId):
        return "a receipt id like fr-k3m9q2xa7b, never a path"
    raise TypeError(f"unknown check {check!r}")


_NAMES = {str: "string", int: "integer", bool: "true/false", date: '"YYYY-MM-DD"'}


def type_text(hint: Any) -> str:
    if hint is type(None):
        return "null"
    if hint in _NAMES:
        return _NAMES[hint]
    if typing.get_origin(hint) is list:
        (item,) = typing.get_args(hint)
        return f"[{type_text(item)}]"
    if _is_union(hint):
        return " | ".join(type_text(o) for o in typing.get_args(hint))
    return str(getattr(hint, "__name__", hint))


def _value_text(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return f'"{value}"'
    return str(value)
