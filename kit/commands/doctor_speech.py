"""`kit doctor`'s checks of Matrix and of voice messages (Telegram's is in kit/commands/doctor.py):
the settings, and whether the homeserver takes Kit's token (one whoami)."""

from __future__ import annotations

import os

from kit.commands.doctor_models import Lines
from kit.config import Settings
from kit.errors import KitError

MATRIX_SECONDS = 10.0  # how long whoami may take


async def check_matrix(report: Lines, settings: Settings, *, offline: bool) -> None:
    from kit.channels.matrix.config import TOKEN_ENV, allowed_users, homeserver

    token = os.environ.get(TOKEN_ENV, "").strip()
    if not token:
        report.ok("Matrix", f"off ({TOKEN_ENV} is not set)")
        return
    try:
        url = homeserver(settings)
        allowed_users(settings)
    except KitError as exc:
        report.bad("Matrix", str(exc))
        return
    if offline:
        return
    from kit.channels.matrix.transport import reach_homeserver  # matrix-nio loads only now

    reach = await reach_homeserver(url, token, within=MATRIX_SECONDS)
    if reach.ok:
        report.ok("Matrix", f"{url} knows the token as {reach.detail}")
    elif reach.outcome == "refused":
        report.bad(
            "Matrix",
            f"{url} rejected {TOKEN_ENV}; log in as Kit's account again and export the new "
            "token (docs/matrix.md)",
        )
    else:
        report.bad("Matrix", f"cannot reach {url} ({reach.detail}); check matrix.homeserver")


def check_speech(report: Lines, settings: Settings) -> None:
    url = settings.speech.url.strip()
    if not url:
        report.ok("voice messages", "off ([speech] url is empty: voice messages get a reply)")
        return
    report.ok("voice messages", f"transcribed by {url} ({settings.speech.model})")
