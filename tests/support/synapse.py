"""A real Matrix homeserver for the tests: Synapse (from `.[dev]`) on 127.0.0.1.

One per test session and xdist worker, in a temporary folder, on a free port, with SQLite; no
federation (no federation listener, no key servers), no stats, no presence, and the rate limits
Synapse applies to people raised so tests that send a burst of messages are not throttled.
Users are registered with the shared secret (the admin API that `register_new_matrix_user`
uses), each test its own, so tests sharing the server never see each other's rooms.

Synapse runs as a child process that dies with the worker that started it (PR_SET_PDEATHSIG):
a test homeserver never outlives its run. Start-up takes seconds (it imports Twisted and
migrates its database), so the Matrix tests are marked slow.
"""

from __future__ import annotations

import ctypes
import hashlib
import hmac
import itertools
import json
import os
import secrets
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from typing import Any

SERVER_NAME = "localhost"
START_GUARD = 300.0  # seconds: only a hung start-up waits this long (a loaded 2-core host: ~20 s)
_numbers = itertools.count(1)

# Every rate limit Synapse applies to people, raised well past what a test sends.
_PLENTY = {"per_second": 10_000, "burst_count": 10_000}
RATE_LIMITS: dict[str, Any] = {
    "rc_message": _PLENTY,
    "rc_registration": _PLENTY,
    "rc_registration_token_validity": _PLENTY,
    "rc_login": {"address": _PLENTY, "account": _PLENTY, "failed_attempts": _PLENTY},
    "rc_joins": {"local": _PLENTY, "remote": _PLENTY},
    "rc_joins_per_room": _PLENTY,
    "rc_invites": {"per_room": _PLENTY, "per_user": _PLENTY, "per_issuer": _PLENTY},
    "rc_admin_redaction": _PLENTY,
    "rc_3pid_validation": _PLENTY,
    "rc_media_create": _PLENTY,
    "rc_presence": {"per_user": _PLENTY},
    "rc_delayed_event_mgmt": _PLENTY,
    "rc_room_creation": _PLENTY,
    "rc_reports": _PLENTY,
}


@dataclass
class Homeserver:
    url: str  # the client API's base, http://127.0.0.1:PORT
    folder: Path
    shared_secret: str
    process: subprocess.Popen[bytes]

    def register(self, name: str = "user") -> User:
        """A new user (a unique name from `name`), logged in: its id and access token."""
        localpart = f"{name}{next(_numbers)}x{secrets.token_hex(3)}"
        nonce = _get_json(f"{self.url}/_synapse/admin/v1/register")["nonce"]
        password = secrets.token_urlsafe(12)
        mac = hmac.new(self.shared_secret.encode(), digestmod=hashlib.sha1)
        mac.update(f"{nonce}\x00{localpart}\x00{password}\x00notadmin".encode())
        answer = _post_json(
            f"{self.url}/_synapse/admin/v1/register",
            {
                "nonce": nonce,
                "username": localpart,
                "password": password,
                "admin": False,
                "mac": mac.hexdigest(),
            },
        )
        return User(str(answer["user_id"]), str(answer["access_token"]))


@dataclass(frozen=True)
class User:
    user_id: str
    token: str


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _config(folder: Path, port: int, shared_secret: str) -> dict[str, Any]:
    return {
        "server_name": SERVER_NAME,
        "pid_file": str(folder / "homeserver.pid"),
        "listeners": [
            {
                "port": port,
                "bind_addresses": ["127.0.0.1"],
                "type": "http",
                "tls": False,
                "x_forwarded": False,
                "resources": [{"names": ["client"], "compress": False}],
            }
        ],
        "database": {"name": "sqlite3", "args": {"database": str(folder / "homeserver.db")}},
        "log_config": str(folder / "log.yaml"),
        "media_store_path": str(folder / "media"),
        "registration_shared_secret": shared_secret,
        "macaroon_secret_key": secrets.token_urlsafe(32),
        "form_secret": secrets.token_urlsafe(32),
        "signing_key_path": str(folder / "signing.key"),
        "report_stats": False,
        "trusted_key_servers": [],
        "suppress_key_server_warning": True,
        "enable_registration": False,
        "bcrypt_rounds": 4,  # the tests' passwords need no real hashing cost
        "presence": {"enabled": False},
        "url_preview_enabled": False,
        "enable_metrics": False,
        "federation_domain_whitelist": [],
        **RATE_LIMITS,
    }


_LOG_CONFIG = """version: 1
formatters:
  plain:
    format: '%(asctime)s %(name)s %(levelname)s %(message)s'
handlers:
  file:
    class: logging.FileHandler
    filename: {log}
    formatter: plain
root:
  level: WARNING
  handlers: [file]
disable_existing_loggers: false
"""


def _signing_key(path: Path) -> None:
    """The server's ed25519 signing key, written as Synapse's own generator writes it."""
    from signedjson.key import generate_signing_key, write_signing_keys

    with path.open("w") as handle:
        write_signing_keys(handle, [generate_signing_key("a_test")])


def _die_with_parent() -> None:
    libc = ctypes.CDLL("libc.so.6", use_errno=True)
    libc.prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG: the worker gone, the server goes too


def start(folder: Path) -> Homeserver:
    """Synapse serving in `folder` (made here), once its client API answers."""
    folder.mkdir(parents=True, exist_ok=True)
    port = free_port()
    shared_secret = secrets.token_urlsafe(24)
    config = _config(folder, port, shared_secret)
    # JSON is YAML: no YAML writer needed.
    (folder / "homeserver.yaml").write_text(json.dumps(config, indent=1))
    (folder / "log.yaml").write_text(_LOG_CONFIG.format(log=folder / "homeserver.log"))
    _signing_key(folder / "signing.key")
    output = (folder / "stdout.log").open("wb")
    process = subprocess.Popen(
        [sys.executable, "-m", "synapse.app.homeserver", "-c", str(folder / "homeserver.yaml")],
        cwd=folder,
        stdout=output,
        stderr=subprocess.STDOUT,
        preexec_fn=_die_with_parent if sys.platform == "linux" else None,
    )
    output.close()
    server = Homeserver(f"http://127.0.0.1:{port}", folder, shared_secret, process)
    _wait_ready(server)
    return server


def _wait_ready(server: Homeserver) -> None:
    """Until the client API answers (the process's own exit is reported with its log)."""
    deadline = time.monotonic() + START_GUARD
    while time.monotonic() < deadline:
        if server.process.poll() is not None:
            raise RuntimeError(f"Synapse exited at start:\n{_tail(server)}")
        try:
            _get_json(f"{server.url}/_matrix/client/versions")
            return
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            time.sleep(0.1)  # nothing to wait on but the port: a short pause between tries
    stop(server)
    raise RuntimeError(f"Synapse did not answer within {START_GUARD:.0f} s:\n{_tail(server)}")


def _tail(server: Homeserver) -> str:
    lines: list[str] = []
    for name in ("stdout.log", "homeserver.log"):
        path = server.folder / name
        if path.exists():
            lines += path.read_text(errors="replace").splitlines()[-30:]
    return "\n".join(lines)


def stop(server: Homeserver) -> None:
    if server.process.poll() is None:
        server.process.terminate()
        try:
            server.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            server.process.kill()
            server.process.wait(timeout=30)


def _get_json(url: str) -> dict[str, Any]:
    with urllib.request.urlopen(url, timeout=30) as answer:
        return dict(json.loads(answer.read()))


def _post_json(url: str, body: dict[str, Any]) -> dict[str, Any]:
    request = urllib.request.Request(
        url,
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json"},
        method="POST",
    )
    with urllib.request.urlopen(request, timeout=30) as answer:
        return dict(json.loads(answer.read()))


if __name__ == "__main__":  # python -m tests.support.synapse DIR: one by hand, until Ctrl-C
    began = time.monotonic()
    running = start(Path(sys.argv[1]))
    print(f"{running.url} ready in {time.monotonic() - began:.1f} s; {running.register('kit')}")
    try:
        running.process.wait()
    except KeyboardInterrupt:
        stop(running)
    os._exit(0)
