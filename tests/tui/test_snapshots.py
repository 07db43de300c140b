"""Snapshots of the main screens at 80×24 and 120×40 (demo data, so they render the same
everywhere). Update after an intended change with `pytest tests/tui --snapshot-update`."""

from __future__ import annotations

from typing import Any

import pytest

from tests.tui.scenes import SCENES, demo_app

SIZES = {"80x24": (80, 24), "120x40": (120, 40)}


@pytest.mark.parametrize("size", SIZES.values(), ids=SIZES.keys())
@pytest.mark.parametrize("scene", SCENES)
def test_screen_looks_as_recorded(snap_compare: Any, scene: str, size: tuple[int, int]) -> None:
    assert snap_compare(demo_app(), terminal_size=size, run_before=SCENES[scene])
