"""Telegram's record for the daemon and `kit doctor` (kit/channels/base.py): its token, its
settings checked, the channel made (python-telegram-bot loads only then), doctor's lines."""

from __future__ import annotations

from typing import TYPE_CHECKING

from kit.channels.base import Channel, ChannelRecord, Finding
from kit.channels.telegram.config import TOKEN_ENV, allowed_users, api_urls
from kit.config import Settings
from kit.errors import KitError

if TYPE_CHECKING:
    from kit.app import Services

DOCTOR_SECONDS = 10.0  # how long getMe may take


def check(settings: Settings) -> None:
    allowed_users(settings)  # an empty allowlist is a ConfigError saying how to fill it
    api_urls(settings.telegram.base_url)


def make(services: Services, token: str, stop_timeout: float) -> Channel:
    from kit.channels.telegram.channel import TelegramChannel

    # Its stop waits for replies in flight: as long as the grace period, and a step more.
    return TelegramChannel(services, token, stop_timeout=stop_timeout)


async def doctor(settings: Settings, token: str, offline: bool) -> list[Finding]:
    try:
        allowed_users(settings)
    except KitError as exc:
        return [("bad", "Telegram", str(exc))]
    if offline:
        return []
    from kit.channels.telegram.transport import reach_bot  # python-telegram-bot loads only now

    where = settings.telegram.base_url or "api.telegram.org"
    reach = await reach_bot(token, settings.telegram.base_url, within=DOCTOR_SECONDS)
    if reach.ok:
        return [("ok", "Telegram", f"{where} knows the bot as {reach.detail}")]
    if reach.outcome == "refused":
        fix = (
            f"Telegram rejected {TOKEN_ENV}; copy the token again from @BotFather "
            "(/mybots -> API Token) and export it"
        )
        return [("bad", "Telegram", fix)]
    if reach.outcome == "unreachable":
        fix = "telegram.base_url" if settings.telegram.base_url else "the network"
        return [("bad", "Telegram", f"cannot reach {where} ({reach.detail}); check {fix}")]
    return [("bad", "Telegram", f"{where}: {reach.detail}")]


RECORD = ChannelRecord(
    name="telegram",
    token_env=TOKEN_ENV,
    off=(
        f"Telegram is off: set {TOKEN_ENV} (and telegram.allowed_user_ids in config.toml) to "
        "talk to Kit from Telegram"
    ),
    check=check,
    make=make,
    doctor=doctor,
)
