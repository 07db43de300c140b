"""Errors a user can act on: each message says what went wrong and what to do next."""

from __future__ import annotations


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


class LLMOutputError(KitError):
    """The model answered with something that does not fit the expected shape."""


class StorageError(KitError):
    """The database cannot be opened or written (locked, full, unreadable)."""
