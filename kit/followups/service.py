"""Follow-ups in a turn. When `followups.enabled` and the owner's own message states a plan with
a time (plans.py), and fewer than `followups.per_day` offers were made today, the turn gets a
short instruction (prompts/followup_offer.md) allowing the model to offer a reminder: offer,
not create. And creating one stays the owner's call: on such a message (a plan, no request)
the schedule tool refuses (kit/reminders/tools.py asks `unasked`), so a reminder exists only
after the owner says yes in a later message.

Only the owner's own typed words count: not forwarded text, not someone in a group, not a
scheduled task's turn.
"""

from __future__ import annotations

from datetime import datetime, tzinfo

from kit.clock import local_date
from kit.config import FollowupSettings
from kit.followups.offers import FollowupOffers
from kit.followups.plans import find_plan
from kit.prompts import Prompts
from kit.turn import Inbound
from kit.untrusted.neutralise import neutralise

PROMPT = "followup_offer"


class Followups:
    def __init__(
        self, offers: FollowupOffers, prompts: Prompts, settings: FollowupSettings, tz: tzinfo
    ) -> None:
        self.offers = offers
        self._prompts = prompts
        self._settings = settings
        self._tz = tz

    async def note_for(self, inbound: Inbound, text: str, now: datetime) -> str | None:
        """The instruction this turn gets, or None (off, not a plan, not the owner's own
        words, or today's offers used up). Counts the offer when it gives one."""
        if not self._settings.enabled or not _owners_own(inbound):
            return None
        plan = find_plan(text)
        if plan is None:
            return None
        day = local_date(now, self._tz)
        if not await self.offers.take(inbound.user_id, day, self._settings.per_day):
            return None
        return self._prompts.render(PROMPT, when=neutralise(plan.when, inline=True))

    def unasked(self, text: str) -> bool:
        """A message that states a plan and does not ask for a reminder (with follow-ups on):
        the schedule tool must not act on it, only an offer may."""
        return self._settings.enabled and find_plan(text) is not None


def _owners_own(inbound: Inbound) -> bool:
    return inbound.source == "chat" and inbound.forwarded_from is None and not inbound.speaker
