"""How a curation pass or run fails: the exceptions that carry it and the reasons recorded.

A reason is shown to the owner (`kit curate`, the digest): a KitError's message is written to be
shown; any other exception may carry data, so it is named by its type only.
"""

from __future__ import annotations

import logging

from kit.curator.reports import PassOutcome
from kit.errors import KitError, LLMTimeout
from kit.untrusted.fingerprint import frames

log = logging.getLogger("kit.curator.passes")  # where these were logged before the split


class PassTimedOut(LLMTimeout):
    """A pass's model call timed out; it was recorded (and counted) as `outcome`."""

    def __init__(self, outcome: PassOutcome) -> None:
        super().__init__(outcome.reason)
        self.outcome = outcome


class CurationCrashed(KitError):
    """Some conversations could not be curated at all (not even recorded as a failed pass)."""


def conversation_crashed(conversation_id: int, exc: BaseException) -> str:
    log.error(
        "curating conversation %d crashed (%s); the others go on%s",
        conversation_id,
        type(exc).__name__,
        frames(exc),
    )
    return f"conversation {conversation_id}: {crash_reason('curating', exc)}"


def crash_reason(stage: str, exc: BaseException) -> str:
    # KitError messages are written to be shown; anything else may carry data: name it only.
    what = str(exc) if isinstance(exc, KitError) else type(exc).__name__
    return f"{stage} failed ({what}); nothing of the pass was applied"
