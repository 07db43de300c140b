"""A turn's input and output: what arrived (`Inbound`) and what Kit answered (`TurnResult`).

Their own module, below the agent, so that whatever starts turns (channels, reminders) can name
them without importing the agent and everything it imports."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, datetime

from kit.llm.base import Usage


@dataclass(frozen=True)
class Inbound:
    user_id: str
    text: str
    channel: str = "local"
    conversation: str = "default"
    at: datetime | None = None
    speaker: str = ""  # who wrote it, where several people share a conversation (a group)
    forwarded_from: str | None = None  # set when the text is someone else's words passed on
    source: str = "chat"  # "job": a scheduled task's turn, never learned from as the owner's
    spoken: bool = False  # the text is a voice message's transcript (kit/speech/)


@dataclass(frozen=True)
class TurnResult:
    reply: str
    user_message_id: int
    reply_message_id: int | None
    conversation_id: int
    fact_ids: tuple[int, ...] = ()
    days: tuple[date, ...] = ()
    tools_used: tuple[str, ...] = ()
    usage: Usage = field(default_factory=Usage)
    context_tokens: int = 0
    failed: bool = False  # the model could not answer; `reply` says so honestly
    refused: bool = False  # ... because the API refused the request: it is not sent again
    # The owner mentioned a plan with a time: the model was allowed to offer a reminder
    # (kit/followups/; it may not create one on this message)
    followup_offered: bool = False
    # What its memory search went without ("": search by meaning served), e.g. "words only:
    # the embedding model is loading" in a daemon's first seconds (kit/retrieval/serving.py)
    vector_search: str = ""
