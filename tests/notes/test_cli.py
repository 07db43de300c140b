"""`kit notes` through the real command line: add, list, show, rm, history; refusals are one
line and exit code 2; `kit search` finds notes."""

from __future__ import annotations

import io
import json
import os
import threading
from pathlib import Path

import pytest

from kit.cli import main
from kit.notes.text import MAX_NOTE_BYTES
from tests.daemon.test_commands import env as no_model  # a config without an embedding model

__all__ = ["no_model"]

TRIP = "# Lisbon weekend\n\n- passport\n- sunscreen\n- linen shirts\n\n## Food\n- pastéis de nata"


@pytest.fixture
def env(no_model: Path) -> Path:
    """No embedding model (lexical search only: fast), and a Markdown file to add."""
    (no_model / "Lisbon Trip.md").write_text(TRIP, encoding="utf-8")
    return no_model


def _out(capsys: pytest.CaptureFixture[str]) -> str:
    return capsys.readouterr().out


def test_add_list_show_and_history(env: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["notes", "add", str(env / "Lisbon Trip.md")]) == 0
    size = len(TRIP.encode())
    assert _out(capsys) == f'Added note "lisbon-trip" (8 lines, {size} bytes): Lisbon weekend\n'
    assert main(["notes"]) == 0
    listed = _out(capsys).split()
    assert listed[:3] == ["lisbon-trip", "8", "lines"] and listed[-2:] == ["Lisbon", "weekend"]
    assert main(["notes", "show", "Lisbon-Trip"]) == 0
    assert _out(capsys) == TRIP + "\n"
    assert main(["notes", "show", "lisbon-trip", "--lines", "3:4"]) == 0
    assert _out(capsys) == "- passport\n- sunscreen\n"
    assert main(["notes", "show", "lisbon-trip", "--lines", "7:"]) == 0
    assert _out(capsys) == "## Food\n- pastéis de nata\n"
    assert main(["notes", "history", "lisbon-trip", "--json"]) == 0
    [entry] = json.loads(_out(capsys))
    assert entry["operation"] == "add" and entry["actor"] == "owner"
    assert entry["source"] == "file Lisbon Trip.md" and entry["kept"] is True


def test_list_shows_name_length_and_description(
    env: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["notes", "list"]) == 0
    assert "No notes yet" in _out(capsys)
    assert main(["notes", "add", str(env / "Lisbon Trip.md"), "--description", "Trip list"]) == 0
    capsys.readouterr()
    assert main(["notes", "list"]) == 0
    line = _out(capsys)
    assert (
        line.startswith("lisbon-trip") and "8 lines" in line and line.rstrip().endswith("Trip list")
    )
    assert main(["notes", "--json"]) == 0
    [note] = json.loads(_out(capsys))
    assert (
        note["name"] == "lisbon-trip" and note["lines"] == 8 and note["description"] == "Trip list"
    )


def test_replace_keeps_the_old_version_readable(
    env: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = env / "Lisbon Trip.md"
    assert main(["notes", "add", str(path)]) == 0
    path.write_text(TRIP + "\n- camera", encoding="utf-8")
    assert main(["notes", "add", str(path)]) == 2
    err = capsys.readouterr().err
    assert "already a note named 'lisbon-trip'" in err and "--replace" in err
    assert err.count("\n") == 1
    assert main(["notes", "add", str(path), "--replace"]) == 0
    assert "Replaced note" in _out(capsys)
    assert main(["notes", "history", "lisbon-trip", "--json"]) == 0
    first, second = json.loads(_out(capsys))
    assert (first["operation"], second["operation"]) == ("add", "replace")
    assert main(["notes", "show", "lisbon-trip", "--revision", str(first["id"])]) == 0
    assert _out(capsys) == TRIP + "\n"
    assert main(["notes", "show", "lisbon-trip"]) == 0
    assert _out(capsys).endswith("- camera\n")


def test_add_from_standard_input_needs_a_name(
    env: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(b"milk\neggs\n")))
    assert main(["notes", "add", "-"]) == 2
    assert "needs --name" in capsys.readouterr().err
    assert main(["notes", "add", "-", "--name", "Shopping", "--json"]) == 0
    written = json.loads(_out(capsys))
    assert written["operation"] == "add" and written["note"]["name"] == "shopping"
    assert main(["notes", "history", "shopping", "--json"]) == 0
    assert json.loads(_out(capsys))[0]["source"] == "standard input"


@pytest.mark.parametrize(
    ("content", "name", "says"),
    [
        (b"%PDF-1.5 binary", "scan.pdf", "scan.pdf: this is a PDF, not UTF-8 text"),
        (b"PK\x03\x04 docx", "brief.docx", "brief.docx: this is a ZIP archive"),
        (b"\x00\x01\x02", "blob.bin", "blob.bin: holds NUL bytes"),
        ("olá".encode("latin-1"), "latin.txt", "latin.txt: not UTF-8 text"),
        (
            b"x" * (MAX_NOTE_BYTES + 10),
            "huge.txt",
            "huge.txt: 262,154 bytes is over the limit for a note (262,144 bytes: 256 KB)",
        ),
        (  # the size as it is, not as much as was read to find out
            b"x" * 1_992_294,
            "big.txt",
            "big.txt: 1.9 MB (1,992,294 bytes) is over the limit for a note (262,144 bytes",
        ),
        (b"\n\n", "empty.txt", "empty.txt: the document is empty"),
    ],
    ids=lambda value: value if isinstance(value, str) and "." in value[:12] else "",
)
def test_a_file_that_cannot_be_a_note_gets_one_line_and_exit_2(
    env: Path, capsys: pytest.CaptureFixture[str], content: bytes, name: str, says: str
) -> None:
    (env / name).write_bytes(content)
    assert main(["notes", "add", str(env / name)]) == 2
    err = capsys.readouterr().err
    assert says in err and err.count("\n") == 1 and "Traceback" not in err
    assert main(["notes", "history"]) == 0
    assert "No note has been written yet" in _out(capsys)


def test_a_fifo_or_a_device_is_refused_before_anything_is_read(
    env: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Opening a FIFO to read blocks until something writes to it: `kit notes add` never
    opens one (a bound here only turns a hang into a failure)."""
    fifo = env / "notes.fifo"
    os.mkfifo(fifo)
    for path, says in [(fifo, "a named pipe (FIFO)"), (Path("/dev/zero"), "a character device")]:
        codes: list[int] = []
        worker = threading.Thread(
            target=lambda p=path, out=codes: out.append(main(["notes", "add", str(p)]))
        )
        worker.start()
        worker.join(60)
        if worker.is_alive():  # the old way: blocked in open(); let it go, then fail
            with fifo.open("wb"):
                pass
            worker.join()
            pytest.fail(f"kit notes add {path} blocked instead of refusing")
        err = capsys.readouterr().err
        assert codes == [2] and says in err and "not a regular file" in err, err
        assert err.count("\n") == 1


def test_standard_input_over_the_limit_says_so_without_a_made_up_size(
    env: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    big = b"x" * 3_000_000
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(big)))
    assert main(["notes", "add", "-", "--name", "big"]) == 2
    err = capsys.readouterr().err
    assert "standard input: more than 256 KB" in err and "262,145" not in err


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (["notes", "add", "missing.md"], "cannot read the file"),
        (["notes", "add", "."], "is a directory"),
        (["notes", "add", "Lisbon Trip.md", "--name", "a/b"], "is not a note name"),
        (["notes", "show", "nope"], "there is no note named 'nope'; the notes are: lisbon-trip"),
        (["notes", "show", "lisbon-trip", "--lines", "x:y"], "give line numbers as A:B"),
        (["notes", "show", "lisbon-trip", "--lines", "5:2"], "B is not before A"),
        (["notes", "show", "lisbon-trip", "--lines", "50"], "the note has 8 lines"),
        (["notes", "show", "lisbon-trip", "--revision", "99"], "no kept version 99"),
        (["notes", "rm", "nope"], "there is no note named 'nope'"),
        (["notes", "history", "nope"], "there is no note named 'nope'"),
    ],
)
def test_bad_note_commands_get_one_line_and_exit_2(
    env: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    argv: list[str],
    says: str,
) -> None:
    monkeypatch.chdir(env)
    assert main(["notes", "add", "Lisbon Trip.md"]) == 0
    capsys.readouterr()
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert says in err and err.count("\n") == 1


def test_rm_keeps_the_versions_and_rm_erase_takes_them(
    env: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    assert main(["notes", "add", str(env / "Lisbon Trip.md")]) == 0
    assert main(["notes", "rm", "lisbon-trip"]) == 0
    assert "Kit no longer sees it" in _out(capsys)
    assert main(["notes", "history", "lisbon-trip", "--json"]) == 0
    add, remove = json.loads(_out(capsys))
    assert add["kept"] and remove["operation"] == "remove"
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(b"")))
    assert main(["notes", "rm", "lisbon-trip", "--erase"]) == 2  # not a terminal: needs --yes
    assert "add --yes" in capsys.readouterr().err
    assert main(["notes", "rm", "lisbon-trip", "--erase", "--yes"]) == 0
    assert "Erased 1 version " in _out(capsys)
    assert main(["notes", "history"]) == 0
    listing = _out(capsys)
    assert "lisbon-trip" not in listing and "(erased)" in listing and "1 version erased" in listing
    assert main(["notes", "history", "lisbon-trip"]) == 2


def test_search_finds_a_note_section_by_name_and_lines(
    env: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["notes", "add", str(env / "Lisbon Trip.md")]) == 0
    capsys.readouterr()
    assert main(["search", "pastéis", "nata"]) == 0
    assert "[note lisbon-trip lines 7-8] ## Food - pastéis de nata" in _out(capsys)
    assert main(["search", "--json", "sunscreen"]) == 0
    [hit] = json.loads(_out(capsys))
    assert (hit["kind"], hit["note"], hit["start_line"], hit["end_line"]) == (
        "note", "lisbon-trip", 1, 5,
    )  # fmt: skip
