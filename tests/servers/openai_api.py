"""A tiny local server speaking enough of the OpenAI chat-completions API for the real SDK
(and for Kit pointed at it as at Ollama or llama.cpp).

Tests point ``openai.AsyncOpenAI(base_url=server.url, api_key="test-key")`` at it, so the SDK's
own request building, retries, error mapping and SSE parsing are exercised instead of mocks.
Responses come from a FIFO script (``queue_*``), then ``responder``. A response "spec" is a
plain dict made by ``text_reply`` / ``tool_call_reply`` / ``error_reply`` (a responder may also
return a bare ``str`` as a text reply).
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

Spec = dict[str, Any]

_ERROR_TYPES = {400: "invalid_request_error", 401: "invalid_api_key", 404: "model_not_found"}
_ERROR_TYPES |= {429: "rate_limit_exceeded", 500: "server_error", 503: "server_error"}


def text_reply(
    text: str,
    *,
    prompt_tokens: int = 10,
    completion_tokens: int = 5,
    cached_tokens: int = 0,
    finish_reason: str = "stop",
    usage: bool = True,
) -> Spec:
    """A text answer; `usage=False` leaves usage out (as some local servers do)."""
    counts = {
        "prompt_tokens": prompt_tokens,
        "completion_tokens": completion_tokens,
        "total_tokens": prompt_tokens + completion_tokens,
        "prompt_tokens_details": {"cached_tokens": cached_tokens},
    }
    return {
        "kind": "message",
        "content": text,
        "tool_calls": [],
        "finish_reason": finish_reason,
        "usage": counts if usage else None,
    }


def tool_call_reply(
    name: str,
    arguments: dict[str, Any] | str,
    *,
    call_id: str | None = None,
    finish_reason: str = "tool_calls",
    text_before: str = "",
    **usage: Any,
) -> Spec:
    """A call of `name`; `arguments` as an object, or a raw string (e.g. broken JSON)."""
    spec = text_reply(text_before, finish_reason=finish_reason, **usage)
    raw = arguments if isinstance(arguments, str) else json.dumps(arguments)
    spec["tool_calls"] = [
        {
            "id": call_id or f"call_{uuid.uuid4().hex[:12]}",
            "type": "function",
            "function": {"name": name, "arguments": raw},
        }
    ]
    return spec


def error_reply(
    status: int, *, message: str = "fake error", retry_after: float | None = None
) -> Spec:
    return {**_error(status, message), "retry_after": retry_after}


@dataclass
class RecordedRequest:
    method: str
    path: str
    headers: dict[str, str]
    json: Any


class FakeOpenAIServer:
    """Starts listening immediately; use as ``with`` / ``async with`` or call ``close()``.

    With ``api_key`` set, any other bearer key gets 401; with ``models`` set, any other model
    gets 404 and ``GET /v1/models`` lists them (else it lists ``listed``).

    ``dialect="llama-cpp-python"`` answers as that server did in issue 29: a ``json_schema``
    response format is a 500 (it takes ``text`` and ``json_object`` with a ``schema``), and a
    schema it must turn into a grammar (``json_object``'s, a forced tool's) that holds a length
    limit (``maxLength``, ``maxItems``) is a 500 too: its grammar compiler gave up on them.
    """

    def __init__(
        self,
        *,
        api_key: str | None = None,
        models: set[str] | None = None,
        listed: tuple[str, ...] = ("fake-model",),
        dialect: str = "openai",
    ) -> None:
        self.api_key = api_key
        self.dialect = dialect
        self.models = models
        self.listed = listed
        self._lock = threading.Lock()
        self._script: deque[Spec] = deque()
        self._requests: list[RecordedRequest] = []
        self._closing = threading.Event()
        # Set when a client stopped reading an answer that went on (a trickle, a flood).
        self.abandoned = threading.Event()
        self.endless_began = threading.Event()  # a trickle or a flood sent its first bytes
        self.responder: Callable[[dict[str, Any]], Spec | str] = lambda _request: "ok"
        self.list_stall = 0.0  # seconds GET /v1/models waits before answering (a busy server)
        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), _make_handler(self))
        self._httpd.daemon_threads = True
        self._thread = threading.Thread(
            target=self._httpd.serve_forever, args=(0.02,), name="fake-openai", daemon=True
        )
        self._thread.start()

    @property
    def url(self) -> str:
        """The base URL an OpenAI client takes (with /v1, as Ollama's and llama.cpp's)."""
        return f"http://127.0.0.1:{self._httpd.server_port}/v1"

    @property
    def requests(self) -> list[RecordedRequest]:
        with self._lock:
            return list(self._requests)

    def completions(self) -> list[dict[str, Any]]:
        """The bodies of the chat-completion requests, oldest first."""
        return [r.json for r in self.requests if r.path.endswith("/chat/completions")]

    # -- script ---------------------------------------------------------------------------
    def queue(self, spec: Spec) -> None:
        with self._lock:
            self._script.append(spec)

    def queue_text(self, text: str, **kw: Any) -> None:
        self.queue(text_reply(text, **kw))

    def queue_tool_call(self, name: str, arguments: dict[str, Any] | str, **kw: Any) -> None:
        self.queue(tool_call_reply(name, arguments, **kw))

    def queue_error(self, status: int, **kw: Any) -> None:
        self.queue(error_reply(status, **kw))

    def queue_stall(self, seconds: float) -> None:
        """Sleep, then answer with whatever is next in the script at that time."""
        self.queue({"kind": "stall", "seconds": seconds})

    def queue_cut_stream(self, text_prefix: str, *, clean: bool = False) -> None:
        """Streaming: send ``text_prefix`` then drop the connection (``clean``: end the body
        properly, but with no ``finish_reason`` and no ``[DONE]``). Otherwise: drop it."""
        self.queue({"kind": "cut", "text": text_prefix, "clean": clean})

    def queue_trickle(self, every: float = 0.01) -> None:
        """An answer that never ends: one character every `every` seconds, streamed or in a
        chunked body, so no read ever waits long; until the client goes away (`abandoned`)."""
        self.queue({"kind": "trickle", "every": every})

    def queue_flood(self, chars: int | None = None, *, usage: bool = True) -> None:
        """A text answer of `chars` characters (None: endless), sent as fast
        as the client reads: a server that ignores max_tokens. `abandoned` is set when the
        client stops reading before the end."""
        self.queue({"kind": "flood", "chars": chars, "usage": usage})

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
        self._httpd.server_close()
        self._thread.join()

    def __enter__(self) -> FakeOpenAIServer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    async def __aenter__(self) -> FakeOpenAIServer:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await asyncio.to_thread(self.close)


def _make_handler(fake: FakeOpenAIServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, format: str, *args: Any) -> None:
            pass

        def _record(self, body: Any) -> tuple[str, dict[str, str]]:
            self.close_connection = True  # one request per connection (see the Anthropic fake)
            path = urlsplit(self.path).path
            headers = {k.lower(): v for k, v in self.headers.items()}
            with fake._lock:
                fake._requests.append(RecordedRequest(self.command, path, headers, body))
            return path, headers

        def do_GET(self) -> None:
            path, headers = self._record(None)
            try:
                if not _key_ok(fake, headers):
                    return self._send_error(_error(401, "Incorrect API key provided"))
                if path == "/v1/models":
                    if fake.list_stall and fake._closing.wait(fake.list_stall):
                        return
                    names = sorted(fake.models) if fake.models is not None else fake.listed
                    data = [{"id": n, "object": "model", "owned_by": "kit-tests"} for n in names]
                    return self._send_json(200, {"object": "list", "data": data})
                self._send_error(_error(404, f"Unknown path {path}"))
            except ConnectionError:
                pass

        def do_POST(self) -> None:
            raw = self.rfile.read(int(self.headers.get("content-length") or 0))
            body = json.loads(raw) if raw else {}
            path, headers = self._record(body)
            try:
                if not _key_ok(fake, headers):
                    return self._send_error(_error(401, "Incorrect API key provided"))
                model = body.get("model") if isinstance(body, dict) else None
                if fake.models is not None and model not in fake.models:
                    return self._send_error(_error(404, f"The model `{model}` does not exist"))
                if path == "/v1/chat/completions":
                    return self._completion(body)
                self._send_error(_error(404, f"Unknown path {path}"))
            except ConnectionError:
                pass  # the client gave up (e.g. its timeout fired during a stall)

        def _completion(self, body: dict[str, Any]) -> None:
            if fake.dialect == "llama-cpp-python" and (refusal := _llama_refuses(body)):
                return self._send_error(_error(500, refusal))
            spec = fake._next_spec(body)
            if spec["kind"] == "stall":
                if fake._closing.wait(spec["seconds"]):
                    return
                spec = fake._next_spec(body)
            if spec["kind"] == "error":
                return self._send_error(spec)
            streaming = bool(body.get("stream"))
            if spec["kind"] == "cut" and not streaming:
                return
            model = body.get("model", "fake-model")
            ident = f"chatcmpl-{uuid.uuid4().hex[:20]}"
            if spec["kind"] in ("trickle", "flood"):
                return self._endless(ident, model, spec, streaming)
            if streaming:
                return self._stream(ident, model, spec, body)
            message: dict[str, Any] = {"role": "assistant", "content": spec["content"] or None}
            if spec["tool_calls"]:
                message["tool_calls"] = spec["tool_calls"]
            completion = {
                "id": ident,
                "object": "chat.completion",
                "created": 1_700_000_000,
                "model": model,
                "choices": [
                    {"index": 0, "message": message, "finish_reason": spec["finish_reason"]}
                ],
            }
            if spec["usage"] is not None:
                completion["usage"] = spec["usage"]
            self._send_json(200, completion)

        def _stream(self, ident: str, model: str, spec: Spec, body: dict[str, Any]) -> None:
            self.send_response(200)
            self.send_header("content-type", "text/event-stream; charset=utf-8")
            self.send_header("connection", "close")
            self.send_header("transfer-encoding", "chunked")
            self.end_headers()

            def chunk(delta: dict[str, Any], finish: str | None = None, **extra: Any) -> None:
                choice = {"index": 0, "delta": delta, "finish_reason": finish}
                self._data(
                    {
                        "id": ident,
                        "object": "chat.completion.chunk",
                        "created": 1_700_000_000,
                        "model": model,
                        "choices": [choice],
                        **extra,
                    }
                )

            chunk({"role": "assistant", "content": ""})
            text = spec["text"] if spec["kind"] == "cut" else spec["content"]
            for piece in _pieces(text or ""):
                chunk({"content": piece})
            if spec["kind"] == "cut":
                if spec["clean"]:  # a body that ends well, but the answer never said it ended
                    self.wfile.write(b"0\r\n\r\n")
                    self.wfile.flush()
                return  # no terminating chunk: the client sees an incomplete body
            for index, call in enumerate(spec["tool_calls"]):
                head = {"index": index, "id": call["id"], "type": "function"}
                head["function"] = {"name": call["function"]["name"], "arguments": ""}
                chunk({"tool_calls": [head]})
                for piece in _pieces(call["function"]["arguments"]):
                    chunk({"tool_calls": [{"index": index, "function": {"arguments": piece}}]})
            chunk({}, spec["finish_reason"])
            options = body.get("stream_options") or {}
            if options.get("include_usage") and spec["usage"] is not None:
                self._data(
                    {
                        "id": ident,
                        "object": "chat.completion.chunk",
                        "created": 1_700_000_000,
                        "model": model,
                        "choices": [],
                        "usage": spec["usage"],
                    }
                )
            self._raw(b"data: [DONE]\n\n")
            self.wfile.write(b"0\r\n\r\n")
            self.wfile.flush()

        def _endless(self, ident: str, model: str, spec: Spec, streaming: bool) -> None:
            """A trickle or a flood, in a chunked body: SSE deltas when streaming, else one
            completion whose content goes on. Ends when done, or when the client goes away."""
            self.send_response(200)
            kind = "text/event-stream; charset=utf-8" if streaming else "application/json"
            self.send_header("content-type", kind)
            self.send_header("connection", "close")
            self.send_header("transfer-encoding", "chunked")
            self.end_headers()
            fake.endless_began.set()
            shell = {"id": ident, "created": 1_700_000_000, "model": model}
            if streaming:
                shell["object"] = "chat.completion.chunk"
                head, tail = json.dumps(shell)[:-1] + ', "choices": [', "]}"
            else:
                shell["object"] = "chat.completion"
                head = json.dumps(shell)[:-1] + ', "choices": [{"index": 0, "message": '
                head += '{"role": "assistant", "content": "'
            try:
                if not streaming:
                    self._raw(head.encode())
                for piece in _endless_pieces(spec):
                    if spec["kind"] == "trickle" and fake._closing.wait(spec["every"]):
                        return
                    if fake._closing.is_set():
                        return
                    if streaming:
                        delta = {"index": 0, "delta": {"content": piece}, "finish_reason": None}
                        self._data_raw(head + json.dumps(delta) + tail)
                    else:
                        self._raw(piece.encode())
            except ConnectionError:
                fake.abandoned.set()
                return
            if streaming:
                done = {"index": 0, "delta": {}, "finish_reason": "stop"}
                self._data_raw(head + json.dumps(done) + tail)
                self._raw(b"data: [DONE]\n\n")
            else:
                usage = text_reply("")["usage"] if spec.get("usage") else None
                end = '"}, "finish_reason": "stop"}]'
                end += f', "usage": {json.dumps(usage)}' if usage else ""
                self._raw((end + "}").encode())
            self.wfile.write(b"0\r\n\r\n")
            self.wfile.flush()

        def _data_raw(self, text: str) -> None:
            self._raw(f"data: {text}\n\n".encode())

        def _data(self, obj: Any) -> None:
            self._raw(f"data: {json.dumps(obj)}\n\n".encode())

        def _raw(self, payload: bytes) -> None:
            self.wfile.write(b"%x\r\n%s\r\n" % (len(payload), payload))
            self.wfile.flush()

        def _send_error(self, spec: Spec) -> None:
            error = {"message": spec["message"], "type": spec["code"], "code": spec["code"]}
            retry = spec.get("retry_after")
            extra = {} if retry is None else {"retry-after": str(retry)}
            self._send_json(spec["status"], {"error": error}, extra)

        def _send_json(self, status: int, obj: Any, extra: dict[str, str] | None = None) -> None:
            data = json.dumps(obj).encode()
            self.send_response(status)
            self.send_header("content-type", "application/json")
            self.send_header("content-length", str(len(data)))
            self.send_header("connection", "close")
            for k, v in (extra or {}).items():
                self.send_header(k, v)
            self.end_headers()
            self.wfile.write(data)

    return Handler


def _llama_refuses(body: dict[str, Any]) -> str | None:
    """What llama-cpp-python's server fails on in `body`, or None."""
    for message in body.get("messages", []):
        # Its request model types an assistant message's content as a string, even beside
        # tool calls (a validation error, answered as a 500).
        if message.get("role") == "assistant" and not isinstance(message.get("content"), str):
            return "messages: an assistant message's content should be a valid string"
    response_format = body.get("response_format") or {}
    kind = response_format.get("type")
    if kind not in (None, "text", "json_object"):
        return f"response_format type {kind!r} is not supported"
    grammars = [response_format.get("schema")] if kind == "json_object" else []
    if body.get("tool_choice") not in (None, "auto", "none"):
        grammars += [t["function"]["parameters"] for t in body.get("tools", [])]
    for schema in grammars:
        if schema is not None and _limits(schema):
            return "failed to parse grammar: the schema's length limits expand beyond the limit"
    return None


def _limits(schema: Any) -> bool:
    if isinstance(schema, dict):
        return bool({"maxLength", "maxItems"} & set(schema)) or any(
            _limits(v) for v in schema.values()
        )
    if isinstance(schema, list):
        return any(_limits(v) for v in schema)
    return False


def _error(status: int, message: str) -> Spec:
    code = _ERROR_TYPES.get(status, "server_error")
    return {"kind": "error", "status": status, "code": code, "message": message}


def _key_ok(fake: FakeOpenAIServer, headers: dict[str, str]) -> bool:
    key = headers.get("authorization", "").removeprefix("Bearer ")
    return fake.api_key is None or key == fake.api_key


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


def _pieces(s: str, size: int = 8) -> list[str]:
    return [s[i : i + size] for i in range(0, len(s), size)]
