"""What every part of `Kit` (kit/api.py) stands on: the services the composition root built
(kit/app.py), and whose memory a call means."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from kit.app import Services


class KitBase:
    def __init__(self, services: Services) -> None:
        # The wiring, for the daemon's own parts and for tests. Front-ends use Kit's methods
        # (tests/test_public_api.py holds them to that).
        self.services = services
        self.settings = services.settings

    def _user(self, user: str | None) -> str:
        return user or self.settings.owner.user_id
