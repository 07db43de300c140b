"""The receipts Kit keeps (table `forget_receipts`, m027, and the data directory's forget
ledger, ledger.py), and what they refuse.

A receipt is kept per user, whole (its sealed document) with its header beside it for
listing, and again in the ledger with its salt. Naming one: its id (`fr-` and ten letters or
digits), or the path of a copy `kit forget --receipt-file` saved. The ledger's copy is the
reference: it is used when the database's differs or is gone (after a restore), and a saved
copy that differs from it is refused. An id this user has no receipt under, a damaged file, or
a receipt of another user's memory is one clear error and nothing else happens.

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
from kit.forget.ledger import Ledger
from kit.forget.receipt import (
    Receipt,
    SaltOf,
    from_document,
    looks_like_id,
    read_file,
    to_document,
)
from kit.forget.traces import Hasher
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
    """Keep `receipt` in `user_id`'s memory (a receipt it keeps already is left as it is)."""
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


async def kept(db: Reads, user_ids: Iterable[str], salt_of: SaltOf | None = None) -> list[Receipt]:
    """Every receipt kept for these users, oldest first (`salt_of`: the ledger's, which
    makes version 2 receipts `usable`)."""
    found: list[Receipt] = []
    for user_id in dict.fromkeys(user_ids):
        for rid, document in await db.fetchall(
            "SELECT receipt_id, document FROM forget_receipts WHERE user_id = ?"
            " ORDER BY at, receipt_id",
            (user_id,),
        ):
            found.append(from_document(json.loads(document), f"forget receipt {rid}", salt_of))
    return found


async def kept_and_ledger(
    db: Reads, user_ids: Iterable[str], ledger: Ledger | None
) -> list[Receipt]:
    """The receipts of these users the database keeps and the ones only the ledger has (a
    restore took them out of the database), the ledger's copy preferred; oldest first."""
    users = list(dict.fromkeys(user_ids))
    salt_of = None if ledger is None else ledger.salt_of
    found = {r.id: r for r in await kept(db, users, salt_of)}
    if ledger is not None:
        for _, receipt in await asyncio.to_thread(ledger.of_users, users):
            found[receipt.id] = receipt
    return sorted(found.values(), key=lambda r: (r.at, r.id))


class ForgottenMessages(InputError):
    """An import would bring back messages a forget erased."""


class ForgetReceipts:
    def __init__(self, db: Database, ledger: Ledger | None = None) -> None:
        self._db = db
        self._ledger = ledger
        self._salt_of = None if ledger is None else ledger.salt_of

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
        return await kept_and_ledger(self._db, user_ids, self._ledger)

    async def get(self, user_id: str, receipt_id: str) -> Receipt:
        """The receipt `receipt_id` of `user_id`'s memory."""
        rid = receipt_id.strip().lower()
        if not looks_like_id(rid):
            raise InputError(
                f"{receipt_id!r} is neither a forget receipt id (like fr-k3m9q2xa7b) nor a "
                "receipt file; `kit forget --receipts` lists the ids"
            )
        reference = await asyncio.to_thread(self._from_ledger, rid)
        row = await self._db.fetchone(
            "SELECT document FROM forget_receipts WHERE user_id = ? AND receipt_id = ?",
            (user_id, rid),
        )
        if row is not None:
            receipt = from_document(json.loads(row[0]), f"forget receipt {rid}", self._salt_of)
            if reference is not None and not same_record(reference, receipt):
                # The ledger's copy is the reference (the module docstring): an edited row
                # changes nothing.
                receipt = reference.for_user(user_id) if receipt.of_user(user_id) else reference
            self._check_user(receipt, user_id, rid)
            return receipt
        if reference is not None:
            self._check_user(reference, user_id, rid)
            return reference
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
        """A receipt named by id, or by the path of a saved copy (which must be the ledger's
        receipt, when the ledger has one by its id)."""
        receipt = await asyncio.to_thread(_from_file, given, self._salt_of)
        if receipt is None:
            return await self.get(user_id, given)
        reference = await asyncio.to_thread(self._from_ledger, receipt.id)
        if reference is not None and not same_record(reference, receipt):
            raise InputError(
                f"{given}: does not match forget receipt {receipt.id} as Kit's forget ledger "
                f"keeps it (it was edited); verify by its id instead: kit forget --verify "
                f"{receipt.id}"
            )
        self._check_user(receipt, user_id, receipt.id)
        return receipt

    def _from_ledger(self, receipt_id: str) -> Receipt | None:
        return None if self._ledger is None else self._ledger.get(receipt_id)

    @staticmethod
    def _check_user(receipt: Receipt, user_id: str, rid: str) -> None:
        if not receipt.usable:
            raise receipt.not_here()
        if not receipt.of_user(user_id):
            raise _of_another_user(rid, user_id)


def same_record(a: Receipt, b: Receipt) -> bool:
    """Whether two copies of a receipt say the same (whose memory and the seal aside)."""
    return (a.id, a.at, a.scope, a.after, a.before, a.counts, a.version) == (
        b.id,
        b.at,
        b.scope,
        b.after,
        b.before,
        b.counts,
        b.version,
    ) and (a.messages, a.near, a.texts, a.lengths, a.ids) == (
        b.messages,
        b.near,
        b.texts,
        b.lengths,
        b.ids,
    )


def _of_another_user(rid: str, user_id: str) -> InputError:
    return InputError(
        f"forget receipt {rid} is of another user's memory, not {user_id!r}'s; verify it as "
        "that user (--user), where its forget ran"
    )


def _from_file(given: str, salt_of: SaltOf | None) -> Receipt | None:
    """The receipt in the file `given` names; None when `given` is an id, not a path."""
    if looks_like_id(given):
        return None
    path = Path(given).expanduser()
    if not (path.exists() or _path_like(given)):
        return None
    if not path.is_file():
        raise InputError(f"{given}: no such receipt file")
    return read_file(path, salt_of)


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
        self._receipts = [
            (r, r.hasher, frozenset(r.messages), frozenset(r.near))
            for r in receipts
            if r.messages and r.usable  # one whose salt is not here can check nothing
        ]
        self._counts: dict[str, int] = {}

    def __bool__(self) -> bool:
        return bool(self._receipts)

    def see(self, at: str, role: str, speaker: str, text: str) -> None:
        for receipt, hasher, erased, near in self._receipts:
            if erased_message(hasher, erased, near, at, role, speaker, text):
                self._counts[receipt.id] = self._counts.get(receipt.id, 0) + 1

    @property
    def matches(self) -> list[ReceiptMatch]:
        return [
            ReceiptMatch(r.id, r.at, self._counts[r.id])
            for r, _, _, _ in self._receipts
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


def erased_message(
    hasher: Hasher,
    erased: frozenset[str],
    near: frozenset[str],
    at: str,
    role: str,
    speaker: str,
    text: str,
) -> bool:
    """Whether a message is one a receipt erased: the same (time, role, speaker, text), or,
    for a version 2 receipt, the same near it (traces.py `near`: a little later, a space more)."""
    if hasher.message(at, role, speaker, text) in erased:
        return True
    return bool(near) and any(h in near for h in hasher.near_any(at, role, speaker, text))


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
