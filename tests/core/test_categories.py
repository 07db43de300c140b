"""The fact categories are declared once (kit/categories.py) and the schema does not fix them:
the historical migrations keep their own frozen list, and since m035 an existing database takes
a new category's facts (before it, the first migrations' CHECK refused them)."""

from __future__ import annotations

import ast
import sqlite3
from pathlib import Path

import pytest

from kit import categories
from kit.categories import CATEGORIES, CATEGORY_RECORDS, Category
from kit.clock import FakeClock, to_iso
from kit.context import index
from kit.memory import fact_rows as facts_module
from kit.memory.fact_writer import Provenance
from kit.memory.facts import Facts
from kit.prompts import Prompts
from kit.store.db import Database
from kit.store.migrate import migrate
from kit.store.migrations import FIRST_CATEGORIES
from tests.support.schema import blank_store, migrate_before

pytestmark = pytest.mark.stores

REPO = Path(__file__).resolve().parents[2]
MIGRATION_FILES = ("kit/store/migrations.py", "kit/store/postgres/migrations.py")


@pytest.mark.stores("sqlite")
def test_the_historical_migrations_never_read_the_live_category_list() -> None:
    """A new category edits no old migration: they import neither the records nor a list
    made from them; they hold their own frozen copy of the first seven."""
    for name in MIGRATION_FILES:
        tree = ast.parse((REPO / name).read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                imported = {alias.name for alias in node.names}
                assert node.module not in ("kit.categories", "kit.choices"), name
                assert "CATEGORIES" not in imported, f"{name} imports a live list"
    assert FIRST_CATEGORIES == (
        "person", "people", "preferences", "projects", "technical", "entities", "workflows",
    )  # fmt: skip


@pytest.mark.stores("sqlite")
def test_every_category_has_its_prompt_and_a_line_of_the_memory_index() -> None:
    prompts = Prompts()
    for category in CATEGORY_RECORDS:
        assert prompts.render(category.prompt, owner_name="Ann", facts="")
    listed = [name for _, names, _ in index._LINES for name in names]
    assert sorted(listed) == sorted(CATEGORIES)


async def _raw_fact(db: Database, category: str, at: str) -> None:
    async with db.transaction() as tx:
        await tx.execute(
            "INSERT INTO facts (user_id, category, subject, content, confidence, created_at,"
            " updated_at, content_hash) VALUES ('owner', ?, '', 'x', 0.8, ?, ?, 'h')",
            (category, at, at),
        )


async def test_an_existing_database_takes_a_new_categorys_facts_after_m035(
    store: str,
    tmp_path: Path,
    clock: FakeClock,
    request: pytest.FixtureRequest,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    at = to_iso(clock.now())
    async with blank_store(store, tmp_path, request) as db:
        await migrate_before(db, clock, "pg035" if store == "postgres" else "m035")
        await _raw_fact(db, "person", at)  # an old Kit's fact
        with pytest.raises(Exception) as refused:
            await _raw_fact(db, "health", at)
        assert "check" in str(refused.value).lower() or isinstance(
            refused.value, sqlite3.IntegrityError
        )
        applied = await migrate(db, clock)  # m035, and any migration after it
        assert applied[0] == (
            "pg035_open_categories" if store == "postgres" else "m035_open_categories"
        )
        # A release adds one record, and its prompt: nothing else.
        health = Category("health", "the owner's health", "Topics")
        monkeypatch.setattr(categories, "CATEGORY_RECORDS", (*CATEGORY_RECORDS, health))
        monkeypatch.setattr(facts_module, "CATEGORIES", (*CATEGORIES, "health"))
        async with db.transaction() as tx:
            writer = Facts(db, clock).writer(tx, "owner")
            fact = await writer.insert(
                category="health",
                content="Allergic to penicillin",
                provenance=Provenance(actor="owner", reason="told"),
            )
            chat = await tx.insert(
                "INSERT INTO conversations (user_id, channel, external_id, created_at)"
                " VALUES ('owner', 'local', 'default', ?)",
                (at,),
            )
            await tx.execute(
                "INSERT INTO curation_state (conversation_id, category, user_id, updated_at)"
                " VALUES (?, 'health', 'owner', ?)",
                (chat, at),
            )
        rows = await db.fetchall("SELECT category, content FROM facts ORDER BY id")
        assert [tuple(r) for r in rows] == [("person", "x"), ("health", "Allergic to penicillin")]
        assert fact.category == "health"
        with pytest.raises(Exception):  # noqa: B017 - still a name, never empty
            await _raw_fact(db, "", at)
        if store == "sqlite":
            assert (await db.fetchone("PRAGMA integrity_check"))[0] == "ok"
