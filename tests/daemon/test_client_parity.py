"""Every client operation has one signature everywhere it is offered: its declaration (the
`KitClient` protocol of kit/surface.py), `LocalClient`, `SocketClient`, the `Follower`, the
TUI's demo fake, and the control socket (its operations and the fields its reference names)."""

from __future__ import annotations

import inspect
import re
import typing
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from kit.client import LocalClient
from kit.daemon.follow import Follower
from kit.daemon.socket_client import SocketClient
from kit.daemon.socket_server import ControlServer
from kit.operations import DECLARED_TYPES, reference
from kit.surface import KitClient
from tests.tui.demo import DemoClient

OPERATIONS = sorted(
    name for name, member in vars(KitClient).items() if inspect.iscoroutinefunction(member)
)
CLIENTS = [LocalClient, SocketClient, Follower, DemoClient]
# Arguments that never travel as request fields: the streams come back as events.
STREAMS = {"on_text", "on_progress"}
WIRE_NAMES = {("rem", "only_date"): "date"}


def _shape(method: Callable[..., Any]) -> list[tuple[str, Any, Any, Any]]:
    """(name, kind, default, type) of each parameter after self, and the result's type, with
    the annotations resolved (so "date | None" and `Optional[date]` compare equal)."""
    hints = typing.get_type_hints(method, localns=DECLARED_TYPES)
    params = list(inspect.signature(method).parameters.values())[1:]
    shape = [(p.name, p.kind, p.default, hints.get(p.name)) for p in params]
    return [*shape, ("return", None, None, hints.get("return"))]


def test_the_protocol_declares_the_operations_the_house_knows() -> None:
    assert len(OPERATIONS) >= 31
    assert {"send", "facts", "rem", "search", "command", "digest", "verify_forget"} <= set(
        OPERATIONS
    )


@pytest.mark.parametrize("client", CLIENTS, ids=lambda c: c.__name__)
@pytest.mark.parametrize("op", OPERATIONS)
def test_each_client_offers_the_operation_with_the_protocols_signature(
    client: type, op: str
) -> None:
    method = getattr(client, op, None)
    assert method is not None, f"{client.__name__} lacks {op}"
    assert inspect.iscoroutinefunction(method), f"{client.__name__}.{op} is not async"
    assert _shape(method) == _shape(getattr(KitClient, op))


def test_no_client_offers_an_operation_the_protocol_lacks() -> None:
    """A method a front-end could call on one client but not on another is drift too."""
    extras = {
        client.__name__: sorted(
            name
            for name, member in vars(client).items()
            if inspect.iscoroutinefunction(member)
            and not name.startswith("_")
            and name not in OPERATIONS
        )
        for client in CLIENTS
    }
    # `relay` carries the generated operations; the rest is following a daemon (waiting for it
    # to go, and coming back).
    assert extras == {
        "LocalClient": [],
        "SocketClient": ["relay", "wait_closed"],
        "Follower": ["recover", "relay", "wait_lost"],
        "DemoClient": [],
    }


def test_the_socket_server_answers_exactly_the_protocols_operations(tmp_path: Path) -> None:
    server = ControlServer(tmp_path / "kit.sock", lambda user: None, log_file=tmp_path / "kit.log")  # type: ignore[arg-type, return-value]
    assert sorted(server._ops) == OPERATIONS


def _documented() -> dict[str, list[str]]:
    """op -> the request fields the control socket's reference names for it."""
    found = {}
    for line in reference().splitlines():
        if match := re.match(r"(\w+)\((.*)\) -> ", line):
            name, fields = match.groups()
            found[name] = re.findall(r"(?:^|, )(\w+): ", fields)
    return found


def test_the_socket_reference_names_each_operations_arguments() -> None:
    documented = _documented()
    assert sorted(documented) == OPERATIONS
    for op in OPERATIONS:
        params = list(inspect.signature(getattr(KitClient, op)).parameters)[1:]
        wire = [WIRE_NAMES.get((op, p), p) for p in params if p not in STREAMS]
        assert documented[op] == wire, op


def test_the_relayed_clients_operations_are_generated_from_the_declaration() -> None:
    """Nothing is written twice: SocketClient and Follower define no operation of their own."""
    for client in (SocketClient, Follower):
        for op in OPERATIONS:
            assert getattr(client, op).__wrapped__ is getattr(KitClient, op)


def test_no_request_field_takes_the_name_of_the_envelope() -> None:
    """ "id", "op" and "user" belong to every request: an argument of that name would be lost."""
    from kit.operations import operations

    fields = {arg.wire for op in operations() for arg in op.fields}
    assert fields.isdisjoint({"id", "op", "user"})
