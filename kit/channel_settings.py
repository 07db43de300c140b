"""The settings of the ways in: Telegram, Matrix, and voice messages on any channel.

Kept beside kit/config.py (which reads them into `Settings`) as kit/model_settings.py is: each
section's shape and its checks, named once. Secrets (Matrix's access token, the speech server's
key, the Telegram bot's token) come from the environment only, never from config.toml.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from typing import Literal

from kit.errors import ConfigError


@dataclass(frozen=True)
class TelegramSettings:
    base_url: str = ""
    # Telegram user id (as a string key, TOML needs that) -> Kit user namespace.
    allowed_user_ids: dict[str, str] = field(default_factory=dict)
    # Telegram group chat id (negative) -> the Kit namespace that group's memory lives in.
    # Groups not listed get no answer; in a listed group only allowed users are answered.
    allowed_group_ids: dict[str, str] = field(default_factory=dict)


# Plain ASCII digits only: str.isdigit() and int() also take "1²" or fullwidth "１２", which
# would silently allow a different id than the one the owner sees (or fail later).
_USER_ID = re.compile(r"[0-9]{1,18}")
_GROUP_ID = re.compile(r"-[0-9]{1,18}")


def telegram_ids(
    section: TelegramSettings,
    table: Literal["allowed_user_ids", "allowed_group_ids"],
    source: str = "config.toml",
) -> dict[int, str]:
    """`telegram.<table>` as Telegram id -> Kit namespace, or a ConfigError naming the bad key."""
    checked = {}
    for key, namespace in getattr(section, table).items():
        _check_telegram_id(
            f"{source}: telegram.{table}", key, namespace, table == "allowed_group_ids"
        )
        checked[int(key)] = namespace
    return checked


def _check_telegram_id(where: str, key: str, namespace: str, group: bool) -> None:
    if group and not _GROUP_ID.fullmatch(key):
        raise ConfigError(
            f"{where} keys must be numeric Telegram group ids: a minus sign and the digits 0-9 "
            f"(got {key!a}); add the bot to the group, write in it, and Kit's log names the id"
        )
    if not group and not _USER_ID.fullmatch(key):
        hint = (
            "negative ids are group chats: list them under telegram.allowed_group_ids"
            if _GROUP_ID.fullmatch(key)
            else "message @userinfobot on Telegram to learn yours"
        )
        raise ConfigError(
            f"{where} keys must be numeric Telegram user ids in the digits 0-9 (got {key!a}); "
            f"{hint}"
        )
    if not namespace.strip():
        example = "family" if group else "owner"
        raise ConfigError(
            f'{where}[{key!r}] must name a Kit user namespace, e.g. "{example}" (got an empty '
            "string)"
        )


def check_telegram(section: TelegramSettings, source: str) -> None:
    telegram_ids(section, "allowed_user_ids", source)
    telegram_ids(section, "allowed_group_ids", source)


MATRIX_TOKEN_ENV = "MATRIX_ACCESS_TOKEN"

# A Matrix user id: @localpart:server (the spec's grammar, with the historical localparts that
# servers still hold, minus spaces and colons).
_MATRIX_USER = re.compile(r"@[^\s:@]+:[A-Za-z0-9.\-]+(:[0-9]{1,5})?")


@dataclass(frozen=True)
class MatrixSettings:
    """Kit on Matrix (kit/channels/matrix/): on when MATRIX_ACCESS_TOKEN is set."""

    homeserver: str = ""  # the homeserver's client API, e.g. "https://matrix.example.org"
    # Matrix user id -> Kit user namespace. Only these people get in, in direct rooms.
    allowed_user_ids: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class SpeechSettings:
    """Voice messages (kit/speech/): transcribed by an OpenAI-compatible server's
    /v1/audio/transcriptions when `url` names one; off (one reply saying so) when empty."""

    url: str = ""  # the API's base URL, e.g. "http://localhost:8080/v1"
    model: str = "whisper-1"
    key_env: str = "OPENAI_API_KEY"  # the variable holding its key; a server of your own needs none
    language: str = ""  # an ISO-639-1 hint such as "en"; "" lets the server tell
    timeout_seconds: float = 120.0


def matrix_users(section: MatrixSettings, source: str = "config.toml") -> dict[str, str]:
    """`matrix.allowed_user_ids` checked: Matrix user id -> Kit namespace."""
    where = f"{source}: matrix.allowed_user_ids"
    for key, namespace in section.allowed_user_ids.items():
        if not _MATRIX_USER.fullmatch(key):
            raise ConfigError(
                f"{where} keys must be Matrix user ids like @you:example.org (got {key!a}); "
                "your client shows yours in its settings"
            )
        if not namespace.strip():
            raise ConfigError(
                f'{where}[{key!r}] must name a Kit user namespace, e.g. "owner" (got an empty '
                "string)"
            )
    return dict(section.allowed_user_ids)


def check_matrix(section: MatrixSettings, source: str) -> None:
    url = section.homeserver.strip()
    if url and not url.startswith(("http://", "https://")):
        raise ConfigError(
            f"{source}: matrix.homeserver must start with http:// or https:// (got "
            f"{section.homeserver!r}), e.g. https://matrix.example.org"
        )
    matrix_users(section, source)


def check_speech(section: SpeechSettings, source: str) -> None:
    url = section.url.strip()
    if url and not url.startswith(("http://", "https://")):
        raise ConfigError(
            f"{source}: speech.url must start with http:// or https:// (got {section.url!r}), "
            "e.g. http://localhost:8080/v1 for whisper.cpp's server"
        )
    if url and not section.model.strip():
        raise ConfigError(f"{source}: speech.model must name the transcription model")
    if not 0.0 < section.timeout_seconds < math.inf:
        raise ConfigError(
            f"{source}: speech.timeout_seconds must be a positive number of seconds "
            f"(got {section.timeout_seconds!r})"
        )
