"""After the owner changes the embedding model: `kit status` and `kit doctor` name the model,
its dimension and how far the re-embedding got; `kit reindex` does it now; a daemon holding
the data directory is named instead."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from kit.api import Kit
from kit.cli import main
from kit.config import load_settings
from kit.daemon.lock import DataDirLock
from kit.llm.fake import FakeLLM
from tests.support.tiny_onnx import TinyModel, TinyModels


def configure(tmp_path: Path, model: TinyModel, monkeypatch: pytest.MonkeyPatch) -> Path:
    config = tmp_path / "config.toml"
    config.write_text(model.config() + 'batch_size = 2\n[schedule]\ntimezone = "UTC"\n')
    monkeypatch.setenv("KIT_CONFIG", str(config))
    monkeypatch.setenv("KIT_DATA_DIR", str(tmp_path / "data"))
    return config


async def seed(config: Path, data: Path) -> str:
    """Three facts embedded with the configured model; its id."""
    settings = load_settings(config, data)
    async with Kit.open(settings=settings, llm=FakeLLM(), background=False) as kit:
        for text in ("The garden has beans", "Bea lives in Leeds", "Boiler repair on Friday"):
            await kit.remember(text, category="projects")
        await kit.settle()
        assert kit.embedding_model is not None
        return kit.embedding_model


def test_status_doctor_and_reindex_after_a_model_change(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    tiny_models: TinyModels,
) -> None:
    config = configure(tmp_path, tiny_models.a, monkeypatch)
    old = asyncio.run(seed(config, tmp_path / "data"))
    configure(tmp_path, tiny_models.b, monkeypatch)

    assert main(["status"]) == 0
    out = capsys.readouterr().out
    assert f"  embeddings: {old}\n" in out
    line = next(x for x in out.splitlines() if "re-embedding:" in x)
    assert line.startswith("  re-embedding: 0 of 3 items with test/tiny@")
    assert f"searches use {old} until it ends" in line and "`kit reindex`" in line

    main(["doctor", "--offline"])
    out = capsys.readouterr().out
    loaded = next(x for x in out.splitlines() if "embeddings:" in x)
    assert loaded.startswith("  ok    embeddings: test/tiny@")
    assert f"(dimension 40, from {tiny_models.b.folder})" in loaded
    new = loaded.split("embeddings: ")[1].split(" ")[0]
    assert new != old
    assert f"  warn  vectors: re-embedding with {new}" in out
    assert f"0 of 3 items done; searches use {old} until it ends" in out

    assert main(["reindex"]) == 0
    out = capsys.readouterr().out
    assert f"Re-embedded 3 items with {new} in " in out and f"(was {old})" in out
    assert "Removed 3 vectors of models not in use." in out  # the old model's went

    main(["doctor", "--offline"])
    assert f"  ok    vectors: 3 of 3 items embedded with {new}" in capsys.readouterr().out
    assert main(["status"]) == 0
    out = capsys.readouterr().out
    assert f"  embeddings: {new}\n" in out and "re-embedding" not in out
    assert main(["reindex"]) == 0
    assert f"Nothing to re-embed: every item has its vector of {new}." in capsys.readouterr().out


def test_reindex_names_a_model_that_cannot_load_and_changes_nothing(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    tiny_models: TinyModels,
) -> None:
    config = configure(tmp_path, tiny_models.a, monkeypatch)
    old = asyncio.run(seed(config, tmp_path / "data"))
    configure(tmp_path, TinyModel(tiny_models.b.folder, dim=64), monkeypatch)
    assert main(["reindex"]) == 2
    err = capsys.readouterr().err
    assert "embedding.dimension = 40" in err and "searches go on as before" in err
    assert main(["status"]) == 0
    assert f"  embeddings: {old}\n" in capsys.readouterr().out


def test_reindex_beside_a_daemon_says_the_daemon_does_it(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    tiny_models: TinyModels,
) -> None:
    configure(tmp_path, tiny_models.a, monkeypatch)
    lock = DataDirLock(tmp_path / "data")
    assert lock.try_acquire("daemon") is None
    try:
        assert main(["reindex"]) == 2
    finally:
        lock.release()
    err = capsys.readouterr().err
    assert "the daemon re-embeds in the background by itself" in err and "kit status" in err
