"""config.toml -> Settings: the shipped file is the defaults; mistakes are named with their fix."""

from __future__ import annotations

import dataclasses
import re
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
    """Each field of every section appears in config.toml (it documents the defaults); one
    whose default is "unset" (a preset or another table decides, TOML has no null) appears
    as a commented-out line `# key = ...`, in its table or in the comment that lists them."""
    text = REPO_CONFIG.read_text(encoding="utf-8")
    with REPO_CONFIG.open("rb") as handle:
        raw = tomllib.load(handle)

    def spelled(name: str, table: dict[str, object], defaults: object) -> None:
        for f in dataclasses.fields(defaults):  # type: ignore[arg-type]
            value = getattr(defaults, f.name)
            if dataclasses.is_dataclass(value):
                assert isinstance(table.get(f.name), dict), f"[{name}.{f.name}]"
                spelled(f"{name}.{f.name}", table[f.name], value)  # type: ignore[arg-type]
            elif value is None:
                assert f.name not in table, f"{name}.{f.name}"
                top = name.split(".")[0]  # role tables share one comment: [llm.chat]'s
                header = text.index(f"[{top}]\n")
                ends = [m.start() for m in re.finditer(r"^\[(?!" + top + r"\b)", text, re.M)]
                section = text[header : min([e for e in ends if e > header] or [len(text)])]
                assert re.search(rf"^#.*\b{f.name}\b", section, re.M), f"{name}.{f.name}"
            else:
                assert f.name in table, f"{name}.{f.name}"
        known = {f.name for f in dataclasses.fields(defaults)}  # type: ignore[arg-type]
        assert set(table) <= known, name

    for section in dataclasses.fields(Settings):
        if section.name in ("data_dir", "config_path"):
            continue
        assert section.name in raw, section.name
        spelled(section.name, raw[section.name], getattr(Settings(), section.name))


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
        ("[embedding]\ncosine_quantile = 1", "embedding.cosine_quantile", "under 1"),
        ("[embedding]\ncosine_quantile = -0.1", "embedding.cosine_quantile", "at least 0"),
        ("[embedding]\nmessage_floor = 1", "embedding.message_floor", "under 1"),
        ("[embedding]\nmessage_floor = -0.1", "embedding.message_floor", "at least 0"),
        ("[curation]\nmax_deactivate_fraction = 2", "curation.max_deactivate_fraction", "0 and 1"),
        ("[curation]\nidle_minutes = 0", "curation.idle_minutes", "at least 1"),
        ("[curation]\nmax_attempts = 0", "curation.max_attempts", "at least 1"),
        ("[curation]\nfacts_budget_tokens = 100", "curation.facts_budget_tokens", "at least 500"),
        ("[llm]\nmax_tokens = 0", "llm.max_tokens", "at least 1"),
        ("[llm]\nmax_retries = -1", "llm.max_retries", "at least 0"),
        ("[llm]\nmax_tool_rounds = 0", "llm.max_tool_rounds", "at least 1"),
        ("[llm]\ntimeout_seconds = 0", "llm.timeout_seconds", "positive number"),
        ("[llm]\ntimeout_seconds = inf", "llm.timeout_seconds", "positive number"),
        ('[llm]\nprovider = "gemini"', "llm.provider", "'anthropic', 'openai'"),
        ('[llm]\npreset = "tiny"', "llm.preset", "'hosted', 'local'"),
        ('[llm]\nbase_url = "localhost:11434"', "llm.base_url", "http:// or https://"),
        ("[llm.chat]\ncontext_tokens = 100", "llm.chat.context_tokens", "at least 2048"),
        ("[llm.background]\nmax_tokens = 0", "llm.background.max_tokens", "at least 1"),
        ("[llm.background]\ntimeout_seconds = -1", "llm.background.timeout_seconds", "positive"),
        ('[llm.judge]\nmodel = ""', "llm.judge.model", "must not be empty"),
        ("[llm.chat]\nprice_input = -1", "llm.chat.price_input", "0 or more"),
        ('[llm]\nstructured_output = "json"', "structured_output = 'json'", "provider = 'openai'"),
        (
            '[llm]\nstructured_output = "json_object"',
            "structured_output = 'json_object'",
            "provider = 'openai'",
        ),
        ("[llm.judge]\ntemperature = 3", "llm.judge.temperature", "from 0 to 2"),
        (
            '[llm]\nprovider = "openai"\n[llm.chat]\nprovider = "anthropic"\n'
            'structured_output = "json"',
            "llm.chat: structured_output = 'json'",
            "provider = 'openai'",
        ),
        ("[llm]\ndeadline_seconds = 0", "llm.deadline_seconds", "positive number"),
        ("[llm.chat]\ndeadline_seconds = -1", "llm.chat.deadline_seconds", "positive"),
        ('[llm.chat]\nfavourite = "x"', "llm.chat.favourite", "known: "),
        ("[llm]\nchat = 5", "[llm.chat]", "must be a table"),
        ("[rem]\nstale_days = 0", "rem.stale_days", "at least 1"),
        ('[digest]\ntime = "9pm"', "digest.time", "a time like '03:00'"),
        ("[digest]\nundo_days = 0", "digest.undo_days", "from 1 to 365"),
        ("[digest]\nenabled = 1", "digest.enabled", "true or false"),
        ("[followups]\nper_day = 0", "followups.per_day", "followups.enabled = false"),
        ("[followups]\nper_day = 500", "followups.per_day", "from 1 to 50"),
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


def test_relative_paths_in_the_file_are_read_against_its_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Under systemd Kit starts in /: a relative embedding.model_path used to be looked up
    there, and Kit quietly fell back to word search (issue 20)."""
    folder = tmp_path / "conf"
    folder.mkdir()
    config = folder / "config.toml"
    config.write_text(
        '[embedding]\nmodel_path = "models/minilm"\n',
        encoding="utf-8",
    )
    monkeypatch.chdir(tmp_path)  # elsewhere: what matters is the file's folder
    settings = load_settings(config, tmp_path / "data")
    assert settings.embedding.model_path == str(folder / "models" / "minilm")
    # an absolute path, or one from the home directory, stays as written
    for given in ("~/m", str(tmp_path / "m")):
        config.write_text(f'[embedding]\nmodel_path = "{given}"\n', encoding="utf-8")
        assert load_settings(config, tmp_path / "data").embedding.model_path == given


def test_a_key_put_where_its_variable_name_goes_is_refused_and_never_echoed(
    tmp_path: Path,
) -> None:
    secret = "sk-ant-api03-very-secret-value"
    path = write(tmp_path, f'[llm.background]\nkey_env = "{secret}"\n')
    with pytest.raises(ConfigError) as err:
        load_settings(path)
    message = str(err.value)
    assert "llm.background.key_env must name an environment variable" in message
    assert secret not in message and "sk-ant" not in message


def test_each_role_takes_its_overrides_then_llm_then_the_preset(tmp_path: Path) -> None:
    """[llm] sets every role's default; a role's table overrides provider, endpoint, model,
    key and limits; the judge inherits the background role; the preset fills what is unset."""
    from kit.model_settings import model_role

    path = write(
        tmp_path,
        '[llm]\nprovider = "openai"\nbase_url = "http://127.0.0.1:11434/v1"\npreset = "local"\n'
        'chat_model = "qwen2.5:7b"\nsmall_model = "qwen2.5:3b"\n'
        '[llm.chat]\nprovider = "anthropic"\nbase_url = ""\nmodel = "claude-sonnet-4-6"\n'
        "timeout_seconds = 45\n"
        '[llm.background]\nmax_tokens = 800\nkey_env = "LOCAL_KEY"\n',
    )
    llm = load_settings(path).llm
    chat, background, judge = (model_role(llm, r) for r in ("chat", "background", "judge"))
    assert (chat.provider, chat.where, chat.model) == (
        "anthropic",
        "the Anthropic API",
        "claude-sonnet-4-6",
    )
    assert (chat.key_env, chat.timeout_seconds, chat.max_tokens) == ("ANTHROPIC_API_KEY", 45, 512)
    assert (background.provider, background.base_url) == ("openai", "http://127.0.0.1:11434/v1")
    assert (background.model, background.key_env) == ("qwen2.5:3b", "LOCAL_KEY")
    assert (background.max_tokens, background.context_tokens) == (800, 8192)
    assert background.timeout_seconds == 900  # the local preset
    assert (judge.model, judge.key_env, judge.max_tokens) == ("qwen2.5:3b", "LOCAL_KEY", 800)


def test_the_hosted_defaults_keep_what_kit_did_before() -> None:
    """Without an [llm] table: Anthropic, chat 1,024 tokens in 60 s with 3 retries (as
    before); background answers up to 4,096 tokens (the curator's old cap) in 180 s."""
    from kit.model_settings import model_role

    chat, background = (model_role(Settings().llm, r) for r in ("chat", "background"))
    assert (chat.provider, chat.max_tokens, chat.timeout_seconds, chat.max_retries) == (
        "anthropic",
        1024,
        60.0,
        3,
    )
    assert (background.max_tokens, background.timeout_seconds) == (4096, 180.0)
    assert background.model == "claude-haiku-4-5"
