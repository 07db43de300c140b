"""What a forget receipt hashes (kit/forget/traces.py): pieces long enough not to be
guessed from a dictionary, a message as import identity knows it, in any ISO form of its time."""

from __future__ import annotations

from kit.forget.traces import Hasher, lengths, units, windows


def test_a_summary_is_cut_into_its_whole_its_lines_and_their_sentences() -> None:
    line = "Talked about Ana, a cardiologist in Lisbon. She likes jazz records a lot."
    text = f"- {line}\n- Weather"
    assert units(text) == {
        f"{line} - Weather",
        line,
        "Talked about Ana, a cardiologist in Lisbon.",
        "She likes jazz records a lot.",
    }
    assert units(text, pieces=False) == {f"{line} - Weather"}


def test_short_pieces_and_names_are_never_hashed() -> None:
    """A name or a three-word line could be found again by hashing a dictionary of them."""
    assert units("Ana") == set() and units("Ana called.") == set()
    assert units("- Ana called.\n- Tom") == set()  # three words, whole or cut


def test_a_quoted_piece_is_found_inside_a_longer_text_by_its_word_count() -> None:
    piece = "Ana is a cardiologist in Lisbon."
    assert lengths([piece, "x " * 50]) == (6,)
    assert piece in windows(f"rejected:  {piece}  (invalid)", (6,))


def test_a_message_fingerprint_is_the_same_in_any_iso_form_of_its_time() -> None:
    hasher = Hasher(b"s" * 16)
    forms = (
        "2026-01-01T10:00:00Z",
        "2026-01-01T10:00:00.000000+00:00",
        "2026-01-01T11:00:00+01:00",
    )
    assert len({hasher.message(at, "user", "", "hello there") for at in forms}) == 1
    assert hasher.message(forms[0], "assistant", "", "hello there") != hasher.message(
        forms[0], "user", "", "hello there"
    )
    assert Hasher(b"t" * 16).message(forms[0], "user", "", "hello there") != hasher.message(
        forms[0], "user", "", "hello there"
    )
