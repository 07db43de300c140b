"""A tiny local server speaking OpenAI's /v1/audio/transcriptions (as whisper.cpp's server and
faster-whisper servers do), for the real openai SDK that Kit's transcriber uses.

It parses the SDK's multipart upload and records each request (model, language, file name,
type and bytes); answers come from a FIFO script (`queue_text`, `queue_error`), then
`default`. Like the other servers here, a thread beside the test's event loop.
"""

from __future__ import annotations

import json
import threading
from collections import deque
from dataclasses import dataclass
from email.parser import BytesParser
from email.policy import HTTP
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass(frozen=True)
class Heard:
    """One transcription request as the server read it."""

    model: str
    language: str
    file_name: str
    mime_type: str
    audio: bytes
    authorization: str


class FakeSpeechServer:
    def __init__(self, default: str = "") -> None:
        self.default = default
        self.heard: list[Heard] = []
        self._script: deque[tuple[int, str]] = deque()
        self._lock = threading.Lock()
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(self))
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)
        self._thread.start()

    @property
    def url(self) -> str:
        """The API's base URL, as `[speech] url` takes it."""
        return f"http://127.0.0.1:{self._server.server_address[1]}/v1"

    def queue_text(self, *texts: str) -> None:
        with self._lock:
            self._script.extend((200, text) for text in texts)

    def queue_error(self, status: int) -> None:
        with self._lock:
            self._script.append((status, ""))

    def _next(self) -> tuple[int, str]:
        with self._lock:
            return self._script.popleft() if self._script else (200, self.default)

    def close(self) -> None:
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout=10)

    def __enter__(self) -> FakeSpeechServer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _handler(fake: FakeSpeechServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, format: str, *args: Any) -> None:
            pass

        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length", "0"))
            body = self.rfile.read(length)
            if not self.path.endswith("/audio/transcriptions"):
                self._json(404, {"error": {"message": "not found", "type": "invalid_request"}})
                return
            head = f"Content-Type: {self.headers.get('Content-Type', '')}\r\n\r\n".encode()
            form = BytesParser(policy=HTTP).parsebytes(head + body)
            fields: dict[str, Any] = {}
            upload: Any = None
            for part in form.iter_parts():
                name = part.get_param("name", header="content-disposition")
                if name == "file":
                    upload = part
                else:
                    fields[str(name)] = part.get_content()
            if upload is None:
                self._json(400, {"error": {"message": "no file", "type": "invalid_request"}})
                return
            fake.heard.append(
                Heard(
                    model=str(fields.get("model", "")),
                    language=str(fields.get("language", "")),
                    file_name=str(upload.get_filename() or ""),
                    mime_type=upload.get_content_type(),
                    audio=upload.get_payload(decode=True) or b"",
                    authorization=self.headers.get("Authorization", ""),
                )
            )
            status, text = fake._next()
            if status != 200:
                self._json(status, {"error": {"message": "failed", "type": "server_error"}})
                return
            self._json(200, {"text": text})

        def _json(self, status: int, payload: dict[str, Any]) -> None:
            data = json.dumps(payload).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

    return Handler
