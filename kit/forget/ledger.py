"""The forget ledger: every forget receipt again, with its secret salt, in the data directory.

The database keeps its receipts too (receipts.py), but a restore replaces the database, and
with it the record that something was forgotten. The ledger lives beside it, in
`<data dir>/forget-ledger/`, where no restore reaches: one file per receipt,
`<receipt id>.json`, owner-only, written whole (a temporary name, synced, then linked into
place). It holds what the receipt holds (counts, ids, salted hashes: no content) and the
receipt's salt, which no other copy holds (receipt.py says why): so the ledger is also what
checks a receipt, and the reference a copy is compared with.

Every restore re-applies the ledger's forgets that the restored memory does not hold
(kit/forget/reapply.py). A forget writes its entry inside its transaction, before the commit,
and takes it back if the commit fails: a crash between the two leaves an entry for a forget
that did not happen, which a later restore applies (the owner asked for it) and `--verify`
then reports as not done, never the other way round.

Blocking file I/O throughout: async callers use `asyncio.to_thread`.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from kit.errors import InputError
from kit.files import os_error, private_dir, publish
from kit.forget.receipt import Receipt, from_document, to_document

FOLDER = "forget-ledger"
FORMAT = "kit-forget-ledger"
VERSION = 1
_ENTRY = re.compile(r"^(fr-[a-z2-7]{10})\.json$")
_SALT = re.compile(r"^[0-9a-f]{32}$")
_NEW = os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_WRONLY | os.O_CLOEXEC


class Ledger:
    """The ledger of one data directory."""

    def __init__(self, data_dir: Path) -> None:
        self.folder = data_dir / FOLDER
        self._read: dict[str, tuple[str, dict[str, Any]]] = {}  # id -> (salt, document)

    def path(self, receipt_id: str) -> Path:
        return self.folder / f"{receipt_id}.json"

    def record(self, receipt: Receipt) -> None:
        """Write the receipt's entry (salt included), whole and synced, or raise."""
        private_dir(self.folder)
        target = self.path(receipt.id)
        entry = {
            "format": FORMAT,
            "version": VERSION,
            "salt": receipt.salt,
            "receipt": to_document(receipt),
        }
        partial = target.with_name(f".{target.name}.partial")
        with contextlib.suppress(FileNotFoundError):
            partial.unlink()  # a leftover of an interrupted write (never followed: O_NOFOLLOW)
        try:
            fd = os.open(partial, _NEW, 0o600)
            try:
                with os.fdopen(fd, "w", closefd=False) as out:
                    out.write(json.dumps(entry, separators=(",", ":")) + "\n")
                os.fsync(fd)
            finally:
                os.close(fd)
            publish(partial, target)
            _sync_dir(self.folder)
        except OSError as exc:
            raise os_error(exc, target, "cannot write the forget ledger") from exc
        finally:
            with contextlib.suppress(FileNotFoundError):
                partial.unlink()
        self._read[receipt.id] = (receipt.salt, entry["receipt"])  # type: ignore[assignment]

    def discard(self, receipt_id: str) -> None:
        """Take back the entry of a forget whose transaction did not commit."""
        self._read.pop(receipt_id, None)
        with contextlib.suppress(OSError):  # never hides why the forget failed
            self.path(receipt_id).unlink()

    def salt_of(self, receipt_id: str) -> str | None:
        """The secret salt of receipt `receipt_id`, if its entry is here."""
        found = self._entry(receipt_id)
        return None if found is None else found[0]

    def document(self, receipt_id: str) -> dict[str, Any] | None:
        """The receipt as the ledger keeps it (the reference for any other copy)."""
        found = self._entry(receipt_id)
        return None if found is None else found[1]

    def get(self, receipt_id: str) -> Receipt | None:
        found = self._entry(receipt_id)
        if found is None:
            return None
        return from_document(found[1], str(self.path(receipt_id)), self.salt_of)

    def ids(self) -> list[str]:
        if not self.folder.is_dir():
            return []
        return sorted(
            m.group(1) for p in self.folder.iterdir() if (m := _ENTRY.match(p.name)) is not None
        )

    def receipts(self) -> list[Receipt]:
        """Every receipt in the ledger, checked, oldest first. A damaged entry is an error
        naming it (skipping it would quietly undo that forget at the next restore)."""
        found = [r for rid in self.ids() if (r := self.get(rid)) is not None]
        return sorted(found, key=lambda r: (r.at, r.id))

    def of_users(self, user_ids: Iterable[str]) -> list[tuple[str, Receipt]]:
        """(user id, receipt) for every receipt of one of `user_ids`, oldest first."""
        users = list(dict.fromkeys(user_ids))
        found: list[tuple[str, Receipt]] = []
        for receipt in self.receipts():
            for user in users:
                if receipt.of_user(user):
                    found.append((user, receipt))
                    break
        return found

    def _entry(self, receipt_id: str) -> tuple[str, dict[str, Any]] | None:
        if receipt_id in self._read:
            return self._read[receipt_id]
        path = self.path(receipt_id)
        if not _ENTRY.match(path.name):
            return None
        try:
            text = path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return None
        except (OSError, UnicodeDecodeError) as exc:
            raise _damaged(path, f"cannot be read: {exc}") from exc
        try:
            entry = json.loads(text)
        except (json.JSONDecodeError, RecursionError) as exc:
            raise _damaged(path, "not valid JSON") from exc
        if (
            not isinstance(entry, dict)
            or entry.get("format") != FORMAT
            or entry.get("version") != VERSION
            or not isinstance(entry.get("salt"), str)
            or not _SALT.match(entry["salt"])
            or not isinstance(entry.get("receipt"), dict)
            or entry["receipt"].get("id") != receipt_id
        ):
            raise _damaged(path, "not a forget ledger entry of this receipt")
        found = (str(entry["salt"]), entry["receipt"])
        self._read[receipt_id] = found
        return found


def _damaged(path: Path, why: str) -> InputError:
    return InputError(
        f"{path}: the forget ledger entry is damaged ({why}); put back a good copy (a backup "
        "of the data directory), or move it out of the folder to go on without it (what that "
        "forget erased is then no longer re-applied by a restore)"
    )


def _sync_dir(folder: Path) -> None:
    fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
