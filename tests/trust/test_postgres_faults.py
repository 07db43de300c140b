"""PostgreSQL store faults: a wrong URL, a refused password, no right to enable pgvector, a
server that goes away in the middle of a turn or a curation pass. Each is one clear message
naming the fix, nothing is half-applied, and Kit carries on once the server is back."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import asyncpg
import pytest

from kit.api import Kit
from kit.cli import main
from kit.clock import FakeClock
from kit.config import Settings, StorageSettings
from kit.embed.hashing import HashingEmbedder
from kit.errors import ConfigError, StorageError
from kit.llm.base import LLMRequest
from kit.llm.fake import FakeLLM
from kit.store.engines import open_database
from kit.store.postgres.backoff import FIRST_PAUSE
from kit.store.postgres.database import PostgresDatabase
from tests.support import postgres
from tests.support.curation import by_category, tool_reply
from tests.support.pgproxy import FakePauses, Proxy


@pytest.fixture
def fresh_url(postgres_server: postgres.TestServer) -> Iterator[str]:
    url = postgres.fresh_database(postgres_server)
    yield url
    postgres.drop_database(postgres_server, url)


@pytest.fixture
async def proxy(postgres_server: postgres.TestServer) -> AsyncIterator[Proxy]:
    proxy = Proxy(postgres_server.target())
    await proxy.start()
    yield proxy
    await proxy.close()


def _settings(tmp_path: Path, url: str) -> Settings:
    return Settings(data_dir=tmp_path / "data", storage=StorageSettings(url=url))


async def _admin(server: postgres.TestServer, sql: str) -> None:
    conn = await asyncpg.connect(server.base)
    try:
        await conn.execute(sql)
    finally:
        await conn.close()


async def test_an_unreachable_server_is_one_line_naming_the_fix(tmp_path: Path) -> None:
    settings = _settings(tmp_path, "postgresql://kit@127.0.0.1:1/kit")
    with pytest.raises(ConfigError) as caught:
        async with open_database(settings):
            pass
    text = str(caught.value)
    assert "cannot reach the PostgreSQL server" in text and "storage.url" in text
    assert "\n" not in text and caught.value.exit_code == 2


def test_the_cli_says_so_and_exits_2(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    config = tmp_path / "config.toml"
    config.write_text('[storage]\nurl = "postgresql://kit@127.0.0.1:1/kit"\n')
    monkeypatch.setenv("KIT_CONFIG", str(config))
    monkeypatch.setenv("KIT_DATA_DIR", str(tmp_path / "data"))
    assert main(["facts"]) == 2
    err = capsys.readouterr().err.strip()
    assert "cannot reach the PostgreSQL server" in err and len(err.splitlines()) == 1


def test_a_password_in_the_config_is_refused_before_anything_connects(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    config = tmp_path / "config.toml"
    config.write_text('[storage]\nurl = "postgresql://kit:hunter2@127.0.0.1:1/kit"\n')
    monkeypatch.setenv("KIT_CONFIG", str(config))
    monkeypatch.setenv("KIT_DATA_DIR", str(tmp_path / "data"))
    assert main(["facts"]) == 2
    err = capsys.readouterr().err
    assert "PGPASSWORD" in err and "hunter2" not in err


async def test_a_refused_password_says_set_pgpassword_and_never_shows_it(
    tmp_path: Path,
    postgres_server: postgres.TestServer,
    fresh_url: str,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    if postgres_server.pgdata is None:
        pytest.skip("needs the tests' own server (its pg_hba.conf)")
    hba = postgres_server.pgdata / "pg_hba.conf"
    before = hba.read_text()
    await _admin(postgres_server, "CREATE ROLE kit_pw LOGIN PASSWORD 'right-one'")
    hba.write_text("local all kit_pw scram-sha-256\nhost all kit_pw all scram-sha-256\n" + before)
    await _admin(postgres_server, "SELECT pg_reload_conf()")
    try:
        url = fresh_url.replace("postgres@", "kit_pw@", 1)
        monkeypatch.setenv("PGPASSWORD", "wrong-one")
        with caplog.at_level(logging.DEBUG), pytest.raises(ConfigError) as caught:
            async with open_database(_settings(tmp_path, url)):
                pass
        assert "refused the password" in str(caught.value)
        assert "PGPASSWORD" in str(caught.value)
        assert "wrong-one" not in str(caught.value) + caplog.text
    finally:
        hba.write_text(before)
        await _admin(postgres_server, "SELECT pg_reload_conf()")
        await _admin(postgres_server, "DROP ROLE kit_pw")


async def test_no_right_to_enable_pgvector_names_the_statement_to_run(
    tmp_path: Path, postgres_server: postgres.TestServer
) -> None:
    url = postgres.fresh_database(postgres_server, empty=True)  # no vector extension yet
    await _admin(postgres_server, "CREATE ROLE kit_plain LOGIN")
    try:
        with pytest.raises(ConfigError) as caught:
            async with open_database(_settings(tmp_path, url.replace("postgres@", "kit_plain@"))):
                pass
        assert "CREATE EXTENSION vector" in str(caught.value)
        assert caught.value.exit_code == 2
    finally:
        postgres.drop_database(postgres_server, url)
        await _admin(postgres_server, "DROP ROLE kit_plain")


@pytest.fixture
def pauses() -> FakePauses:
    return FakePauses()


@pytest.fixture
async def behind_proxy(
    tmp_path: Path,
    proxy: Proxy,
    fresh_url: str,
    postgres_server: postgres.TestServer,
    clock: FakeClock,
    fake_llm: FakeLLM,
    pauses: FakePauses,
) -> AsyncIterator[Kit]:
    """A Kit on PostgreSQL through the proxy; its reconnect pauses are `pauses` (they end at
    once unless a test holds them, and only they move the reconnect window's clock)."""
    url = proxy.url(postgres_server.database_of(fresh_url))
    async with Kit.open(
        settings=_settings(tmp_path, url),
        llm=fake_llm,
        embedder=HashingEmbedder(),
        clock=clock,
        background=False,
    ) as kit:
        assert isinstance(kit.services.db, PostgresDatabase)
        kit.services.db.pauses = pauses
        yield kit


async def test_a_server_gone_mid_turn_keeps_the_message_and_says_so_then_kit_carries_on(
    behind_proxy: Kit, proxy: Proxy, fake_llm: FakeLLM
) -> None:
    kit = behind_proxy

    def server_goes_away(request: LLMRequest) -> str:
        proxy.cut()  # the owner's message is stored; the model answers; the server is gone
        return "a reply that cannot be stored"

    fake_llm.queue(server_goes_away)
    with pytest.raises(StorageError) as caught:
        await kit.send("remember the blue door")
    text = str(caught.value)
    assert "went away" in text and "127.0.0.1" in text and "nothing half-written" in text
    proxy.restore()
    reply = await kit.send("are you back?")  # the pool reconnects
    assert not reply.failed
    s = kit.services
    conversation = await s.messages.conversation("owner", "api", "default")
    texts = [m.text for m in await s.messages.window(conversation.id)]
    assert texts == ["remember the blue door", "are you back?", "ok"]


async def test_reads_wait_out_a_short_outage_with_backoff(
    behind_proxy: Kit, proxy: Proxy, pauses: FakePauses
) -> None:
    """Waits on events only: the outage lasts until the test ends it, the reconnect pauses are
    the test's to release, so no load can use up the reconnect window."""
    kit = behind_proxy
    await kit.send("the kettle is in the shed")
    pauses.hold()
    proxy.cut()
    search = asyncio.create_task(kit.search("kettle"))
    async with asyncio.timeout(60):  # a hang guard only
        await pauses.until(lambda asked: len(asked) >= 1)  # a read lost its connection: a pause
        pauses.release()  # ... and it tries again while the server is still away
        await proxy.refusal.wait()  # a new connection was refused
        await pauses.until(lambda asked: max(asked) > FIRST_PAUSE)  # it backs off: a longer pause
        assert not search.done()
        proxy.restore()
        pauses.let_go()
        hits = await search
    assert [h.text for h in hits][:1] == ["the kettle is in the shed"]
    assert pauses.asked[0] == FIRST_PAUSE and 2 * FIRST_PAUSE in pauses.asked


async def test_a_server_gone_mid_pass_applies_nothing_and_the_pass_runs_again(
    behind_proxy: Kit, proxy: Proxy, fake_llm: FakeLLM
) -> None:
    kit = behind_proxy
    await kit.send("Ana moved to Porto.")
    answer = by_category(
        {"people": tool_reply({"op": "INSERT", "content": "Ana lives in Porto", "confidence": 1})}
    )

    def curate_then_vanish(request: LLMRequest) -> object:
        if request.purpose == "curate:people":
            proxy.cut()  # the model answered; the server is gone before the pass is applied
        return answer(request)

    fake_llm.default = curate_then_vanish
    await kit.services.curator.curate_user("owner")  # logged; the other work goes on
    proxy.restore()
    assert await kit.facts() == []  # nothing of the pass was applied
    fake_llm.default = answer
    await kit.services.curator.curate_user("owner")
    assert [f.content for f in await kit.facts()] == ["Ana lives in Porto"]


def _cli(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], url: str,
    *argv: str,
) -> tuple[int, str]:  # fmt: skip
    config = tmp_path / "config.toml"
    config.write_text(
        f'[storage]\nurl = "{url}"\n[embedding]\nmodel_path = "{tmp_path / "no-model"}"\n'
        '[schedule]\ntimezone = "UTC"\n'
    )
    monkeypatch.setenv("KIT_CONFIG", str(config))
    monkeypatch.setenv("KIT_DATA_DIR", str(tmp_path / "data"))
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out + captured.err


async def test_a_commit_cut_short_by_a_shutdown_stays_a_cancellation(
    fresh_url: str, tmp_path: Path
) -> None:
    """`kit run` stops by cancelling its tasks: one cancelled while its COMMIT runs must end
    cancelled. Turned into a StorageError, the cancellation was lost, the task went on (a
    failed job, "will retry") and the daemon did not stop (a CI run of
    tests/workers/test_two_daemons.py: "kit run did not stop within 30.0s")."""
    admin = await asyncpg.connect(fresh_url)
    try:
        await admin.execute(
            """CREATE TABLE slow_commit (id SERIAL PRIMARY KEY);
            CREATE FUNCTION slow() RETURNS trigger LANGUAGE plpgsql AS
                $$ BEGIN PERFORM pg_sleep(60); RETURN NULL; END $$;
            CREATE CONSTRAINT TRIGGER slow_at_commit AFTER INSERT ON slow_commit
                DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION slow();"""
        )
        async with open_database(_settings(tmp_path, fresh_url)) as db:

            async def write() -> None:
                async with db.transaction() as tx:
                    await tx.execute("INSERT INTO slow_commit DEFAULT VALUES")

            task = asyncio.create_task(write())
            committing = (
                "SELECT COUNT(*) FROM pg_stat_activity WHERE query = 'COMMIT' AND state = 'active'"
            )
            async with asyncio.timeout(30):
                while not await admin.fetchval(committing):  # noqa: ASYNC110 - the server's state offers no event
                    await asyncio.sleep(0.01)
            task.cancel()
            with pytest.raises(asyncio.CancelledError):
                await task
        assert await admin.fetchval("SELECT COUNT(*) FROM slow_commit") == 0  # nothing kept
    finally:
        await admin.close()


def test_doctor_names_the_server_its_version_and_pgvector(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    fresh_url: str,
    postgres_server: postgres.TestServer,
) -> None:
    code, out = _cli(tmp_path, monkeypatch, capsys, fresh_url, "doctor", "--offline")
    (line,) = [x for x in out.splitlines() if "database" in x]
    name = postgres_server.database_of(fresh_url)
    assert "PostgreSQL 1" in line and "pgvector 0." in line and name in line
    unreachable = "postgresql://kit@127.0.0.1:1/kit"
    code, out = _cli(tmp_path, monkeypatch, capsys, unreachable, "doctor", "--offline")
    (line,) = [x for x in out.splitlines() if "database" in x]
    assert code != 0 and "cannot reach the PostgreSQL server" in line


def test_kit_backup_on_postgres_points_to_pg_dump(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    url = "postgresql://kit@db.example:5432/kit"
    code, out = _cli(tmp_path, monkeypatch, capsys, url, "backup", str(tmp_path / "copy.db"))
    assert code == 2 and "pg_dump" in out and "kit export" in out
