"""Curation tests: the scripted model answers every curation pass with "no changes" unless a
test scripts otherwise, and chat turns with "ok"."""

from __future__ import annotations

import pytest

from kit.llm.fake import FakeLLM
from tests.support.curation import by_category


@pytest.fixture
def fake_llm() -> FakeLLM:
    return FakeLLM(default=by_category({}))
