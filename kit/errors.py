"""Errors a user can act on: each message says what went wrong and what to do next."""

from __future__ import annotations

from datetime import datetime


class KitError(Exception):
    """Base of every error Kit reports to a person. `str(err)` is safe to show."""

    exit_code = 1


class ConfigError(KitError):
    """The configuration (file, environment or flags) is wrong."""

    exit_code = 2


class InputError(KitError):
    """Input from the user (a date, a file, a flag) cannot be used."""

    exit_code = 2


class NotFound(KitError):
    """Something the user named (a fact, a day, a pass) does not exist."""

    exit_code = 2


class LLMUnavailable(KitError):
    """The model could not be reached or kept failing after bounded retries."""


class LLMRefused(LLMUnavailable):
    """The model API refused the request as it was sent (400, 413, 422): sending the same
    again fails again, so a turn it failed is not sent with the next message."""


class LLMTimeout(LLMUnavailable):
    """The model did not answer within its timeout. The server may well have read the whole
    prompt and still be writing (a local one goes on computing), so background work never
    resends it at once: it backs off and counts the call against the daily budget."""


class LLMBusy(LLMUnavailable):
    """The model API refused for a passing reason (rate limit, overload, a 5xx, a lost
    connection): worth trying again after `retry_after` seconds (None: not said)."""

    def __init__(self, message: str, *, retry_after: float | None = None) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class BudgetSpent(LLMUnavailable):
    """Today's token budget for background model work is spent: that work pauses until
    `resumes_at` (the next local midnight). `user_id` is None when the global budget ran out."""

    def __init__(
        self, message: str, *, user_id: str | None = None, resumes_at: datetime | None = None
    ) -> None:
        super().__init__(message)
        self.user_id = user_id
        self.resumes_at = resumes_at


class TooLargeForBudget(KitError):
    """One background call would cost more than the whole daily budget: it can never run, so
    it fails (and is counted like a bad answer) instead of pausing all background work."""


class LLMOutputError(KitError):
    """The model answered with something that does not fit the expected shape."""


class StorageError(KitError):
    """The database cannot be opened or written (locked, full, unreadable)."""


class Unauthorized(KitError):
    """A remote client's access token is missing, wrong, expired or revoked (kit/access/)."""

    exit_code = 2


class RateLimited(KitError):
    """A remote client's access token made more calls than its rate allows; it may call
    again after `retry_after` seconds."""

    def __init__(self, message: str, *, retry_after: float = 1.0) -> None:
        super().__init__(message)
        self.retry_after = retry_after


def shown(exc: BaseException) -> str:
    """An error as it may be shown and stored: a KitError's message (written for that), or
    only the type of anything else (its message may carry model or user text)."""
    return str(exc) if isinstance(exc, KitError) else type(exc).__name__
