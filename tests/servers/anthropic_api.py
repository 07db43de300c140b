"""A tiny local server speaking enough of the Anthropic Messages API for the real SDK.

Tests point ``anthropic.AsyncAnthropic(base_url=server.url, api_key="test-key")`` at it,
so the SDK's own request building, retries, error mapping and SSE parsing are exercised
instead of mocks. Responses come from a FIFO script (``queue_*``), then ``responder``.

A response "spec" is a plain dict made by ``text_reply`` / ``tool_use_reply`` /
``error_reply`` (a responder may also return a bare ``str`` as a text reply).
"""

from __future__ import annotations

import asyncio
import itertools
import json
import threading
import uuid
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import urlsplit

Spec = dict[str, Any]  # see the module docstring

# Error "type" the real API uses for each status, so the SDK maps them as in production.
_ERROR_TYPES = {400: "invalid_request_error", 401: "authentication_error", 404: "not_found_error"}
_ERROR_TYPES |= {429: "rate_limit_error", 500: "api_error", 529: "overloaded_error"}


def text_reply(
    text: str,
    *,
    input_tokens: int = 10,
    output_tokens: int = 5,
    cache_read: int = 0,
    cache_write: int = 0,
) -> Spec:
    usage = {"input_tokens": input_tokens, "output_tokens": output_tokens}
    usage |= {"cache_read_input_tokens": cache_read, "cache_creation_input_tokens": cache_write}
    content = [{"type": "text", "text": text}]
    return {"kind": "message", "content": content, "stop_reason": "end_turn", "usage": usage}


def tool_use_reply(
    name: str, input: dict[str, Any], *, text_before: str | None = None, tool_id: str | None = None
) -> Spec:
    """A tool call (stop_reason "tool_use"), optionally preceded by a text block."""
    spec = text_reply(text_before or "")
    spec["stop_reason"] = "tool_use"
    if not text_before:
        spec["content"].clear()
    tool_id = tool_id or f"toolu_{uuid.uuid4().hex[:24]}"
    spec["content"].append({"type": "tool_use", "id": tool_id, "name": name, "input": input})
    return spec


def error_reply(
    status: int,
    *,
    error_type: str | None = None,
    message: str = "fake error",
    retry_after: float | None = None,
) -> Spec:
    """error_type defaults from status (429 rate_limit_error, 529 overloaded_error, ...)."""
    error_type = error_type or _ERROR_TYPES.get(status, "api_error")
    spec = {"kind": "error", "status": status, "type": error_type, "message": message}
    return spec | {"retry_after": retry_after}


@dataclass
class RecordedRequest:
    path: str  # without the query string (the SDK adds ?beta=true for beta endpoints)
    headers: dict[str, str]  # lowercase keys
    json: Any


class FakeAnthropicServer:
    """Starts listening immediately; use as ``with`` / ``async with`` or call ``close()``.

    Like the real API it can refuse: with ``api_key`` set, any other key gets 401
    (authentication_error); with ``models`` set, any other model gets 404 (not_found_error),
    on /v1/messages and /v1/messages/count_tokens alike.
    """

    def __init__(self, *, api_key: str | None = None, models: set[str] | None = None) -> None:
        self.api_key = api_key
        self.models = models
        self._lock = threading.Lock()
        self._arrived = threading.Condition(self._lock)  # notified at every request
        self._script: deque[Spec] = deque()
        self._requests: list[RecordedRequest] = []
        self._closing = threading.Event()  # wakes stalled handlers so close() never waits them out
        # Set when a client stopped reading an answer that went on (a trickle, a flood).
        self.abandoned = threading.Event()
        self.endless_began = threading.Event()  # a trickle or a flood sent its first bytes
        self.responder: Callable[[dict[str, Any]], Spec | str] = lambda _request: "ok"
        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), _make_handler(self))
        self._httpd.daemon_threads = True
        # A short poll interval keeps close() (i.e. every test teardown) fast.
        self._thread = threading.Thread(
            target=self._httpd.serve_forever, args=(0.02,), name="fake-anthropic", daemon=True
        )
        self._thread.start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self._httpd.server_port}"

    @property
    def requests(self) -> list[RecordedRequest]:
        with self._lock:
            return list(self._requests)

    def wait_for_requests(self, count: int, timeout: float = 60.0) -> None:
        """Block until `count` requests have arrived in all (an event, no polling); fail after
        `timeout` seconds, a bound rather than an expectation."""
        with self._arrived:
            if not self._arrived.wait_for(lambda: len(self._requests) >= count, timeout):
                raise AssertionError(f"{count} requests expected, {len(self._requests)} came")

    # -- script ---------------------------------------------------------------------------
    def queue(self, spec: Spec) -> None:
        with self._lock:
            self._script.append(spec)

    # The queue_* helpers take the same keyword arguments as the matching *_reply builder.
    def queue_text(self, text: str, **kw: Any) -> None:
        self.queue(text_reply(text, **kw))

    def queue_tool_use(self, name: str, input: dict[str, Any], **kw: Any) -> None:
        self.queue(tool_use_reply(name, input, **kw))

    def queue_error(self, status: int, **kw: Any) -> None:
        self.queue(error_reply(status, **kw))

    def queue_stall(self, seconds: float) -> None:
        """Sleep, then answer with whatever is next in the script *at that time* (or the
        responder). Popping late lets a client that timed out and retried get that item."""
        self.queue({"kind": "stall", "seconds": seconds})

    def queue_cut_stream(self, text_prefix: str, *, clean: bool = False) -> None:
        """Streaming: send message_start + ``text_prefix`` then drop the connection (``clean``:
        end the body properly, but with no ``message_stop``). Non-streaming: drop the
        connection without any response."""
        self.queue({"kind": "cut", "text": text_prefix, "clean": clean})

    def queue_trickle(self, every: float = 0.01) -> None:
        """An answer that never ends: one character every `every` seconds, streamed or in a
        chunked body, so no read ever waits long; until the client goes away (`abandoned`)."""
        self.queue({"kind": "trickle", "every": every})

    def queue_flood(self, chars: int | None = None) -> None:
        """A text answer of `chars` characters (None: endless), sent as fast
        as the client reads: a server that ignores max_tokens. `abandoned` is set when the
        client stops reading before the end."""
        self.queue({"kind": "flood", "chars": chars})

    def _next_spec(self, body: dict[str, Any]) -> Spec:
        with self._lock:
            queued = self._script.popleft() if self._script else None
        spec = queued if queued is not None else self.responder(body)
        return text_reply(spec) if isinstance(spec, str) else spec

    # -- lifecycle ------------------------------------------------------------------------
    def close(self) -> None:
        if self._closing.is_set():
            return
        self._closing.set()
        self._httpd.shutdown()
        self._httpd.server_close()  # also joins handler threads
        self._thread.join()

    def __enter__(self) -> FakeAnthropicServer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    async def __aenter__(self) -> FakeAnthropicServer:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await asyncio.to_thread(self.close)  # joining threads must not block the event loop


def _make_handler(fake: FakeAnthropicServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"  # needed for chunked SSE

        def log_message(self, format: str, *args: Any) -> None:  # keep test output quiet
            pass

        def do_POST(self) -> None:
            # One request per connection (we also send "connection: close" so the client
            # never reuses it): no idle keep-alive threads for close() to wait on.
            self.close_connection = True
            raw = self.rfile.read(int(self.headers.get("content-length") or 0))
            body = json.loads(raw) if raw else {}
            path = urlsplit(self.path).path
            headers = {k.lower(): v for k, v in self.headers.items()}
            with fake._lock:
                fake._requests.append(RecordedRequest(path, headers, body))
                fake._arrived.notify_all()
            try:
                refusal = _refusal(fake, headers, body) if path.startswith("/v1/messages") else None
                if refusal is not None:
                    self._send_error(refusal)
                elif path == "/v1/messages":
                    self._messages(body)
                elif path == "/v1/messages/count_tokens":
                    # Rough estimate (~4 chars/token) over everything that costs input tokens.
                    parts = [body.get(k) for k in ("system", "messages", "tools")]
                    self._send_json(200, {"input_tokens": max(1, len(json.dumps(parts)) // 4)})
                else:
                    self._send_error(error_reply(404, message=f"Unknown path {path}"))
            except ConnectionError:
                pass  # the client gave up (e.g. its timeout fired during a stall)

        def _messages(self, body: dict[str, Any]) -> None:
            spec = fake._next_spec(body)
            if spec["kind"] == "stall":
                if fake._closing.wait(spec["seconds"]):
                    return  # shutting down: just drop the connection
                spec = fake._next_spec(body)
            if spec["kind"] == "error":
                return self._send_error(spec)
            streaming = bool(body.get("stream"))
            if spec["kind"] == "cut" and not streaming:
                return  # connection closes with no response at all
            msg = {
                "id": f"msg_{uuid.uuid4().hex[:24]}",
                "type": "message",
                "role": "assistant",
                "model": body.get("model", "claude-fake"),
                "content": spec.get("content", []),
                "stop_reason": spec.get("stop_reason"),
                "stop_sequence": None,
                "usage": spec.get("usage") or text_reply("")["usage"],
            }
            if spec["kind"] in ("trickle", "flood"):
                self._endless(msg, spec, streaming)
            elif streaming:
                cut = spec["text"] if spec["kind"] == "cut" else None
                self._stream(msg, cut_text=cut, clean=bool(spec.get("clean")))
            else:
                self._send_json(200, msg)

        def _endless(self, msg: dict[str, Any], spec: Spec, streaming: bool) -> None:
            """A trickle or a flood, in a chunked body: text deltas when streaming, else one
            message whose text goes on. Ends when done, or when the client goes away."""
            self.send_response(200)
            kind = "text/event-stream; charset=utf-8" if streaming else "application/json"
            self.send_header("content-type", kind)
            self.send_header("connection", "close")
            self.send_header("transfer-encoding", "chunked")
            self.end_headers()
            fake.endless_began.set()
            msg = {**msg, "content": [], "stop_reason": "end_turn"}
            try:
                if streaming:
                    self._event("message_start", message={**msg, "stop_reason": None})
                    block = {"type": "text", "text": ""}
                    self._event("content_block_start", index=0, content_block=block)
                else:  # the content last, so its text can go on
                    shell = {k: v for k, v in msg.items() if k != "content"}
                    head = json.dumps(shell)[:-1] + ', "content": [{"type": "text", "text": "'
                    self._chunk(head.encode())
                for piece in _endless_pieces(spec):
                    if spec["kind"] == "trickle" and fake._closing.wait(spec["every"]):
                        return
                    if fake._closing.is_set():
                        return
                    if streaming:
                        self._delta(0, type="text_delta", text=piece)
                    else:
                        self._chunk(piece.encode())
            except ConnectionError:
                fake.abandoned.set()
                return
            if streaming:
                self._event("content_block_stop", index=0)
                delta = {"stop_reason": "end_turn", "stop_sequence": None}
                self._event("message_delta", delta=delta, usage={"output_tokens": 5})
                self._event("message_stop")
            else:
                self._chunk(b'"}]}')
            self.wfile.write(b"0\r\n\r\n")
            self.wfile.flush()

        def _chunk(self, payload: bytes) -> None:
            self.wfile.write(b"%x\r\n%s\r\n" % (len(payload), payload))
            self.wfile.flush()

        def _stream(self, msg: dict[str, Any], cut_text: str | None, clean: bool) -> None:
            self.send_response(200)
            self.send_header("content-type", "text/event-stream; charset=utf-8")
            self.send_header("request-id", f"req_{uuid.uuid4().hex[:24]}")
            self.send_header("connection", "close")  # see do_POST
            # Chunked, like the real API, so a cut stream shows up as an incomplete body.
            self.send_header("transfer-encoding", "chunked")
            self.end_headers()
            # message_start carries the message shell; real usage arrives in message_delta.
            start = {**msg, "content": [], "stop_reason": None}
            start["usage"] = {**msg["usage"], "output_tokens": 1}
            self._event("message_start", message=start)
            self._event("ping")  # the real API sends these; the SDK must skip them
            blocks = msg["content"] if cut_text is None else [{"type": "text", "text": cut_text}]
            for i, block in enumerate(blocks):
                is_text = block["type"] == "text"
                shell = {**block, "text": ""} if is_text else {**block, "input": {}}
                self._event("content_block_start", index=i, content_block=shell)
                if is_text:
                    for piece in _chunks(block["text"]):
                        self._delta(i, type="text_delta", text=piece)
                else:  # tool input arrives as partial JSON strings, the first one empty
                    for piece in ["", *_chunks(json.dumps(block["input"]))]:
                        self._delta(i, type="input_json_delta", partial_json=piece)
                if cut_text is not None:
                    if clean:  # a body that ends well, but the answer never said it ended
                        self.wfile.write(b"0\r\n\r\n")
                        self.wfile.flush()
                    return  # no terminating chunk: the client sees an incomplete body
                self._event("content_block_stop", index=i)
            delta = {"stop_reason": msg["stop_reason"], "stop_sequence": None}
            final_usage = {"output_tokens": msg["usage"]["output_tokens"]}
            self._event("message_delta", delta=delta, usage=final_usage)
            self._event("message_stop")
            self.wfile.write(b"0\r\n\r\n")
            self.wfile.flush()

        def _delta(self, index: int, **delta: Any) -> None:
            self._event("content_block_delta", index=index, delta=delta)

        def _event(self, name: str, **fields: Any) -> None:
            data = json.dumps({"type": name, **fields})
            payload = f"event: {name}\ndata: {data}\n\n".encode()
            self.wfile.write(b"%x\r\n%s\r\n" % (len(payload), payload))  # one HTTP chunk per event
            self.wfile.flush()

        def _send_error(self, spec: Spec) -> None:
            error = {"type": spec["type"], "message": spec["message"]}
            body = {"type": "error", "error": error}
            extra = {} if spec["retry_after"] is None else {"retry-after": str(spec["retry_after"])}
            self._send_json(spec["status"], body, extra)

        def _send_json(self, status: int, obj: Any, extra: dict[str, str] | None = None) -> None:
            data = json.dumps(obj).encode()
            self.send_response(status)
            self.send_header("content-type", "application/json")
            self.send_header("content-length", str(len(data)))
            self.send_header("request-id", f"req_{uuid.uuid4().hex[:24]}")
            self.send_header("connection", "close")  # see do_POST
            for k, v in (extra or {}).items():
                self.send_header(k, v)
            self.end_headers()
            self.wfile.write(data)

    return Handler


def _refusal(fake: FakeAnthropicServer, headers: dict[str, str], body: Any) -> Spec | None:
    """The real API's answer to a key it does not take or a model it does not know."""
    # The SDK sends the key as x-api-key, or (some versions) as a bearer token.
    key = headers.get("x-api-key") or headers.get("authorization", "").removeprefix("Bearer ")
    if fake.api_key is not None and key != fake.api_key:
        return error_reply(401, message="invalid x-api-key")
    model = body.get("model") if isinstance(body, dict) else None
    if fake.models is not None and model not in fake.models:
        return error_reply(404, message=f"model: {model}")
    return None


def _endless_pieces(spec: Spec) -> Iterator[str]:
    """A trickle's characters one by one (forever), or a flood's in 4,096-character pieces."""
    if spec["kind"] == "trickle":
        yield from itertools.cycle("trickle ")
        return
    left = spec["chars"]
    while left is None or left > 0:
        size = 4096 if left is None else min(4096, left)
        yield "x" * size
        left = None if left is None else left - size


def _chunks(s: str, size: int = 8) -> list[str]:
    """Split into several deltas so consumers see a genuinely incremental stream."""
    return [s[i : i + size] for i in range(0, len(s), size)] or [""]
