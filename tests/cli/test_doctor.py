"""`kit doctor` finds what breaks, through the real CLI: the model API (the real anthropic SDK
against the local Messages API server) and Telegram (the real python-telegram-bot against the
local Bot API server), each good, refusing and unreachable; the data directory; --offline."""

from __future__ import annotations

import socket
from collections.abc import Iterator
from pathlib import Path

import pytest

from kit.cli import main
from tests.servers.anthropic_api import FakeAnthropicServer
from tests.servers.telegram_api import FakeTelegramServer

KEY = "sk-ant-doctor-0123456789"
TOKEN = "123456:DOCTOR-token-value"
CHAT, SMALL = "claude-sonnet-4-6", "claude-haiku-4-5"


@pytest.fixture
def anthropic() -> Iterator[FakeAnthropicServer]:
    with FakeAnthropicServer(api_key=KEY, models={CHAT, SMALL}) as server:
        yield server


@pytest.fixture
def telegram() -> Iterator[FakeTelegramServer]:
    with FakeTelegramServer(TOKEN) as server:
        yield server


def closed_port_url() -> str:
    """An address where nothing listens (connection refused at once)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    return f"http://127.0.0.1:{port}"


def doctor(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    *,
    llm_url: str,
    telegram_url: str = "",
    chat_model: str = CHAT,
    key: str = KEY,
    token: str = "",
    flags: tuple[str, ...] = (),
    key_env: str = "ANTHROPIC_API_KEY",
) -> tuple[int, str]:
    """`kit doctor` against `llm_url` as a proxy that wants the key (named beside it)."""
    config = tmp_path / "config.toml"
    config.write_text(
        f'[llm]\nbase_url = "{llm_url}"\nchat_model = "{chat_model}"\nsmall_model = "{SMALL}"\n'
        f'key_env = "{key_env}"\n'
        f'[telegram]\nbase_url = "{telegram_url}"\nallowed_user_ids = {{ "42" = "owner" }}\n'
        f'[embedding]\nmodel_path = "{tmp_path / "no-model"}"\n[schedule]\ntimezone = "UTC"\n'
    )
    monkeypatch.setenv("KIT_CONFIG", str(config))
    monkeypatch.setenv("KIT_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("ANTHROPIC_API_KEY", key)
    monkeypatch.setenv("TELEGRAM_BOT_TOKEN", token)
    code = main(["doctor", *flags])
    out = capsys.readouterr().out
    assert key not in out and (not token or token not in out)  # never the secrets
    return code, out


def test_a_model_api_and_telegram_that_take_the_key_and_token_are_ok(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    anthropic: FakeAnthropicServer,
    telegram: FakeTelegramServer,
) -> None:
    _, out = doctor(
        tmp_path, monkeypatch, capsys, llm_url=anthropic.url, telegram_url=telegram.url, token=TOKEN
    )
    assert f"ok    model API: {anthropic.url} takes the key and knows {CHAT}" in out
    assert f"ok    model API: {anthropic.url} takes the key and knows {SMALL}" in out
    assert f"ok    Telegram: {telegram.url} knows the bot as @kit_test_bot" in out
    # Free and bounded: token counts only, nothing that spends tokens.
    assert {r.path for r in anthropic.requests} == {"/v1/messages/count_tokens"}
    assert [method for method, _ in telegram.calls] == ["getMe"]


def test_a_refused_key_an_unknown_model_and_a_bad_token_each_name_their_fix(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    anthropic: FakeAnthropicServer,
    telegram: FakeTelegramServer,
) -> None:
    code, out = doctor(
        tmp_path,
        monkeypatch,
        capsys,
        llm_url=anthropic.url,
        telegram_url=telegram.url,
        key="sk-ant-not-this-one-987654",
        token="999:WRONG-token-value",
    )
    assert code == 1
    assert f"FIX   model API: {anthropic.url} refused ANTHROPIC_API_KEY" in out
    assert "create a key at console.anthropic.com" in out
    assert "FIX   Telegram: Telegram rejected TELEGRAM_BOT_TOKEN" in out and "@BotFather" in out

    code, out = doctor(
        tmp_path, monkeypatch, capsys, llm_url=anthropic.url, chat_model="claude-nope-9"
    )
    assert code == 1
    assert (
        f"FIX   model API: {anthropic.url} does not know the model 'claude-nope-9' "
        "(llm.chat_model); set llm.chat_model in"
    ) in out
    assert f"ok    model API: {anthropic.url} takes the key and knows {SMALL}" in out
    assert "ok    Telegram: off (TELEGRAM_BOT_TOKEN is not set)" in out


def test_a_server_no_key_is_named_for_gets_none_and_doctor_says_how_to_name_one(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    anthropic: FakeAnthropicServer,
) -> None:
    """ANTHROPIC_API_KEY is exported, llm.base_url is a proxy, no key_env beside it: the key
    is not sent there (the proxy refuses), and doctor says which setting sends one."""
    code, out = doctor(tmp_path, monkeypatch, capsys, llm_url=anthropic.url, key_env="")
    assert code == 1
    assert f"ok    API key: none is sent to {anthropic.url}" in out
    assert f"FIX   model API: {anthropic.url} wants a key" in out and "llm.chat.key_env" in out
    assert anthropic.requests and not any(KEY in str(r.headers) for r in anthropic.requests)


def test_a_dead_port_is_unreachable_not_all_good(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Before, doctor said "All good" with llm.base_url pointing at a dead port."""
    dead = closed_port_url()
    code, out = doctor(tmp_path, monkeypatch, capsys, llm_url=dead, telegram_url=dead, token=TOKEN)
    assert code == 1 and "All good" not in out
    assert f"FIX   model API: cannot reach {dead} (cannot connect); check the network" in out
    assert f"FIX   Telegram: cannot reach {dead} (no answer from Telegram)" in out
    assert out.count("model API") == 1  # the small model is not tried: it would say the same


def test_offline_tries_nothing_on_the_network(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    anthropic: FakeAnthropicServer,
    telegram: FakeTelegramServer,
) -> None:
    _, out = doctor(
        tmp_path,
        monkeypatch,
        capsys,
        llm_url=anthropic.url,
        telegram_url=telegram.url,
        token=TOKEN,
        flags=("--offline",),
    )
    assert "skip  network: the model API, Telegram and Matrix are not tried (--offline)" in out
    assert anthropic.requests == [] and telegram.calls == []


def test_a_data_directory_others_can_write_to_or_read_is_named_with_its_fix(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    data = tmp_path / "data"
    data.mkdir(mode=0o700)
    (data / "kit.db").touch(mode=0o644)
    (data / "kit.db").chmod(0o644)
    code, out = doctor(tmp_path, monkeypatch, capsys, llm_url="", flags=("--offline",))
    assert (
        f"warn  data directory: {data / 'kit.db'} can be read by other users of this machine "
        f"(mode 644); `chmod 600 {data / 'kit.db'}`"
    ) in out

    data.chmod(0o777)
    try:
        code, out = doctor(tmp_path, monkeypatch, capsys, llm_url="", flags=("--offline",))
    finally:
        data.chmod(0o700)
    assert code == 1
    assert f"FIX   data directory: {data}: other users can write to this directory" in out
    assert "chmod 700" in out and "database" not in out  # nothing opened in such a place


# Runs `kit doctor` with an audit hook that records every network connection and name lookup
# the process makes (a Unix socket, such as the daemon's, is not the network).
_WATCHED = """
import socket, sys
seen = []
def hook(event, args):
    if event == "socket.getaddrinfo" or (
        event == "socket.connect" and args[0].family in (socket.AF_INET, socket.AF_INET6)
    ):
        seen.append(f"{event} {args[1] if event == 'socket.connect' else args[0]}")
sys.addaudithook(hook)
from kit.cli import main
code = main(sys.argv[1:])
print("NETWORK:", seen, file=sys.stderr)
sys.exit(code)
"""


def test_offline_opens_no_connection_even_for_a_model_not_downloaded(tmp_path: Path) -> None:
    """`--offline` with the embedding model never downloaded: before, doctor still tried
    huggingface.co. Now it says the model is not there, and nothing goes out."""
    import os
    import subprocess
    import sys

    config = tmp_path / "config.toml"
    config.write_text('[schedule]\ntimezone = "UTC"\n')  # the model by name, not a folder
    env = {k: v for k, v in os.environ.items() if not k.startswith(("HF_", "KIT_"))}
    env |= {"KIT_CONFIG": str(config), "KIT_DATA_DIR": str(tmp_path / "data")}
    env |= {"ANTHROPIC_API_KEY": KEY, "TELEGRAM_BOT_TOKEN": TOKEN, "HOME": str(tmp_path)}
    done = subprocess.run(
        [sys.executable, "-c", _WATCHED, "doctor", "--offline"],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert "NETWORK: []" in done.stderr, done.stderr
    assert "embeddings: embedding model 'sentence-transformers/all-MiniLM-L6-v2' is not " \
        "downloaded yet (offline: not fetched)" in done.stdout, done.stdout  # fmt: skip
