"""Issue 30: forgetting survives a restore, and one owner's restore touches one owner.

`kit backup`, `kit forget --person X --yes`, `kit restore` the backup used to bring X's
messages and facts back, with the receipts gone too (`--verify` answered "no forget
receipt"). Now the forget ledger in the data directory (kit/forget/ledger.py), which no
restore replaces, is re-applied by every restore, the report says so, and `--allow-forgotten`
is the only way back. Restoring one owner's export into a store of several owners used to drop
every other owner's memory; now it replaces that owner's only, and a backup over several
owners needs `--all-owners`."""

from __future__ import annotations

import asyncio
import json
import sqlite3
from pathlib import Path

import pytest

from kit.api import Kit
from kit.cli import main
from kit.clock import FakeClock
from kit.config import Settings
from kit.embed.hashing import HashingEmbedder
from kit.llm.fake import FakeLLM
from kit.memory.messages import NewMessage

pytestmark = pytest.mark.stores

ANA = "Ana likes tulips and jazz on Sundays."
BOILER = "The boiler needs a service in March."


class Cli:
    """`kit` as the owner types it, on the test's store (SQLite, or a PostgreSQL database)."""

    def __init__(
        self,
        settings: Settings,
        monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str],
    ) -> None:
        self.settings = settings
        self.capsys = capsys
        config = settings.data_dir.parent / "config.toml"
        url = f'[storage]\nurl = "{settings.storage.url}"\n' if settings.storage.url else ""
        config.write_text('[schedule]\ntimezone = "UTC"\n' + url)
        monkeypatch.setenv("KIT_CONFIG", str(config))
        monkeypatch.setenv("KIT_DATA_DIR", str(settings.data_dir))

    def __call__(self, *args: str) -> tuple[int, str, str]:
        self.capsys.readouterr()
        code = main(list(args))
        out = self.capsys.readouterr()
        return code, out.out, out.err

    def ok(self, *args: str) -> str:
        code, out, err = self(*args)
        assert code == 0, err + out
        return out


@pytest.fixture
def cli(
    settings: Settings, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> Cli:
    return Cli(settings, monkeypatch, capsys)


def _chat(tmp_path: Path, name: str, *lines: tuple[str, str]) -> Path:
    path = tmp_path / name
    path.write_text(
        "".join(json.dumps({"role": "user", "text": t, "at": at}) + "\n" for t, at in lines)
    )
    return path


def _memory(cli: Cli, tmp_path: Path, user: str = "owner") -> None:
    chat = _chat(
        tmp_path,
        f"{user}.jsonl",
        (ANA, "2026-01-05T10:00:00Z"),
        (BOILER, "2026-02-10T10:05:00Z"),
    )
    cli.ok("--user", user, "import", "--no-embed", str(chat))
    cli.ok("--user", user, "facts", "add", "Ana is the owner's sister, she lives in Lisbon.")


async def _texts(settings: Settings, clock: FakeClock, user: str = "owner") -> list[str]:
    async with Kit.open(
        settings=settings, llm=FakeLLM(), embedder=HashingEmbedder(), clock=clock, background=False
    ) as kit:
        facts = [f.content for f in await kit.facts(user=user, include_inactive=True)]
        rows = await kit.services.db.fetchall(
            "SELECT text FROM messages WHERE user_id = ? ORDER BY id", (user,)
        )
        return [str(r[0]) for r in rows] + facts


def _receipt_id(cli: Cli, user: str = "owner") -> str:
    return cli.ok("--user", user, "forget", "--receipts").splitlines()[-1].split()[0]


# ---- a backup restored after a forget (SQLite: a backup is a SQLite file) -----------------


@pytest.mark.stores("sqlite")
def test_a_backup_restored_after_a_forget_does_not_bring_the_person_back(
    cli: Cli, settings: Settings, clock: FakeClock, tmp_path: Path
) -> None:
    _memory(cli, tmp_path)
    backup = tmp_path / "before.db"
    cli.ok("backup", str(backup))
    cli.ok("forget", "--person", "Ana", "--yes")
    rid = _receipt_id(cli)
    out = cli.ok("restore", str(backup))
    texts = asyncio.run(_texts(settings, clock))
    assert BOILER in texts
    assert not [t for t in texts if "Ana" in t], texts  # the message and the fact stay erased
    assert f"Re-applied 1 forget made after {backup} was written" in out
    assert f"receipt {rid} (" in out and "1 message, 1 fact" in out
    assert "kit restore again with --allow-forgotten" in out
    out = cli.ok("forget", "--verify", rid)  # no receipt file: the restored memory keeps it
    assert "verifies" in out
    assert b"tulips" not in settings.database_path.read_bytes()


@pytest.mark.stores("sqlite")
def test_allow_forgotten_is_the_only_way_back_and_then_the_receipt_fails(
    cli: Cli, settings: Settings, clock: FakeClock, tmp_path: Path
) -> None:
    _memory(cli, tmp_path)
    backup = tmp_path / "before.db"
    cli.ok("backup", str(backup))
    cli.ok("forget", "--person", "Ana", "--yes")
    rid = _receipt_id(cli)
    out = cli.ok("restore", "--allow-forgotten", str(backup))
    assert "Not re-applied (--allow-forgotten): 1 forget made after" in out
    assert f"receipt {rid} (" in out and "1 message, 1 fact" in out and " back" in out
    assert ANA in asyncio.run(_texts(settings, clock))
    code, out, _ = cli("forget", "--verify", rid)
    assert code == 1 and "does NOT verify" in out


@pytest.mark.stores("sqlite")
def test_the_ledger_alone_reapplies_a_forget_when_the_database_is_lost(
    cli: Cli, settings: Settings, clock: FakeClock, tmp_path: Path
) -> None:
    """kit.db gone (a disk, a bad copy): the receipt lived in it, and in the ledger, which a
    restore re-applies; a time range too, by its dates."""
    _memory(cli, tmp_path)
    backup = tmp_path / "before.db"
    cli.ok("backup", str(backup))
    cli.ok("forget", "--before", "2026-02-01", "--yes")
    rid = _receipt_id(cli)
    lost = tmp_path / "lost"
    lost.mkdir()
    for part in settings.data_dir.glob("kit.db*"):
        part.rename(lost / part.name)
    assert (settings.data_dir / "forget-ledger" / f"{rid}.json").exists()
    out = cli.ok("restore", str(backup))
    assert f"receipt {rid} (" in out
    texts = asyncio.run(_texts(settings, clock))
    assert ANA not in texts and BOILER in texts
    assert "verifies" in cli.ok("forget", "--verify", rid)


@pytest.mark.stores("sqlite")
def test_a_restore_never_touches_the_ledger(cli: Cli, settings: Settings, tmp_path: Path) -> None:
    _memory(cli, tmp_path)
    backup = tmp_path / "before.db"
    cli.ok("backup", str(backup))
    cli.ok("forget", "--person", "Ana", "--yes")
    ledger = settings.data_dir / "forget-ledger"
    before = {p.name: p.read_bytes() for p in ledger.iterdir()}
    assert len(before) == 1 and all(p.stat().st_mode & 0o777 == 0o600 for p in ledger.iterdir())
    assert ledger.stat().st_mode & 0o777 == 0o700
    cli.ok("restore", str(backup))
    cli.ok("restore", "--allow-forgotten", str(backup))
    assert {p.name: p.read_bytes() for p in ledger.iterdir()} == before
    assert b"tulips" not in b"".join(before.values())  # salted hashes only


# ---- an export restored after a forget: both stores -----------------------------------------


def test_an_export_restored_after_a_forget_reapplies_it(
    cli: Cli, settings: Settings, clock: FakeClock, tmp_path: Path
) -> None:
    _memory(cli, tmp_path)
    export = tmp_path / "before.json"
    cli.ok("export", "-o", str(export))
    cli.ok("forget", "--person", "Ana", "--yes")
    rid = _receipt_id(cli)
    out = cli.ok("restore", str(export))
    assert f"Re-applied 1 forget made after {export} was written" in out and rid in out
    texts = asyncio.run(_texts(settings, clock))
    assert BOILER in texts and not [t for t in texts if "Ana" in t]
    assert "verifies" in cli.ok("forget", "--verify", rid)


# ---- one owner's restore touches one owner ----------------------------------------------------


def test_restoring_one_owners_export_keeps_every_other_owners_memory(
    cli: Cli, settings: Settings, clock: FakeClock, tmp_path: Path
) -> None:
    _memory(cli, tmp_path, "owner")
    _memory(cli, tmp_path, "bob")
    bob_before = asyncio.run(_texts(settings, clock, "bob"))
    export = tmp_path / "owner.json"
    cli.ok("export", "-o", str(export))
    later = _chat(tmp_path, "later.jsonl", ("Bought a new kettle today.", "2026-02-20T09:00:00Z"))
    cli.ok("import", "--no-embed", str(later))
    out = cli.ok("restore", str(export))
    assert "It replaced the memory of 'owner' only" in out
    assert asyncio.run(_texts(settings, clock, "bob")) == bob_before
    owner = asyncio.run(_texts(settings, clock, "owner"))
    assert ANA in owner and "Bought a new kettle today." not in owner
    if not settings.storage.url:
        assert "The memory of the other owners ('bob') went across unchanged." in out
        assert "The previous database is kept (nothing was deleted)" in out
    else:
        (aside,) = settings.data_dir.glob("kit-export-owner-before-restore-*.json")
        assert str(aside) in out and aside.stat().st_mode & 0o777 == 0o600
        assert "Bought a new kettle today." in aside.read_text()
        assert "bob" not in json.loads(aside.read_text())["user_id"]


def test_an_owners_access_tokens_outlive_the_restore_of_their_export(
    cli: Cli, tmp_path: Path
) -> None:
    """Tokens are credentials, not memory: a device of the owner keeps working."""
    _memory(cli, tmp_path)
    export = tmp_path / "owner.json"
    cli.ok("export", "-o", str(export))
    cli.ok("tokens", "create", "laptop")
    cli.ok("restore", str(export))
    assert "laptop" in cli.ok("tokens", "list")


@pytest.mark.stores("sqlite")
def test_a_backup_over_a_store_of_several_owners_needs_all_owners(
    cli: Cli, settings: Settings, clock: FakeClock, tmp_path: Path
) -> None:
    _memory(cli, tmp_path, "owner")
    backup = tmp_path / "one-owner.db"
    cli.ok("backup", str(backup))
    _memory(cli, tmp_path, "bob")
    database = settings.database_path
    before = database.read_bytes()
    code, out, err = cli("restore", str(backup))
    assert code == 2 and err.count("\n") == 1 and out == ""
    assert "holds the memory of 2 owners ('bob', 'owner')" in err and "--all-owners" in err
    assert database.read_bytes() == before
    out = cli.ok("restore", "--all-owners", str(backup))
    assert "It holds the memory of 'owner'." in out
    assert "It replaced the memory of 'bob', 'owner': every owner kit.db held." in out
    assert asyncio.run(_texts(settings, clock, "bob")) == []


def _zero_page_of(database: Path, table: str) -> None:
    conn = sqlite3.connect(database)
    page = conn.execute("PRAGMA page_size").fetchone()[0]
    root = conn.execute("SELECT rootpage FROM sqlite_master WHERE name = ?", (table,)).fetchone()[0]
    conn.close()
    with database.open("r+b") as handle:
        handle.seek((root - 1) * page)
        handle.write(b"\x00" * page)


@pytest.mark.stores("sqlite")
@pytest.mark.parametrize("damage", ["not-sqlite", "damaged-page"])
def test_an_export_over_a_database_that_cannot_be_read_needs_all_owners(
    cli: Cli, settings: Settings, clock: FakeClock, tmp_path: Path, damage: str
) -> None:
    _memory(cli, tmp_path)
    export = tmp_path / "owner.json"
    cli.ok("export", "-o", str(export))
    if damage == "not-sqlite":
        settings.database_path.write_bytes(b"not a database at all" * 100)
    else:
        _zero_page_of(settings.database_path, "facts")
    before = settings.database_path.read_bytes()
    code, _, err = cli("restore", str(export))
    assert code == 2 and "cannot be read" in err and "--all-owners" in err, err
    assert err.count("\n") == 1 and settings.database_path.read_bytes() == before
    out = cli.ok("restore", "--all-owners", str(export))
    assert "the memory of 'owner'" in out
    assert ANA in asyncio.run(_texts(settings, clock))


def test_an_erased_message_brought_back_a_microsecond_later_with_a_space_is_refused(
    cli: Cli, settings: Settings, tmp_path: Path
) -> None:
    """Issue 30 (low): the re-import check compared the time to the microsecond and the text
    exactly; now it normalises the text (spaces, case) and takes any time within the hour."""
    _memory(cli, tmp_path)
    cli.ok("forget", "--person", "Ana", "--yes")
    rid = _receipt_id(cli)
    moved = _chat(
        tmp_path,
        "moved.jsonl",
        (ANA + " ", "2026-01-05T10:00:00.000001Z"),
        ("  ana LIKES tulips and jazz on sundays.", "2026-01-05T10:40:00Z"),
    )
    code, _, err = cli("import", "--no-embed", str(moved))
    assert (
        code == 2 and f"2 messages of this import were erased by `kit forget` (receipt {rid}" in err
    )
    cli.ok("import", "--no-embed", "--allow-forgotten", str(moved))
    code, out, _ = cli("forget", "--verify", rid)
    assert code == 1 and "erased messages back (imported or written again): 2" in out


def test_a_message_said_again_another_day_is_no_erased_message(
    cli: Cli, settings: Settings, tmp_path: Path
) -> None:
    """Near is near: the same words two days later are a new message, not the erased one."""
    _memory(cli, tmp_path)
    cli.ok("forget", "--person", "Ana", "--yes")
    rid = _receipt_id(cli)
    again = _chat(tmp_path, "again.jsonl", (ANA, "2026-01-07T10:00:00Z"))
    assert "Imported 1 message" in cli.ok("import", "--no-embed", str(again))
    assert "verifies" in cli.ok("forget", "--verify", rid)


# ---- the ledger itself --------------------------------------------------------------------


@pytest.mark.stores("sqlite")
async def test_a_forget_that_cannot_write_its_ledger_entry_changes_nothing(
    kit: Kit, settings: Settings, clock: FakeClock
) -> None:
    from kit.errors import KitError
    from kit.forget.scope import ForgetScope
    from tests.support.receipts import dump

    await kit.import_messages([NewMessage("user", ANA, clock.now())])
    (settings.data_dir / "forget-ledger").write_text("in the way")  # a file, not the folder
    before = await dump(kit)
    with pytest.raises(KitError, match="forget-ledger"):
        await kit.forget(ForgetScope.named("Ana"))
    assert await dump(kit) == before  # the forget's transaction rolled back whole


@pytest.mark.stores("sqlite")
def test_a_damaged_ledger_entry_stops_a_restore_naming_it(
    cli: Cli, settings: Settings, tmp_path: Path
) -> None:
    _memory(cli, tmp_path)
    backup = tmp_path / "before.db"
    cli.ok("backup", str(backup))
    cli.ok("forget", "--person", "Ana", "--yes")
    (entry,) = (settings.data_dir / "forget-ledger").iterdir()
    entry.write_text(entry.read_text()[:100])
    before = settings.database_path.read_bytes()
    code, _, err = cli("restore", str(backup))
    assert code == 2 and err.count("\n") == 1, err
    assert f"{entry}: the forget ledger entry is damaged" in err and "move it out" in err
    assert settings.database_path.read_bytes() == before
