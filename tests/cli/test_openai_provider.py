"""`kit chat` and `kit curate` with `llm.provider = "openai"`: real processes and the real
openai SDK against a local chat-completions server (as Ollama or llama.cpp would serve)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from kit.cli import main
from tests.servers.openai_api import FakeOpenAIServer, tool_call_reply

REPO = Path(__file__).resolve().parents[2]


def test_kit_chat_then_kit_curate_on_an_openai_compatible_server(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    with FakeOpenAIServer() as server:
        server.queue_text("Nice to meet you, Ana.")
        server.queue_text("You said your sister lives in Porto.")
        config = tmp_path / "config.toml"
        config.write_text(
            f'[llm]\nprovider = "openai"\nbase_url = "{server.url}"\npreset = "local"\n'
            'chat_model = "qwen2.5:3b"\nsmall_model = "qwen2.5:0.5b"\n'
            f'[embedding]\nmodel_path = "{tmp_path / "no-model"}"\n'
            '[schedule]\ntimezone = "UTC"\n'
        )
        env = {
            k: v for k, v in os.environ.items() if k not in ("OPENAI_API_KEY", "ANTHROPIC_API_KEY")
        }
        env |= {"KIT_CONFIG": str(config), "KIT_DATA_DIR": str(tmp_path / "data")}
        done = subprocess.run(
            [sys.executable, "-m", "kit.cli", "chat"],
            input="My name is Ana; my sister lives in Porto\nWhere does she live?\n",
            capture_output=True,
            text=True,
            env=env,
            timeout=120,
            cwd=REPO,
        )
        assert done.returncode == 0, done.stderr
        assert done.stdout.splitlines() == [
            "Nice to meet you, Ana.",
            "You said your sister lives in Porto.",
        ]
        first, second = server.completions()
        assert first["stream"] is True and first["model"] == "qwen2.5:3b"
        assert [t["function"]["name"] for t in first["tools"]] == [
            "search_memory",
            "get_day_history",
            "remember",
        ]
        assert second["messages"][1] == {
            "role": "user",
            "content": "My name is Ana; my sister lives in Porto",
        }

        def curator(body: dict[str, object]) -> object:
            # The local preset curates in the extract style: one list of facts for the batch.
            fact = {"message": 1, "topic": "people", "fact": "The owner's sister lives in Porto"}
            return tool_call_reply("list_facts", {"facts": [fact]})

        server.responder = curator
        monkeypatch.setenv("KIT_CONFIG", str(config))
        monkeypatch.setenv("KIT_DATA_DIR", str(tmp_path / "data"))
        monkeypatch.delenv("OPENAI_API_KEY", raising=False)
        assert main(["curate"]) == 0
        out = capsys.readouterr().out
        assert main(["facts", "--json"]) == 0
        facts = json.loads(capsys.readouterr().out)
        curation = server.completions()[2:]
    assert [f["content"] for f in facts] == ["The owner's sister lives in Porto"], out
    assert len(curation) == 1 and {b["model"] for b in curation} == {"qwen2.5:0.5b"}
    assert curation[0]["tool_choice"] == {"type": "function", "function": {"name": "list_facts"}}
