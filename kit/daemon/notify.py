"""systemd's readiness protocol (`Type=notify`): one datagram to $NOTIFY_SOCKET, if set.

`READY=1` is sent once the control socket listens, so `systemctl start` returns when Kit can
actually be talked to; tests use the same signal instead of polling.
"""

from __future__ import annotations

import logging
import os
import socket

log = logging.getLogger(__name__)


def sd_notify(state: str) -> bool:
    """Send `state` (e.g. "READY=1") to the service manager. False when there is none."""
    address = os.environ.get("NOTIFY_SOCKET", "")
    if not address:
        return False
    if address.startswith("@"):  # abstract namespace
        address = "\0" + address[1:]
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC) as sock:
            sock.sendto(state.encode(), address)
    except OSError as exc:
        log.warning("could not notify the service manager (%s): %s", state, exc)
        return False
    return True
