"""docs/socket-protocol.md: every control-socket operation with its arguments as the server
checks them and its result, read from the code that serves them.

The operations are the server's handler table (`ControlServer._ops` in
kit/daemon/socket_server.py), read with `ast`: for each op, the arguments its handler takes
from the request (`r.arg(name, kind, default)`, `r.row_id(name)`, `r.text(name, limit,
default)`, and the helpers that check limits and dates), and the result type and description
of the `KitClient` method of the same name (kit/client.py), described by the first docstring
found on `KitClient`, `LocalClient` or `Kit` (kit/api.py).

Once the client surface is declared in one place (each operation's name, checked arguments and
result type), render that declaration instead: `socket_reference()` is the one function to
replace, and the staleness test checks whatever it returns.
"""

from __future__ import annotations

import ast
import inspect
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

from kit.docs_gen.cli_page import GENERATED_NOTE, cell

_KINDS = {"int": "integer", "str": "string", "bool": "true/false"}
_DATE_CHECKS = {"_date", "_date_or_none"}


@dataclass(frozen=True)
class Argument:
    name: str
    kind: str
    default: str | None  # None: required

    def shown(self) -> str:
        required = "" if self.default is not None else " (required)"
        default = f", default `{self.default}`" if self.default not in (None, "null") else ""
        return f"`{self.name}`: {self.kind}{required}{default}"


@dataclass(frozen=True)
class Operation:
    name: str
    arguments: tuple[Argument, ...]
    result: str
    description: str


def socket_reference() -> str:
    from kit import api, client
    from kit.daemon import socket_server

    operations = read_operations(
        socket_server, client.KitClient, described_by=(client.LocalClient, api.Kit)
    )
    lines = [
        "# Socket protocol",
        "",
        GENERATED_NOTE,
        "",
        "The operations of the control socket (`<data_dir>/kit.sock`), read from the server's "
        "handler table and the client interface. How requests, events and answers are framed, "
        "and what the server refuses, is in [the daemon page](daemon.md#control-socket). Every "
        'request may also carry `"user"` (default: `owner.user_id`); an argument given as '
        "`null` takes its default. Results are the dataclasses of the client interface, "
        "encoded as JSON objects (dates as ISO-8601 text).",
        "",
        "| op | arguments | result | what it does |",
        "|---|---|---|---|",
    ]
    for op in operations:
        arguments = "; ".join(a.shown() for a in op.arguments) or "none"
        lines.append(
            f"| `{op.name}` | {cell(arguments)} | `{cell(op.result)}` | {cell(op.description)} |"
        )
    return "\n".join(lines) + "\n"


def read_operations(
    server: ModuleType, interface: type, *, described_by: tuple[type, ...] = ()
) -> list[Operation]:
    """The ops in the order the server's table declares them; results from `interface`, the
    description from the first of `interface` and `described_by` whose method has one."""
    path = Path(inspect.getfile(server))
    tree = ast.parse(path.read_text(encoding="utf-8"))
    cls = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "ControlServer")
    methods = {n.name: n for n in cls.body if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)}
    table = _ops_table(methods["__init__"])
    found = []
    for key, handler in zip(table.keys, table.values, strict=True):
        if not isinstance(key, ast.Constant) or not isinstance(key.value, str):
            raise ValueError(f"{path}: an op of ControlServer._ops is not a string literal")
        body: ast.AST = handler
        if isinstance(handler, ast.Attribute) and handler.attr in methods:
            body = methods[handler.attr]
        method = getattr(interface, key.value, None)
        found.append(
            Operation(
                key.value,
                tuple(_arguments(body, server)),
                _result(method),
                _description(
                    getattr(owner, key.value, None) for owner in (interface, *described_by)
                ),
            )
        )
    return found


def _ops_table(init: ast.FunctionDef | ast.AsyncFunctionDef) -> ast.Dict:
    for node in ast.walk(init):
        if (
            isinstance(node, ast.AnnAssign | ast.Assign)
            and isinstance(node.value, ast.Dict)
            and any(
                isinstance(t, ast.Attribute) and t.attr == "_ops"
                for t in (node.targets if isinstance(node, ast.Assign) else [node.target])
            )
        ):
            return node.value
    raise ValueError("ControlServer.__init__ no longer builds self._ops: update kit/docs_gen/")


def _arguments(handler: ast.AST, server: ModuleType) -> list[Argument]:
    dated = {
        _name_of(node.args[0])
        for node in ast.walk(handler)
        if isinstance(node, ast.Call) and _called(node) in _DATE_CHECKS and node.args
    }
    found: dict[str, Argument] = {}
    for node in ast.walk(handler):
        if not isinstance(node, ast.Call):
            continue
        called = _called(node)
        if called == "_limit":
            found["limit"] = Argument(
                "limit", f"integer 1 to {server.MAX_LIMIT}", _limit_default(server)
            )
            continue
        name = _name_of(node)
        if name is None or name == "user" or called not in ("arg", "row_id", "text"):
            continue
        args = node.args
        if called == "row_id":
            kind, default = "id (a positive integer)", None
        elif called == "text":
            limit = _value(args[1], server)
            kind = f"string of at most {limit:,} characters"
            default = _shown_value(args[2], server) if len(args) > 2 else None
        else:
            kind = _KINDS.get(_source(args[1]), _source(args[1]))
            default = _shown_value(args[2], server) if len(args) > 2 else None
        if name in dated:
            kind = "date, YYYY-MM-DD"
        found.setdefault(name, Argument(name, kind, default))
    return list(found.values())


def _called(call: ast.Call) -> str:
    func = call.func
    if isinstance(func, ast.Attribute):
        return func.attr
    return func.id if isinstance(func, ast.Name) else ""


def _name_of(node: ast.expr) -> str | None:
    """The argument name a request accessor reads: `r.arg("text", str)` -> "text"."""
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr in ("arg", "row_id", "text")
        and node.args
        and isinstance(node.args[0], ast.Constant)
        and isinstance(node.args[0].value, str)
    ):
        return node.args[0].value
    return None


def _source(node: ast.expr) -> str:
    return ast.unparse(node)


def _value(node: ast.expr, server: ModuleType) -> object:
    if isinstance(node, ast.Constant):
        return node.value
    if isinstance(node, ast.Name):
        return getattr(server, node.id)
    raise ValueError(f"cannot read {ast.unparse(node)} in kit/daemon/socket_server.py")


def _shown_value(node: ast.expr, server: ModuleType) -> str:
    value = _value(node, server)
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return f'"{value}"'
    return str(value)


def _limit_default(server: ModuleType) -> str:
    tree = ast.parse(inspect.getsource(server._limit))
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and _name_of(node) == "limit" and len(node.args) > 2:
            return _shown_value(node.args[2], server)
    raise ValueError("_limit in kit/daemon/socket_server.py no longer has a default")


def _result(method: object) -> str:
    if method is None:
        return "?"
    annotation = inspect.signature(method).return_annotation  # type: ignore[arg-type]
    return str(annotation).replace("'", "")


def _description(methods: Iterable[object]) -> str:
    """The first paragraph of the first docstring among `methods`."""
    for method in methods:
        doc = inspect.getdoc(method) if method is not None else None
        if doc:
            return " ".join(doc.split("\n\n")[0].split())
    return ""
