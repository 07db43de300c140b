"""What a document must be to become a note, and how a note is named, described and cut."""

from __future__ import annotations

import pytest

from kit.errors import InputError
from kit.notes.intake import accept, withheld_summary
from kit.notes.text import (
    MAX_LINE_CHARS,
    MAX_NOTE_BYTES,
    SECTION_CHARS,
    SECTION_LINES,
    describe,
    grep_lines,
    lines_of,
    name_from_file,
    note_name,
    read_document,
    sections,
)


def test_utf8_markdown_is_accepted_with_line_ends_normalised_and_bom_dropped() -> None:
    doc = read_document(b"\xef\xbb\xbf# Trip\r\n- passport\r- shoes\n\n", "trip.md")
    assert doc.text == "# Trip\n- passport\n- shoes" and doc.lines == 3 and doc.wrapped == 0


def test_terminal_escapes_and_other_control_characters_are_dropped() -> None:
    doc = read_document(b"a\x1b[31mred\x07\tb", "x.txt")
    assert doc.text == "a[31mred\tb"


@pytest.mark.parametrize(
    ("data", "says"),
    [
        (b"%PDF-1.7\n...", "this is a PDF"),
        (b"PK\x03\x04\x14\x00", "ZIP archive (Word"),
        (b"\x89PNG\r\n\x1a\n", "PNG image"),
        (b"\xff\xfeh\x00i\x00", "UTF-16 text"),
        (b"hello\x00world", "holds NUL bytes"),
        ("café".encode("latin-1"), "not UTF-8 text (line 1"),
        (b"ok\nok\n\xff", "line 3"),
        (b"  \n\n ", "the document is empty"),
    ],
)
def test_what_is_not_utf8_text_is_refused_with_what_it_is_and_the_fix(
    data: bytes, says: str
) -> None:
    with pytest.raises(InputError) as caught:
        read_document(data, "doc.bin")
    message = str(caught.value)
    assert message.startswith("doc.bin: ") and says in message
    if "empty" not in says:
        assert ".txt or .md" in message or "iconv" in message


def test_a_document_over_the_size_cap_is_refused_with_its_size() -> None:
    with pytest.raises(InputError, match=r"262,145 bytes is over the limit .*256 KB\); split it"):
        read_document(b"x" * (MAX_NOTE_BYTES + 1), "big.txt")
    assert read_document(b"x\n" * (MAX_NOTE_BYTES // 2), "ok.txt").lines == MAX_NOTE_BYTES // 2


def test_a_line_longer_than_the_limit_is_wrapped_at_spaces_and_counted() -> None:
    words = " ".join(["word"] * 1000)  # 4,999 characters on one line
    doc = read_document(f"title\n{words}\nend".encode(), "long.txt")
    lines = lines_of(doc.text)
    assert doc.wrapped == 1 and lines[0] == "title" and lines[-1] == "end"
    assert all(len(line) <= MAX_LINE_CHARS for line in lines)
    assert " ".join(lines[1:-1]) == words  # nothing lost, only broken
    unbroken = read_document(("x" * 4500).encode(), "blob.txt")
    assert [len(line) for line in lines_of(unbroken.text)] == [2000, 2000, 500]


@pytest.mark.parametrize(
    ("raw", "name"),
    [
        ("packing-list", "packing-list"),
        ("Packing List", "packing-list"),
        ("  Ideas  2026 ", "ideas-2026"),
        ("Zoë_notes.v2", "zoë_notes.v2"),
        ("会议记录", "会议记录"),
    ],
)
def test_note_names_are_stored_in_one_form(raw: str, name: str) -> None:
    assert note_name(raw) == name


@pytest.mark.parametrize("raw", ["", "   ", "../etc", "-flag", "a/b", "x" * 65, "semi;colon"])
def test_a_name_that_is_not_a_note_name_is_refused_with_the_rule(raw: str) -> None:
    with pytest.raises(InputError, match="name"):
        note_name(raw)


@pytest.mark.parametrize(
    ("file_name", "name"),
    [
        ("Packing List.md", "packing-list"),
        ("/home/ana/notes/Q3 brief (final).txt", "q3-brief-final"),
        (".hidden", "hidden"),
        ("recipe.v2.md", "recipe.v2"),
        ("???.txt", "note"),
        ("", "note"),
    ],
)
def test_a_name_is_made_from_the_file_name(file_name: str, name: str) -> None:
    assert name_from_file(file_name) == name
    assert note_name(name) == name  # always a valid name


def test_the_description_is_the_first_heading_or_line_clipped_or_the_owners() -> None:
    assert describe("---\ntitle: x\n---\n# Lisbon trip\n\nday 1") == "title: x"
    assert describe("\n\n## Lisbon  trip ##\n- passport") == "Lisbon trip"
    assert describe("- passport\n- shoes") == "passport"
    long = describe("word " * 60)
    assert len(long) <= 80 and long.endswith("…")
    assert describe("# Heading", "  My   list ") == "My list"
    with pytest.raises(InputError, match="description is too long"):
        describe("x", "d" * 201)


def test_sections_cover_every_non_blank_line_once_and_stay_bounded() -> None:
    text = "\n".join(
        ["# Trip", "", *[f"item {i} " + "x" * 60 for i in range(70)], "", "## Food", "bread"]
    )
    found = sections(text)
    lines = lines_of(text)
    covered = [n for s in found for n in range(s.start, s.end + 1)]
    assert covered == sorted(set(covered))  # no line twice, in order
    assert {n for n, line in enumerate(lines, 1) if line.strip()} <= set(covered)
    for s in found:
        assert s.text == "\n".join(lines[s.start - 1 : s.end])
        assert len(s.text) <= SECTION_CHARS + MAX_LINE_CHARS and s.end - s.start < SECTION_LINES
    assert found[0].heading == "Trip" and found[-1].heading == "Food"
    assert found[-1].text.startswith("## Food")  # a heading starts a section


def test_grep_is_literal_and_case_insensitive() -> None:
    text = "Buy (a+)+$ stickers\nbuy more\nnothing"
    assert grep_lines(text, "BUY") == [(1, "Buy (a+)+$ stickers"), (2, "buy more")]
    assert grep_lines(text, "(a+)+$") == [(1, "Buy (a+)+$ stickers")]
    assert grep_lines("a" * 5000 + "!", "(a+)+$") == []  # a pattern, it would backtrack


async def test_secrets_in_a_document_are_withheld_and_the_owner_told_where() -> None:
    text = "# House\n\nWifi name: casa\nThe gate code is 4711\nAlarm code: 9921\nbring keys"
    accepted = await accept(text.encode(), "house.md")
    assert "4711" not in accepted.text and "9921" not in accepted.text
    assert "The gate code is [secret withheld]" in accepted.text
    assert [w.line for w in accepted.withheld] == [4, 5]
    summary = withheld_summary(accepted.withheld)
    assert "lines 4, 5" in summary and "4711" not in summary
