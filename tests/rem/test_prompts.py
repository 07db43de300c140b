"""The daily-summary and REM prompts render with exactly the variables Kit supplies."""

from __future__ import annotations

import pytest

from kit.errors import ConfigError
from kit.prompts import REQUIRED, Prompts

VALUES = {
    "daily_summary": {
        "owner_name": ", Ana",
        "day": "2026-03-01 (Sunday)",
        "message_count": 3,
        "messages": "[10:00] Owner: hello",
    },
    "rem_condense": {"day": "2026-03-01 (Sunday)", "detailed": "- one\n- two"},
    "rem_review": {
        "owner_name": "",
        "today": "2026-05-01",
        "category": "projects",
        "stale_days": 60,
        "facts": "#1 (confidence 0.80; written 2026-03-01; last used never) a fact",
    },
}


@pytest.mark.parametrize("name", sorted(VALUES))
def test_prompt_renders_every_variable_it_needs(name: str) -> None:
    prompts = Prompts()
    assert set(VALUES[name]) == REQUIRED[name] == prompts.variables(name)
    text = prompts.render(name, **VALUES[name])
    assert "$" not in text
    for value in VALUES[name].values():
        assert str(value) in text


def test_a_missing_variable_is_an_error_not_a_half_rendered_prompt() -> None:
    values = dict(VALUES["rem_condense"])
    del values["detailed"]
    with pytest.raises(ConfigError, match=r"prompts/rem_condense\.md: variables do not match"):
        Prompts().render("rem_condense", **values)
