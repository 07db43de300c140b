"""`kit curate` and `kit facts history|passes|undo`, through the real SDK against a local
Messages API; errors are one line with exit code 2."""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from kit.api import Kit
from kit.cli import main
from kit.config import load_settings
from kit.memory.messages import NewMessage
from tests.servers.anthropic_api import FakeAnthropicServer, text_reply, tool_use_reply
from tests.support.curation import shown_ids


def respond(body: dict[str, Any]) -> dict[str, Any]:
    """The curator model: one fact about Ana for `people`, no changes elsewhere."""
    ask = body["messages"][0]["content"][0]["text"]  # asked again, the same category
    if "`people`" in ask:
        cited = shown_ids("\n".join(block["text"] for block in body["system"]))
        return tool_use_reply(
            "apply_operations",
            {"operations": [{"op": "INSERT", "subject": "Ana", "confidence": 0.9,
                             "content": "Ana is the owner's sister; she lives in Porto",
                             "sources": cited}]},
        )  # fmt: skip
    if "`person`" in ask:
        return text_reply("Sorry, I cannot help with that.")  # bad output: rejected
    return tool_use_reply("apply_operations", {"operations": []})


@pytest.fixture
def server() -> Iterator[FakeAnthropicServer]:
    with FakeAnthropicServer() as fake:
        fake.responder = respond
        yield fake


@pytest.fixture
def env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, server: FakeAnthropicServer) -> Path:
    config = tmp_path / "config.toml"
    config.write_text(
        f'[llm]\nbase_url = "{server.url}"\nmax_retries = 0\n[schedule]\ntimezone = "UTC"\n'
    )
    monkeypatch.setenv("KIT_CONFIG", str(config))
    monkeypatch.setenv("KIT_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-test-not-a-real-key-000")
    asyncio.run(_seed())
    return tmp_path


async def _seed() -> None:
    async with Kit.open(settings=load_settings(), with_embedder=False, background=False) as kit:
        await kit.import_messages(
            [NewMessage("user", "My sister Ana lives in Porto.", _at("09:00")),
             NewMessage("assistant", "Porto is lovely!", _at("09:01"))]
        )  # fmt: skip


def _at(hhmm: str) -> datetime:
    hours, minutes = map(int, hhmm.split(":"))
    return datetime(2026, 3, 1, hours, minutes, tzinfo=UTC)


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_curate_then_history_passes_and_undo(
    env: Path, server: FakeAnthropicServer, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(capsys, "curate")
    assert code == 0
    # each rejection said once: in the command's report, not again by the log (issue 20)
    assert (out + err).count("the answer is neither") == 1
    applied = re.search(r"^people\s+applied\s+pass (\d+)$", out, re.M)
    assert applied, out
    pass_id = int(applied.group(1))
    assert re.search(r"^person\s+REJECTED\s+pass \d+: the answer is neither", out, re.M)
    assert "7 passes: 1 REJECTED, 1 applied, 5 no change" in out
    fact_id = int(re.search(r"#(\d+) INSERT \[Ana\]", out).group(1))  # type: ignore[union-attr]

    sent = server.requests[0].json
    assert sent["tools"][0]["name"] == "apply_operations"
    assert sent["system"][0]["cache_control"] == {"type": "ephemeral"}
    assert sent["tool_choice"] == {"type": "tool", "name": "apply_operations"}

    code, out, _ = run(capsys, "facts", "--category", "people")
    assert code == 0 and "[Ana] Ana is the owner's sister" in out

    code, out, _ = run(capsys, "facts", "history", str(fact_id))
    assert code == 0
    assert out.splitlines()[0].startswith(f"Fact #{fact_id} (people, active): [Ana]")
    assert re.search(rf"insert\s+curator\s+pass {pass_id}\s+\(from messages 1\)", out)

    code, out, _ = run(capsys, "facts", "passes")
    assert code == 0
    assert re.search(rf"^#{pass_id}\s.*curate\s+people\s+applied\s+1 change$", out, re.M)
    assert re.search(r"curate\s+person\s+rejected\s+the answer is neither", out)
    assert "no change" not in out  # no-op passes only with --all
    code, out, _ = run(capsys, "facts", "passes", "--all", "--json")
    assert len(json.loads(out)) == 7

    code, out, _ = run(capsys, "facts", "undo", str(pass_id))
    assert code == 0
    assert out.strip() == f"Undid pass {pass_id}: deactivated #{fact_id} (added by the pass)."
    code, out, _ = run(capsys, "facts", "--json")
    assert json.loads(out) == []

    code, out, _ = run(capsys, "facts", "passes", "--json")
    (undo,) = [p for p in json.loads(out) if p["kind"] == "undo"]
    code, out, err = run(capsys, "facts", "undo", str(pass_id))
    assert code == 2 and out == ""
    assert err.strip() == (
        f"kit: pass {pass_id} was already undone (by pass {undo['id']}); nothing to do"
    )

    code, out, _ = run(capsys, "facts", "history", str(fact_id), "--json")
    ops = [e["operation"] for e in json.loads(out)["history"]]
    assert ops == ["insert", "undo"]


def test_curate_again_retries_only_the_rejected_category(
    env: Path, server: FakeAnthropicServer, capsys: pytest.CaptureFixture[str]
) -> None:
    run(capsys, "curate")
    seen = len(server.requests)
    code, out, _ = run(capsys, "curate", "--json")
    assert code == 1  # every pass of this run was rejected: nothing was curated
    result = json.loads(out)
    assert [(p["category"], p["status"]) for p in result["passes"]] == [("person", "rejected")]
    assert len(server.requests) == seen + 2  # nothing readable: asked once more, then rejected


def test_curate_without_an_api_key_says_how_to_fix_it(
    env: Path,
    server: FakeAnthropicServer,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A server of one's own (llm.base_url on this machine) may need no key: Kit sends none
    of the owner's (tests/trust/test_key_hosts.py); one that wants a key refuses, and the
    message says how to give it one: key_env beside its base_url."""
    monkeypatch.delenv("ANTHROPIC_API_KEY")
    server.api_key = "sk-test-not-a-real-key-000"
    code, out, _ = run(capsys, "curate")
    assert code == 1
    assert "FAILED" in out and "key_env is set beside base_url" in out


def test_curate_on_the_hosted_api_without_a_key_says_how_to_fix_it(
    env: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv("ANTHROPIC_API_KEY")
    env.joinpath("config.toml").write_text('[schedule]\ntimezone = "UTC"\n')
    code, out, _ = run(capsys, "curate")
    assert code == 1
    assert "FAILED" in out and "ANTHROPIC_API_KEY is not set" in out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["facts", "history", "999"], "kit: fact 999 does not exist; `kit facts` lists the ids"),
        (["facts", "undo", "999"], "kit: pass 999 does not exist; `kit facts passes` lists them"),
        (["facts", "passes", "--limit", "0"], "kit: --limit must be at least 1 (got 0)"),
    ],
)
def test_unknown_ids_are_one_line_errors(
    env: Path, capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    code, out, err = run(capsys, *argv)
    assert (code, out, err.strip()) == (2, "", message)


def test_plain_facts_listing_keeps_its_flags(env: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run(capsys, "curate")
    for argv in (["facts", "--json"], ["facts", "list", "--json"], ["facts", "--json", "list"]):
        code, out, _ = run(capsys, *argv)
        assert code == 0 and [f["subject"] for f in json.loads(out)] == ["Ana"], argv
    code, out, _ = run(capsys, "facts", "--category", "person")
    assert out.strip() == "No facts yet."


async def _expired_projects(n: int) -> list[int]:
    async with Kit.open(settings=load_settings(), with_embedder=False, background=False) as kit:
        past = kit.services.clock.now() - timedelta(days=1)
        return [
            (await kit.remember(f"Owner builds shed {i}", category="projects", expires_at=past)).id
            for i in range(n)
        ]


def test_facts_expire_retires_what_rem_held_back(
    env: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ids = asyncio.run(_expired_projects(3))
    code, out, _ = run(capsys, "rem", "--dry-run")
    assert "expire projects: held 3 of 3 facts past their expiry" in out
    assert "`kit facts expire projects` retires them" in out
    code, out, _ = run(capsys, "facts", "expire", "projects")
    assert code == 0
    assert out.strip() == "Retired 3 expired projects facts: " + ", ".join(f"#{i}" for i in ids)
    code, out, _ = run(capsys, "facts", "expire", "projects")
    assert out.strip() == "No projects fact is past its expiry."
    with pytest.raises(SystemExit) as bad:
        run(capsys, "facts", "expire", "friends")
    assert bad.value.code == 2 and "invalid choice: 'friends'" in capsys.readouterr().err
