"""The owner's access tokens for remote MCP clients, as part of `Kit` (kit/api.py): issued,
listed and revoked by the owner (`kit tokens`), checked on every remote call (kit/mcp/gate.py),
each call in the audit log (kit/access/tokens.py)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from kit.api_base import KitBase

if TYPE_CHECKING:
    from kit.access.tokens import Grant, NewToken, TokenInfo, TokenUse


class Access(KitBase):
    async def create_access_token(
        self,
        name: str,
        *,
        read_only: bool = False,
        expires_days: int | None = None,
        user: str | None = None,
    ) -> NewToken:
        """A new token for this memory; the token itself is in the answer, and only there."""
        return await self.services.access.create(
            self._user(user), name, read_only=read_only, expires_days=expires_days
        )

    async def access_tokens(self, *, user: str | None = None) -> list[TokenInfo]:
        """This memory's tokens, oldest first (never the tokens themselves)."""
        return await self.services.access.tokens(self._user(user))

    async def revoke_access_token(self, name: str, *, user: str | None = None) -> TokenInfo:
        """Revoke a token by its name: refused from the next call on."""
        return await self.services.access.revoke(self._user(user), name)

    async def access_log(self, *, limit: int = 50, user: str | None = None) -> list[TokenUse]:
        """The latest remote calls to this memory (and those that named none), newest first."""
        return await self.services.access.uses(self._user(user), limit=limit)

    async def authorize(self, token: str, *, call: str = "", peer: str = "") -> Grant:
        """The memory and scope `token` opens, the call logged; Unauthorized or RateLimited
        (also logged) when it opens none."""
        return await self.services.access.authorize(token, call=call, peer=peer)
