"""`FakeTelegramServer`: the fake Bot API's parts put together behind one local HTTP server
(tests/servers/telegram_api/http.py): what users do (updates.py), what the bot says
(messages.py), the files it fetches (files.py), and here the bot's own account and command
menu, the methods' table, and the faults a test injects (`fail_next`, `stub`)."""

from __future__ import annotations

import collections
import json
import threading
from collections.abc import Callable
from http import HTTPStatus
from typing import Any

from tests.servers.telegram_api.core import HANG_GUARD
from tests.servers.telegram_api.files import Files
from tests.servers.telegram_api.http import ApiError, HTTPServer, error
from tests.servers.telegram_api.messages import Messages
from tests.servers.telegram_api.updates import Updates


class FakeTelegramServer(Updates, Messages, Files):
    """Speaks enough of the Bot API for PTB's Application + polling Updater. Thread-safe."""

    def __init__(self, token: str = "123:TEST") -> None:
        super().__init__(token)
        self._failures: dict[str, collections.deque] = collections.defaultdict(collections.deque)
        self._commands: dict[tuple[str, str], list] = {}
        self._stubs: dict[str, Any] = {}
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
        self._httpd = HTTPServer(self)
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
    def fail_next(self, method: str, status: int = 429, retry_after: int = 1) -> None:
        """The next call of `method` fails (queued per call); 429 is Telegram's flood-control
        error (PTB raises RetryAfter), other statuses get a generic description."""
        with self._cond:
            self._failures[method.lower()].append((status, retry_after))

    def stub(self, method: str, result: Any) -> None:
        """Always answer `method` with `result`, e.g. stub("editMessageText", True)."""
        with self._cond:
            self._stubs[method.lower()] = result

    def wait_for_call(self, method: str, n: int, timeout: float = HANG_GUARD) -> None:
        with self._cond:
            count = lambda: sum(1 for m, _ in self._calls if m.lower() == method.lower())  # noqa: E731
            if not self._cond.wait_for(lambda: count() >= n, timeout):
                raise TimeoutError(f"expected {n} {method} calls, got {count()}")

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

    # ---- request handling (server threads) -------------------------------------------------
    def handle(self, token: str, method: str, payload: dict) -> tuple[int, dict]:
        key = method.lower()
        with self._cond:
            self._calls.append((method, payload))
            self._cond.notify_all()
            if token != self.token:
                return error(401, "Unauthorized")
            if self._failures[key]:
                status, retry_after = self._failures[key].popleft()
                if status == 429:
                    return error(
                        429,
                        f"Too Many Requests: retry after {retry_after}",
                        {"retry_after": retry_after},
                    )
                return error(status, f"{HTTPStatus(status).phrase}: injected failure")
            if key in self._stubs:
                return 200, {"ok": True, "result": self._stubs[key]}
        if key not in self._methods:
            return error(404, f"Not Found: method {method}")
        try:
            return 200, {"ok": True, "result": self._methods[key](payload)}
        except ApiError as exc:
            return error(exc.status, exc.description)

    def _set_my_commands(self, p: dict) -> bool:
        with self._cond:
            self._commands[self._scope_key(p)] = list(p.get("commands") or [])
        return True

    @staticmethod
    def _scope_key(p: dict) -> tuple[str, str]:
        scope = p.get("scope") or {"type": "default"}
        return json.dumps(scope, sort_keys=True), p.get("language_code") or ""
