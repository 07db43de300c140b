"""Splitting long replies into Telegram-sized messages (pure Python, no Telegram)."""

from __future__ import annotations

import re

import pytest

from kit.delivery.splitting import TELEGRAM_LIMIT, split_message, utf16_length


def words(text: str) -> list[str]:
    return text.split()


def test_short_text_is_one_chunk_trimmed() -> None:
    assert split_message("  hello there \n") == ["hello there"]


def test_empty_text_gives_no_chunks() -> None:
    assert split_message("   \n\n ") == []


def test_paragraphs_are_the_preferred_cut() -> None:
    first, second = "a" * 60 + " end.", "b" * 30 + " more. " + "c" * 30
    chunks = split_message(f"{first}\n\n{second}", limit=80)
    assert chunks == [first, second]


def test_long_paragraph_is_cut_at_a_sentence_end() -> None:
    text = "One short sentence here. " * 10  # 250 chars, no line breaks
    chunks = split_message(text, limit=100)
    assert all(c.endswith(".") for c in chunks)
    assert all(len(c) <= 100 for c in chunks)
    assert words(" ".join(chunks)) == words(text)


def test_without_sentences_it_cuts_between_words() -> None:
    text = " ".join(["word"] * 100)
    chunks = split_message(text, limit=42)
    assert all(len(c) <= 42 for c in chunks)
    assert all(set(c.split()) == {"word"} for c in chunks)  # no "wo" + "rd"
    assert words(" ".join(chunks)) == words(text)


def test_an_unbroken_run_is_hard_cut_and_nothing_is_lost() -> None:
    text = "x" * 250
    chunks = split_message(text, limit=100)
    assert [len(c) for c in chunks] == [100, 100, 50]
    assert "".join(chunks) == text


def test_an_early_blank_line_does_not_make_a_tiny_chunk() -> None:
    text = "Hi.\n\n" + "This is a sentence. " * 20
    chunks = split_message(text, limit=200)
    assert len(chunks[0]) > 100  # it filled up to a later sentence end instead of "Hi."


def test_a_9000_character_reply_is_three_telegram_messages() -> None:
    paragraph = "Kit remembers things for you. " * 30  # ~900 chars
    text = "\n\n".join([paragraph.strip()] * 10)
    chunks = split_message(text)
    assert 9000 <= len(text) < 3 * TELEGRAM_LIMIT and len(chunks) == 3
    assert all(utf16_length(c) <= TELEGRAM_LIMIT for c in chunks)
    assert re.sub(r"\s+", " ", " ".join(chunks)) == re.sub(r"\s+", " ", text)


def test_limit_is_counted_in_utf16_units() -> None:
    text = "😀" * 3000  # 3000 characters but 6000 UTF-16 units
    chunks = split_message(text)
    assert len(chunks) == 2
    assert all(utf16_length(c) <= TELEGRAM_LIMIT for c in chunks)
    assert "".join(chunks) == text


def test_silly_limit_is_rejected() -> None:
    with pytest.raises(ValueError, match="at least 2"):
        split_message("abc", limit=1)
