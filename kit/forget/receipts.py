"""The receipts Kit keeps (table `forget_receipts`, m027), and what they refuse.

A receipt is kept per user, whole (its sealed document) with its header beside it for
listing. Naming one: its id (`fr-` and ten letters or digits), or the path of a copy
`kit forget --receipt-file` saved. An id this user has no receipt under, a damaged file, or a
receipt of another user's memory is one clear error and nothing else happens.

Messages a receipt erased are refused when they come back by `kit import` or the restore of
an export (`ForgottenCheck`): the import is one transaction, so a refusal leaves nothing
behind; `allow_forgotten` imports them anyway, and the receipt then no longer verifies.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any, Protocol

from kit.clock import from_iso, to_iso
from kit.errors import InputError, NotFound
from kit.forget.receipt import (
    Receipt,
    from_document,
    looks_like_id,
    read_file,
    to_document,
)
from kit.store.db import Database, Transaction


@dataclass(frozen=True)
class ReceiptInfo:
    """A kept receipt, as a listing shows it."""

    id: str
    at: datetime
    scope: str  # in words: the dates of a time range; for a person, nothing of who
    counts: dict[str, int]
    erased: str  # the hash of what was erased


def info(receipt: Receipt) -> ReceiptInfo:
    return ReceiptInfo(receipt.id, receipt.at, receipt.describe(), receipt.counts, receipt.erased)


async def save(tx: Transaction, user_id: str, receipt: Receipt) -> None:
    document = to_document(receipt)
    await tx.execute(
        "INSERT INTO forget_receipts (user_id, receipt_id, at, scope, counts_json, erased,"
        " document) VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (user_id, receipt_id) DO NOTHING",
        (
            user_id,
            receipt.id,
            to_iso(receipt.at),
            receipt.describe(),
            json.dumps(receipt.counts, sort_keys=True),
            receipt.erased,
            json.dumps(document, separators=(",", ":")),
        ),
    )


class Reads(Protocol):
    """A database, or an open transaction."""

    async def fetchall(self, sql: str, params: Any = ()) -> list[Any]: ...


async def kept(db: Reads, user_ids: Iterable[str]) -> list[Receipt]:
    """Every receipt kept for these users, oldest first."""
    found: list[Receipt] = []
    for user_id in dict.fromkeys(user_ids):
        for rid, document in await db.fetchall(
            "SELECT receipt_id, document FROM forget_receipts WHERE user_id = ?"
            " ORDER BY at, receipt_id",
            (user_id,),
        ):
            found.append(from_document(json.loads(document), f"forget receipt {rid}"))
    return found


class ForgottenMessages(InputError):
    """An import would bring back messages a forget erased."""


class ForgetReceipts:
    def __init__(self, db: Database) -> None:
        self._db = db

    async def listing(self, user_id: str) -> list[ReceiptInfo]:
        rows = await self._db.fetchall(
            "SELECT receipt_id, at, scope, counts_json, erased FROM forget_receipts"
            " WHERE user_id = ? ORDER BY at, receipt_id",
            (user_id,),
        )
        return [
            ReceiptInfo(str(r[0]), from_iso(str(r[1])), str(r[2]), json.loads(r[3]), str(r[4]))
            for r in rows
        ]

    async def all_of(self, user_ids: Iterable[str]) -> list[Receipt]:
        return await kept(self._db, user_ids)

    async def get(self, user_id: str, receipt_id: str) -> Receipt:
        """The receipt `receipt_id` of `user_id`'s memory."""
        rid = receipt_id.strip().lower()
        if not looks_like_id(rid):
            raise InputError(
                f"{receipt_id!r} is neither a forget receipt id (like fr-k3m9q2xa7b) nor a "
                "receipt file; `kit forget --receipts` lists the ids"
            )
        row = await self._db.fetchone(
            "SELECT document FROM forget_receipts WHERE user_id = ? AND receipt_id = ?",
            (user_id, rid),
        )
        if row is not None:
            receipt = from_document(json.loads(row[0]), f"forget receipt {rid}")
            self._check_user(receipt, user_id, rid)
            return receipt
        other = await self._db.fetchone(
            "SELECT 1 FROM forget_receipts WHERE receipt_id = ?", (rid,)
        )
        if other is not None:
            raise _of_another_user(rid, user_id)
        raise NotFound(
            f"no forget receipt {rid} in the memory of {user_id!r}; `kit forget --receipts` "
            "lists the ones kept"
        )

    async def resolve(self, user_id: str, given: str) -> Receipt:
        """A receipt named by id, or by the path of a saved copy."""
        receipt = await asyncio.to_thread(_from_file, given)
        if receipt is None:
            return await self.get(user_id, given)
        self._check_user(receipt, user_id, receipt.id)
        return receipt

    @staticmethod
    def _check_user(receipt: Receipt, user_id: str, rid: str) -> None:
        if not receipt.of_user(user_id):
            raise _of_another_user(rid, user_id)


def _of_another_user(rid: str, user_id: str) -> InputError:
    return InputError(
        f"forget receipt {rid} is of another user's memory, not {user_id!r}'s; verify it as "
        "that user (--user), where its forget ran"
    )


def _from_file(given: str) -> Receipt | None:
    """The receipt in the file `given` names; None when `given` is an id, not a path."""
    if looks_like_id(given):
        return None
    path = Path(given).expanduser()
    if not (path.exists() or _path_like(given)):
        return None
    if not path.is_file():
        raise InputError(f"{given}: no such receipt file")
    return read_file(path)


def _path_like(text: str) -> bool:
    return "/" in text or text.endswith(".json") or text.startswith((".", "~"))


@dataclass(frozen=True)
class ReceiptMatch:
    receipt_id: str
    at: datetime  # when that forget ran
    messages: int  # how many incoming messages it had erased


class ForgottenCheck:
    """Counts the incoming messages that receipts erased (by their fingerprints)."""

    def __init__(self, receipts: Sequence[Receipt]) -> None:
        self._receipts = [(r, r.hasher, frozenset(r.messages)) for r in receipts if r.messages]
        self._counts: dict[str, int] = {}

    def __bool__(self) -> bool:
        return bool(self._receipts)

    def see(self, at: str, role: str, speaker: str, text: str) -> None:
        for receipt, hasher, erased in self._receipts:
            if hasher.message(at, role, speaker, text) in erased:
                self._counts[receipt.id] = self._counts.get(receipt.id, 0) + 1

    @property
    def matches(self) -> list[ReceiptMatch]:
        return [
            ReceiptMatch(r.id, r.at, self._counts[r.id])
            for r, _, _ in self._receipts
            if r.id in self._counts
        ]

    def refusal(self, what: str) -> ForgottenMessages | None:
        """The one-line refusal for `what` ("this import"), or None when nothing matched."""
        matches = self.matches
        if not matches:
            return None
        return ForgottenMessages(
            f"{flagged(matches, what)}; nothing was imported. To import them anyway, add "
            "--allow-forgotten (the receipt then no longer verifies)"
        )


def flagged(matches: Sequence[ReceiptMatch], what: str) -> str:
    """ "3 messages of this import were erased by `kit forget` (receipt fr-..., 2026-03-02)"."""
    total = sum(m.messages for m in matches)
    first = matches[0]
    more = "" if len(matches) == 1 else f" and {len(matches) - 1} more"
    noun = "message" if total == 1 else "messages"
    verb = "was" if total == 1 else "were"
    return (
        f"{total:,} {noun} of {what} {verb} erased by `kit forget` (receipt {first.receipt_id}"
        f", {first.at.date()}{more})"
    )
