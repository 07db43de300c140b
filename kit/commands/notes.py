"""`kit notes`: documents Kit knows about and reads on demand.

kit notes add FILE [--name N] [--description D] [--replace]
kit notes list [--json]
kit notes show NAME [--lines A:B] [--revision ID]
kit notes rm NAME [--erase] [--yes]
kit notes history [NAME] [--json]
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import stat
import sys
from datetime import tzinfo
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kit.clock import to_iso
from kit.commands.common import open_kit, print_json, user_of
from kit.errors import InputError
from kit.notes.text import MAX_NOTE_BYTES, check_size, lines_of, size_text
from kit.text import plural

if TYPE_CHECKING:
    from kit.notes.store import NoteInfo, NoteRevision, NoteWrite

_QUIET = argparse.SUPPRESS


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    cmd = sub.add_parser(
        "notes",
        help="notes: documents Kit reads on demand (add, list, show, rm, history)",
        description="Notes are documents you give Kit: a packing list, a recipe, meeting "
        "notes. Kit sees their names and descriptions, and reads them when a question needs "
        f"them. UTF-8 text or Markdown, at most {MAX_NOTE_BYTES // 1024} KB each.",
    )
    cmd.add_argument("--json", action="store_true", help="JSON output")
    cmd.set_defaults(func=run_list)
    actions = cmd.add_subparsers(dest="notes_command", metavar="ACTION")

    add = actions.add_parser("add", help="keep a text or Markdown file as a note")
    add.add_argument("file", metavar="FILE", help="the file ('-': standard input, with --name)")
    add.add_argument("--name", help="the note's name (default: the file's name)")
    add.add_argument("--description", help="one line saying what it is (default: its title)")
    add.add_argument(
        "--replace",
        action="store_true",
        help="replace the note of that name (its current version stays in its history)",
    )
    add.add_argument("--json", action="store_true", default=_QUIET)
    add.set_defaults(func=run_add)

    listing = actions.add_parser("list", help="list notes (the default)")
    listing.add_argument("--json", action="store_true", default=_QUIET)
    listing.set_defaults(func=run_list)

    show = actions.add_parser("show", help="print a note, or some of its lines")
    show.add_argument("name", metavar="NAME")
    show.add_argument("--lines", metavar="A:B", help="only lines A to B (A:, :B and A work too)")
    show.add_argument(
        "--revision", type=int, metavar="ID", help="a kept version (kit notes history NAME)"
    )
    show.set_defaults(func=run_show)

    rm = actions.add_parser("rm", help="stop using a note (its versions stay in its history)")
    rm.add_argument("name", metavar="NAME")
    rm.add_argument(
        "--erase",
        action="store_true",
        help="erase the note and every kept version; a record keeps only that it happened",
    )
    rm.add_argument("--yes", action="store_true", help="do not ask before erasing")
    rm.set_defaults(func=run_rm)

    history = actions.add_parser("history", help="every write to notes: when, who, from where")
    history.add_argument("name", nargs="?", metavar="NAME")
    history.add_argument("--json", action="store_true", default=_QUIET)
    history.set_defaults(func=run_history)


def _read(file: str, name: str | None) -> tuple[bytes, str]:
    """The file's bytes and its name. A file is looked at before it is opened: only a regular
    file within the size limit is read (opening a FIFO would wait for a writer; a device has
    no end), and the limit names the file's real size."""
    if file == "-":
        if name is None:
            raise InputError("reading a note from standard input needs --name")
        data = sys.stdin.buffer.read(MAX_NOTE_BYTES + 1)
        if len(data) > MAX_NOTE_BYTES:
            raise InputError(
                f"standard input: more than {MAX_NOTE_BYTES // 1024} KB, the limit for a note "
                f"({MAX_NOTE_BYTES:,} bytes); split it into smaller notes"
            )
        return data, ""
    path = Path(file).expanduser()
    try:
        _check_file(path, path.stat())
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
        with os.fdopen(fd, "rb") as handle:
            _check_file(path, os.fstat(handle.fileno()))  # the same file we looked at
            return handle.read(MAX_NOTE_BYTES + 1), path.name
    except OSError as exc:
        raise InputError(f"{path}: cannot read the file ({exc.strerror or exc})") from exc


_NOT_FILES = (
    (stat.S_ISFIFO, "a named pipe (FIFO)"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
)


def _check_file(path: Path, info: os.stat_result) -> None:
    if stat.S_ISDIR(info.st_mode):
        raise InputError(f"{path}: is a directory; give a text or Markdown file")
    if not stat.S_ISREG(info.st_mode):
        kind = next((what for test, what in _NOT_FILES if test(info.st_mode)), "a special file")
        raise InputError(
            f"{path}: is {kind}, not a regular file; give a text or Markdown file (or pipe it "
            "in: kit notes add - --name NAME)"
        )
    check_size(info.st_size, path.name)


async def run_add(args: argparse.Namespace) -> int:
    import asyncio

    from kit.notes.report import added_text

    data, file_name = await asyncio.to_thread(_read, args.file, args.name)
    async with open_kit(args, with_embedder=False) as kit:
        written = await kit.add_note(
            data,
            name=args.name,
            file_name=file_name,
            description=args.description,
            replace=args.replace,
            user=user_of(args, kit),
            actor="owner",
            source=f"file {file_name}" if file_name else "standard input",
        )
    if args.json:
        print_json(_write_dict(written))
        return 0
    print(added_text(written))
    return 0


async def run_list(args: argparse.Namespace) -> int:
    async with open_kit(args, with_embedder=False) as kit:
        notes = await kit.notes(user=user_of(args, kit))
        tz = kit.tz
    if args.json:
        print_json([_info_dict(n) for n in notes])
        return 0
    if not notes:
        print("No notes yet. Add one with `kit notes add FILE`.")
    for note in notes:
        updated = note.updated_at.astimezone(tz).strftime("%Y-%m-%d")
        size = plural(note.lines, "line")
        print(f"{note.name:<24} {size:>12}  {updated}  {note.description}")
    return 0


def _line_range(text: str, total: int) -> tuple[int, int]:
    """`--lines A:B` as 1-based inclusive bounds within a note of `total` lines."""
    first, sep, last = text.partition(":")
    try:
        start = int(first) if first.strip() else 1
        end = (int(last) if last.strip() else total) if sep else start
    except ValueError:
        raise InputError(
            f"--lines {text!r}: give line numbers as A:B (e.g. 10:20), A: or :B"
        ) from None
    if start < 1 or end < start:
        raise InputError(f"--lines {text!r}: lines are numbered from 1, and B is not before A")
    if start > total:
        raise InputError(f"--lines {text!r}: the note has {total:,} lines")
    return start, min(end, total)


async def run_show(args: argparse.Namespace) -> int:
    async with open_kit(args, with_embedder=False) as kit:
        user = user_of(args, kit)
        if args.revision is not None:
            text = await kit.note_revision(args.revision, user=user)
        else:
            text = (await kit.note(args.name, user=user)).text
    lines = lines_of(text)
    if args.lines is not None:
        start, end = _line_range(args.lines, len(lines))
        lines = lines[start - 1 : end]
    sys.stdout.write("\n".join(lines) + "\n")
    return 0


async def run_rm(args: argparse.Namespace) -> int:
    import asyncio

    async with open_kit(args, with_embedder=False) as kit:
        user = user_of(args, kit)
        if not args.erase:
            note = await kit.remove_note(args.name, user=user, actor="owner")
            print(
                f'Removed note "{note.name}": Kit no longer sees it. Its versions stay in its '
                f"history (kit notes history {note.name}); `kit notes rm {note.name} --erase` "
                "erases them."
            )
            return 0
        if not args.yes:
            if not sys.stdin.isatty():
                raise InputError("add --yes to confirm the erase (nothing was changed)")
            answer = await asyncio.to_thread(
                input, f"Erase {args.name!r} and every kept version? This cannot be undone. [y/N] "
            )
            if answer.strip().lower() not in ("y", "yes"):
                print("Nothing was changed.")
                return 0
        erased = await kit.erase_note(args.name, user=user, actor="owner")
    print(
        f"Erased {plural(erased.versions, 'version')} ({size_text(erased.bytes)}) of that note. "
        "A record that an erase happened (when and how much, never what) was kept."
    )
    return 0


async def run_history(args: argparse.Namespace) -> int:
    async with open_kit(args, with_embedder=False) as kit:
        revisions = await kit.note_history(args.name, user=user_of(args, kit))
        tz = kit.tz
    if args.json:
        print_json([_revision_dict(r) for r in revisions])
        return 0
    if not revisions:
        print("No note has been written yet.")
    for revision in revisions:
        print(_revision_line(revision, tz))
    return 0


def _revision_line(r: NoteRevision, tz: tzinfo) -> str:
    at = r.at.astimezone(tz).strftime("%Y-%m-%d %H:%M")
    name = r.name or "(erased)"
    detail = []
    if r.operation in ("add", "replace", "remove"):
        detail.append(f"{plural(r.lines, 'line')}, {size_text(r.bytes)}")
    if r.withheld:
        detail.append(f"{plural(r.withheld, 'secret')} withheld")
    if r.source:
        detail.append(r.source)
    if r.operation in ("add", "replace"):
        detail.append("text kept" if r.kept else "text erased")
    return f"#{r.id:<5} {at}  {r.operation:<8} {r.actor:<9} {name:<24} {'; '.join(detail)}"


def _info_dict(note: NoteInfo) -> dict[str, Any]:
    data = dataclasses.asdict(note)
    data.update(created_at=to_iso(note.created_at), updated_at=to_iso(note.updated_at))
    return data


def _write_dict(written: NoteWrite) -> dict[str, Any]:
    return {
        "operation": written.operation,
        "note": _info_dict(written.note),
        "wrapped_lines": written.wrapped,
        "withheld": [{"line": w.line, "kind": w.kind} for w in written.withheld],
    }


def _revision_dict(revision: NoteRevision) -> dict[str, Any]:
    data = dataclasses.asdict(revision)
    data["at"] = to_iso(revision.at)
    return data
