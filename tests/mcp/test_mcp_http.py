"""`kit mcp --http`: the official MCP SDK's client over streamable HTTP against Kit's server on
a real port, a real Kit on a real store (SQLite and PostgreSQL). A token lists the tools and
finds what was imported; no token, a wrong, expired or revoked one is refused with 401 and
nothing read; a read-only token cannot write; a token opens its own memory only; calls past
the rate limit get 429; every call is in the audit log, and no token is ever logged."""

from __future__ import annotations

import hashlib
import logging
import shutil
import ssl
import subprocess
from datetime import UTC, datetime, timedelta
from pathlib import Path

import httpx
import pytest
from mcp.types import CallToolResult, TextContent

from kit.access.limits import RateLimit
from kit.api import Kit
from kit.clock import FakeClock
from kit.errors import ConfigError, InputError, NotFound
from kit.memory.messages import NewMessage
from tests.mcp.http_support import http_server, mcp_client, url_of

pytestmark = pytest.mark.stores

READING = {
    "search_memory",
    "get_day_history",
    "get_context",
    "list_facts",
    "list_notes",
    "read_note",
}
INIT = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-06-18",
        "capabilities": {},
        "clientInfo": {"name": "raw", "version": "0"},
    },
}
ACCEPT = {"Accept": "application/json, text/event-stream"}


def text_of(result: CallToolResult) -> str:
    (block,) = result.content
    assert isinstance(block, TextContent)
    return block.text


async def post(url: str, token: str | None, body: object = INIT) -> httpx.Response:
    headers = dict(ACCEPT)
    if token is not None:
        headers["Authorization"] = f"Bearer {token}"
    async with httpx.AsyncClient(timeout=60.0) as http:
        return await http.post(url, json=body, headers=headers)


async def test_a_token_lists_the_tools_and_search_finds_what_was_imported(
    kit: Kit, clock: FakeClock
) -> None:
    said = datetime(2026, 3, 1, 18, 0, tzinfo=UTC)  # the day before the clock's now
    await kit.import_messages(
        [NewMessage("user", "Our rowing club meets at the Tegel boathouse on Sundays", said, "me")]
    )
    await kit.settle()
    made = await kit.create_access_token("laptop")
    async with http_server(kit) as server, mcp_client(server, made.token) as mcp:
        assert {t.name for t in (await mcp.list_tools()).tools} == READING | {"remember"}
        found = text_of(await mcp.call_tool("search_memory", {"query": "rowing boathouse"}))
    assert "Tegel boathouse" in found and found.startswith("<memory>")
    (token,) = await kit.access_tokens()
    assert token.last_used_at == clock.now()
    calls = [u.call for u in await kit.access_log()]
    assert "tools/call search_memory" in calls and "tools/list" in calls


async def test_remember_over_http_lands_once(kit: Kit) -> None:
    made = await kit.create_access_token("desktop")
    async with http_server(kit) as server, mcp_client(server, made.token) as mcp:
        result = await mcp.call_tool(
            "remember", {"fact": "Ana's birthday is 4 May", "category": "people"}
        )
    assert not result.is_error, text_of(result)
    assert [f.content for f in await kit.facts()] == ["Ana's birthday is 4 May"]


async def test_no_wrong_expired_or_revoked_token_is_refused_with_401_and_nothing_read(
    kit: Kit, clock: FakeClock
) -> None:
    await kit.remember("The safe's code is in the blue folder", category="person")
    good = await kit.create_access_token("good")
    revoked = await kit.create_access_token("gone")
    await kit.revoke_access_token("gone")
    expiring = await kit.create_access_token("short", expires_days=1)
    wrong = good.token[:-4] + ("AAAA" if not good.token.endswith("AAAA") else "BBBB")
    async with http_server(kit) as server:
        url = url_of(server)
        clock.advance(timedelta(days=1, seconds=1))
        refused = {
            "none": await post(url, None),
            "garbage": await post(url, "hunter2"),
            "wrong": await post(url, wrong),
            "revoked": await post(url, revoked.token),
            "expired": await post(url, expiring.token),
        }
        accepted = await post(url, good.token)
    for why, answer in refused.items():
        assert answer.status_code == 401, why
        assert answer.headers["www-authenticate"].startswith("Bearer"), why
        assert "blue folder" not in answer.text and "fact" not in answer.text, why
    assert accepted.status_code == 200
    outcomes = [u.outcome for u in reversed(await kit.access_log())]
    assert outcomes == [
        "no token",
        "not a Kit token",
        "wrong token",
        "revoked",
        "expired",
        "allowed",
    ]


async def test_the_official_client_is_refused_without_a_valid_token(kit: Kit) -> None:
    await kit.create_access_token("laptop")
    async with http_server(kit) as server:
        for token in (None, "kit_000000000000_" + "x" * 43):
            with pytest.raises(Exception) as caught:  # the SDK's error, with Kit's 401 message
                async with mcp_client(server, token) as mcp:
                    await mcp.list_tools()
            assert "Not authorised: send a valid Kit access token" in repr(caught.value)


async def test_a_read_only_token_sees_the_reading_tools_and_cannot_write(kit: Kit) -> None:
    made = await kit.create_access_token("reader", read_only=True)
    async with http_server(kit) as server, mcp_client(server, made.token) as mcp:
        assert {t.name for t in (await mcp.list_tools()).tools} == READING
        result = await mcp.call_tool("remember", {"fact": "Ana likes figs"})
        assert result.is_error
        listed = text_of(await mcp.call_tool("list_facts", {}))
    assert "No facts" in listed
    assert await kit.facts() == []


async def test_a_token_opens_its_own_memory_and_no_one_elses(kit: Kit) -> None:
    """Two owners on one store: each one's token finds that owner's facts, never the other's,
    and each sees only their own tokens."""
    await kit.remember("Ana keeps bees on the roof", category="people", user="ana")
    await kit.remember("Ben keeps pigeons in the loft", category="people", user="ben")
    await kit.settle()
    ana = await kit.create_access_token("laptop", user="ana")
    ben = await kit.create_access_token("laptop", user="ben")
    async with http_server(kit) as server:
        async with mcp_client(server, ana.token) as mcp:
            seen_by_ana = text_of(await mcp.call_tool("list_facts", {}))
            searched = text_of(await mcp.call_tool("search_memory", {"query": "pigeons loft"}))
            await mcp.call_tool("remember", {"fact": "Ana's hives are blue", "category": "people"})
        async with mcp_client(server, ben.token) as mcp:
            seen_by_ben = text_of(await mcp.call_tool("list_facts", {}))
    assert "bees" in seen_by_ana and "pigeons" not in seen_by_ana and "pigeons" not in searched
    assert "pigeons" in seen_by_ben and "bees" not in seen_by_ben and "hives" not in seen_by_ben
    assert {f.content for f in await kit.facts(user="ana")} == {
        "Ana keeps bees on the roof",
        "Ana's hives are blue",
    }
    assert [t.name for t in await kit.access_tokens(user="ben")] == ["laptop"]
    assert all(u.token_name in ("", "laptop") for u in await kit.access_log(user="ben"))
    ben_calls = [u for u in await kit.access_log(user="ben") if u.token_name]
    assert ben_calls and all("list_facts" in u.call or "/" in u.call for u in ben_calls)
    assert not any("remember" in u.call for u in ben_calls)


async def test_calls_past_the_rate_limit_get_429_with_retry_after(
    kit: Kit, clock: FakeClock
) -> None:
    kit.services.access.limit = RateLimit(3)
    made = await kit.create_access_token("busy")
    async with http_server(kit) as server:
        answers = [await post(url_of(server), made.token) for _ in range(4)]
        clock.advance(timedelta(seconds=20))  # a minute holds 3: one more after 20 s
        again = await post(url_of(server), made.token)
    assert [a.status_code for a in answers] == [200, 200, 200, 429]
    assert int(answers[3].headers["retry-after"]) >= 1
    assert again.status_code == 200
    assert [u.outcome for u in await kit.access_log()][:2] == ["allowed", "rate limited"]


async def test_tokens_are_stored_hashed_and_never_logged(
    kit: Kit, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    made = await kit.create_access_token("laptop")
    other = await kit.create_access_token("old")
    await kit.revoke_access_token("old")
    async with http_server(kit) as server:
        async with mcp_client(server, made.token) as mcp:
            await mcp.call_tool("search_memory", {"query": "anything"})
        await post(url_of(server), other.token)
        await post(url_of(server), made.token[:-1] + "Z")
    rows = await kit.services.db.fetchall("SELECT * FROM access_tokens")
    dumped = repr([tuple(r) for r in rows]) + repr(
        [tuple(r) for r in await kit.services.db.fetchall("SELECT * FROM token_uses")]
    )
    for token in (made.token, other.token):
        assert token not in dumped
        assert hashlib.sha256(token.encode()).hexdigest() in dumped
        secret = token.split("_", 2)[2]  # kit_<id>_<secret>: the secret may hold "_" too
        for record in caplog.records:
            assert secret not in record.getMessage()
            assert secret not in repr(record.args)


async def test_owner_token_operations_check_their_input(kit: Kit) -> None:
    await kit.create_access_token("laptop")
    with pytest.raises(InputError, match="exists already"):
        await kit.create_access_token("laptop")
    with pytest.raises(InputError, match="name"):
        await kit.create_access_token("two words")
    with pytest.raises(InputError, match="--expires"):
        await kit.create_access_token("later", expires_days=0)
    with pytest.raises(NotFound, match="kit tokens list"):
        await kit.revoke_access_token("nothing")
    await kit.revoke_access_token("laptop")
    again = await kit.create_access_token("laptop")  # a revoked token's name is free again
    assert again.info.name == "laptop"
    assert [t.revoked_at is None for t in await kit.access_tokens()] == [False, True]


async def test_other_paths_are_not_found_and_a_huge_body_is_refused(kit: Kit) -> None:
    made = await kit.create_access_token("laptop")
    async with http_server(kit) as server, httpx.AsyncClient(timeout=60.0) as http:
        base = f"http://127.0.0.1:{server.port}"
        elsewhere = await http.get(f"{base}/", headers={"Authorization": f"Bearer {made.token}"})
        huge = await http.post(
            f"{base}/mcp",
            content=b"x" * (2 * 1024 * 1024),
            headers={"Authorization": f"Bearer {made.token}", **ACCEPT},
        )
    assert elsewhere.status_code == 404
    assert huge.status_code == 413
    assert await kit.access_log() == []  # neither reached the token check


async def test_listening_beyond_this_machine_without_tls_warns(
    kit: Kit, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING)
    async with http_server(kit, host="0.0.0.0"):
        pass
    assert any("without TLS" in r.getMessage() for r in caplog.records)


def self_signed(folder: Path) -> tuple[Path, Path]:
    """A throwaway certificate for 127.0.0.1 and its key (openssl)."""
    if shutil.which("openssl") is None:
        pytest.skip("openssl is not installed: no certificate to serve HTTPS with")
    cert, key = folder / "cert.pem", folder / "key.pem"
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
         "-nodes", "-keyout", str(key), "-out", str(cert), "-days", "1", "-subj", "/CN=127.0.0.1",
         "-addext", "subjectAltName=IP:127.0.0.1"],
        check=True, capture_output=True,
    )  # fmt: skip
    return cert, key


async def test_with_a_certificate_it_serves_https_and_still_wants_a_token(
    kit: Kit, tmp_path: Path
) -> None:
    cert, key = self_signed(tmp_path)
    made = await kit.create_access_token("laptop")
    trust = ssl.create_default_context(cafile=str(cert))
    async with (
        http_server(kit, host="0.0.0.0", tls_cert=str(cert), tls_key=str(key)) as server,
        httpx.AsyncClient(verify=trust, timeout=60.0) as http,
    ):
        url = f"https://127.0.0.1:{server.port}/mcp"
        refused = await http.post(url, json=INIT, headers=ACCEPT)
        accepted = await http.post(
            url, json=INIT, headers={**ACCEPT, "Authorization": f"Bearer {made.token}"}
        )
        with pytest.raises(httpx.RemoteProtocolError):  # plain HTTP is not answered
            await http.post(f"http://127.0.0.1:{server.port}/mcp", json=INIT, headers=ACCEPT)
    assert (refused.status_code, accepted.status_code) == (401, 200)


async def test_a_certificate_it_cannot_read_stops_it_with_one_line(
    kit: Kit, tmp_path: Path
) -> None:
    missing = str(tmp_path / "nope.pem")
    with pytest.raises(ConfigError, match=r"cannot use the TLS certificate .*nope\.pem"):
        async with http_server(kit, tls_cert=missing, tls_key=missing):
            pass
