"""`kit doctor` and the model roles (the real SDKs against local fakes): busy told from
unreachable, no key-format warning for another server, each role's provider checked, and the
last day's rejected curation passes, daily summaries and REM runs with their reasons."""

from __future__ import annotations

import asyncio
import socket
from datetime import timedelta
from pathlib import Path

import pytest

from kit.api import Kit
from kit.cli import main
from kit.clock import SystemClock
from kit.commands import doctor_models
from kit.embed.hashing import HashingEmbedder
from kit.jobs.attempts import DAILY_SUMMARY
from kit.llm.base import LLMReply, TextBlock, Usage
from kit.llm.fake import FakeLLM
from tests.servers.anthropic_api import FakeAnthropicServer
from tests.servers.openai_api import FakeOpenAIServer


def _doctor(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    llm: str,
    *,
    flags: tuple[str, ...] = (),
    key: str | None = None,
) -> tuple[int, str]:
    config = tmp_path / "config.toml"
    missing = tmp_path / "no-model"
    config.write_text(
        f'{llm}\n[embedding]\nmodel_path = "{missing}"\n[schedule]\ntimezone = "UTC"\n'
    )
    monkeypatch.setenv("KIT_CONFIG", str(config))
    monkeypatch.setenv("KIT_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.delenv("TELEGRAM_BOT_TOKEN", raising=False)
    for name in ("ANTHROPIC_API_KEY", "OPENAI_API_KEY"):
        monkeypatch.delenv(name, raising=False)
    if key is not None:
        monkeypatch.setenv("ANTHROPIC_API_KEY", key)
    code = main(["doctor", *flags])
    out = capsys.readouterr().out
    assert key is None or key not in out
    return code, out


def _dead_url() -> str:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return f"http://127.0.0.1:{probe.getsockname()[1]}/v1"


def test_a_busy_server_is_busy_with_its_time_not_unreachable(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Before, a local server slow to answer was "cannot reach"; now the doctor waits longer
    for a server that took the connection, and says how long it took."""
    monkeypatch.setattr(doctor_models, "REACH_SECONDS", 0.2)
    monkeypatch.setattr(doctor_models, "SLOW_SECONDS", 0.1)
    with FakeOpenAIServer(listed=("qwen2.5:3b",)) as server:
        server.list_stall = 0.6  # longer than the first try: busy working on something else
        code, out = _doctor(
            tmp_path,
            monkeypatch,
            capsys,
            f'[llm]\nprovider = "openai"\nbase_url = "{server.url}"\n'
            'chat_model = "qwen2.5:3b"\nsmall_model = "qwen2.5:3b"\n',
        )
    assert f"warn  model API: {server.url} is busy: answered in 1 s for qwen2.5:3b" in out
    assert "cannot reach" not in out
    assert f"ok    API key: none is sent to {server.url}" in out  # its own server: none
    dead = _dead_url()
    code, out = _doctor(
        tmp_path, monkeypatch, capsys, f'[llm]\nprovider = "openai"\nbase_url = "{dead}"\n'
    )
    assert code == 1 and f"FIX   model API: cannot reach {dead} (cannot connect)" in out
    assert "(is the server running?)" in out


def test_no_key_format_warning_for_another_anthropic_compatible_server(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    with FakeAnthropicServer() as server:
        _, out = _doctor(
            tmp_path,
            monkeypatch,
            capsys,
            f'[llm]\nbase_url = "{server.url}"\nkey_env = "ANTHROPIC_API_KEY"\n',
            key="local-key-123",
            flags=("--offline",),
        )
    assert "does not look like an Anthropic key" not in out
    assert "ok    API key: ANTHROPIC_API_KEY is set" in out
    _, out = _doctor(tmp_path, monkeypatch, capsys, "", key="local-key-123", flags=("--offline",))
    assert "warn  API key: ANTHROPIC_API_KEY is set but does not look like an Anthropic key" in out


def test_each_role_is_checked_on_its_own_provider(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    with FakeAnthropicServer() as anthropic, FakeOpenAIServer(listed=("a", "b")) as local:
        code, out = _doctor(
            tmp_path,
            monkeypatch,
            capsys,
            f'[llm]\nbase_url = "{anthropic.url}"\nkey_env = "ANTHROPIC_API_KEY"\n'
            f'[llm.background]\nprovider = "openai"\nbase_url = "{local.url}"\nmodel = "c"\n',
            key="sk-ant-role-test-0123",
        )
    assert "ok    API key (chat): ANTHROPIC_API_KEY is set" in out
    assert f"ok    API key (background): none is sent to {local.url}" in out
    assert (
        f"ok    model API (chat): {anthropic.url} takes the key and knows claude-sonnet-4-6 "
        "(chat: anthropic)"
    ) in out
    assert (
        f"FIX   model API (background): {local.url} does not know the model 'c' "
        "(llm.background.model)"
    ) in out
    assert code == 1


async def _troubled(data: Path) -> None:
    """A day with a rejected curation pass, a rejected daily summary and a REM rejection."""
    model = FakeLLM(default="Sorry, I cannot help with that.")
    async with Kit.open(data, llm=model, embedder=HashingEmbedder(), background=False) as kit:
        s = kit.services
        chat = await s.messages.conversation("owner", "api", "c")
        now = SystemClock().now()
        await s.messages.add(chat, "user", "I moved to Porto.", at=now - timedelta(days=2))
        await s.curator.curate_user("owner")
        await s.summarizer.summarize_many("owner", [(now - timedelta(days=2)).date()])
        await s.days.put_detailed("owner", (now - timedelta(days=3)).date(), "- x\n- y", 2)
        model.default = lambda request: LLMReply((TextBlock("- cut"),), "max_tokens", Usage())
        await s.rem.run("owner")
        assert (await s.attempts._rows(kind=DAILY_SUMMARY))[0].attempts == 1


def test_the_last_days_rejected_work_is_reported_with_its_reasons(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    asyncio.run(_troubled(tmp_path / "data"))
    _, out = _doctor(tmp_path, monkeypatch, capsys, "", key="sk-ant-x", flags=("--offline",))
    lines = [line for line in out.splitlines() if "last day" in line]
    curation, summaries, rem = lines
    assert "warn  last day: 7 curation pass(es) rejected or failed: " in curation
    assert ": the answer is neither a call of apply_operations nor valid JSON" in curation
    assert "(+4 more); `kit facts passes` lists them" in curation
    assert "1 daily summary(ies) rejected:" in summaries and "was a refusal" in summaries
    assert "REM problem(s): condense" in rem and "cut off at the token limit" in rem


def test_a_quiet_day_says_nothing_was_rejected(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _, out = _doctor(tmp_path, monkeypatch, capsys, "", key="sk-ant-x", flags=("--offline",))
    assert "ok    last day: no curation pass, daily summary or REM run was rejected" in out
