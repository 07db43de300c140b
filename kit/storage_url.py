"""Where memory lives, as config.toml's storage.url and the CLI's --to / --store give it: which
URLs Kit takes, and that none carries a password (PGPASSWORD holds it, never a file or a log).

Beside kit/config.py (which checks storage.url with it) and below kit/store/ (whose PostgreSQL
URLs are shown with their passwords hidden by the same test).
"""

from __future__ import annotations

import urllib.parse

from kit.errors import ConfigError

POSTGRES_SCHEMES = ("postgresql://", "postgres://")


def check_storage_url(url: str, where: str) -> None:
    """ "", sqlite:///path or postgresql://user@host/db; never a password."""
    if not url or url.startswith(POSTGRES_SCHEMES):
        if has_password(url):
            raise ConfigError(
                f"{where} holds a password; remove it from the URL and set PGPASSWORD in "
                "Kit's environment instead (a config file is no place for a secret)"
            )
        return
    if url.startswith("sqlite:///") and len(url) > len("sqlite:///"):
        return
    raise ConfigError(
        f"{where} must be empty (kit.db in the data directory), 'sqlite:///path/to/kit.db' "
        "or 'postgresql://user@host:5432/dbname'"
    )


def has_password(url: str) -> bool:
    """Whether a postgresql:// URL carries a password (user:secret@, or a parameter whose
    name decodes to password or sslpassword: `pass%77ord=` is one to the driver too)."""
    rest = url.split("://", 1)[-1]
    authority = rest.split("/", 1)[0].split("?", 1)[0]
    userinfo = authority.rpartition("@")[0]
    query = rest.partition("?")[2]
    return ":" in userinfo or any(
        is_password_key(part.split("=", 1)[0]) for part in query.split("&")
    )


def is_password_key(name: str) -> bool:
    """A URL query parameter name (as written, percent-encoded or not) naming a password."""
    return urllib.parse.unquote_plus(name).strip().lower() in ("password", "sslpassword")
