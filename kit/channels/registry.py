"""Every channel Kit has, named once: the daemon starts those whose token is set, `kit doctor`
checks them, in this order. Adding a channel is a package under kit/channels/ with a record
(kit/channels/base.py) and one line here (docs/development.md: Adding a channel)."""

from __future__ import annotations

from kit.channels.base import ChannelRecord
from kit.channels.matrix.record import RECORD as MATRIX
from kit.channels.telegram.record import RECORD as TELEGRAM

CHANNELS: tuple[ChannelRecord, ...] = (TELEGRAM, MATRIX)
