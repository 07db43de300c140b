"""The HTTP side of the fake Bot API (tests/servers/telegram_api/server.py): requests as PTB
sends them, in, and Telegram's JSON answers, out.

PTB builds request URLs as ``base_url + token + "/" + method`` and sends bodies as
``application/x-www-form-urlencoded`` whose non-string values are JSON-encoded; JSON bodies
and query strings are accepted too, so plain httpx calls work as well. A file URL
(``base_file_url + token + "/" + file_path``) is answered with the file's bytes.
"""

from __future__ import annotations

import json
import re
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import TYPE_CHECKING, Any
from urllib.parse import parse_qsl, unquote, urlsplit

if TYPE_CHECKING:
    from tests.servers.telegram_api.server import FakeTelegramServer

# Form values are JSON-decoded except for these free-text fields ("42" as text stays a str).
_TEXT_FIELDS = {
    "text",
    "caption",
    "parse_mode",
    "description",
    "short_description",
    "name",
    "title",
    "query",
    "question",
    "explanation",
    "language_code",
    "emoji",
    "url",
}
_PATH = re.compile(r"^/bot(?P<token>[^/]+)/(?P<method>[^/]+)$")
_FILE_PATH = re.compile(r"^/file/bot(?P<token>[^/]+)/(?P<path>.+)$")


class ApiError(Exception):
    """A method's refusal: Telegram's status and description."""

    def __init__(self, status: int, description: str) -> None:
        self.status, self.description = status, description


def error(status: int, description: str, parameters: dict | None = None) -> tuple[int, dict]:
    body: dict[str, Any] = {"ok": False, "error_code": status, "description": description}
    if parameters:
        body["parameters"] = parameters
    return status, body


def _decode_form(pairs: list[tuple[str, str]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key not in _TEXT_FIELDS:
            try:
                value = json.loads(value)
            except ValueError:
                pass
        out[key] = value
    return out


class _Handler(BaseHTTPRequestHandler):
    server: HTTPServer
    timeout = 10  # a client that connects but never sends must not block close() forever

    def do_GET(self) -> None:
        self._dispatch(b"")

    def do_POST(self) -> None:
        self._dispatch(self.rfile.read(int(self.headers.get("Content-Length") or 0)))

    def _dispatch(self, body: bytes) -> None:
        url = urlsplit(self.path)
        download = _FILE_PATH.match(unquote(url.path))  # PTB quotes it: the token's ':' too
        if download is not None:
            self._reply_raw(*self.server.fake.download(download["token"], download["path"]))
            return
        payload = _decode_form(parse_qsl(url.query))
        if "json" in (self.headers.get("Content-Type") or "") and body:
            payload.update(json.loads(body))
        elif body:
            payload.update(_decode_form(parse_qsl(body.decode())))
        match = _PATH.match(url.path)
        if match is None:
            status, answer = error(404, "Not Found")
        else:
            status, answer = self.server.fake.handle(match["token"], match["method"], payload)
        self._reply_raw(status, json.dumps(answer).encode(), "application/json")

    def _reply_raw(
        self, status: int, data: bytes, content_type: str = "application/octet-stream"
    ) -> None:
        try:
            self.send_response(status)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the client gave up (e.g. PTB cancelled a long poll on stop)

    def log_message(self, format: str, *args: Any) -> None:
        pass  # keep test output clean


class HTTPServer(ThreadingHTTPServer):
    # Non-daemon + block_on_close: server_close() joins handler threads, so no
    # connection socket outlives close().
    daemon_threads = False
    block_on_close = True

    def __init__(self, fake: FakeTelegramServer) -> None:
        super().__init__(("127.0.0.1", 0), _Handler)
        self.fake = fake

    def handle_error(self, request: Any, client_address: Any) -> None:
        pass  # disconnects mid-request are normal for long polling; real bugs surface in tests
