"""`kit tokens` through the real CLI on a real data directory: a token is printed once (alone on
stdout, or as the "token" field of --json), `list` shows names, scope, created and last used
but never a token, `revoke` refuses it from then on, `log` shows every remote call, and bad
input is one line."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from kit.api import Kit
from kit.cli import main
from kit.config import load_settings
from kit.embed.hashing import HashingEmbedder
from kit.errors import Unauthorized
from kit.llm.fake import FakeLLM


@pytest.fixture
def data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    config = tmp_path / "config.toml"
    config.write_text(f'[embedding]\nmodel_path = "{tmp_path / "no-model"}"\n')
    monkeypatch.setenv("KIT_CONFIG", str(config))
    monkeypatch.setenv("KIT_DATA_DIR", str(tmp_path / "data"))
    return tmp_path / "data"


def authorize(token: str, call: str) -> str:
    """A remote call with `token` (what kit mcp --http does), answered: the memory, or why not."""

    async def check() -> str:
        async with Kit.open(
            settings=load_settings(), llm=FakeLLM(), embedder=HashingEmbedder(), background=False
        ) as kit:
            try:
                return (await kit.authorize(token, call=call, peer="10.0.0.7")).user_id
            except Unauthorized:
                return "refused"

    return asyncio.run(check())


def test_create_prints_the_token_once_and_list_never_shows_it(
    data: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["tokens", "create", "laptop"]) == 0
    made = capsys.readouterr()
    token = made.out.strip()
    assert token.startswith("kit_") and "\n" not in token
    assert "shown this once" in made.err and token not in made.err
    assert main(["tokens", "create", "phone", "--read-only", "--expires", "30", "--json"]) == 0
    phone = json.loads(capsys.readouterr().out)
    assert phone["token"].startswith("kit_") and phone["scope"] == "read-only"
    assert phone["expires_at"] is not None

    assert authorize(token, "tools/call search_memory") == "owner"
    assert main(["tokens", "list"]) == 0
    listed = capsys.readouterr().out
    lines = listed.splitlines()
    assert lines[0].startswith("laptop  read-write  active  created ")
    assert "last used never" not in lines[0]
    assert lines[1].startswith("phone  read-only  active  created ")
    assert "last used never, expires " in lines[1]
    assert main(["tokens", "list", "--json"]) == 0
    as_json = capsys.readouterr().out
    for shown in (listed, as_json):
        assert token not in shown and phone["token"] not in shown
        assert token.split("_", 2)[2] not in shown


def test_revoke_refuses_the_token_and_log_shows_every_call(
    data: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["tokens", "create", "laptop"]) == 0
    token = capsys.readouterr().out.strip()
    assert authorize(token, "tools/call search_memory") == "owner"
    assert main(["tokens", "revoke", "laptop"]) == 0
    assert "Revoked token 'laptop'" in capsys.readouterr().out
    assert authorize(token, "tools/list") == "refused"
    assert authorize("", "initialize") == "refused"
    assert main(["tokens", "log"]) == 0
    log = capsys.readouterr().out.splitlines()
    assert [line.split("  ")[1:] for line in log] == [
        ["laptop", "tools/call search_memory", "10.0.0.7", "allowed"],
        ["laptop", "tools/list", "10.0.0.7", "revoked"],
        ["(no token of this memory)", "initialize", "10.0.0.7", "no token"],
    ]
    assert main(["tokens", "list"]) == 0
    assert " revoked " in capsys.readouterr().out


def test_bad_input_is_one_line(data: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["tokens", "create", "my laptop"]) == 2
    assert capsys.readouterr().err.strip().splitlines()[-1].startswith("kit: a token's name is")
    assert main(["tokens", "create", "x", "--expires", "0"]) == 2
    assert "--expires is a number of days" in capsys.readouterr().err
    assert main(["tokens", "revoke", "nothing"]) == 2
    assert "no token named 'nothing'" in capsys.readouterr().err
