"""The daemon's log file: `<data_dir>/logs/kit.log`, rotated, owner-only, secrets redacted."""

from __future__ import annotations

import logging
import os
from io import TextIOWrapper
from logging.handlers import RotatingFileHandler
from pathlib import Path

from kit.files import private_dir
from kit.logs import RedactSecrets

MAX_BYTES = 5 * 1024 * 1024
BACKUPS = 3


class _PrivateRotatingFileHandler(RotatingFileHandler):
    """Creates each file (the first and every rotated-in one) with mode 0600."""

    def _open(self) -> TextIOWrapper:
        fd = os.open(self.baseFilename, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
        return open(fd, "a", encoding=self.encoding, errors=self.errors)


def add_file_log(path: Path) -> logging.Handler:
    """Attach the rotating file to the root logger; the caller removes it on exit."""
    private_dir(path.parent)
    handler = _PrivateRotatingFileHandler(
        path, maxBytes=MAX_BYTES, backupCount=BACKUPS, encoding="utf-8"
    )
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    handler.addFilter(RedactSecrets())
    logging.getLogger().addHandler(handler)
    return handler


def remove_file_log(handler: logging.Handler) -> None:
    logging.getLogger().removeHandler(handler)
    handler.close()
