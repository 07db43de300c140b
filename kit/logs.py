"""Logging to stderr with secrets redacted. The daemon adds a rotating file (same filter).

Two layers: the values of Kit's own keys (API key, bot token) are replaced wherever they
appear, and the secret detector (kit/secrets/) withholds anything else that looks like a
secret: a password or card number in an exception message, a key in a third-party error.
"""

from __future__ import annotations

import logging
import os

from kit.channel_settings import MATRIX_TOKEN_ENV
from kit.providers import PROVIDERS

# The providers' usual key variables (an owner's llm.key_env is not known here) and the
# channels' tokens
SECRET_ENV_VARS = (*(p.key_env for p in PROVIDERS), "TELEGRAM_BOT_TOKEN", MATRIX_TOKEN_ENV)


class RedactSecrets(logging.Filter):
    """Replace Kit's own keys wherever they appear in a log record, and withhold whatever
    else the secret detector finds."""

    def __init__(self, secrets: list[str] | None = None) -> None:
        super().__init__()
        self._given = secrets

    def _known(self) -> list[str]:
        # Read at each record, not once: a filter made before the environment held the key
        # (an early handler) must still replace its exact value, not only what the detector sees.
        values = (
            self._given
            if self._given is not None
            else [os.environ.get(v, "") for v in SECRET_ENV_VARS]
        )
        return [s for s in values if len(s) >= 6]

    def _redact(self, text: str) -> str:
        # Imported at the first record, not with this module: the detector's provider plugins
        # and word lists cost more than `kit --help` may (kit/cli.py sets logging up first).
        from kit.secrets import withhold_secrets

        for secret in self._known():
            text = text.replace(secret, "[redacted]")
        return withhold_secrets(text)

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        redacted = self._redact(message)
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = self._redact(record.exc_text)
        if redacted != message:
            record.msg, record.args = redacted, None
        return True


class _TerminalHandler(logging.StreamHandler):  # type: ignore[type-arg]
    """Kit's stderr handler: one per process, however often set up (each `kit` run in one
    process, as the tests do, used to add another, and every record was printed again)."""


def setup_logging(verbose: bool = False) -> logging.Handler:
    handler = _TerminalHandler()
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    handler.addFilter(RedactSecrets())
    root = logging.getLogger()
    for old in [h for h in root.handlers if isinstance(h, _TerminalHandler)]:
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(logging.DEBUG if verbose else logging.INFO)
    for noisy in (
        "httpx",
        "httpx2",
        "httpcore",
        *(name for record in PROVIDERS for name in record.sdk_loggers),
        "telegram",
        "apscheduler",
        "aiosqlite",
    ):
        logging.getLogger(noisy).setLevel(logging.WARNING)
    return handler
