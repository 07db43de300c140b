"""What the Telegram channel needs from configuration, checked before anything connects.

Kept apart from kit/channels/telegram/transport.py so the daemon can check settings and the
token without importing python-telegram-bot.
"""

from __future__ import annotations

from kit.channel_settings import telegram_ids
from kit.config import Settings
from kit.errors import ConfigError

TOKEN_ENV = "TELEGRAM_BOT_TOKEN"

EMPTY_ALLOWLIST = (
    "telegram.allowed_user_ids is empty, so nobody could talk to Kit on Telegram; message "
    "@userinfobot on Telegram to learn your numeric user id, then add it to config.toml as "
    '[telegram] allowed_user_ids = { "123456789" = "owner" }'
)


def check_token(token: str) -> str:
    cleaned = token.strip()
    if not cleaned:
        raise ConfigError(
            f"{TOKEN_ENV} is not set; create a bot with @BotFather on Telegram and export "
            f"its token as {TOKEN_ENV}"
        )
    return cleaned


def allowed_users(settings: Settings) -> dict[int, str]:
    """Telegram user id -> Kit user, or a ConfigError saying how to fill the allowlist."""
    if not settings.telegram.allowed_user_ids:
        raise ConfigError(EMPTY_ALLOWLIST)
    return telegram_ids(settings.telegram, "allowed_user_ids", _source(settings))


def allowed_groups(settings: Settings) -> dict[int, str]:
    """Telegram group chat id -> the Kit namespace of that group's memory (often empty)."""
    return telegram_ids(settings.telegram, "allowed_group_ids", _source(settings))


def _source(settings: Settings) -> str:
    return str(settings.config_path or "config.toml")


def api_urls(base_url: str) -> tuple[str, str] | None:
    """(base_url, base_file_url) for PTB from `telegram.base_url`, or None for Telegram's own.

    A local Bot API server is given as e.g. http://localhost:8081 or http://localhost:8081/bot.
    """
    url = base_url.strip().rstrip("/")
    if not url:
        return None
    if not url.startswith(("http://", "https://")):
        raise ConfigError(
            f"telegram.base_url must start with http:// or https:// (got {base_url!r}), "
            "e.g. http://localhost:8081/bot for a local Bot API server"
        )
    if not url.endswith("/bot"):
        url += "/bot"
    return url, url.removesuffix("/bot") + "/file/bot"
