"""A PostgreSQL URL as it may be shown: never with its password."""

from __future__ import annotations

import re

from kit.storage_url import is_password_key

_SECRET_IN_AUTHORITY = re.compile(r"(://[^/@:?#]*):[^/@?#]*@")


def redact(url: str) -> str:
    """`postgresql://kit:secret@host/db?password=x` -> `postgresql://kit:***@host/db?password=***`
    (a parameter is judged by its decoded name: `pass%77ord=x` is hidden too)."""
    url = _SECRET_IN_AUTHORITY.sub(r"\1:***@", url)
    base, mark, query = url.partition("?")
    if not mark:
        return url
    parts = []
    for part in query.split("&"):
        name, equals, _ = part.partition("=")
        parts.append(f"{name}=***" if equals and is_password_key(name) else part)
    return f"{base}?{'&'.join(parts)}"
