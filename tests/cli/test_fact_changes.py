"""`kit facts add|edit|pin|unpin|forget` through the real CLI: each change one undoable pass
that history and `kit facts passes` show; bad input one line on stderr with exit code 2."""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator
from pathlib import Path

import pytest

from kit.cli import main


@pytest.fixture(autouse=True)
def own_log_handlers() -> Iterator[None]:
    """Each `main()` adds a stderr handler bound to that moment's stderr: run without the
    ones earlier tests left (their captures are closed) and drop this test's afterwards."""
    root = logging.getLogger()
    before = list(root.handlers)
    root.handlers[:] = [h for h in before if type(h) is not logging.StreamHandler]
    yield
    root.handlers[:] = before


@pytest.fixture
def env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A config without an embedding model (lexical search only: nothing to load)."""
    config = tmp_path / "config.toml"
    config.write_text(
        f'[embedding]\nmodel_path = "{tmp_path / "no-model"}"\n'
        '[schedule]\ntimezone = "Europe/Lisbon"\n'
    )
    monkeypatch.setenv("KIT_CONFIG", str(config))
    monkeypatch.setenv("KIT_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    return tmp_path


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def as_json(capsys: pytest.CaptureFixture[str], *argv: str) -> dict[str, object]:
    code, out, err = run(capsys, *argv, "--json")
    assert code == 0, err
    data: dict[str, object] = json.loads(out)
    return data


@pytest.mark.usefixtures("env")
def test_add_edit_pin_forget_each_print_the_pass_that_undoes_it(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, _ = run(
        capsys, "facts", "add", "Prefers", "green", "tea", "--category", "preferences",
        "--subject", "tea", "--expires", "2030-01-31",
    )  # fmt: skip
    assert code == 0
    assert out.splitlines() == [
        "Added fact #1 (preferences, holds through 2030-01-31): [tea] Prefers green tea",
        "Recorded as pass 1; `kit facts undo 1` undoes it.",
    ]
    code, out, _ = run(capsys, "facts", "edit", "1", "Prefers jasmine tea", "--no-expiry")
    assert code == 0 and out.startswith("Edited fact #1 (preferences): [tea] Prefers jasmine tea")
    code, out, _ = run(capsys, "facts", "pin", "1")
    assert code == 0 and out.startswith("Pinned fact #1 (preferences, pinned)")
    code, out, _ = run(capsys, "facts", "unpin", "1")
    assert code == 0 and out.startswith("Unpinned fact #1 (preferences)")
    code, out, _ = run(capsys, "facts", "forget", "1", "--reason", "switched to coffee")
    assert code == 0
    assert out.splitlines()[1:] == [
        "Kit no longer uses it; its history keeps it.",
        "Recorded as pass 5; `kit facts undo 5` undoes it.",
    ]

    code, out, _ = run(capsys, "facts", "history", "1")
    assert code == 0
    lines = [line.split()[2:5] for line in out.splitlines() if line.startswith("  20")]
    assert lines == [
        ["insert", "owner", "pass"],
        ["edit", "owner", "pass"],
        ["pin", "owner", "pass"],
        ["unpin", "owner", "pass"],
        ["deactivate", "owner", "pass"],
    ]
    assert "switched to coffee" in out
    code, out, _ = run(capsys, "facts", "passes")
    assert [line.split()[3:] for line in out.splitlines()] == [
        ["owner", "preferences", "applied", "retire", "#1"],
        ["owner", "preferences", "applied", "unpin", "#1"],
        ["owner", "preferences", "applied", "pin", "#1"],
        ["owner", "preferences", "applied", "edit", "#1"],
        ["owner", "preferences", "applied", "add", "#1"],
    ]


@pytest.mark.usefixtures("env")
def test_kit_facts_undo_takes_back_the_owners_changes(capsys: pytest.CaptureFixture[str]) -> None:
    added = as_json(capsys, "facts", "add", "Lives in Lisbon", "--subject", "Ana")
    edited = as_json(capsys, "facts", "edit", "1", "Lives in Porto")
    assert edited["operation"] == "edit" and edited["fact"]["owner_written"]  # type: ignore[index]
    code, out, err = run(capsys, "facts", "undo", str(added["pass_id"]))
    assert code == 2 and f"undo pass {edited['pass_id']} first" in err
    assert run(capsys, "facts", "undo", str(edited["pass_id"]))[1].startswith("Undid pass 2")
    code, out, _ = run(capsys, "facts")
    assert out.strip() == "#1     person      1.00 (yours)  [Ana] Lives in Lisbon"
    assert run(capsys, "facts", "undo", str(added["pass_id"]))[0] == 0
    assert run(capsys, "facts")[1].strip() == "No facts yet."


@pytest.mark.usefixtures("env")
@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["add", "Tea", "--expires", "31/01/2030"], "--expires '31/01/2030' is not a date"),
        (["add", "Tea", "--expires", "2001-01-01"], "the expiry date 2001-01-01 is already past"),
        (["add", "Tea", "--expires", "2999-01-01"], "more than 10 years ahead"),
        (["add", "x" * 2001], "the fact has 2,001 characters, more than the 2,000 allowed"),
        (["add", "  "], "the fact is empty"),
        (["add", "My", "password", "is", "Kestrel-hunter2!"], "never keeps secrets"),
        (["edit", "7", "Lives in Porto"], "fact 7 does not exist"),
        (["edit", "1"], "say what to change"),
        (["pin", "0"], "a fact id is a positive whole number"),
        (["forget", "1", "--reason", " "], "say why the fact should go"),
    ],
)
def test_bad_input_is_one_line_with_exit_code_2_and_changes_nothing(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    assert run(capsys, "facts", "add", "Likes jazz")[0] == 0
    code, out, err = run(capsys, "facts", *argv)
    assert code == 2 and out == ""
    (line,) = [line for line in err.splitlines() if not line.startswith("20")]  # no log lines
    assert line.startswith("kit: ") and message in line
    assert "hunter2" not in err and "Traceback" not in err
    passes = as_json(capsys, "facts", "passes")
    assert len(passes) == 1  # type: ignore[arg-type]


@pytest.mark.usefixtures("env")
def test_an_unknown_category_lists_the_seven(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["facts", "add", "Tea", "--category", "pets"])
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert "invalid choice: 'pets'" in err
    assert "'person', 'people', 'preferences', 'projects', 'technical', 'entities'" in err


def test_forget_help_tells_it_apart_from_kit_forget(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["facts", "forget", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "nothing is erased" in text and "use `kit forget` instead" in text
    with pytest.raises(SystemExit):
        main(["facts", "--help"])
    assert "forget retire a fact: Kit stops using it" in " ".join(capsys.readouterr().out.split())
