"""A digest as text and as Telegram messages: each fact one line; messages within Telegram's
4096 characters, split at passes first and then at facts, each part with the buttons of what
it lists; buttons only while their change's undo window is open. The inbox's waiting questions
first, a line each, with how each front-end answers them."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from kit.delivery.splitting import TELEGRAM_LIMIT, utf16_length
from kit.digest.model import Digest, DigestLine, DigestPass, DigestQuestion
from kit.digest.render import FORGET, PIN, UNDO, chat_messages, render_text

NOW = datetime(2026, 3, 2, 21, 0, tzinfo=UTC)
WEEK = timedelta(days=7)


def line(fact_id: int, kind: str = "learned", **fields: object) -> DigestLine:
    values: dict[str, object] = {
        "text": f"Fact number {fact_id}",
        "detail": "",
        "source": "from your message at 14:02",
        "at": NOW - timedelta(hours=6),
        "live": True,
    }
    values.update(fields)
    return DigestLine(kind, fact_id, **values)  # type: ignore[arg-type]


def digest(*passes: DigestPass, **fields: object) -> Digest:
    return Digest(
        "owner",
        NOW.date(),
        NOW - timedelta(days=1),
        NOW,
        passes=passes,
        **fields,  # type: ignore[arg-type]
    )


def question(question_id: int, **fields: object) -> DigestQuestion:
    values: dict[str, object] = {
        "category": "people",
        "what": "Kit would rewrite #4",
        "now": "[Ana] Ana lives in Lisbon",
        "new": "[Ana] Ana lives in Porto",
        "asked_at": NOW - timedelta(hours=3),
        "expires_at": NOW + timedelta(days=14),
        "choices": ("keep-old", "take-new", "keep-both"),
    }
    values.update(fields)
    return DigestQuestion(question_id, **values)  # type: ignore[arg-type]


def curation(pass_id: int, *lines: DigestLine, status: str = "applied") -> DigestPass:
    return DigestPass(pass_id, "curate", "people", NOW - timedelta(hours=6), status, lines)


def test_text_has_a_heading_per_pass_and_a_line_per_fact() -> None:
    text = render_text(
        digest(
            curation(7, line(12), line(3, "changed", detail="was: Old", source="")),
            expired=(line(9, "expired", detail="past its expiry", source="", live=False),),
            refused=(DigestPass(8, "rem_review", "projects", NOW, "rejected", reason="too much"),),
        ),
        UTC,
    )
    assert text == (
        "Memory digest for Monday 2 March 2026 (since Sun 21:00)\n\n"
        "Pass 7 · curation of people · 15:00\n"
        "+ learned #12: Fact number 12 — from your message at 14:02\n"
        "~ changed #3: Fact number 3 (was: Old)\n\n"
        "Expired\n"
        "− expired #9: Fact number 9 (past its expiry)\n\n"
        "Refused (nothing of these was applied)\n"
        "Pass 8 · REM review of projects · 21:00: too much"
    )


def test_a_day_without_changes_says_so() -> None:
    text = render_text(digest(), UTC)
    assert text == "Nothing changed in memory for Monday 2 March 2026 (since Sun 21:00)."


def test_one_pass_is_one_message_with_pin_forget_per_live_fact_and_undo() -> None:
    d = digest(curation(7, line(12), line(5, "retired", live=False), line(4, pinned=True)))
    (message,) = chat_messages(d, UTC, now=NOW, window=WEEK)
    rows = [[(b.label, b.action, b.payload) for b in row] for row in message.rows]
    assert rows == [
        [("Pin #12", PIN, {"fact": 12}), ("Forget #12", FORGET, {"fact": 12})],
        [("Forget #4", FORGET, {"fact": 4})],  # pinned already
        [("Undo pass 7", UNDO, {"pass": 7})],
    ]
    assert {b.expires_at for row in message.rows for b in row} == {NOW - timedelta(hours=6) + WEEK}


def test_buttons_close_with_the_undo_window_and_an_undone_pass_has_none() -> None:
    d = digest(curation(7, line(12)), curation(8, line(13), status="undone"))
    (late,) = chat_messages(d, UTC, now=NOW + WEEK, window=WEEK)
    assert late.rows == ()
    (fresh,) = chat_messages(d, UTC, now=NOW, window=WEEK)
    assert [b.label for row in fresh.rows for b in row] == ["Pin #12", "Forget #12", "Undo pass 7"]


def test_a_long_day_is_split_at_passes_then_at_facts_within_telegrams_limit() -> None:
    long_text = "word " * 39  # about 200 characters a line
    big = curation(7, *(line(100 + n, text=long_text) for n in range(60)))
    small = curation(8, line(1))
    messages = chat_messages(digest(big, small), UTC, now=NOW, window=WEEK)
    assert len(messages) >= 4
    assert all(utf16_length(m.text) <= TELEGRAM_LIMIT for m in messages)
    named = [int(w[1:-1]) for m in messages for w in m.text.split() if w.startswith("#1")]
    listed = [b.payload["fact"] for m in messages for row in m.rows for b in row if b.action == PIN]
    assert listed == [100 + n for n in range(60)] + [1]  # each fact's buttons, once, in order
    for m in messages:  # every part carries the buttons of the facts it lists, and only those
        shown = {int(w[1:-1]) for w in m.text.split() if w.startswith("#") and w.endswith(":")}
        assert {b.payload["fact"] for row in m.rows for b in row if b.action == PIN} <= shown
    assert named  # the facts are in the text
    assert "Pass 7 · curation of people · 15:00 (continued)" in messages[1].text
    undo = [n for n, m in enumerate(messages) for row in m.rows for b in row if b.action == UNDO]
    assert len(undo) == 2  # one Undo per pass, under the part listing its last facts


def test_characters_outside_the_bmp_count_double_against_the_limit() -> None:
    emoji = "🐈" * 100  # 200 UTF-16 units each line
    big = curation(7, *(line(n, text=emoji) for n in range(40)))
    messages = chat_messages(digest(big), UTC, now=NOW, window=WEEK)
    assert len(messages) > 1
    assert all(utf16_length(m.text) <= TELEGRAM_LIMIT for m in messages)


def test_waiting_questions_come_first_with_how_to_answer_them() -> None:
    retire = question(5, what="Kit would retire #6", now="[Rui] Rui plays chess", new="")
    d = digest(
        curation(7, line(12)), questions=(question(3), retire), more_questions=1, older_questions=2
    )
    text = render_text(d, UTC)
    assert text == (
        "Memory digest for Monday 2 March 2026 (since Sun 21:00)\n\n"
        "Waiting for your answer (`kit inbox` answers them: keep old, take new or keep both)\n"
        "? question 3 · people: Kit would rewrite #4 — now: [Ana] Ana lives in Lisbon → new: "
        "[Ana] Ana lives in Porto\n"
        "? question 5 · people: Kit would retire #6 — now: [Rui] Rui plays chess\n"
        "… and 1 more asked this day\n"
        "and 2 questions asked before this day\n\n"
        "Pass 7 · curation of people · 15:00\n"
        "+ learned #12: Fact number 12 — from your message at 14:02"
    )
    (message,) = chat_messages(d, UTC, now=NOW, window=WEEK)
    waiting = message.text.split("\n\n")[1]  # after the title and the buttons' hint
    assert waiting.splitlines()[0] == (
        "Waiting for your answer (answer each with the buttons under its own message, sent when "
        "Kit asked, or `kit inbox`)"
    )
    assert [b.label for row in message.rows for b in row] == [
        "Pin #12",
        "Forget #12",
        "Undo pass 7",
    ]


def test_a_quiet_day_counts_the_older_questions_and_many_questions_split_within_the_limit() -> None:
    quiet = digest(older_questions=1)
    assert render_text(quiet, UTC) == (
        "Nothing changed in memory for Monday 2 March 2026 (since Sun 21:00).\n\n"
        "Waiting for your answer (`kit inbox` answers them: keep old, take new or keep both)\n"
        "1 question asked before this day"
    )
    long = "word " * 23  # each part clipped to 120 characters
    many = digest(questions=tuple(question(n, now=long, new=long) for n in range(40)))
    messages = chat_messages(many, UTC, now=NOW, window=WEEK)
    assert len(messages) > 1 and all(utf16_length(m.text) <= TELEGRAM_LIMIT for m in messages)
    assert messages[1].text.startswith("Waiting for your answer (continued)\n? question ")
    listed = [int(x.split()[2]) for m in messages for x in m.text.splitlines() if x[:2] == "? "]
    assert listed == list(range(40))  # each once, in order
