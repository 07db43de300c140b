"""`kit mcp --http`: Kit's memory over MCP's streamable-HTTP transport, at `/mcp`.

The official SDK's transport (`StreamableHTTPSessionManager`) behind Kit's door (kit/mcp/gate.py:
a token on every request), served by uvicorn on a socket bound here, in this process's event
loop: on its own (`kit mcp --http`) or as a component of `kit run` (`[mcp_http]`), inside the
daemon's TaskGroup and shutdown path. uvicorn installs no signal handlers of its own here: the
daemon's (or the command's) stop cancels `run()`.

Each memory and scope (read-only or not) gets its own MCP server and session manager, made when
its first token calls: a read-only token's server has no `remember` at all, and a session is
bound to the token that opened it (the SDK answers 404 to any other). Sessions and their
streams live in this component's TaskGroup.

Stopping (`run()` cancelled): no new connections; calls in flight get `grace` seconds; then
the sessions end (open streams close) and uvicorn's last connections are closed, each step
bounded.

It listens on 127.0.0.1 unless told otherwise. Anywhere else without TLS it warns: the token
and memory would cross the network in clear text (TLS here, or a reverse proxy such as Caddy
in front: docs/mcp.md).
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import logging
import socket
import ssl
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import uvicorn
from mcp.server.auth.middleware.bearer_auth import AuthenticatedUser
from mcp.server.auth.provider import AccessToken
from mcp.server.lowlevel.server import Server
from mcp.server.streamable_http_manager import StreamableHTTPSessionManager
from mcp.server.transport_security import TransportSecuritySettings

from kit.access.tokens import Grant
from kit.daemon.grace import DEFAULT_GRACE, STEP_TIMEOUT
from kit.errors import ConfigError, KitError
from kit.mcp.gate import MAX_BODY, PATH, Authorize, Gate, Receive, Scope, Send, answer

log = logging.getLogger(__name__)

BuildServer = Callable[[str, bool], Server[Any]]  # (memory, read_only) -> the SDK's server


@dataclass(frozen=True)
class Listen:
    """Where and how to listen."""

    host: str = "127.0.0.1"
    port: int = 8765
    tls_cert: str = ""
    tls_key: str = ""

    @property
    def url(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"{'https' if self.tls_cert else 'http'}://{host}:{self.port}{PATH}"

    @property
    def loopback(self) -> bool:
        if self.host == "localhost":
            return True
        try:
            return ipaddress.ip_address(self.host).is_loopback
        except ValueError:
            return False


class McpHttp:
    """The component: serves until cancelled. `listening` is set once it accepts connections;
    `port` is then the port it has (a test asks for port 0)."""

    name = "mcp-http"

    def __init__(
        self,
        listen: Listen,
        authorize: Authorize,
        build: BuildServer,
        *,
        grace: float = DEFAULT_GRACE,
    ) -> None:
        if bool(listen.tls_cert) != bool(listen.tls_key):
            raise ConfigError("--tls-cert and --tls-key go together: give both or neither")
        self.listen = listen
        self.port = listen.port
        self.listening = asyncio.Event()
        self._authorize = authorize
        self._build = build
        self._grace = grace

    async def run(self) -> None:
        _check_tls(self.listen)
        sock = _bind(self.listen)
        self.port = sock.getsockname()[1]
        listen = Listen(self.listen.host, self.port, self.listen.tls_cert, self.listen.tls_key)
        try:
            async with asyncio.TaskGroup() as group:
                sessions = _Sessions(group, self._build)
                gate = Gate(self._authorize, sessions.serve)
                server = _Uvicorn(_config(gate, listen, self._grace), self.listening)
                serving = group.create_task(server.serve(sockets=[sock]), name="mcp-http-server")
                await self.listening.wait()
                if not listen.loopback and not listen.tls_cert:
                    log.warning(
                        "MCP over HTTP listens on %s without TLS: tokens and memory cross the "
                        "network in clear text. Give it --tls-cert/--tls-key (mcp_http.tls_cert "
                        "and tls_key), or listen on 127.0.0.1 behind a TLS reverse proxy such "
                        "as Caddy (docs/mcp.md)",
                        listen.host,
                    )
                log.info("MCP over HTTP at %s (a token is needed: kit tokens create)", listen.url)
                try:
                    await asyncio.Event().wait()  # until cancelled
                finally:
                    await self._stop(server, serving, gate, sessions)
        finally:
            sock.close()

    async def _stop(
        self, server: _Uvicorn, serving: asyncio.Task[None], gate: Gate, sessions: _Sessions
    ) -> None:
        server.should_exit = True  # no new connections; idle ones close
        try:
            async with asyncio.timeout(self._grace):
                await gate.wait_idle()  # calls in flight finish
        except TimeoutError:
            log.warning("MCP over HTTP: calls still running after %.0f s are cut", self._grace)
        sessions.close()  # sessions end, and with them their open streams
        try:
            async with asyncio.timeout(STEP_TIMEOUT):
                await serving
        except TimeoutError:
            log.error("MCP over HTTP did not stop within %.0f s; cutting it off", STEP_TIMEOUT)
            server.force_exit = True
            serving.cancel()


class _Sessions:
    """One SDK session manager per memory and scope, each run by a task of its own (its
    `run()` is a context that must be left in the task that entered it)."""

    def __init__(self, group: asyncio.TaskGroup, build: BuildServer) -> None:
        self._group = group
        self._build = build
        self._managers: dict[tuple[str, bool], asyncio.Future[StreamableHTTPSessionManager]] = {}
        self._closing = asyncio.Event()

    async def serve(self, grant: Grant, scope: Scope, receive: Receive, send: Send) -> None:
        if self._closing.is_set():
            await answer(send, 503, "Kit is shutting down; try again once it is back")
            return
        # The SDK binds each session to the principal that opened it: this token.
        scope["user"] = AuthenticatedUser(
            AccessToken(
                token=grant.token_name,  # its name only: the token itself goes no further
                client_id=f"{grant.user_id}/{grant.token_name}",
                scopes=["read"] if grant.read_only else ["read", "write"],
            )
        )
        try:
            manager = await self._manager((grant.user_id, grant.read_only))
        except KitError as exc:
            await answer(send, 503, str(exc))
            return
        await manager.handle_request(scope, receive, send)

    def close(self) -> None:
        self._closing.set()

    async def _manager(self, key: tuple[str, bool]) -> StreamableHTTPSessionManager:
        ready = self._managers.get(key)
        if ready is None:
            ready = asyncio.get_running_loop().create_future()
            self._managers[key] = ready
            self._group.create_task(self._host(key, ready), name=f"mcp-http-{key[0]}")
        return await asyncio.shield(ready)

    async def _host(
        self, key: tuple[str, bool], ready: asyncio.Future[StreamableHTTPSessionManager]
    ) -> None:
        try:
            manager = StreamableHTTPSessionManager(
                app=self._build(*key),
                # Every request carries a token, which a page in a browser that rebinds a name
                # to 127.0.0.1 does not have; and behind a proxy the Host is the proxy's.
                security_settings=TransportSecuritySettings(enable_dns_rebinding_protection=False),
                max_request_body_size=MAX_BODY,
            )
            async with manager.run():
                ready.set_result(manager)
                await self._closing.wait()
        except Exception:
            log.exception("MCP over HTTP: the sessions of %r failed", key[0])
            self._managers.pop(key, None)
            if not ready.done():
                ready.set_exception(KitError("Kit could not open this memory's MCP sessions"))


class _Uvicorn(uvicorn.Server):
    """uvicorn in someone else's event loop: no signal handlers (the owner of the loop stops
    it), and `listening` set once it accepts connections."""

    def __init__(self, config: uvicorn.Config, listening: asyncio.Event) -> None:
        super().__init__(config)
        self._listening = listening

    @contextlib.contextmanager
    def capture_signals(self) -> Any:
        yield

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        await super().startup(sockets)
        self._listening.set()


def _config(gate: Gate, listen: Listen, grace: float) -> uvicorn.Config:
    config = uvicorn.Config(
        gate,
        lifespan="off",
        log_config=None,  # Kit's logging; no access log (it would name every client)
        access_log=False,
        server_header=False,
        ssl_certfile=listen.tls_cert or None,
        ssl_keyfile=listen.tls_key or None,
        timeout_graceful_shutdown=int(grace + STEP_TIMEOUT),  # Kit bounds it itself first
    )
    config.load()  # the TLS files were checked (_check_tls): this reads them again
    return config


def _check_tls(listen: Listen) -> None:
    """A certificate and key that cannot be used are one clear error, before anything runs."""
    if not listen.tls_cert:
        return
    try:
        ssl.create_default_context(ssl.Purpose.CLIENT_AUTH).load_cert_chain(
            listen.tls_cert, listen.tls_key
        )
    except (OSError, ssl.SSLError) as exc:
        raise ConfigError(
            f"cannot use the TLS certificate {listen.tls_cert} and key {listen.tls_key} "
            f"({getattr(exc, 'strerror', None) or exc}); give PEM files Kit can read"
        ) from exc


def _bind(listen: Listen) -> socket.socket:
    family = socket.AF_INET6 if ":" in listen.host else socket.AF_INET
    try:
        return socket.create_server((listen.host, listen.port), family=family)
    except OSError as exc:
        raise ConfigError(
            f"MCP over HTTP cannot listen on {listen.host}:{listen.port} "
            f"({exc.strerror or exc}); choose another --port (mcp_http.port) or stop what "
            "holds it"
        ) from exc
