"""A forget receipt: what one `kit forget` took, as a document that holds none of it.

It says when, the kind of scope (for a time range its dates; for a person nothing of the
name), the counts per kind, the ids of the rows erased or rewritten (ids are not content),
and salted hashes of what was erased (traces.py says what is hashed and why that is
safe to keep). `erased` is one SHA-256 over all those hashes: the hash of what was erased, in
one line. `seal` is a keyed checksum of the whole document: a receipt whose bytes were damaged
or edited no longer matches it and is refused, so a verification never runs on half a receipt.

Version 2 (this Kit writes no other) keeps the salt out of the document: it lives only in the
data directory's forget ledger (ledger.py), with a copy of the receipt. Without the salt a
receipt confirms no guess of what it erased, and cannot be re-sealed after an edit (emptied
hash lists with a recomputed seal are refused). So a receipt is checked, and verifies, only
where its ledger entry is: a receipt whose salt is not here reads as `usable` False, a record
of a forget and nothing more. Version 1 receipts (older Kits) carry their salt and a plain
SHA-256 seal: they are still read, and verify anywhere, as before.

Kit keeps every receipt (table `forget_receipts`, receipts.py, and the ledger) and `kit forget
--receipt-file FILE` saves a copy; a restore re-applies the forgets in the ledger that the
restored memory has not seen (kit/forget/reapply.py).
"""

from __future__ import annotations

import base64
import hashlib
import json
import re
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field, fields, replace
from datetime import date, datetime
from pathlib import Path
from typing import Any

from kit.clock import check_time, from_iso, to_iso
from kit.errors import InputError
from kit.forget.traces import HASH_BYTES, QUOTABLE, Hasher

FORMAT = "kit-forget-receipt"
VERSION = 2
READABLE = (1, 2)
ID_PREFIX = "fr-"
_ID = re.compile(r"^fr-[a-z2-7]{10}$")
_HASH = re.compile(rf"^[0-9a-f]{{{2 * HASH_BYTES}}}$")
_SALT_BYTES = 16
_MAX_FILE_BYTES = 512 * 1024 * 1024
_SEAL = re.compile(r"^[0-9a-f]{64}$")

# Where a version 2 receipt's salt is looked up by its id (the data directory's ledger).
SaltOf = Callable[[str], "str | None"]


@dataclass(frozen=True)
class ErasedIds:
    """Rows a forget deleted or rewrote, by table: where verification looks for leftovers
    that carry no text of their own (index entries, vectors, saved graphs)."""

    messages: tuple[int, ...] = ()
    conversations: tuple[int, ...] = ()  # of the messages; and those whose summary was cut
    facts: tuple[int, ...] = ()
    days: tuple[int, ...] = ()  # deleted or rewritten
    note_revisions: tuple[int, ...] = ()
    notes: tuple[int, ...] = ()  # taken out of use
    note_sections: tuple[int, ...] = ()
    reminders: tuple[int, ...] = ()


@dataclass(frozen=True)
class Receipt:
    id: str
    user: str  # a salted hash of the user id: whose memory, without naming them
    at: datetime
    scope: str  # "time" or "person"
    after: date | None
    before: date | None
    counts: dict[str, int]
    salt: str  # hex; "" when it is not here (a version 2 receipt from another data directory)
    messages: tuple[str, ...]  # hashes of the erased messages' fingerprints, sorted
    texts: tuple[str, ...]  # hashes of the erased texts' pieces, sorted
    ids: ErasedIds = field(default_factory=ErasedIds)
    # How many words the quotable pieces have (traces.py), to find one quoted inside a
    # longer text: counts, not words.
    lengths: tuple[int, ...] = ()
    near: tuple[str, ...] = ()  # hashes of the erased messages as `Hasher.near`, sorted
    version: int = VERSION
    seal: str = ""  # as read; kept for a receipt whose salt is not here (it cannot be re-made)

    @property
    def usable(self) -> bool:
        """Whether its salt is here, so it can check anything (see the module docstring)."""
        return bool(self.salt)

    @property
    def hasher(self) -> Hasher:
        if not self.salt:
            raise self.not_here()
        return Hasher(bytes.fromhex(self.salt))

    def not_here(self) -> InputError:
        """Why a receipt whose salt is not here cannot check anything, and what to do."""
        return InputError(
            f"forget receipt {self.id} was made with another data directory (or its ledger "
            "entry was removed): the secret that checks it is in the forget-ledger folder of "
            f"the data directory it was made in; verify it there, or copy its {self.id}.json "
            "from there into this data directory's forget-ledger folder"
        )

    @property
    def erased(self) -> str:
        """The hash of what was erased: one SHA-256 over every item hash."""
        digest = hashlib.sha256()
        kinds = [("message", self.messages), ("text", self.texts)]
        if self.version >= 2:
            kinds.append(("near", self.near))
        for kind, hashes in kinds:
            for item in hashes:
                digest.update(f"{kind}:{item}\n".encode())
        return digest.hexdigest()

    def of_user(self, user_id: str) -> bool:
        """Whether it is a receipt of `user_id`'s memory (never, when its salt is not here)."""
        return self.usable and self.hasher.user(user_id) == self.user

    def for_user(self, user_id: str) -> Receipt:
        """The same receipt bound to another user id (a restore into another namespace); one
        whose salt is not here stays as it is (it cannot be re-bound, nor checked)."""
        if not self.usable:
            return self
        return replace(self, user=self.hasher.user(user_id), seal="")

    def describe(self) -> str:
        """The scope in words (for a person, nothing of who)."""
        if self.scope == "person":
            return "a person (the name is not kept)"
        if self.after and self.before:
            return f"the days after {self.after} and before {self.before}"
        if self.before:
            return f"the days before {self.before}"
        return f"the days after {self.after}"


def new_salt() -> bytes:
    return secrets.token_bytes(_SALT_BYTES)


def new_id() -> str:
    # 50 random bits in base32, lower case: short enough to type, unlike any other memory's.
    return ID_PREFIX + base64.b32encode(secrets.token_bytes(7)).decode().lower()[:10]


def looks_like_id(text: str) -> bool:
    return bool(_ID.match(text.strip()))


# ---- as a document ------------------------------------------------------------------------


def _body(receipt: Receipt) -> dict[str, Any]:
    body = {
        "format": FORMAT,
        "version": receipt.version,
        "id": receipt.id,
        "user": receipt.user,
        "at": to_iso(receipt.at),
        "scope": {
            "kind": receipt.scope,
            "after": None if receipt.after is None else receipt.after.isoformat(),
            "before": None if receipt.before is None else receipt.before.isoformat(),
        },
        "counts": dict(sorted(receipt.counts.items())),
        "salt": receipt.salt,
        "erased": receipt.erased,
        "hashes": {
            "messages": list(receipt.messages),
            "near": list(receipt.near),
            "texts": list(receipt.texts),
        },
        "lengths": list(receipt.lengths),
        "ids": {f.name: list(getattr(receipt.ids, f.name)) for f in fields(ErasedIds)},
    }
    if receipt.version == 1:
        del body["hashes"]["near"]  # type: ignore[attr-defined]
    else:
        del body["salt"]  # the secret stays in the ledger (see the module docstring)
    return body


def _canonical(body: dict[str, Any]) -> str:
    return json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=True)


def _seal(body: dict[str, Any], salt: str) -> str:
    if body.get("version") == 1:
        return hashlib.sha256(_canonical(body).encode()).hexdigest()
    return Hasher(bytes.fromhex(salt)).seal(_canonical(body))


def to_document(receipt: Receipt) -> dict[str, Any]:
    """The receipt as Kit keeps and hands it out: no salt since version 2 (module docstring)."""
    body = _body(receipt)
    seal = _seal(body, receipt.salt) if receipt.usable else receipt.seal
    return {**body, "seal": seal}


def to_json(receipt: Receipt) -> str:
    return json.dumps(to_document(receipt), ensure_ascii=True, separators=(",", ":")) + "\n"


class _Bad(Exception):
    """One thing wrong with a receipt document (said by `from_document`'s caller)."""


def from_document(document: Any, source: str, salt_of: SaltOf | None = None) -> Receipt:
    """A receipt read back, checked whole: format, every field, the seal and the digest.
    Anything wrong is one InputError naming `source`. A version 2 receipt's salt comes from
    `salt_of` (the ledger); without it the receipt is read unchecked and not `usable`."""
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        raise InputError(f'{source}: not a Kit forget receipt (no "format": "{FORMAT}")')
    version = document.get("version")
    if version not in READABLE or type(version) is not int:
        raise InputError(
            f"{source}: forget receipt version {version!r} is not one this Kit reads (it "
            f"reads versions {', '.join(map(str, READABLE))}); upgrade Kit"
        )
    body = {k: v for k, v in document.items() if k != "seal"}
    salt: str | None = None
    if version == 1:
        salt = body.get("salt")
        if not isinstance(salt, str):
            raise _damaged(source, "salt is not text")
    elif "salt" in body:
        raise _damaged(source, "a version 2 receipt never holds its salt")
    else:
        rid = body.get("id")
        found = salt_of(rid) if salt_of is not None and isinstance(rid, str) else None
        salt = found or None
    seal = document.get("seal")
    if salt is not None:
        try:
            expected = _seal(body, salt)
        except ValueError as exc:
            raise _damaged(source, "its salt is not hex") from exc
        if seal != expected:
            raise InputError(
                f"{source}: the forget receipt is damaged or was edited (its seal does not "
                "match its content); use the copy Kit keeps (`kit forget --receipts` lists "
                "them)"
            )
    elif not isinstance(seal, str) or not _SEAL.match(seal):
        raise _damaged(source, "its seal is not a seal")
    try:
        receipt = _parse(body, salt or "", version, str(seal))
    except (_Bad, KeyError, TypeError, ValueError) as exc:
        raise _damaged(source, str(exc)) from exc
    if receipt.erased != body["erased"]:
        raise InputError(
            f"{source}: the forget receipt is damaged (its hashes do not add up to the hash "
            "of what was erased); use the copy Kit keeps (`kit forget --receipts`)"
        )
    return receipt


def _damaged(source: str, why: str) -> InputError:
    return InputError(
        f"{source}: the forget receipt is damaged ({why}); use the copy Kit keeps "
        "(`kit forget --receipts` lists them)"
    )


def _parse(body: dict[str, Any], salt: str, version: int, seal: str) -> Receipt:
    rid = _str(body, "id")
    if not _ID.match(rid):
        raise _Bad("id is not a receipt id")
    scope = body["scope"]
    if not isinstance(scope, dict) or scope.get("kind") not in ("time", "person"):
        raise _Bad("scope is not a time range or a person")
    counts = body["counts"]
    if not isinstance(counts, dict) or not all(
        isinstance(k, str) and type(v) is int and v >= 0 for k, v in counts.items()
    ):
        raise _Bad("counts are not whole numbers")
    if salt:
        if len(salt) != 2 * _SALT_BYTES:
            raise _Bad("salt has the wrong length")
        bytes.fromhex(salt)
    hashes, ids = body["hashes"], body["ids"]
    if not isinstance(hashes, dict) or not isinstance(ids, dict):
        raise _Bad("hashes or ids are not objects")
    return Receipt(
        id=rid,
        user=_hash(_str(body, "user")),
        at=check_time(from_iso(_str(body, "at")), "the receipt's time"),
        scope=scope["kind"],
        after=_day(scope.get("after")),
        before=_day(scope.get("before")),
        counts=dict(counts),
        salt=salt,
        messages=_hashes(hashes.get("messages")),
        texts=_hashes(hashes.get("texts")),
        lengths=_lengths(body.get("lengths")),
        ids=ErasedIds(**{f.name: _ids(ids.get(f.name), f.name) for f in fields(ErasedIds)}),
        near=_hashes(hashes.get("near")) if version >= 2 else (),
        version=version,
        seal="" if salt else seal,
    )


def _str(body: dict[str, Any], key: str) -> str:
    value = body[key]
    if not isinstance(value, str):
        raise _Bad(f"{key} is not text")
    return value


def _hash(value: str) -> str:
    if not _HASH.match(value):
        raise _Bad("a hash is not a hash")
    return value


def _hashes(value: Any) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise _Bad("hashes are not a list of hashes")
    return tuple(_hash(v) for v in value)


def _ids(value: Any, name: str) -> tuple[int, ...]:
    if not isinstance(value, list) or not all(type(v) is int and v > 0 for v in value):
        raise _Bad(f"ids.{name} are not row ids")
    return tuple(value)


def _lengths(value: Any) -> tuple[int, ...]:
    if not isinstance(value, list) or not all(type(v) is int and 0 < v <= QUOTABLE for v in value):
        raise _Bad("lengths are not word counts")
    return tuple(value)


def _day(value: Any) -> date | None:
    if value is None:
        return None
    if not isinstance(value, str):
        raise _Bad("a scope date is not a date")
    return date.fromisoformat(value)


def from_json(text: str, source: str, salt_of: SaltOf | None = None) -> Receipt:
    try:
        document = json.loads(text)
    except (json.JSONDecodeError, RecursionError) as exc:
        raise InputError(
            f"{source}: not a Kit forget receipt (not valid JSON); give the receipt's id or "
            "the file `kit forget --receipt-file` wrote"
        ) from exc
    return from_document(document, source, salt_of)


def read_file(path: Path, salt_of: SaltOf | None = None) -> Receipt:
    try:
        if path.stat().st_size > _MAX_FILE_BYTES:
            raise InputError(f"{path}: too big to be a forget receipt")
        data = path.read_bytes()
    except OSError as exc:
        raise InputError(f"{path}: cannot read the file ({exc.strerror})") from exc
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InputError(f"{path}: not a Kit forget receipt (not UTF-8 text)") from exc
    return from_json(text, str(path), salt_of)
