"""What Kit's Matrix messages look like, without matrix-nio: Markdown as `formatted_body`, a
reply split to Matrix's own limit, and the numbered "buttons" that stand in for Telegram's.

Matrix's limit is the event's size: 65,536 bytes of JSON for the whole event, envelope and
signatures included, so a message's body and its HTML together stay under `CONTENT_BYTES`.
A reply is cut at natural boundaries (kit/delivery/splitting.py) into parts of at most
`MATRIX_LIMIT` characters, and any part whose event would still be too big (HTML escapes,
characters outside ASCII) is cut again, smaller.

Buttons: Matrix has no inline buttons. A message Kit starts with buttons (the digest's Undo,
Pin, Forget; an inbox question's answers) lists them numbered under its text; the owner
presses one by replying to that message with its number, or, for the first ten, by reacting
with its keycap (Kit puts those reactions on the message itself, so one tap does it). The
buttons' data (kit/delivery/callbacks.py tokens) travel in the event under `BUTTONS_KEY`, as
Telegram keeps a button's data in its message; who may press, once, before it expires, is
decided by the callbacks registry as on Telegram.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence

from kit.channels.formatting import markdown_to_html
from kit.delivery.callbacks import Button
from kit.delivery.splitting import split_message

MATRIX_LIMIT = 16_000  # characters a message part holds at most (a long read, not a wall)
# The longest message Kit starts (a digest part, a question: kit/delivery/outbox.py), in UTF-16
# units: with its numbered choices and their data it stays under CONTENT_BYTES whatever the
# script (three bytes a unit at most).
PUSH_LIMIT = 12_000
CONTENT_BYTES = 48_000  # an event's content: well under 65,536 with the envelope and signatures
BUTTONS_KEY = "org.kitassistant.buttons"  # the button data in an event Kit sends
HTML_FORMAT = "org.matrix.custom.html"
KEYCAPS = ("1️⃣", "2️⃣", "3️⃣", "4️⃣", "5️⃣", "6️⃣", "7️⃣", "8️⃣", "9️⃣", "🔟")
PRESS_HINT = "Reply to this message with a number to choose"

_PRE = re.compile(r"(<pre>.*?</pre>|<pre><code[^>]*>.*?</code></pre>)", re.S)
_NUMBER = re.compile(r"#?([0-9]{1,3})[.)]?")


def to_html(markdown: str) -> str:
    """Matrix HTML for a Markdown reply: Telegram's subset (kit/channels/formatting.py), with
    line breaks as <br> outside code blocks (HTML folds newlines; Matrix clients render HTML)."""
    parts = _PRE.split(markdown_to_html(markdown))
    return "".join(p if _PRE.fullmatch(p) else p.replace("\n", "<br>") for p in parts)


def content(text: str, formatted: bool) -> dict[str, object]:
    """An m.room.message's content for one part of a reply."""
    body: dict[str, object] = {"msgtype": "m.text", "body": text}
    if formatted:
        body |= {"format": HTML_FORMAT, "formatted_body": to_html(text)}
    return body


def content_bytes(body: dict[str, object]) -> int:
    return len(json.dumps(body, ensure_ascii=False, separators=(",", ":")).encode())


def split_reply(text: str, formatted: bool, limit: int = MATRIX_LIMIT) -> list[str]:
    """`text` in parts that each make one event Matrix takes (see the module docstring)."""
    parts: list[str] = []
    for part in split_message(text, limit):
        if content_bytes(content(part, formatted)) <= CONTENT_BYTES or limit <= 64:
            parts.append(part)
        else:
            parts.extend(split_reply(part, formatted, limit // 2))
    return parts


def with_buttons(text: str, buttons: Sequence[Button]) -> str:
    """A message's text with its buttons listed, numbered, under it."""
    if not buttons:
        return text
    listed = "\n".join(f"{n}. {b.label}" for n, b in enumerate(buttons, 1))
    keycaps = f" (or react with {KEYCAPS[0]}…)" if len(buttons) <= len(KEYCAPS) else ""
    return f"{text}\n\n{PRESS_HINT}{keycaps}:\n{listed}"


def pressed_number(body: str) -> int | None:
    """The number a reply to a message with buttons chooses ("2", "#2", " 2. "), or None when
    the reply is anything else (then it is a message like any other). A client's quote of the
    message replied to ("> <@kit:…> …" lines first) is left out."""
    lines = body.strip().splitlines()
    while lines and (lines[0].startswith(">") or not lines[0].strip()):
        lines.pop(0)
    match = _NUMBER.fullmatch(" ".join(lines).strip())
    return int(match.group(1)) if match else None


def keycap_number(key: str) -> int | None:
    """The number a reaction's keycap stands for (1 to 10), or None for any other reaction."""
    cleaned = key.replace("\ufe0f", "")
    for number, keycap in enumerate(KEYCAPS, 1):
        if cleaned == keycap.replace("\ufe0f", ""):
            return number
    return None
