"""What the Matrix channel needs from configuration, checked before anything connects (the
daemon checks it without importing matrix-nio)."""

from __future__ import annotations

from kit.channel_settings import MATRIX_TOKEN_ENV, matrix_users
from kit.config import Settings
from kit.errors import ConfigError

TOKEN_ENV = MATRIX_TOKEN_ENV

EMPTY_ALLOWLIST = (
    "matrix.allowed_user_ids is empty, so nobody could talk to Kit on Matrix; add your Matrix "
    'id to config.toml as [matrix] allowed_user_ids = { "@you:example.org" = "owner" }'
)
NO_HOMESERVER = (
    "matrix.homeserver is empty; set it in config.toml to your homeserver's address, e.g. "
    '[matrix] homeserver = "https://matrix.example.org"'
)


def check_token(token: str) -> str:
    cleaned = token.strip()
    if not cleaned:
        raise ConfigError(
            f"{TOKEN_ENV} is not set; log in as Kit's Matrix account and export its access "
            f"token as {TOKEN_ENV} (docs/matrix.md says how)"
        )
    return cleaned


def allowed_users(settings: Settings) -> dict[str, str]:
    """Matrix user id -> Kit user, or a ConfigError saying how to fill the allowlist."""
    if not settings.matrix.allowed_user_ids:
        raise ConfigError(EMPTY_ALLOWLIST)
    return matrix_users(settings.matrix, str(settings.config_path or "config.toml"))


def homeserver(settings: Settings) -> str:
    url = settings.matrix.homeserver.strip().rstrip("/")
    if not url:
        raise ConfigError(NO_HOMESERVER)
    return url
