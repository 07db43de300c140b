"""`kit tokens create|list|revoke|log`: the access tokens the owner issues to remote MCP clients
(`kit mcp --http`, docs/mcp.md), and the audit log of every remote call. Through the daemon
when one runs. A new token is printed once, alone on stdout (`--json`: an object with a "token"
field); nothing else ever shows it again."""

from __future__ import annotations

import argparse
import json
import sys
from datetime import datetime, tzinfo
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from kit.access.tokens import TokenInfo, TokenUse


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    cmd = sub.add_parser(
        "tokens",
        help="access tokens for remote MCP clients (kit mcp --http): create, list, revoke, log",
        description="Tokens the owner issues to the AI tools on other machines that reach "
        "Kit's memory over MCP's HTTP transport (kit mcp --http, or [mcp_http] in kit run). "
        "Stored hashed; a token is shown once, when it is made.",
    )
    actions = cmd.add_subparsers(dest="action", required=True, metavar="ACTION")
    create = actions.add_parser("create", help="make a token and print it (this once)")
    create.add_argument("name", help="what the token is for, e.g. laptop or claude-desktop")
    create.add_argument(
        "--read-only",
        action="store_true",
        help="the token reads memory only: remember is not offered to it",
    )
    create.add_argument(
        "--expires", type=int, metavar="DAYS", help="refused after this many days (default: never)"
    )
    create.add_argument("--json", action="store_true", help="print a JSON object")
    listing = actions.add_parser("list", help="the tokens: name, scope, created, last used")
    listing.add_argument("--json", action="store_true", help="print JSON")
    revoke = actions.add_parser("revoke", help="refuse a token from now on")
    revoke.add_argument("name", help="the token's name, as `kit tokens list` shows it")
    log = actions.add_parser("log", help="the audit log of remote calls, newest first")
    log.add_argument("--limit", type=int, default=50, help="at most this many calls (1-500)")
    log.add_argument("--json", action="store_true", help="print JSON")
    cmd.set_defaults(func=run)


async def run(args: argparse.Namespace) -> int:
    from kit.clock import SystemClock, resolve_timezone
    from kit.config import load_settings
    from kit.daemon.connect import connect_to

    settings = load_settings(args.config, args.data_dir)
    tz = resolve_timezone(settings.schedule.timezone)
    user = args.user or settings.owner.user_id
    async with connect_to(settings, user=args.user, background=False, settle=False) as client:
        if args.action == "create":
            made = await client.create_access_token(
                args.name, read_only=args.read_only, expires_days=args.expires
            )
            if args.json:
                print(json.dumps({"token": made.token, **_info_json(made.info)}))
            else:
                expiry = _when(made.info.expires_at, tz, "never expires")
                print(
                    f"Token {made.info.name!r} ({made.info.scope}, "
                    f"{'expires ' if made.info.expires_at else ''}{expiry}) for the memory of "
                    f"{user!r}. It is shown this once: copy it now. MCP clients send it as "
                    "`Authorization: Bearer <token>` (docs/mcp.md).",
                    file=sys.stderr,
                )
                print(made.token)
            return 0
        if args.action == "revoke":
            info = await client.revoke_access_token(args.name)
            print(f"Revoked token {info.name!r}: it is refused from now on.")
            return 0
        if args.action == "list":
            tokens = await client.access_tokens()
            now = SystemClock().now()
            if args.json:
                print(json.dumps([{**_info_json(t), "state": t.state(now)} for t in tokens]))
            elif not tokens:
                print(f"No access tokens in the memory of {user!r}: `kit tokens create NAME`.")
            else:
                print("\n".join(_info_line(t, tz, now) for t in tokens))
            return 0
        uses = await client.access_log(limit=args.limit)
    if args.json:
        print(json.dumps([_use_json(u) for u in uses]))
    elif not uses:
        print("No remote calls yet.")
    else:
        print("\n".join(_use_line(u, tz) for u in reversed(uses)))  # oldest first, like a log
    return 0


def _when(at: datetime | None, tz: tzinfo, none: str) -> str:
    return at.astimezone(tz).strftime("%Y-%m-%d %H:%M") if at is not None else none


def _info_line(token: TokenInfo, tz: tzinfo, now: datetime) -> str:
    state = token.state(now)
    extra = ""
    if state == "revoked":
        extra = f", revoked {_when(token.revoked_at, tz, '')}"
    elif token.expires_at is not None:
        extra = (
            f", {'expired' if state == 'expired' else 'expires'} {_when(token.expires_at, tz, '')}"
        )
    return (
        f"{token.name}  {token.scope}  {state}  created {_when(token.created_at, tz, '')}"
        f"  last used {_when(token.last_used_at, tz, 'never')}{extra}"
    )


def _info_json(token: TokenInfo) -> dict[str, Any]:
    def iso(at: datetime | None) -> str | None:
        return at.isoformat() if at is not None else None

    return {
        "name": token.name,
        "scope": token.scope,
        "read_only": token.read_only,
        "created_at": iso(token.created_at),
        "expires_at": iso(token.expires_at),
        "revoked_at": iso(token.revoked_at),
        "last_used_at": iso(token.last_used_at),
    }


def _use_line(use: TokenUse, tz: tzinfo) -> str:
    who = use.token_name or "(no token of this memory)"
    return f"{_when(use.at, tz, '')}  {who}  {use.call or '-'}  {use.peer or '-'}  {use.outcome}"


def _use_json(use: TokenUse) -> dict[str, Any]:
    return {
        "at": use.at.isoformat(),
        "token": use.token_name,  # its name: the token itself is never kept
        "call": use.call,
        "peer": use.peer,
        "outcome": use.outcome,
    }
