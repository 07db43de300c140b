"""What a model API's HTTP failure means for Kit, the same for every provider's adapter.

The adapters catch their SDK's exceptions and hand the status here: a request the API refused
as sent (its content, its size) is `LLMRefused` and is never sent again; a passing failure (rate
limit, overload, a server error) is `LLMBusy`, worth another try after the server's
retry-after; anything else is `LLMUnavailable`. Only the key's variable name is ever named.
"""

from __future__ import annotations

import importlib
from typing import Any

from kit.errors import LLMBusy, LLMRefused, LLMUnavailable

# Statuses saying the request itself is wrong (its content, its size): the same again fails.
REFUSED = frozenset({400, 413, 422})


def passing(status: int) -> bool:
    """Whether another try may work: rate limited, overloaded, a server error."""
    return status in (408, 409, 429) or status >= 500


def retry_after(response: Any) -> float | None:
    """The server's retry-after, in seconds, when it gave one as a number."""
    try:
        return max(0.0, float(response.headers.get("retry-after", "")))
    except (AttributeError, TypeError, ValueError):
        return None


def status_message(status: int, key_env: str) -> str:
    """`key_env` "": no key was sent (none is named for this endpoint)."""
    if status == 401 and not key_env:
        return (
            "the model API wants a key, and Kit sends one only where key_env is set beside "
            "base_url; set it to the variable that holds the key"
        )
    if status == 401:
        return f"the model API rejected the key; check {key_env}"
    if status == 429:
        return "the model API is rate-limiting us; try again in a minute"
    if status == 503:
        return "the model server is overloaded or still loading; try again in a few minutes"
    if status == 529:
        return "the model is overloaded right now; try again in a few minutes"
    if status >= 500:
        return f"the model API had an internal error ({status}); try again shortly"
    return f"the model API refused the request ({status}); see the log for details"


def status_error(status: int, key_env: str, response: Any) -> LLMUnavailable:
    """The error to raise for an HTTP failure `status` (its `response` for retry-after)."""
    message = status_message(status, key_env)
    if status in REFUSED:
        return LLMRefused(message)
    if passing(status):
        return LLMBusy(message, retry_after=retry_after(response))
    return LLMUnavailable(message)


def transport_errors() -> tuple[type[Exception], ...]:
    """The SDKs' HTTP library errors: a stream cut mid-way surfaces as one of these, unwrapped.
    (Newer SDKs ship `httpx2`, older ones `httpx`.) Imported here only by name, when an adapter
    that already loaded its SDK asks."""
    found: list[type[Exception]] = []
    for name in ("httpx2", "httpx"):
        try:
            found.append(importlib.import_module(name).TransportError)
        except (ImportError, AttributeError):
            continue
    return tuple(found)
