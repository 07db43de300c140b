"""Matrix's record for the daemon and `kit doctor` (kit/channels/base.py): its token, its
settings checked, the channel made (matrix-nio loads only then), doctor's lines."""

from __future__ import annotations

from typing import TYPE_CHECKING

from kit.channels.base import Channel, ChannelRecord, Finding
from kit.channels.matrix.config import TOKEN_ENV, allowed_users, homeserver
from kit.config import Settings
from kit.errors import KitError

if TYPE_CHECKING:
    from kit.app import Services

DOCTOR_SECONDS = 10.0  # how long whoami may take


def check(settings: Settings) -> None:
    homeserver(settings)
    allowed_users(settings)


def make(services: Services, token: str, stop_timeout: float) -> Channel:
    from kit.channels.matrix.channel import MatrixChannel

    return MatrixChannel(services, token, stop_timeout=stop_timeout)


async def doctor(settings: Settings, token: str, offline: bool) -> list[Finding]:
    try:
        url = homeserver(settings)
        allowed_users(settings)
    except KitError as exc:
        return [("bad", "Matrix", str(exc))]
    if offline:
        return []
    from kit.channels.matrix.transport import reach_homeserver  # matrix-nio loads only now

    reach = await reach_homeserver(url, token, within=DOCTOR_SECONDS)
    if reach.ok:
        return [("ok", "Matrix", f"{url} knows the token as {reach.detail}")]
    if reach.outcome == "refused":
        fix = (
            f"{url} rejected {TOKEN_ENV}; log in as Kit's account again and export the new "
            "token (docs/matrix.md)"
        )
        return [("bad", "Matrix", fix)]
    return [("bad", "Matrix", f"cannot reach {url} ({reach.detail}); check matrix.homeserver")]


RECORD = ChannelRecord(
    name="matrix",
    token_env=TOKEN_ENV,
    off=(
        f"Matrix is off: set {TOKEN_ENV} (and [matrix] homeserver and allowed_user_ids in "
        "config.toml) to talk to Kit from Matrix"
    ),
    check=check,
    make=make,
    doctor=doctor,
)
