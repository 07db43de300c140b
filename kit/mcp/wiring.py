"""What serves MCP over HTTP (kit/mcp/http.py), wired to Kit: on its own (`kit mcp --http`,
through the daemon's socket or Kit in this process) or as a component of `kit run`
(`[mcp_http]`, on the daemon's own Kit). Either way each memory a token opens gets its own
`KitClient`, and every token goes through `KitClient.authorize`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from kit.client import LocalClient
from kit.clock import Clock
from kit.config import McpHttpSettings
from kit.daemon.socket_client import SocketClient
from kit.mcp.http import Listen, McpHttp
from kit.mcp.memory import MemoryTools
from kit.mcp.server import lowlevel

if TYPE_CHECKING:
    from datetime import tzinfo

    from kit.access.tokens import Grant
    from kit.app import Services
    from kit.daemon.runner import ComponentFactory
    from kit.surface import KitClient

ClientFor = Callable[[str], "KitClient"]


def listen_from(
    settings: McpHttpSettings,
    *,
    host: str | None = None,
    port: int | None = None,
    tls_cert: str | None = None,
    tls_key: str | None = None,
) -> Listen:
    """[mcp_http]'s address and TLS files, each flag given instead of its setting."""
    return Listen(
        host=host if host is not None else settings.host,
        port=port if port is not None else settings.port,
        tls_cert=tls_cert if tls_cert is not None else settings.tls_cert,
        tls_key=tls_key if tls_key is not None else settings.tls_key,
    )


def serving(
    listen: Listen, client_for: ClientFor, *, tz: tzinfo, clock: Clock, grace: float
) -> McpHttp:
    gatekeeper = client_for("")  # authorize answers for whichever memory the token opens

    async def authorize(token: str, call: str, peer: str) -> Grant:
        return await gatekeeper.authorize(token, call=call, peer=peer)

    def build(user: str, read_only: bool) -> Any:
        tools = MemoryTools(client_for(user), tz=tz, clock=clock, user=user)
        return lowlevel(tools, read_only=read_only)

    return McpHttp(listen, authorize, build, grace=grace)


def clients_like(client: KitClient) -> ClientFor:
    """A client for any memory, reaching Kit the way `client` does (the daemon's socket, or
    Kit in this process)."""
    if isinstance(client, SocketClient):
        path = client.path
        return lambda user: SocketClient(path, user=user or None)  # type: ignore[abstract]
    if isinstance(client, LocalClient):
        kit, started = client.kit, client.kit.now()
        return lambda user: LocalClient(kit, started, user=user or None)
    raise TypeError(f"cannot serve MCP over HTTP through a {type(client).__name__}")


def daemon_component(settings: McpHttpSettings, *, grace: float) -> ComponentFactory:
    """`kit run`'s [mcp_http] component, on the daemon's own Kit."""
    from kit.api import Kit

    def make(services: Services) -> McpHttp:
        kit = Kit(services)
        started = kit.now()

        def client_for(user: str) -> KitClient:
            return LocalClient(kit, started, user=user or None, mode="daemon")

        # Kit's own clock (a Clock: it has now()), so "today" is the daemon's today
        return serving(listen_from(settings), client_for, tz=kit.tz, clock=kit, grace=grace)

    return make
