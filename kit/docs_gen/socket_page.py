"""docs/socket-protocol.md: every control-socket operation with its request fields as the
server checks them, its result and its events, rendered from the one declaration of the client
surface (kit/surface.py, read by kit/operations.py): the server, the socket client and the
follower are driven by the same declaration, so the page cannot tell another story."""

from __future__ import annotations

from kit.docs_gen.cli_page import GENERATED_NOTE, cell


def socket_reference() -> str:
    from kit.operations import field_text, operations, type_text

    lines = [
        "# Socket protocol",
        "",
        GENERATED_NOTE,
        "",
        "The operations of the control socket (`<data_dir>/kit.sock`), rendered from their one "
        "declaration (`kit/surface.py`). How requests, events and answers are framed, and what "
        "the server refuses, is in [the daemon page](daemon.md#control-socket). Every request "
        'may also carry `"user"` (default: `owner.user_id`); a field given as `null` takes its '
        "default. Results are the dataclasses of the client interface, encoded as JSON objects "
        "(dates as ISO-8601 text).",
        "",
        "| op | request fields | result | events | what it does |",
        "|---|---|---|---|---|",
    ]
    for op in operations():
        fields = "; ".join(f"`{field_text(a)}`" for a in op.fields) or "none"
        events = ", ".join(f"`{name}`" for name in op.streams) or ""
        summary = " ".join(op.summary.split())
        lines.append(
            f"| `{op.name}` | {cell(fields)} | `{cell(type_text(op.result))}` | {events}"
            f" | {cell(summary)} |"
        )
    return "\n".join(lines) + "\n"
