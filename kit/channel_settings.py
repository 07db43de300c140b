"""The settings of the ways in beside Telegram: Matrix, and voice messages on any channel.

Kept beside kit/config.py (which reads them into `Settings`) as kit/model_settings.py is: each
section's shape and its checks, named once. Secrets (Matrix's access token, the speech server's
key) come from the environment only, never from config.toml.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field

from kit.errors import ConfigError

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
