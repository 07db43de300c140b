"""A digest as text: one block for the terminal and the TUI, and chat-sized messages with their
buttons for each live channel (planned here, made into real buttons by kit/digest/service.py).

The channel's limit shapes the messages: at most `limit` UTF-16 units a message (Telegram's
4,096, Matrix's more: kit/delivery/outbox.py), so passes are packed whole into as few messages
as fit and a pass too long for one is continued in the next, each part carrying the buttons
of the facts it lists; and a button's data is a short token (kit/delivery/callbacks.py), never
the ids themselves.

The inbox's questions that wait come first, after the title: the owner learns of them here.
They are answered where the inbox is (each front-end says how: `kit inbox`, F8, the buttons
under each question's own Telegram message), not from the digest: an answer's buttons spend
their whole message (kit/inbox/service.py), which would take the digest's Undo/Pin/Forget too.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta, tzinfo

from kit.delivery.splitting import TELEGRAM_LIMIT, utf16_length
from kit.digest.model import Digest, DigestLine, DigestPass, DigestQuestion
from kit.text import plural

UNDO, PIN, FORGET = "digest.undo", "digest.pin", "digest.forget"  # button actions
MAX_ROWS = 40  # button rows under one message (80 buttons: well within what Telegram shows)
PASS_NAMES = {"curate": "curation", "rem_review": "REM review", "rem_copies": "REM copies"}
MARKS = {"learned": "+", "merged": "+", "remembered": "+", "changed": "~"}
HINT = (
    "Undo takes a pass back; Pin keeps a fact always in mind; Forget retires it (kept in "
    "its history)."
)
# How each front-end answers the inbox's questions (the heading of the digest's list of them).
ANSWER_IN_TERMINAL = "`kit inbox` answers them: keep old, take new or keep both"
ANSWER_IN_TUI = "F8 answers them: keep old, take new or keep both"
ANSWER_ON_TELEGRAM = (
    "answer each with the buttons under its own message, sent when Kit asked, or `kit inbox`"
)


def _day(digest: Digest) -> str:
    d = digest.day
    return f"{d:%A} {d.day} {d:%B %Y}"


def _since(digest: Digest, tz: tzinfo) -> str:
    since = digest.since.astimezone(tz)
    return f"since {since:%a %H:%M}"


def title(digest: Digest, tz: tzinfo) -> str:
    return f"Memory digest for {_day(digest)} ({_since(digest, tz)})"


def nothing(digest: Digest, tz: tzinfo) -> str:
    return f"Nothing changed in memory for {_day(digest)} ({_since(digest, tz)})."


def line_text(line: DigestLine) -> str:
    text = f"{MARKS.get(line.kind, '−')} {line.kind} #{line.fact_id}: {line.text}"
    if line.detail:
        text += f" ({line.detail})"
    if line.source:
        text += f" — {line.source}"
    return text


def pass_heading(digest_pass: DigestPass, tz: tzinfo) -> str:
    name = PASS_NAMES.get(digest_pass.kind, digest_pass.kind)
    at = digest_pass.at.astimezone(tz)
    heading = f"Pass {digest_pass.pass_id} · {name} of {digest_pass.category} · {at:%H:%M}"
    return heading + (" · undone since" if digest_pass.status == "undone" else "")


def _refusal(digest_pass: DigestPass, tz: tzinfo) -> str:
    return f"{pass_heading(digest_pass, tz)}: {digest_pass.reason}"


def question_text(question: DigestQuestion) -> str:
    """One waiting question: what Kit would do, what holds now, what would hold instead."""
    text = f"? question {question.question_id} · {question.category}: {question.what}"
    if question.now:
        text += f" — now: {question.now}"
    if question.new:
        text += f" → new: {question.new}"
    return text


def waiting_heading(answer: str) -> str:
    return f"Waiting for your answer ({answer})"


def waiting_lines(digest: Digest) -> list[str]:
    """The day's waiting questions, a line each, then how many more and how many older."""
    lines = [question_text(q) for q in digest.questions]
    if digest.more_questions:
        lines.append(f"… and {digest.more_questions} more asked this day")
    if digest.older_questions:
        older = f"{plural(digest.older_questions, 'question')} asked before this day"
        lines.append(f"and {older}" if lines else older)
    return lines


def quiet(digest: Digest) -> bool:
    """Nothing to tell of the day: no change, no refusal, no operation left out, no question
    asked that waits."""
    return (
        not digest.changed and not digest.refused and not digest.questions and not digest.left_out
    )


def left_out_line(digest: Digest) -> str:
    """How many operations the day's passes left out ("" when none)."""
    if not digest.left_out:
        return ""
    return (
        f"{plural(digest.left_out, 'operation')} left out (what was said did not support "
        "them, or they were unfit): listed under their pass"
    )


def render_text(digest: Digest, tz: tzinfo) -> str:
    """The whole digest as plain text (`kit digest`). A quiet day still counts the questions
    that wait from before it: the owner asked to read it."""
    waiting = [b.text for b in _waiting(digest, ANSWER_IN_TERMINAL)]
    if quiet(digest):
        return "\n\n".join([nothing(digest, tz), *waiting])
    blocks = _blocks(digest, tz)
    counted = [line] if (line := left_out_line(digest)) else []
    return "\n\n".join([title(digest, tz), *counted, *waiting, *(b.text for b in blocks)])


@dataclass(frozen=True)
class PlannedButton:
    label: str
    action: str
    payload: dict[str, int]
    expires_at: datetime


@dataclass(frozen=True)
class PlannedMessage:
    text: str
    rows: tuple[tuple[PlannedButton, ...], ...] = ()


@dataclass
class _Block:
    """A section: its heading, its lines each with the buttons of what it names, and rows
    that belong to the whole section (a pass's Undo)."""

    heading: str
    lines: list[tuple[str, tuple[PlannedButton, ...]]] = field(default_factory=list)
    tail: list[tuple[PlannedButton, ...]] = field(default_factory=list)
    continued: str = ""  # the heading a part after the first starts with

    def add(self, text: str, *buttons: PlannedButton) -> None:
        self.lines.append((text, buttons))

    @property
    def text(self) -> str:
        return "\n".join([self.heading, *(t for t, _ in self.lines)])

    @property
    def rows(self) -> list[tuple[PlannedButton, ...]]:
        return [b for _, b in self.lines if b] + self.tail


def _waiting(digest: Digest, answer: str) -> list[_Block]:
    """The waiting questions' section (none when nothing waits)."""
    lines = waiting_lines(digest)
    if not lines:
        return []
    continued = "Waiting for your answer (continued)"
    return [_Block(waiting_heading(answer), [(x, ()) for x in lines], continued=continued)]


def _blocks(
    digest: Digest, tz: tzinfo, *, now: datetime | None = None, window: timedelta | None = None
) -> list[_Block]:
    """The digest's sections; with `now` and `window`, each with the buttons still open."""

    def open_until(at: datetime) -> datetime | None:
        if now is None or window is None or at + window <= now:
            return None
        return at + window

    def fact_buttons(line: DigestLine, until: datetime | None) -> tuple[PlannedButton, ...]:
        if until is None or not line.live:
            return ()
        fact = {"fact": line.fact_id}
        forget = PlannedButton(f"Forget #{line.fact_id}", FORGET, fact, until)
        if line.pinned:
            return (forget,)
        return (PlannedButton(f"Pin #{line.fact_id}", PIN, fact, until), forget)

    blocks: list[_Block] = []
    for digest_pass in digest.passes:
        if not digest_pass.shown:
            continue
        heading = pass_heading(digest_pass, tz)
        block = _Block(heading, continued=f"{heading} (continued)")
        until = open_until(digest_pass.at) if digest_pass.status == "applied" else None
        for line in digest_pass.lines:
            block.add(line_text(line), *fact_buttons(line, until))
        for dropped in digest_pass.dropped:
            block.add(f"! left out: {dropped}")
        if until is not None and digest_pass.undoable:
            label, payload = f"Undo pass {digest_pass.pass_id}", {"pass": digest_pass.pass_id}
            block.tail.append((PlannedButton(label, UNDO, payload, until),))
        blocks.append(block)
    if digest.expired:
        block = _Block("Expired", continued="Expired (continued)")
        for line in digest.expired:
            block.add(line_text(line))
        blocks.append(block)
    if digest.remembered:
        block = _Block("Remembered when you asked", continued="Remembered (continued)")
        for line in digest.remembered:
            block.add(line_text(line), *fact_buttons(line, open_until(line.at)))
        blocks.append(block)
    if digest.refused:
        block = _Block("Refused (nothing of these was applied)", continued="Refused (continued)")
        for refused in digest.refused:
            block.add(_refusal(refused, tz))
        blocks.append(block)
    return blocks


def chat_messages(
    digest: Digest, tz: tzinfo, *, now: datetime, window: timedelta, limit: int = TELEGRAM_LIMIT
) -> list[PlannedMessage]:
    """The digest as chat messages of at most `limit` UTF-16 units, with the buttons of the
    passes and facts each one lists (buttons close `window` after their change)."""
    head = _Block(title(digest, tz), [(HINT, ())])
    waiting = _waiting(digest, ANSWER_ON_TELEGRAM)  # first after the heading: what waits
    blocks = [head, *waiting, *_blocks(digest, tz, now=now, window=window)]
    messages: list[PlannedMessage] = []
    lines: list[str] = []
    rows: list[tuple[PlannedButton, ...]] = []

    def flush() -> None:
        if lines:
            messages.append(PlannedMessage("\n\n".join(lines), tuple(rows)))
        lines.clear()
        rows.clear()

    for block in (part for b in blocks for part in _parts(b, limit)):
        joined = "\n\n".join([*lines, block.text])
        if lines and (utf16_length(joined) > limit or len(rows) + len(block.rows) > MAX_ROWS):
            flush()
        lines.append(block.text)
        rows.extend(block.rows)
    flush()
    return messages


def _parts(block: _Block, limit: int) -> list[_Block]:
    """A block that fits one message as it is, else in parts: each part's lines with their
    buttons, the section's own rows (a pass's Undo) with the last part."""
    if utf16_length(block.text) <= limit and len(block.rows) <= MAX_ROWS:
        return [block]
    room = limit - utf16_length(block.continued or block.heading) - 1
    parts = [_Block(block.heading, continued=block.continued)]
    for text, buttons in block.lines:
        text = _clip_units(text, room)
        current = parts[-1]
        grown = utf16_length(current.text + "\n" + text) > limit
        crowded = len(current.rows) + 1 + len(block.tail) > MAX_ROWS
        if current.lines and (grown or crowded):
            parts.append(_Block(block.continued or block.heading, continued=block.continued))
        parts[-1].lines.append((text, buttons))
    parts[-1].tail = list(block.tail)
    return parts


def _clip_units(text: str, limit: int) -> str:
    """`text` cut to `limit` UTF-16 units (a line longer than a message: never in practice,
    fact lines are clipped, but a message must never be refused for it)."""
    while utf16_length(text) > limit:
        text = text[: max(1, len(text) - (utf16_length(text) - limit) - 1)] + "…"
    return text
