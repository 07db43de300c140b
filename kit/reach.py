"""What one cheap, bounded request to an outside service found: whether Kit can reach the
model API or Telegram with what it is configured with (`kit doctor`). The adapters (the only
modules that know the SDKs) answer with this; nothing in it holds a key or a token."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Outcome = Literal["ok", "refused", "unreachable", "busy", "not_found", "error"]


@dataclass(frozen=True)
class Reach:
    # refused: the key or token; not_found: the model name (or the URL); busy: it took the
    # connection but did not answer in time; unreachable: no connection at all
    outcome: Outcome
    detail: str = ""  # ok: who answered; otherwise what happened, in a few words

    @property
    def ok(self) -> bool:
        return self.outcome == "ok"
