"""Kit: a memory-first personal assistant."""

from kit.api import Kit
from kit.config import Settings, load_settings
from kit.memory.messages import NewMessage
from kit.turn import Inbound, TurnResult

__all__ = ["Inbound", "Kit", "NewMessage", "Settings", "TurnResult", "load_settings"]
