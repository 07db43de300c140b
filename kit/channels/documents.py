"""A file sent in a chat, kept as a note of the sender's (kit/notes/) on any channel: checked
before it is fetched, named after the file or the message, and answered with one line. The
channel brings the fetching (its own download) and says where the file came from."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from kit.api import Kit
from kit.channels import replies
from kit.channels.replies import Reply
from kit.notes.metadata import name_source, screened_file_name
from kit.notes.report import added_text
from kit.notes.text import check_size, name_from_file

Fetch = Callable[[], Awaitable[bytes]]


def document_note(
    file_name: str, message_id: int | str, forwarded: str | None, channel: str = "telegram"
) -> tuple[str, str]:
    """(name, source) of a note kept from a file sent in a chat: named after the file (a
    secret in its name withheld first, kit/notes/metadata.py), else after the message."""
    name = name_from_file(
        name_source(screened_file_name(file_name)), fallback=f"{channel}-{message_id}"
    )
    source = f"{channel} message {message_id}" + (f" ({file_name})" if file_name else "")
    if forwarded is not None:
        source += f", forwarded from {forwarded or 'someone'}"
    return name, source


async def keep_document(
    kit: Kit,
    user: str,
    fetch: Fetch,
    *,
    file_name: str,
    size: int | None,
    message_id: int | str,
    forwarded: str | None,
    channel: str,
) -> Reply:
    """The file as a note: too big is refused before it is downloaded, anything that is not
    UTF-8 text after; a note of the same name is replaced (its old version kept)."""
    name, source = document_note(file_name, message_id, forwarded, channel=channel)
    check_size(size or 0, file_name or name)
    written = await kit.add_note(
        await fetch(),
        name=name,
        file_name=file_name,
        replace=True,  # no flags in a chat; the replaced version stays in the history
        user=user,
        actor="owner",
        source=source,
    )
    return Reply(f"{added_text(written)}\n{replies.NOTE_SAVED}", formatted=False)
