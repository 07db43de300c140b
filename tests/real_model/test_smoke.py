"""The smoke run against a real model, when one is configured: KIT_REAL_MODEL_URL (an endpoint,
e.g. Ollama's http://127.0.0.1:11434/v1), KIT_REAL_MODEL (its model name), and optionally
KIT_REAL_MODEL_PROVIDER ("openai", the default, or "anthropic") and KIT_REAL_MODEL_PRESET
("local", the default, or "hosted"). Without them these tests are skipped, saying why: CI has
no model. Nothing about the model's quality is asserted, only that every step ends with a
recorded outcome (applied or rejected with a reason) and nothing crashes."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
URL = os.environ.get("KIT_REAL_MODEL_URL", "")

pytestmark = [
    pytest.mark.real_model,
    pytest.mark.skipif(
        not URL, reason="no real model configured (set KIT_REAL_MODEL_URL and KIT_REAL_MODEL)"
    ),
]


async def test_a_real_model_gets_through_every_step_with_recorded_outcomes(
    tmp_path: Path,
) -> None:
    sys.path.insert(0, str(REPO / "bench"))
    from real_model import drive, settings_for  # type: ignore[import-not-found]

    args = argparse.Namespace(
        provider=os.environ.get("KIT_REAL_MODEL_PROVIDER", "openai"),
        base_url=URL,
        preset=os.environ.get("KIT_REAL_MODEL_PRESET", "local"),
        model=os.environ.get("KIT_REAL_MODEL", "qwen2.5:3b"),
        chat_model="",
    )
    card = await drive(settings_for(args, tmp_path / "data"))
    card.print()
    assert [s.name for s in card.steps] == ["chat", "curate", "daily summary", "REM", "context"]
    assert all(not s.outcome.startswith("FAILED") for s in card.steps), card.steps
