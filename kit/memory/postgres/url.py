"""A PostgreSQL URL as it may be shown: never with its password."""

from __future__ import annotations

import re

_SECRET_IN_AUTHORITY = re.compile(r"(://[^/@:?#]*):[^/@?#]*@")
_SECRET_IN_QUERY = re.compile(r"([?&]password=)[^&]*", re.IGNORECASE)


def redact(url: str) -> str:
    """`postgresql://kit:secret@host/db?password=x` -> `postgresql://kit:***@host/db?password=***`."""
    url = _SECRET_IN_AUTHORITY.sub(r"\1:***@", url)
    return _SECRET_IN_QUERY.sub(r"\1***", url)
