"""config.toml -> Settings: the shipped file is the defaults; mistakes are named with their fix."""

from __future__ import annotations

import dataclasses
import tomllib
from pathlib import Path

import pytest

from kit.config import Settings, load_settings, parse_settings
from kit.errors import ConfigError

REPO_CONFIG = Path(__file__).resolve().parents[2] / "config.toml"


@pytest.fixture(autouse=True)
def _clean_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """No developer's real config or data dir leaks into these tests."""
    for name in ("KIT_CONFIG", "KIT_DATA_DIR", "XDG_CONFIG_HOME", "XDG_DATA_HOME"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "config.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_shipped_config_is_exactly_the_defaults() -> None:
    with REPO_CONFIG.open("rb") as handle:
        raw = tomllib.load(handle)
    assert parse_settings(raw, source=str(REPO_CONFIG)) == Settings()


def test_shipped_config_spells_out_every_setting() -> None:
    """Each field of every section appears in config.toml (it documents the defaults)."""
    with REPO_CONFIG.open("rb") as handle:
        raw = tomllib.load(handle)
    for section in dataclasses.fields(Settings):
        if section.name in ("data_dir", "config_path"):
            continue
        assert section.name in raw, section.name
        keys = {f.name for f in dataclasses.fields(getattr(Settings(), section.name))}
        assert set(raw[section.name]) == keys, section.name


def test_values_from_the_file_are_used(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        "[memory]\nwindow_max = 30\nwindow_keep = 10\nsimilarity_threshold = 0\n"
        '[schedule]\ntimezone = "Europe/Berlin"\n'
        '[telegram]\nallowed_user_ids = { "123456789" = "owner" }\n'
        'allowed_group_ids = { "-1001234567890" = "family" }\n',
    )
    settings = load_settings(path)
    assert settings.memory.window_max == 30 and settings.memory.window_keep == 10
    assert settings.memory.similarity_threshold == 0.0
    assert isinstance(settings.memory.similarity_threshold, float)
    assert settings.schedule.timezone == "Europe/Berlin"
    assert settings.telegram.allowed_user_ids == {"123456789": "owner"}
    assert settings.telegram.allowed_group_ids == {"-1001234567890": "family"}
    assert settings.llm == Settings().llm  # untouched sections keep their defaults
    assert settings.config_path == path


@pytest.mark.parametrize(
    ("toml", "names", "fix"),
    [
        ('[memory]\nwindow_max = "50"', "memory.window_max", "must be an integer"),
        ("[memory]\nwindow_max = 50.0", "memory.window_max", "must be an integer"),
        ("[memory]\nwindow_max = true", "memory.window_max", "must be an integer"),
        ('[memory]\nsimilarity_threshold = "high"', "memory.similarity_threshold", "number"),
        ("[owner]\nname = 7", "owner.name", "must be a string"),
        ("[telegram]\nallowed_user_ids = [1, 2]", "telegram.allowed_user_ids", "table like"),
        ('[telegram]\nallowed_user_ids = { "1" = 2 }', "telegram.allowed_user_ids", "table"),
        ("memory = 5", "[memory]", "must be a table"),
    ],
)
def test_wrong_types_are_named_with_the_fix(
    tmp_path: Path, toml: str, names: str, fix: str
) -> None:
    path = write(tmp_path, toml)
    with pytest.raises(ConfigError) as err:
        load_settings(path)
    message = str(err.value)
    assert message.startswith(f"{path}: ")
    assert names in message and fix in message


@pytest.mark.parametrize(
    ("toml", "names", "fix"),
    [
        ("[memory]\nwindw_max = 50", "memory.windw_max", "known: "),
        ("[memroy]\nwindow_max = 50", "[memroy]", "known sections: "),
        ("data_dir = '/tmp/x'", "[data_dir]", "known sections: "),
    ],
)
def test_unknown_keys_are_typos_not_ignored(
    tmp_path: Path, toml: str, names: str, fix: str
) -> None:
    path = write(tmp_path, toml)
    with pytest.raises(ConfigError) as err:
        load_settings(path)
    assert str(err.value).startswith(f"{path}: unknown")
    assert names in str(err.value) and fix in str(err.value)


@pytest.mark.parametrize(
    ("toml", "key", "rule"),
    [
        ("[memory]\nwindow_keep = 50", "memory.window_keep", "smaller than memory.window_max"),
        ("[memory]\nwindow_keep = 0", "memory.window_keep", "at least 1"),
        ("[memory]\nsimilarity_threshold = 1.5", "memory.similarity_threshold", "between 0"),
        ("[memory]\nsimilarity_threshold = nan", "memory.similarity_threshold", "between 0"),
        ("[memory]\nrecency_boost = -0.1", "memory.recency_boost", "between 0 and 1"),
        ("[memory]\ntop_k = 0", "memory.top_k", "at least 1"),
        ("[memory]\ncontext_budget_tokens = 0", "memory.context_budget_tokens", "at least 1"),
        ("[memory]\nsummary_days = -1", "memory.summary_days", "at least 0"),
        ("[memory]\nrecency_days = -1", "memory.recency_days", "at least 0"),
        ('[memory]\nfilter = "smart"', "memory.filter", "one of 'none', 'model'"),
        ('[memory]\ndate_order = "ymd"', "memory.date_order", "'dmy', 'mdy' or ''"),
        ("[memory]\nfilter_candidates = 0", "memory.filter_candidates", "at least 1"),
        ("[memory]\nfilter_candidates = 500", "memory.filter_candidates", "at most 200"),
        ("[memory]\nfilter_max_input_tokens = 0", "memory.filter_max_input_tokens", "at least 1"),
        ("[memory]\nfilter_timeout_seconds = 0", "memory.filter_timeout_seconds", "positive"),
        ("[embedding]\nbatch_size = 0", "embedding.batch_size", "at least 1"),
        ("[curation]\nmax_deactivate_fraction = 2", "curation.max_deactivate_fraction", "0 and 1"),
        ("[curation]\nidle_minutes = 0", "curation.idle_minutes", "at least 1"),
        ("[curation]\nmax_attempts = 0", "curation.max_attempts", "at least 1"),
        ("[curation]\nfacts_budget_tokens = 100", "curation.facts_budget_tokens", "at least 500"),
        ("[llm]\nmax_tokens = 0", "llm.max_tokens", "at least 1"),
        ("[llm]\nmax_retries = -1", "llm.max_retries", "at least 0"),
        ("[llm]\nmax_tool_rounds = 0", "llm.max_tool_rounds", "at least 1"),
        ("[llm]\ntimeout_seconds = 0", "llm.timeout_seconds", "positive number"),
        ("[llm]\ntimeout_seconds = inf", "llm.timeout_seconds", "positive number"),
        ("[rem]\nstale_days = 0", "rem.stale_days", "at least 1"),
        ("[budget]\ndaily_tokens = 0", "budget.daily_tokens", "at least 50000"),
        ("[budget]\ndaily_tokens = 1000", "budget.daily_tokens", "at least 50000"),
        ("[budget]\nuser_daily_tokens = -1", "budget.user_daily_tokens", "must be 0"),
        ("[budget]\nuser_daily_tokens = 10", "budget.user_daily_tokens", "from 50,000"),
        ("[budget]\nuser_daily_tokens = 600000", "budget.user_daily_tokens", "budget.daily_tokens"),
        ('[owner]\nuser_id = " "', "owner.user_id", "must not be empty"),
        ('[schedule]\nrem = "3am"', "schedule.rem", "a time like '03:00'"),
        ('[schedule]\ndaily_summary = "24:00"', "schedule.daily_summary", "a time like"),
        ('[schedule]\ntimezone = "Mars/Base"', "schedule.timezone", "IANA zone"),
        ('[schedule]\ntimezone = "../etc/passwd"', "schedule.timezone", "IANA zone"),
        ('[telegram]\nallowed_user_ids = { "@ana" = "owner" }', "allowed_user_ids", "numeric"),
        ('[telegram]\nallowed_user_ids = { "12" = "" }', "allowed_user_ids", "namespace"),
        # str.isdigit() and int() take these; the owner would see a different id than Kit.
        ('[telegram]\nallowed_user_ids = { "1²" = "owner" }', "allowed_user_ids", "'1\\xb2'"),
        (
            '[telegram]\nallowed_user_ids = { "１２" = "owner" }',
            "allowed_user_ids",
            "'\\uff11\\uff12'",
        ),
        ('[telegram]\nallowed_user_ids = { "-12" = "owner" }', "allowed_user_ids", "group"),
        ('[telegram]\nallowed_user_ids = { "%s" = "owner" }' % ("9" * 30), "user ids", "0-9"),
        ('[telegram]\nallowed_group_ids = { "12" = "family" }', "allowed_group_ids", "minus"),
        ('[telegram]\nallowed_group_ids = { "-１２" = "family" }', "allowed_group_ids", "0-9"),
        ('[telegram]\nallowed_group_ids = { "-12" = " " }', "allowed_group_ids", "namespace"),
    ],
)
def test_bad_ranges_are_named_with_the_rule(tmp_path: Path, toml: str, key: str, rule: str) -> None:
    path = write(tmp_path, toml)
    with pytest.raises(ConfigError) as err:
        load_settings(path)
    assert str(err.value).startswith(f"{path}: ")
    assert key in str(err.value) and rule in str(err.value)


def test_bad_toml_names_the_file_and_the_place(tmp_path: Path) -> None:
    path = write(tmp_path, "[memory]\nwindow_max = = 3\n")
    with pytest.raises(ConfigError) as err:
        load_settings(path)
    assert str(err.value).startswith(f"{path}: not valid TOML")
    assert "line 2" in str(err.value) and "fix the syntax" in str(err.value)


def test_explicit_config_must_exist(tmp_path: Path) -> None:
    missing = tmp_path / "nope.toml"
    with pytest.raises(ConfigError, match="config file not found"):
        load_settings(missing)


def test_missing_xdg_config_means_defaults(tmp_path: Path) -> None:
    settings = load_settings()
    assert settings.config_path is None
    assert dataclasses.replace(settings, data_dir=Settings().data_dir) == Settings()


def test_config_precedence_argument_then_kit_config_then_xdg(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    xdg = tmp_path / "xdg-config"
    (xdg / "kit").mkdir(parents=True)
    (xdg / "kit" / "config.toml").write_text('[owner]\nname = "from xdg"\n')
    env_file = tmp_path / "env.toml"
    env_file.write_text('[owner]\nname = "from env"\n')
    arg_file = tmp_path / "arg.toml"
    arg_file.write_text('[owner]\nname = "from argument"\n')

    monkeypatch.setenv("XDG_CONFIG_HOME", str(xdg))
    assert load_settings().owner.name == "from xdg"
    monkeypatch.setenv("KIT_CONFIG", str(env_file))
    assert load_settings().owner.name == "from env"
    assert load_settings(arg_file).owner.name == "from argument"


def test_data_dir_precedence_flag_then_env_then_xdg_then_home(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert load_settings().data_dir == tmp_path / "home" / ".local" / "share" / "kit"
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg-data"))
    assert load_settings().data_dir == tmp_path / "xdg-data" / "kit"
    monkeypatch.setenv("KIT_DATA_DIR", str(tmp_path / "from-env"))
    assert load_settings().data_dir == tmp_path / "from-env"
    flag = load_settings(data_dir=tmp_path / "from-flag")
    assert flag.data_dir == tmp_path / "from-flag"
    assert flag.database_path == tmp_path / "from-flag" / "kit.db"


def test_data_dir_expands_the_home_directory(tmp_path: Path) -> None:
    assert load_settings(data_dir="~/kit-data").data_dir == tmp_path / "home" / "kit-data"
