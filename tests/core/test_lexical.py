"""FTS5 matching: user text never becomes FTS syntax, and the index follows its rows."""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Iterator
from datetime import timedelta

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kit.api import Kit
from kit.clock import FakeClock
from kit.memory.fact_writer import Provenance
from kit.retrieval.lexical import STOPWORDS, fts_query

TERM = re.compile(r'"([^\W_]+)"')
QUERY_SHAPE = re.compile(r'"[^\W_]+"( OR "[^\W_]+")*')

NASTY = [
    '"',
    '""',
    "'",
    "*",
    "Ana*",
    "(",
    ")",
    "()",
    "a AND b",
    "x OR y",
    "NOT z",
    "NEAR(a b, 3)",
    "col:value",
    "text:secret",
    "^start",
    "a + b - c",
    '"unbalanced',
    "{a b}",
    "[x]",
    "\x00",
    "\\",
    "--",
    "café Zürich naïve",
    "東京 タワー",
    "Ｆｕｌｌｗｉｄｔｈ",
    "emoji 🎉🎉 party",
    "x² ½ ⅷ",
    "a_b c__d",
    "ǅemal",
    "\u0301\u0301",
]


@pytest.fixture(scope="module")
def fts() -> Iterator[sqlite3.Connection]:
    """An FTS5 table with the tokenizer Kit's migrations use."""
    conn = sqlite3.connect(":memory:")
    conn.execute(
        "CREATE VIRTUAL TABLE t USING fts5(speaker, text, "
        "tokenize='porter unicode61 remove_diacritics 2')"
    )
    conn.executemany(
        "INSERT INTO t (speaker, text) VALUES (?, ?)",
        [("Ana", "Thandiwe recommended the café in Zürich"), ("Ben", "by the old bridge")],
    )
    yield conn
    conn.close()


def check_shape(query: str | None) -> None:
    if query is None:
        return
    assert QUERY_SHAPE.fullmatch(query), query
    terms = TERM.findall(query)
    assert len(terms) == len(set(terms)) <= 32
    assert all(t == t.lower() and t not in STOPWORDS for t in terms)


@pytest.mark.parametrize("text", NASTY)
def test_nasty_text_becomes_quoted_words_only(fts: sqlite3.Connection, text: str) -> None:
    query = fts_query(text)
    check_shape(query)
    if query is not None:
        fts.execute("SELECT rowid FROM t WHERE t MATCH ?", (query,)).fetchall()


@settings(
    max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(st.text(max_size=200))
def test_any_text_is_a_valid_fts_query(fts: sqlite3.Connection, text: str) -> None:
    query = fts_query(text)
    check_shape(query)
    if query is not None:
        fts.execute("SELECT rowid FROM t WHERE t MATCH ?", (query,)).fetchall()


SYNTAX = st.sampled_from(['"', "*", "(", ")", " AND ", " OR ", " NOT ", "NEAR(", ":", "^", "+"])


@settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(st.lists(SYNTAX, max_size=6), st.lists(SYNTAX, max_size=6))
def test_a_name_is_found_whatever_syntax_surrounds_it(
    fts: sqlite3.Connection, before: list[str], after: list[str]
) -> None:
    query = fts_query(" ".join([*before, "Thandiwe", *after]))
    assert query is not None
    rows = fts.execute("SELECT speaker FROM t WHERE t MATCH ?", (query,)).fetchall()
    assert rows == [("Ana",)]


def test_operators_are_plain_words_or_dropped() -> None:
    assert fts_query("near AND far") == '"near" OR "far"'  # NEAR is a word here, AND a stopword
    assert fts_query("text:secret") == '"text" OR "secret"'  # no column filter
    assert fts_query("Ana*") == '"ana"'  # no prefix query


def test_stopwords_single_letters_and_duplicates_are_dropped() -> None:
    assert fts_query("What did you tell me about it?") is None
    assert fts_query("a b c") is None
    assert fts_query("7 a") == '"7"'
    assert fts_query("Garden garden GARDEN") == '"garden"'
    assert fts_query(" ".join(f"w{i}" for i in range(50))) == " OR ".join(
        f'"w{i}"' for i in range(32)
    )


def test_accents_match_either_way(fts: sqlite3.Connection) -> None:
    for text in ("cafe in zurich", "CAFÉ", "Zurich"):
        query = fts_query(text)
        assert query is not None
        assert fts.execute("SELECT speaker FROM t WHERE t MATCH ?", (query,)).fetchall() == [
            ("Ana",)
        ]


@pytest.mark.stores
async def test_search_through_kit_never_raises_on_nasty_text(kit: Kit) -> None:
    fact = await kit.remember("Thandiwe recommended the café in Zürich", category="people")
    await kit.settle()
    for text in NASTY:
        await kit.search(text)
        hits = await kit.search(f"{text} Thandiwe {text}")
        assert fact.id in [h.id for h in hits if h.kind == "fact"], text


async def test_fts_follows_inserts_updates_and_deletes(kit: Kit, clock: FakeClock) -> None:
    """Triggers keep the external-content indexes in step (FTS5 integrity-check agrees)."""
    s = kit.services
    fact = await kit.remember("The piano tuner is Oskar", category="people")
    await s.facts.update(
        "owner", fact.id, Provenance(actor="api"), content="The piano tuner is Grete"
    )
    assert await kit.search("Oskar", kinds=("fact",)) == []
    assert [h.id for h in await kit.search("Grete", kinds=("fact",))] == [fact.id]

    day = clock.now().date() - timedelta(days=1)
    await s.days.put_detailed("owner", day, "- sorted the attic", 3)
    await s.days.put_condensed("owner", day, "- attic cleared out")
    await s.days.put_detailed("owner", day, "- rewired the shed", 3)  # rewrite drops condensed
    assert await kit.search("attic", kinds=("day",)) == []
    assert len(await kit.search("shed", kinds=("day",))) == 1

    conv = await s.messages.conversation("owner", "local", "default")
    message = await s.messages.add(conv, "user", "temporary line about kumquats")
    async with s.db.transaction() as tx:
        await tx.execute("DELETE FROM messages WHERE id = ?", (message.id,))
    assert await kit.search("kumquats", kinds=("message",)) == []

    async with s.db.transaction() as tx:
        for table in ("messages_fts", "facts_fts", "days_fts"):
            await tx.execute(f"INSERT INTO {table}({table}) VALUES ('integrity-check')")
