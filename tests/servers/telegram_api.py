"""A tiny local Telegram Bot API server for running the real python-telegram-bot offline.

Usage::

    with FakeTelegramServer() as tg:
        app = (ApplicationBuilder().token(tg.token)
               .base_url(tg.base_url).base_file_url(tg.base_file_url).build())
        tg.push_text(42, "hello")
        tg.wait_for_sent(1)
        tg.push_document(42, b"# list", file_name="list.md")  # getFile + download serve it
        tg.push_callback(42, data, message=tg.sent[0])  # a press on an inline button
        await tg.async_wait_for_answers(1)              # answerCallbackQuery's texts
        tg.now(tg.sent[0])                              # that message after edits to it

PTB builds request URLs as ``base_url + token + "/" + method`` and sends bodies as
``application/x-www-form-urlencoded`` whose non-string values are JSON-encoded; JSON bodies
and query strings are accepted too, so plain httpx calls work as well.
"""

from __future__ import annotations

import asyncio
import collections
import json
import re
import threading
import time
from collections.abc import Callable
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qsl, unquote, urlsplit

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
MAX_DOWNLOAD = 20 * 1024 * 1024  # getFile refuses bigger files, as Telegram's cloud API does
MAX_TEXT = 4096  # Telegram's real sendMessage limit
MAX_CALLBACK_DATA = 64  # bytes of an inline button's callback_data
MAX_ANSWER = 200  # characters of an answerCallbackQuery text


# How long the waits below allow by default: only a hang gets near it on a loaded machine, and
# nothing a test checks depends on it.
HANG_GUARD = 30.0


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
    server: _HTTPServer
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
            status, answer = _error(404, "Not Found")
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


class _HTTPServer(ThreadingHTTPServer):
    # Non-daemon + block_on_close: server_close() joins handler threads, so no
    # connection socket outlives close().
    daemon_threads = False
    block_on_close = True
    fake: FakeTelegramServer

    def handle_error(self, request: Any, client_address: Any) -> None:
        pass  # disconnects mid-request are normal for long polling; real bugs surface in tests


class FakeTelegramServer:
    """Speaks enough of the Bot API for PTB's Application + polling Updater. Thread-safe."""

    def __init__(self, token: str = "123:TEST") -> None:
        self.token = token
        self.bot_user = {
            "id": int(token.split(":")[0]),
            "is_bot": True,
            "first_name": "Kit",
            "username": "kit_test_bot",
            "can_join_groups": True,
            "can_read_all_group_messages": False,
            "supports_inline_queries": False,
        }
        self._cond = threading.Condition()
        self._updates: list[dict] = []  # queued, not yet confirmed via getUpdates offset
        self._next_update_id = 1
        self._next_message_id = 1
        self._sent: list[dict] = []
        self._answers: list[dict] = []  # answerCallbackQuery payloads
        self._messages: dict[int, dict] = {}  # the bot's messages as they now stand (edits)
        self._sent_ids: list[int] = []  # the message id of each entry of `_sent`
        self._edits: list[dict] = []  # editMessageText / editMessageReplyMarkup payloads
        self._calls: list[tuple[str, dict]] = []
        self._failures: dict[str, collections.deque] = collections.defaultdict(collections.deque)
        self._reject_markdown = 0
        self._polls_to_hang = 0
        self.hung_polls = 0  # getUpdates calls hanging now (`hang_next_poll`)
        self._hold_sends = False
        self._commands: dict[tuple[str, str], list] = {}
        self._stubs: dict[str, Any] = {}
        self._files: dict[str, bytes] = {}  # file_id -> content, for getFile and downloads
        self.downloads: list[str] = []  # file paths downloaded, in order
        self._closed = False
        self._methods: dict[str, Callable[[dict], Any]] = {
            "getme": lambda p: self.bot_user,
            "deletewebhook": lambda p: True,
            "getupdates": self._get_updates,
            "sendmessage": self._send_message,
            "sendchataction": lambda p: True,
            "answercallbackquery": self._answer_callback_query,
            "editmessagetext": self._edit_message,
            "editmessagereplymarkup": self._edit_message,
            "setmycommands": self._set_my_commands,
            "getmycommands": lambda p: self._commands.get(self._scope_key(p), []),
            "getfile": self._get_file,
            "close": lambda p: True,
            "logout": lambda p: True,
        }
        self._httpd = _HTTPServer(("127.0.0.1", 0), _Handler)
        self._httpd.fake = self
        self._thread = threading.Thread(
            target=self._httpd.serve_forever, args=(0.05,), name="FakeTelegramServer", daemon=True
        )
        self._thread.start()

    # ---- addresses -------------------------------------------------------------------------
    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self._httpd.server_address[1]}"

    @property
    def base_url(self) -> str:
        """Pass to ApplicationBuilder().base_url(); PTB appends the token itself."""
        return self.url + "/bot"

    @property
    def base_file_url(self) -> str:
        return self.url + "/file/bot"

    # ---- lifecycle -------------------------------------------------------------------------
    def close(self) -> None:
        with self._cond:
            if self._closed:
                return
            self._closed = True
            self._cond.notify_all()  # wake long polls and stalls so their threads can finish
        self._httpd.shutdown()
        self._httpd.server_close()
        self._thread.join()

    def __enter__(self) -> FakeTelegramServer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    async def __aenter__(self) -> FakeTelegramServer:
        return self

    async def __aexit__(self, *exc: object) -> None:
        self.close()

    # ---- test controls ---------------------------------------------------------------------
    def push_text(
        self,
        user_id: int,
        text: str,
        *,
        chat_id: int | None = None,
        first_name: str = "Ann",
        forward_origin: dict | None = None,
    ) -> dict:
        """A text message from `user_id`, in their private chat or in `chat_id` (a negative
        id is a group; see `_chat`); `forward_origin` (from `origin_user` and friends) makes
        it a message they forwarded."""
        extra: dict[str, Any] = {"text": text}
        if text.startswith("/"):  # CommandHandler only matches messages with a bot_command entity
            length = len(text.split()[0])
            extra["entities"] = [{"type": "bot_command", "offset": 0, "length": length}]
        if forward_origin is not None:
            extra["forward_origin"] = forward_origin
        return self._push(user_id, chat_id, first_name, extra)

    def push_photo(
        self, user_id: int, *, chat_id: int | None = None, caption: str | None = None
    ) -> dict:
        sizes = [
            {
                "file_id": f"photo-{w}",
                "file_unique_id": f"uphoto-{w}",
                "width": w,
                "height": w,
                "file_size": w * 10,
            }
            for w in (90, 320)
        ]
        content: dict[str, Any] = {"photo": sizes}
        if caption:
            content["caption"] = caption
        return self._push(user_id, chat_id, "Ann", content)

    def push_sticker(self, user_id: int, *, chat_id: int | None = None) -> dict:
        sticker = {
            "file_id": "sticker-1",
            "file_unique_id": "usticker-1",
            "type": "regular",
            "width": 512,
            "height": 512,
            "is_animated": False,
            "is_video": False,
            "emoji": "🙂",
        }
        return self._push(user_id, chat_id, "Ann", {"sticker": sticker})

    def push_voice(
        self,
        user_id: int,
        *,
        chat_id: int | None = None,
        duration: int = 3,
        content: bytes = b"OggS voice",
        file_size: int | None = None,
    ) -> dict:
        """A voice message; its audio (`content`) is served by getFile and the file URL.
        `file_size` overrides the size the message states (None: the real size)."""
        with self._cond:
            file_id = f"voice-{len(self._files) + 1}"
            self._files[file_id] = content
        voice = {
            "file_id": file_id,
            "file_unique_id": f"u{file_id}",
            "duration": duration,
            "mime_type": "audio/ogg",
            "file_size": len(content) if file_size is None else file_size,
        }
        return self._push(user_id, chat_id, "Ann", {"voice": voice})

    def push_document(
        self,
        user_id: int,
        content: bytes,
        *,
        file_name: str | None = "note.md",
        mime_type: str | None = "text/markdown",
        file_size: int | None = None,
        chat_id: int | None = None,
        caption: str | None = None,
        forward_origin: dict | None = None,
    ) -> dict:
        """A file sent as a document; its bytes are served by getFile and the file URL.
        `file_size` overrides the size the message states (None: the real size)."""
        with self._cond:
            file_id = f"doc-{len(self._files) + 1}"
            self._files[file_id] = content
        document: dict[str, Any] = {
            "file_id": file_id,
            "file_unique_id": f"u{file_id}",
            "file_size": len(content) if file_size is None else file_size,
        }
        if file_name is not None:
            document["file_name"] = file_name
        if mime_type is not None:
            document["mime_type"] = mime_type
        extra: dict[str, Any] = {"document": document}
        if caption:
            extra["caption"] = caption
        if forward_origin is not None:
            extra["forward_origin"] = forward_origin
        return self._push(user_id, chat_id, "Ann", extra)

    def push_callback(
        self,
        user_id: int,
        data: str,
        *,
        message: dict | None = None,
        chat_id: int | None = None,
        first_name: str = "Ann",
    ) -> dict:
        """A press on an inline button by `user_id`: `data` is the button's callback_data,
        `message` the sendMessage payload (from `sent`) the button was under, which the
        press carries as it now stands (edits included); its chat is where the press happens
        unless `chat_id` says otherwise."""
        chat = chat_id if chat_id is not None else (message or {}).get("chat_id", user_id)
        with self._cond:
            under = self._now(message) if message is not None else None
            if under is None or under["chat"]["id"] != chat:
                under = {
                    "message_id": 1,
                    "date": int(time.time()),
                    "chat": self._chat(chat, first_name),
                    "from": self.bot_user,
                    "text": (message or {}).get("text", "…"),
                }
            query = {
                "id": f"cq-{self._next_update_id}",
                "from": {"id": user_id, "is_bot": False, "first_name": first_name},
                "chat_instance": f"ci-{chat}",
                "data": data,
                "message": under,
            }
            update = {"update_id": self._next_update_id, "callback_query": query}
            self._next_update_id += 1
            self._updates.append(update)
            self._cond.notify_all()
        return update

    @property
    def answers(self) -> list[dict]:
        """Snapshot of answerCallbackQuery payloads (callback_query_id, text, show_alert)."""
        with self._cond:
            return list(self._answers)

    async def async_wait_for_answers(self, n: int, timeout: float = HANG_GUARD) -> list[dict]:  # noqa: ASYNC109
        deadline = time.monotonic() + timeout
        while len(self.answers) < n:
            if time.monotonic() >= deadline:
                raise TimeoutError(f"expected {n} button answers, got {self.answers!r}")
            await asyncio.sleep(0.01)
        return self.answers

    def now(self, sent: dict) -> dict:
        """A message the bot sent (its sendMessage payload, from `sent`) as it now stands,
        after editMessageText / editMessageReplyMarkup."""
        with self._cond:
            message = self._now(sent)
        if message is None:
            raise KeyError("not a payload from `sent`")
        return message

    @property
    def edits(self) -> list[dict]:
        """Snapshot of editMessageText / editMessageReplyMarkup payloads, in order."""
        with self._cond:
            return list(self._edits)

    async def async_wait_for_edits(self, n: int, timeout: float = HANG_GUARD) -> list[dict]:  # noqa: ASYNC109
        deadline = time.monotonic() + timeout
        while len(self.edits) < n:
            if time.monotonic() >= deadline:
                raise TimeoutError(f"expected {n} message edits, got {self.edits!r}")
            await asyncio.sleep(0.01)
        return self.edits

    @staticmethod
    def buttons(sent: dict) -> list[list[dict]]:
        """The inline keyboard of a sent message (a payload from `sent`, or `now(...)`):
        rows of {"text", "callback_data"}."""
        markup = sent.get("reply_markup") or {}
        if isinstance(markup, str):
            markup = json.loads(markup)
        return [list(row) for row in markup.get("inline_keyboard", [])]

    def fail_next(self, method: str, status: int = 429, retry_after: int = 1) -> None:
        """The next call of `method` fails (queued per call); 429 is Telegram's flood-control
        error (PTB raises RetryAfter), other statuses get a generic description."""
        with self._cond:
            self._failures[method.lower()].append((status, retry_after))

    def reject_markdown_next(self) -> None:
        """The next sendMessage that has a parse_mode fails with 400 (PTB: BadRequest)."""
        with self._cond:
            self._reject_markdown += 1

    def hang_next_poll(self) -> None:
        """The getUpdates waiting now (or, if none is, the next one) never answers until the
        server closes: a long poll whose connection died without a word. Later polls are
        answered as usual. `hung_polls` counts the polls hanging."""
        with self._cond:
            self._polls_to_hang += 1
            self._cond.notify_all()

    def wait_for_hung_polls(self, n: int, timeout: float = HANG_GUARD) -> None:
        with self._cond:
            if not self._cond.wait_for(lambda: self.hung_polls >= n, timeout):
                raise TimeoutError(f"expected {n} hung polls, got {self.hung_polls}")

    def hold_sends(self, held: bool = True) -> None:
        """While held, sendMessage calls wait (recorded in `calls`, not yet in `sent`); on
        release they complete as accepted: a message Telegram took while its sender died."""
        with self._cond:
            self._hold_sends = held
            self._cond.notify_all()

    def wait_for_call(self, method: str, n: int, timeout: float = HANG_GUARD) -> None:
        with self._cond:
            count = lambda: sum(1 for m, _ in self._calls if m.lower() == method.lower())  # noqa: E731
            if not self._cond.wait_for(lambda: count() >= n, timeout):
                raise TimeoutError(f"expected {n} {method} calls, got {count()}")

    def stub(self, method: str, result: Any) -> None:
        """Always answer `method` with `result`, e.g. stub("editMessageText", True)."""
        with self._cond:
            self._stubs[method.lower()] = result

    @property
    def sent(self) -> list[dict]:
        """Snapshot of successful sendMessage payloads (chat_id, text, parse_mode, ...)."""
        with self._cond:
            return list(self._sent)

    @property
    def calls(self) -> list[tuple[str, dict]]:
        """Snapshot of every (method, payload) received, failures and unknown methods included."""
        with self._cond:
            return list(self._calls)

    @property
    def unknown_methods(self) -> list[str]:
        with self._cond:
            known = self._methods.keys() | self._stubs.keys()
            return [m for m, _ in self._calls if m.lower() not in known]

    def wait_for_sent(self, n: int, timeout: float = HANG_GUARD) -> list[dict]:
        with self._cond:
            if not self._cond.wait_for(lambda: len(self._sent) >= n, timeout):
                raise TimeoutError(f"expected {n} sent messages, got {self._sent!r}")
            return list(self._sent)

    async def async_wait_for_sent(self, n: int, timeout: float = HANG_GUARD) -> list[dict]:  # noqa: ASYNC109
        # Poll instead of blocking: PTB runs on the same event loop and must keep going.
        deadline = time.monotonic() + timeout
        while len(self.sent) < n:
            if time.monotonic() >= deadline:
                raise TimeoutError(f"expected {n} sent messages, got {self.sent!r}")
            await asyncio.sleep(0.01)
        return self.sent

    # ---- request handling (server threads) -------------------------------------------------
    def handle(self, token: str, method: str, payload: dict) -> tuple[int, dict]:
        key = method.lower()
        with self._cond:
            self._calls.append((method, payload))
            self._cond.notify_all()
            if token != self.token:
                return _error(401, "Unauthorized")
            if self._failures[key]:
                status, retry_after = self._failures[key].popleft()
                if status == 429:
                    return _error(
                        429,
                        f"Too Many Requests: retry after {retry_after}",
                        {"retry_after": retry_after},
                    )
                return _error(status, f"{HTTPStatus(status).phrase}: injected failure")
            if key in self._stubs:
                return 200, {"ok": True, "result": self._stubs[key]}
        if key not in self._methods:
            return _error(404, f"Not Found: method {method}")
        try:
            return 200, {"ok": True, "result": self._methods[key](payload)}
        except _ApiError as exc:
            return _error(exc.status, exc.description)

    def _get_updates(self, p: dict) -> list[dict]:
        offset, limit = int(p.get("offset") or 0), int(p.get("limit") or 100)
        deadline = time.monotonic() + float(p.get("timeout") or 0)
        with self._cond:
            # Like Telegram: offset confirms (forgets) older updates; -N keeps only the last N.
            if offset > 0:
                self._updates = [u for u in self._updates if u["update_id"] >= offset]
            elif offset < 0:
                self._updates = self._updates[offset:]
            while not self._closed:
                if self._polls_to_hang:
                    self._polls_to_hang -= 1
                    self.hung_polls += 1
                    self._cond.notify_all()
                    while not self._closed:
                        self._cond.wait()
                    return []
                now = time.monotonic()
                if self._updates or now >= deadline:
                    return self._updates[:limit]
                else:
                    self._cond.wait(deadline - now)
            return []

    def _send_message(self, p: dict) -> dict:
        text = p.get("text")
        if "chat_id" not in p:
            raise _ApiError(400, "Bad Request: chat_id is empty")
        if not text:
            raise _ApiError(400, "Bad Request: message text is empty")
        if len(text) > MAX_TEXT:
            raise _ApiError(400, "Bad Request: message is too long")
        with self._cond:
            while self._hold_sends and not self._closed:
                self._cond.wait()
            if p.get("parse_mode") and self._reject_markdown:
                self._reject_markdown -= 1
                raise _ApiError(
                    400,
                    "Bad Request: can't parse entities: Can't find end of the "
                    "entity starting at byte offset 0",
                )
            message = {
                "message_id": self._take_message_id(),
                "date": int(time.time()),
                "chat": self._chat(p["chat_id"]),
                "from": self.bot_user,
                "text": text,
            }
            if p.get("reply_markup"):
                message["reply_markup"] = p["reply_markup"]
                _check_keyboard(p["reply_markup"])
            self._sent.append(p)
            self._sent_ids.append(message["message_id"])
            self._messages[message["message_id"]] = message
            self._cond.notify_all()
        return message

    def _edit_message(self, p: dict) -> dict:
        """editMessageText (text and keyboard) or editMessageReplyMarkup (keyboard only);
        like Telegram, a keyboard not given is taken away."""
        with self._cond:
            message = self._messages.get(int(p.get("message_id") or 0))
            if message is None or message["chat"]["id"] != p.get("chat_id"):
                raise _ApiError(400, "Bad Request: message to edit not found")
            message = dict(message)
            if "text" in p:
                if not p["text"] or len(p["text"]) > MAX_TEXT:
                    raise _ApiError(400, "Bad Request: message text is empty or too long")
                message["text"] = p["text"]
            message.pop("reply_markup", None)
            if p.get("reply_markup"):
                _check_keyboard(p["reply_markup"])
                message["reply_markup"] = p["reply_markup"]
            self._messages[message["message_id"]] = message
            self._edits.append(p)
            self._cond.notify_all()
        return message

    def _now(self, sent: dict) -> dict | None:
        """(Under the lock.) The message a `sent` payload made, as it now stands."""
        for index, payload in enumerate(self._sent):
            if payload is sent:
                return self._messages[self._sent_ids[index]]
        return None

    def _answer_callback_query(self, p: dict) -> bool:
        if not p.get("callback_query_id"):
            raise _ApiError(400, "Bad Request: query id is empty")
        if len(str(p.get("text") or "")) > MAX_ANSWER:
            raise _ApiError(400, "Bad Request: MESSAGE_TOO_LONG")
        with self._cond:
            self._answers.append(p)
            self._cond.notify_all()
        return True

    def _get_file(self, p: dict) -> dict:
        file_id = str(p.get("file_id") or "")
        with self._cond:
            content = self._files.get(file_id)
        if content is None:
            raise _ApiError(400, "Bad Request: invalid file_id")
        if len(content) > MAX_DOWNLOAD:
            raise _ApiError(400, "Bad Request: file is too big")
        return {
            "file_id": file_id,
            "file_unique_id": f"u{file_id}",
            "file_size": len(content),
            "file_path": f"documents/{file_id}",
        }

    def download(self, token: str, path: str) -> tuple[int, bytes]:
        """A file URL (base_file_url + token + "/" + file_path): its bytes, or 404."""
        with self._cond:
            self._calls.append(("download", {"path": path}))
            if token != self.token:
                return 401, b""
            content = self._files.get(path.removeprefix("documents/"))
            if content is None:
                return 404, b""
            self.downloads.append(path)
            return 200, content

    def _set_my_commands(self, p: dict) -> bool:
        with self._cond:
            self._commands[self._scope_key(p)] = list(p.get("commands") or [])
        return True

    # ---- helpers ---------------------------------------------------------------------------
    @staticmethod
    def _scope_key(p: dict) -> tuple[str, str]:
        scope = p.get("scope") or {"type": "default"}
        return json.dumps(scope, sort_keys=True), p.get("language_code") or ""

    @staticmethod
    def _chat(chat_id: Any, first_name: str = "Ann") -> dict:
        if isinstance(chat_id, int) and chat_id > 0:
            return {"id": chat_id, "type": "private", "first_name": first_name}
        if isinstance(chat_id, int):  # like Telegram: supergroup ids start with -100 and are long
            kind = "supergroup" if chat_id <= -1_000_000_000_000 else "group"
            return {"id": chat_id, "type": kind, "title": "Test group"}
        name = str(chat_id).lstrip("@")
        return {"id": -100, "type": "channel", "title": name, "username": name}

    def _take_message_id(self) -> int:
        self._next_message_id += 1
        return self._next_message_id - 1

    def _push(self, user_id: int, chat_id: int | None, first_name: str, content: dict) -> dict:
        with self._cond:
            update = {
                "update_id": self._next_update_id,
                "message": {
                    "message_id": self._take_message_id(),
                    "date": int(time.time()),
                    "chat": self._chat(user_id if chat_id is None else chat_id, first_name),
                    "from": {"id": user_id, "is_bot": False, "first_name": first_name},
                    **content,
                },
            }
            self._next_update_id += 1
            self._updates.append(update)
            self._cond.notify_all()  # wake a waiting long poll
        return update


def origin_user(user_id: int, first_name: str, last_name: str | None = None) -> dict:
    """`forward_origin` of a message forwarded from a user who allows linking to them."""
    sender: dict[str, Any] = {"id": user_id, "is_bot": False, "first_name": first_name}
    if last_name:
        sender["last_name"] = last_name
    return {"type": "user", "date": int(time.time()), "sender_user": sender}


def origin_hidden_user(name: str) -> dict:
    """`forward_origin` of a message from a user who hides their account when forwarded."""
    return {"type": "hidden_user", "date": int(time.time()), "sender_user_name": name}


def origin_channel(chat_id: int, title: str, signature: str | None = None) -> dict:
    """`forward_origin` of a channel post, optionally signed by its author."""
    origin: dict[str, Any] = {
        "type": "channel",
        "date": int(time.time()),
        "chat": {"id": chat_id, "type": "channel", "title": title},
        "message_id": 7,
    }
    if signature:
        origin["author_signature"] = signature
    return origin


def _check_keyboard(markup: Any) -> None:
    """Telegram's limits on an inline keyboard: callback_data of 1-64 bytes, a label."""
    if isinstance(markup, str):
        markup = json.loads(markup)
    for row in markup.get("inline_keyboard", []):
        for button in row:
            data = str(button.get("callback_data", "")).encode()
            if not 1 <= len(data) <= MAX_CALLBACK_DATA:
                raise _ApiError(400, "Bad Request: BUTTON_DATA_INVALID")
            if not button.get("text"):
                raise _ApiError(400, "Bad Request: a button has no text")


def _error(status: int, description: str, parameters: dict | None = None) -> tuple[int, dict]:
    body: dict[str, Any] = {"ok": False, "error_code": status, "description": description}
    if parameters:
        body["parameters"] = parameters
    return status, body


class _ApiError(Exception):
    def __init__(self, status: int, description: str) -> None:
        self.status, self.description = status, description
