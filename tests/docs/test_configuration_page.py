"""docs/configuration.md names every table config.toml has, so a new settings table gets a line
saying what it sets and where it is explained."""

from __future__ import annotations

import re

from tests.docs.named_paths import REPO


def test_every_settings_table_is_on_the_configuration_page() -> None:
    config = (REPO / "config.toml").read_text(encoding="utf-8")
    tables = re.findall(r"^\[([\w.]+)\]", config, re.M)
    page = (REPO / "docs" / "configuration.md").read_text(encoding="utf-8")
    missing = [name for name in tables if f"`[{name}]`" not in page]
    assert tables and not missing, f"config.toml tables not in docs/configuration.md: {missing}"
