"""Kit: a memory-first personal assistant."""

from kit.agent import Inbound, TurnResult
from kit.api import Kit
from kit.config import Settings, load_settings
from kit.memory.messages import NewMessage

__all__ = ["Inbound", "Kit", "NewMessage", "Settings", "TurnResult", "load_settings"]
