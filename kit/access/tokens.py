"""Access tokens: what a remote MCP client (`kit mcp --http`) shows to reach one owner's memory.

A token reads `kit_<id>_<secret>`: `id` (12 hex digits) names its row, `secret` is 256 random
bits. Only the SHA-256 of the whole token is stored, and it is compared with
`hmac.compare_digest` (constant time); the token itself is handed out once, by `create`, and
never stored, logged or shown again. A token belongs to one memory (`user_id`): on a
PostgreSQL store shared by several owners, it opens its owner's memory and nobody else's.

Every check (`authorize`) is one transaction: find the token by its id, compare the hash,
refuse a revoked or expired one, spend one call of its rate limit (kit/access/limits.py),
and write the call to the audit log (`token_uses`: when, which token, what was asked, from
where, and the outcome, refused calls too) with the token's `last_used_at`. A call whose
token names no owner (none given, not one of Kit's, an unknown id) is logged without one, and
every owner's `kit tokens log` shows it. The log keeps `KEEP_USES` of history.
"""

from __future__ import annotations

import hashlib
import hmac
import logging
import re
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta

from kit.access.limits import RateLimit
from kit.clock import Clock, from_iso, to_iso
from kit.errors import InputError, NotFound, RateLimited, Unauthorized
from kit.store.db import Database, Row, Transaction

log = logging.getLogger(__name__)

PREFIX = "kit_"
MAX_NAME_CHARS = 64
MAX_TOKEN_CHARS = 200  # far above a real one (60): what a check reads of a header at most
MAX_EXPIRES_DAYS = 3650
MAX_CALL_CHARS = 120  # what the audit log keeps of a call's description
KEEP_USES = timedelta(days=90)
_PRUNE_EVERY = timedelta(hours=1)
_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]*")
_TOKEN = re.compile(r"kit_([0-9a-f]{12})_[A-Za-z0-9_-]{43}")

ALLOWED = "allowed"
REFUSED = "Not authorised: send a valid Kit access token (Authorization: Bearer kit_...)"


@dataclass(frozen=True)
class TokenInfo:
    """A token as `kit tokens list` shows it: never the token itself."""

    name: str
    read_only: bool
    created_at: datetime
    expires_at: datetime | None
    revoked_at: datetime | None
    last_used_at: datetime | None

    def state(self, now: datetime) -> str:
        if self.revoked_at is not None:
            return "revoked"
        if self.expires_at is not None and self.expires_at <= now:
            return "expired"
        return "active"

    @property
    def scope(self) -> str:
        return "read-only" if self.read_only else "read-write"


@dataclass(frozen=True)
class NewToken:
    """A token just made: `token` is shown to the owner this once."""

    token: str
    info: TokenInfo


@dataclass(frozen=True)
class TokenUse:
    """One remote call in the audit log."""

    at: datetime
    token_name: str  # "" when the call named no token of this memory
    call: str  # e.g. "tools/call search_memory"
    peer: str  # the client's address as the server saw it
    outcome: str  # "allowed", or why it was refused


@dataclass(frozen=True)
class Grant:
    """What an accepted token opens: one memory, read-only or not."""

    user_id: str
    token_name: str
    read_only: bool


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def check_name(name: str) -> str:
    name = name.strip()
    if not name or len(name) > MAX_NAME_CHARS or not _NAME.fullmatch(name):
        raise InputError(
            f"a token's name is 1 to {MAX_NAME_CHARS} letters, digits, '.', '_' or '-', "
            "starting with a letter or digit (e.g. laptop, claude-desktop)"
        )
    return name


def _info(row: Row) -> TokenInfo:
    return TokenInfo(
        name=str(row[0]),
        read_only=bool(row[1]),
        created_at=from_iso(str(row[2])),
        expires_at=from_iso(str(row[3])) if row[3] is not None else None,
        revoked_at=from_iso(str(row[4])) if row[4] is not None else None,
        last_used_at=from_iso(str(row[5])) if row[5] is not None else None,
    )


_INFO = "name, read_only, created_at, expires_at, revoked_at, last_used_at"


class AccessTokens:
    """The tokens of every memory on one store, and their audit log."""

    def __init__(self, db: Database, clock: Clock, *, per_minute: int = 120) -> None:
        self._db = db
        self._clock = clock
        self.limit = RateLimit(per_minute)
        self._pruned_at: datetime | None = None

    async def create(
        self, user_id: str, name: str, *, read_only: bool = False, expires_days: int | None = None
    ) -> NewToken:
        name = check_name(name)
        if expires_days is not None and not 1 <= expires_days <= MAX_EXPIRES_DAYS:
            raise InputError(f"--expires is a number of days from 1 to {MAX_EXPIRES_DAYS}")
        now = self._clock.now()
        expires = now + timedelta(days=expires_days) if expires_days is not None else None
        public_id = secrets.token_hex(6)
        token = f"{PREFIX}{public_id}_{secrets.token_urlsafe(32)}"
        async with self._db.transaction() as tx:
            if await self._live(tx, user_id, name) is not None:
                raise InputError(
                    f"a token named {name!r} exists already; revoke it first "
                    f"(`kit tokens revoke {name}`) or choose another name"
                )
            await tx.insert(
                "INSERT INTO access_tokens (user_id, name, public_id, token_hash, read_only,"
                " created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
                (
                    user_id,
                    name,
                    public_id,
                    _digest(token),
                    int(read_only),
                    to_iso(now),
                    to_iso(expires) if expires is not None else None,
                ),
            )
        log.info("access token %r made for %r (%s)", name, user_id, _scope(read_only))
        return NewToken(token, TokenInfo(name, read_only, now, expires, None, None))

    async def tokens(self, user_id: str) -> list[TokenInfo]:
        rows = await self._db.fetchall(
            f"SELECT {_INFO} FROM access_tokens WHERE user_id = ? ORDER BY created_at, id",
            (user_id,),
        )
        return [_info(r) for r in rows]

    async def revoke(self, user_id: str, name: str) -> TokenInfo:
        now = self._clock.now()
        async with self._db.transaction() as tx:
            row = await self._live(tx, user_id, name.strip())
            if row is None:
                raise NotFound(
                    f"no token named {name.strip()!r} to revoke in the memory of {user_id!r}; "
                    "`kit tokens list` shows them"
                )
            await tx.execute(
                "UPDATE access_tokens SET revoked_at = ? WHERE id = ?", (to_iso(now), int(row[0]))
            )
            info = await tx.fetchone(
                f"SELECT {_INFO} FROM access_tokens WHERE id = ?", (int(row[0]),)
            )
        self.limit.forget(int(row[0]))
        log.info("access token %r of %r revoked", name.strip(), user_id)
        return _info(info)

    async def uses(self, user_id: str, *, limit: int = 50) -> list[TokenUse]:
        """The latest calls to this memory and those that named no memory, newest first."""
        rows = await self._db.fetchall(
            "SELECT at, token_name, call, peer, outcome FROM token_uses"
            " WHERE user_id = ? OR user_id IS NULL ORDER BY id DESC LIMIT ?",
            (user_id, limit),
        )
        return [
            TokenUse(from_iso(str(r[0])), str(r[1]), str(r[2]), str(r[3]), str(r[4])) for r in rows
        ]

    async def authorize(self, token: str, *, call: str = "", peer: str = "") -> Grant:
        """The grant `token` holds, with the call logged; Unauthorized (or RateLimited) with
        the refusal logged. Nothing of the token is logged or kept but its row's name."""
        now = self._clock.now()
        token = token.strip()
        shape = _TOKEN.fullmatch(token) if len(token) <= MAX_TOKEN_CHARS else None
        wait = 0.0
        grant: Grant | None = None
        async with self._db.transaction() as tx:
            row = None
            if not token:
                outcome = "no token"
            elif shape is None:
                outcome = "not a Kit token"
            else:
                row = await tx.fetchone(
                    "SELECT id, user_id, name, token_hash, read_only, expires_at, revoked_at"
                    " FROM access_tokens WHERE public_id = ?",
                    (shape.group(1),),
                )
                outcome = self._judge(row, token, now)
                if row is not None and outcome == ALLOWED:
                    wait = self.limit.take(int(row[0]), now)
                    if wait > 0:
                        outcome = "rate limited"
            await tx.insert(
                "INSERT INTO token_uses (user_id, token_id, token_name, at, call, peer, outcome)"
                " VALUES (?, ?, ?, ?, ?, ?, ?)",
                (
                    str(row[1]) if row is not None else None,
                    int(row[0]) if row is not None else None,
                    str(row[2]) if row is not None else "",
                    to_iso(now),
                    call[:MAX_CALL_CHARS],
                    peer[:MAX_CALL_CHARS],
                    outcome,
                ),
            )
            if row is not None and outcome == ALLOWED:
                await tx.execute(
                    "UPDATE access_tokens SET last_used_at = ? WHERE id = ?",
                    (to_iso(now), int(row[0])),
                )
                grant = Grant(str(row[1]), str(row[2]), bool(row[4]))
            await self._prune(tx, now)
        if grant is not None:
            return grant
        if outcome == "rate limited":
            raise RateLimited(
                f"Too many calls: this token allows {self.limit.per_minute} a minute; "
                f"try again in {wait:.0f} s",
                retry_after=wait,
            )
        log.warning("remote call refused (%s) from %s", outcome, peer or "?")
        raise Unauthorized(REFUSED)

    def _judge(self, row: Row | None, token: str, now: datetime) -> str:
        if row is None:
            return "unknown token"
        if not hmac.compare_digest(str(row[3]), _digest(token)):
            return "wrong token"
        if row[6] is not None:
            return "revoked"
        if row[5] is not None and from_iso(str(row[5])) <= now:
            return "expired"
        return ALLOWED

    async def _live(self, tx: Transaction, user_id: str, name: str) -> Row | None:
        return await tx.fetchone(
            "SELECT id FROM access_tokens WHERE user_id = ? AND name = ? AND revoked_at IS NULL",
            (user_id, name),
        )

    async def _prune(self, tx: Transaction, now: datetime) -> None:
        if self._pruned_at is not None and now - self._pruned_at < _PRUNE_EVERY:
            return
        self._pruned_at = now
        await tx.execute("DELETE FROM token_uses WHERE at < ?", (to_iso(now - KEEP_USES),))


def _scope(read_only: bool) -> str:
    return "read-only" if read_only else "read-write"
