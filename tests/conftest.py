"""Shared fixtures: fakes at Kit's own seams, real components at the edges."""

from __future__ import annotations

import dataclasses
import os
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from kit.api import Kit
from kit.clock import FakeClock
from kit.config import ScheduleSettings, Settings
from kit.embed.hashing import HashingEmbedder
from kit.llm.fake import FakeLLM
from tests.shared_model import MODEL_DIR, MODEL_NAME, require_model

__all__ = ["MODEL_DIR", "MODEL_NAME"]


# PTB 22 warns about timedelta return types unless this opts in; our tests run with -W error.
os.environ.setdefault("PTB_TIMEDELTA", "1")


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock(datetime(2026, 3, 2, 9, 0, tzinfo=UTC))


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    return Settings(data_dir=tmp_path / "data", schedule=ScheduleSettings(timezone="UTC"))


def with_memory(settings: Settings, **changes: Any) -> Settings:
    """Settings with some memory.* values changed."""
    return dataclasses.replace(settings, memory=dataclasses.replace(settings.memory, **changes))


@pytest.fixture
def fake_llm() -> FakeLLM:
    return FakeLLM()


@pytest.fixture
async def kit(settings: Settings, fake_llm: FakeLLM, clock: FakeClock) -> AsyncIterator[Kit]:
    """An in-process Kit on a real SQLite file, with a scripted model and a hashing embedder."""
    async with Kit.open(
        settings=settings, llm=fake_llm, embedder=HashingEmbedder(), clock=clock, background=False
    ) as opened:
        yield opened


@pytest.fixture(scope="session")
def minilm_model() -> Any:
    """The real fastembed model from ../shared/models (loaded once per session)."""
    model_dir = require_model()
    from fastembed import TextEmbedding

    return TextEmbedding(model_name=MODEL_NAME, specific_model_path=str(model_dir))


@pytest.fixture
def minilm(minilm_model: Any) -> Any:
    from kit.embed.fastembed import FastEmbedder

    return FastEmbedder(minilm_model, MODEL_NAME, 384)
