"""How long the daemon's shutdown may take (kit/daemon/runner.py; `kit run --shutdown-grace`
offers the default without loading the runner)."""

from __future__ import annotations

DEFAULT_GRACE = 10.0  # seconds in-flight replies get to finish on shutdown
STEP_TIMEOUT = 5.0  # each later teardown step
