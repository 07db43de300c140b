"""The word search kept in memory (kit/retrieval/kept_words.py) gives FTS5's answers
(kit/retrieval/lexical.py): on a real conversation (LoCoMo), with and without the common-word
bound, and after every kind of change: a message added, messages forgotten, a fact added,
edited, put aside or forgotten, a day rewritten, another user's rows, another process's write."""

from __future__ import annotations

import random
from collections.abc import Sequence
from datetime import date, datetime, timedelta
from pathlib import Path

import numpy as np
import pytest

from kit.api import Kit
from kit.clock import FakeClock
from kit.eval.locomo import Sample, load
from kit.forget.forgetter import Forgetter
from kit.forget.scope import ForgetScope
from kit.memory.fact_writer import Provenance
from kit.memory.messages import NewMessage
from kit.retrieval import kept_words
from kit.retrieval.fts_tokens import Fts5Tokens, split_rows
from kit.retrieval.kept_words import KeptWords
from kit.retrieval.lexical import LexicalIndex
from kit.retrieval.word_index import Row, WordIndex

LOCOMO = Path(__file__).resolve().parents[3] / "shared" / "data" / "locomo-dev.json"
OWNER = Provenance("owner", "test")
LAYERS = ("message", "fact", "day")


def conversation() -> Sample:
    if not LOCOMO.exists():
        pytest.skip(f"no LoCoMo dev split at {LOCOMO}")
    return load(LOCOMO)[0]


def same_answer(want: Sequence[tuple[int, float]], got: Sequence[tuple[int, float]]) -> None:
    """Same rows with the same scores, best first; rows tied at the cut may differ (SQLite's
    order among equal scores is its own)."""
    assert len(got) == len(want)
    if not want:
        return
    assert [s for _, s in got] == pytest.approx([s for _, s in want], rel=1e-9, abs=1e-12)
    bar = want[-1][1]
    above = {i for i, s in want if s > bar * (1 + 1e-9)}
    assert above <= {i for i, _ in got}
    mine = dict(got)
    for item, score in want:
        if item in mine:
            assert mine[item] == pytest.approx(score, rel=1e-9)


async def fill(kit: Kit, sample: Sample, user: str = "owner", turns: int = 400) -> list[int]:
    """The sample's first `turns` turns as the user's messages; its observations' sentences
    as facts and the session summaries as days come from `fill_memory`."""
    s = kit.services
    conv = await s.messages.conversation(user, "local", sample.sample_id)
    rows = [NewMessage(t.role, t.text, t.at, t.speaker) for t in sample.turns[:turns]]
    async with s.db.transaction() as tx:
        await s.messages.insert_bulk(tx, conv, rows, "import")
    found = await s.db.fetchall(
        "SELECT id FROM messages WHERE conversation_id = ? ORDER BY id", (conv.id,)
    )
    return [int(r[0]) for r in found]


async def fill_memory(kit: Kit, sample: Sample, facts: int = 150) -> None:
    """Facts: turns' sentences, remembered; days: a few sessions' turns as summaries."""
    s = kit.services
    for turn in sample.turns[:facts]:
        await kit.remember(f"{turn.speaker} said: {turn.text}")
    by_day: dict[date, list[str]] = {}
    for turn in sample.turns:
        by_day.setdefault(turn.at.date(), []).append(turn.text)
    for day, texts in list(by_day.items())[:12]:
        await s.days.put_detailed("owner", day, " ".join(texts)[:2000], len(texts))


def questions(sample: Sample, count: int = 60) -> list[str]:
    extra = ["Caroline", "what did Melanie paint", "support group", "the kids", "2023 May"]
    return [q.text for q in sample.questions[:count]] + extra


async def agree(
    kit: Kit,
    kept: KeptWords,
    texts: Sequence[str],
    *,
    kinds: Sequence[str] = LAYERS,
    common: Sequence[int] = (0, 30, 2000),
    now: datetime | None = None,
    skip: Sequence[int] = (),
) -> int:
    """Every search answered by the kept words as by FTS5; how many rows they returned."""
    fts = LexicalIndex(kit.services.db)
    when = kit.services.clock.now() if now is None else now
    returned = 0
    for text in texts:
        for kind in kinds:
            for rows in common:
                for weight in (0.2, 0.0):
                    args = dict(now=when, context_weight=weight, common_rows=rows)
                    skipped = skip if kind == "message" else ()
                    want = await fts.search("owner", kind, text, 50, skip=skipped, **args)  # type: ignore[arg-type]
                    got = await kept.search("owner", kind, text, 50, skip=skipped, **args)  # type: ignore[arg-type]
                    same_answer(want, got)
                    assert kept.answers(kind) == kept.loaded  # not FTS5 standing in
                    returned += len(got)
    return returned


async def test_the_kept_words_answer_as_fts5_on_a_real_conversation(
    kit: Kit, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every layer, bounded or not, the previous turn's words weighted or not, skipped
    messages, a moment in the past (the filters): FTS5's rows and scores. (Loaded in parts
    of 64 rows, as 100k rows load in parts of `LOAD_PART`.)"""
    monkeypatch.setattr(kept_words, "LOAD_PART", 64)
    sample = conversation()
    ids = await fill(kit, sample)
    await fill_memory(kit, sample)
    kept = KeptWords(kit.services.db)
    await kept.warm()
    assert kept.loaded
    texts = questions(sample)
    assert await agree(kit, kept, texts, skip=ids[::7]) > 1000
    middle = sample.turns[200].at  # only what was written by then
    assert await agree(kit, kept, texts[:20], kinds=["message", "day"], now=middle) > 0


async def test_a_word_common_past_the_bound_is_ranked_as_fts5_ranks_it(
    kit: Kit, clock: FakeClock
) -> None:
    """With a small bound most words are common: the rare words' rows, the newest windows
    and the rows with every common word, as the SQL takes them."""
    sample = conversation()
    await fill(kit, sample, turns=600)
    kept = KeptWords(kit.services.db)
    await kept.warm()
    texts = [*questions(sample, 30), "good to see you", "really great thanks"]
    assert await agree(kit, kept, texts, kinds=["message"], common=(5, 12, 60)) > 0


async def test_a_daemons_warm_up_loads_the_kept_words(kit: Kit, clock: FakeClock) -> None:
    """The daemon's background warm-up (kit/daemon/warm.py) loads them for the next turn."""
    from kit.daemon.warm import warm

    sample = conversation()
    await fill(kit, sample, turns=50)
    lexical = kit.services.search.lexical
    assert isinstance(lexical, KeptWords) and not lexical.loaded
    await warm(kit.services)
    assert lexical.loaded and all(lexical.answers(kind) for kind in LAYERS)


async def test_before_it_is_loaded_fts5_answers(kit: Kit, clock: FakeClock) -> None:
    sample = conversation()
    await fill(kit, sample, turns=100)
    kept = KeptWords(kit.services.db)
    assert not kept.loaded
    assert await agree(kit, kept, questions(sample, 10), kinds=["message"]) > 0


async def test_new_messages_are_added_by_id(kit: Kit, clock: FakeClock) -> None:
    sample = conversation()
    await fill(kit, sample, turns=200)
    kept = KeptWords(kit.services.db)
    await kept.warm()
    conv = await kit.services.messages.conversation("owner", "telegram", "chat")
    clock.advance(timedelta(days=1))
    added = await kit.services.messages.add(conv, "user", "The zeppelin museum in Friedrichshafen")
    found = await kept.search("owner", "message", "zeppelin", 10, now=clock.now())
    assert [i for i, _ in found] == [added.id]
    assert await agree(kit, kept, ["zeppelin museum", *questions(sample, 10)]) > 0


async def test_an_import_reads_the_layer_anew(
    kit: Kit, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """More new rows than a turn writes are not added in place (a search on another task
    would see the layer half-updated) but read anew, off the loop: same answers."""
    monkeypatch.setattr(kept_words, "APPENDED_IN_PLACE", 5)
    sample = conversation()
    await fill(kit, sample, turns=100)
    kept = KeptWords(kit.services.db)
    await kept.warm()
    before = kept._kept["message"]
    conv = await kit.services.messages.conversation("owner", "local", "later")
    clock.advance(timedelta(days=1))
    rows = [NewMessage("user", t.text, clock.now(), t.speaker) for t in sample.turns[100:120]]
    async with kit.services.db.transaction() as tx:
        await kit.services.messages.insert_bulk(tx, conv, rows, "import")
    assert await agree(kit, kept, questions(sample, 10), kinds=["message"]) > 0
    assert kept._kept["message"] is not before  # read anew, not grown in place
    await kit.services.messages.add(conv, "user", "one more about the zeppelin")
    grown = kept._kept["message"]
    assert len(await kept.search("owner", "message", "zeppelin", 5, now=clock.now())) == 1
    assert kept._kept["message"] is grown  # a turn's row: added in place


async def test_after_forget_no_forgotten_message_is_found(kit: Kit, clock: FakeClock) -> None:
    """`kit forget` removes messages (and rewrites the unit of the one after each): the kept
    words are read anew, and what was forgotten is found by neither search."""
    sample = conversation()
    ids = await fill(kit, sample, turns=300)
    kept = KeptWords(kit.services.db)
    await kept.warm()
    texts = questions(sample, 20)

    async def found() -> set[int]:
        now = clock.now()
        return {i for t in texts for i, _ in await kept.search("owner", "message", t, 50, now=now)}

    before = await found()
    first, last = sample.turns[0].at.date(), sample.turns[299].at.date()
    cut = first + (last - first) / 2
    s = kit.services
    await Forgetter(s.db, s.tz, s.forget_ledger).forget(
        "owner", ForgetScope.time(before=cut), now=clock.now()
    )
    left = {int(r[0]) for r in await s.db.fetchall("SELECT id FROM messages")}
    assert set(ids) - left, "the forget removed nothing: the test proves nothing"
    after = await found()
    assert after <= left
    assert before - left  # some of what it found before is gone now
    assert await agree(kit, kept, texts) > 0


async def test_a_fact_edited_put_aside_or_forgotten_is_searched_as_it_now_is(
    kit: Kit, clock: FakeClock
) -> None:
    s = kit.services
    kept = KeptWords(s.db)
    tea = await kit.remember("Ana likes jasmine tea")
    porto = await kit.remember("Ana lives in Porto")
    await kit.remember("Ana plays the cello")
    await kept.warm()

    async def found(text: str) -> set[int]:
        await agree(kit, kept, [text], kinds=["fact"], common=(0,))
        return {i for i, _ in await kept.search("owner", "fact", text, 10, now=clock.now())}

    assert await found("jasmine") == {tea.id}
    await s.facts.update("owner", tea.id, OWNER, content="Ana likes oolong tea")
    assert await found("jasmine") == set()
    assert await found("oolong") == {tea.id}
    await s.facts.deactivate("owner", porto.id, OWNER)
    assert await found("Porto") == set()
    added = await kit.remember("Ana moved to Lisbon")
    assert await found("Lisbon") == {added.id}
    # Another process's edit: only the database says so.
    async with s.db.transaction() as tx:
        await tx.execute(
            "UPDATE facts SET content = 'Ana plays the viola' WHERE content LIKE '%cello'"
        )
    assert await found("cello") == set()
    assert len(await found("viola")) == 1
    soon = clock.now() + timedelta(hours=1)
    expiring = await kit.remember("Ana is at the dentist", expires_at=soon)
    assert await found("dentist") == {expiring.id}
    clock.advance(timedelta(hours=2))
    assert await found("dentist") == set()
    # `kit forget` erases the rows (not only puts them aside).
    await Forgetter(s.db, s.tz, s.forget_ledger).forget(
        "owner", ForgetScope.named("Ana"), now=clock.now()
    )
    assert await s.db.fetchall("SELECT id FROM facts WHERE content LIKE '%viola%'") == []
    assert await found("viola") == set()
    assert await found("oolong Lisbon") == set()


async def test_a_rewritten_day_is_searched_as_it_now_is(kit: Kit, clock: FakeClock) -> None:
    s = kit.services
    kept = KeptWords(s.db)
    today = clock.now().date()
    await s.days.put_detailed("owner", today - timedelta(days=1), "We walked to the lighthouse", 3)
    await kept.warm()
    assert len(await kept.search("owner", "day", "lighthouse", 5, now=clock.now())) == 1
    await s.days.put_detailed("owner", today - timedelta(days=1), "We sailed to the island", 3)
    assert await kept.search("owner", "day", "lighthouse", 5, now=clock.now()) == []
    assert len(await kept.search("owner", "day", "island", 5, now=clock.now())) == 1
    await agree(kit, kept, ["island", "lighthouse sailed"], kinds=["day"])


async def test_another_users_rows_count_in_the_statistics_only(kit: Kit, clock: FakeClock) -> None:
    """FTS5's statistics are the whole table's: another user's messages change the scores
    (as they change FTS5's), and are never returned."""
    sample = conversation()
    await fill(kit, sample, turns=150)
    theirs = await fill(kit, sample, user="someone", turns=300)
    kept = KeptWords(kit.services.db)
    await kept.warm()
    texts = questions(sample, 20)
    for text in texts:
        found = await kept.search("owner", "message", text, 50, now=clock.now())
        assert not {i for i, _ in found} & set(theirs)
    assert await agree(kit, kept, texts, kinds=["message"]) > 0
    assert await kept.search("nobody", "message", "Caroline", 5, now=clock.now()) == []


async def test_the_words_are_fts5s_own(kit: Kit) -> None:
    """Split here at the characters unicode61 parts tokens at, each word turned into tokens
    by FTS5 once: the tokens FTS5 itself makes of each text (folding, diacritics, stemming,
    digits, emoji kept inside a word), with no text needing FTS5's own split; a text whose
    counts are not FTS5's is split by FTS5 whole."""
    sample = conversation()
    tokens = Fts5Tokens()
    texts = [t.text for t in sample.turns[:300]] + [
        "Café naïve Ünïcödé İstanbul", "running runs ran 2023-05-08", "x_y under_score",
        "ﬁne ligature", "yoga🧘\u200d♀️class 🎉 party", "ΣΊΣΥΦΟΣ straße",
    ]  # fmt: skip
    exact = [tokens.exact(t) for t in texts]
    sizes = np.array([[len(t)] for t in exact], dtype=np.int64)
    flat, counted, redone = split_rows(tokens, [texts], sizes)
    assert flat[0] == [token for row in exact for token in row]
    assert counted.tolist() == sizes.tolist()
    assert redone == 0
    wrong = sizes.copy()
    wrong[3, 0] += 1  # FTS5 says otherwise: that row is split by FTS5 itself
    flat, counted, redone = split_rows(tokens, [texts], wrong)
    assert flat[0] == [token for row in exact for token in row] and redone == 1


def test_rows_added_one_at_a_time_index_as_rows_added_at_once() -> None:
    """Top-ups are kept aside and merged into the arrays now and then: the postings are the
    same as for the rows read at once."""
    rng = random.Random(4)
    vocabulary = [f"w{i}" for i in range(40)]
    rows = [
        Row(i, tuple([rng.choice(vocabulary) for _ in range(rng.randint(0, 9))] for _ in range(2)))
        for i in range(1, 301)
    ]
    whole = WordIndex(2)
    whole.add(rows)
    parts = WordIndex(2, merge_after=64)
    parts.add(rows[:100])
    for row in rows[100:]:
        parts.add([row])
    loaded = WordIndex(2)  # a load in parts, merged once
    for start in range(0, len(rows), 70):
        part = rows[start : start + 70]
        tokens = [[t for r in part for t in r.columns[c]] for c in range(2)]
        sizes = np.array([[len(c) for c in r.columns] for r in part], dtype=np.int64)
        loaded.add_columns(np.array([r.id for r in part]), tokens, sizes, defer=True)
    loaded.settle()
    for word in [*vocabulary, "absent"]:
        a, b, c = whole.postings(word), parts.postings(word), loaded.postings(word)
        assert a[0].tolist() == b[0].tolist() == c[0].tolist()
        assert a[1].tolist() == b[1].tolist() == c[1].tolist()
    assert whole.totals == parts.totals == loaded.totals
    with pytest.raises(ValueError, match="id order"):
        parts.add([Row(5, ([], []))])


def test_a_search_after_rows_come_scores_with_the_new_statistics() -> None:
    """A search keeps the rows' average length until rows come (issue 33, round 7): after
    more rows, longer ones, a search scores as an index that held them all from the start,
    rare and common words alike."""
    rng = random.Random(7)
    vocabulary = [f"w{i}" for i in range(30)]

    def row(i: int, most: int) -> Row:
        return Row(
            i,
            tuple([rng.choice(vocabulary) for _ in range(rng.randint(1, most))] for _ in range(2)),
        )

    first = [row(i, 4) for i in range(1, 201)]
    later = [row(i, 20) for i in range(201, 261)]  # longer: the average moves
    grown = WordIndex(2, merge_after=16)
    grown.add(first)

    def every(rows: np.ndarray) -> np.ndarray:
        return np.ones(len(rows), np.bool_)

    queries = [(["w1", "w2"], 0), (["w3", "w4", "w5"], 20), (["w6"], 5)]
    for tokens, common in queries:
        grown.search(tokens, (1.0, 1.0), (True, True), every, 10, common)
    grown.add(later)
    whole = WordIndex(2)
    whole.add([*first, *later])
    for tokens, common in queries:
        got = grown.search(tokens, (1.0, 1.0), (True, True), every, 10, common)
        assert got == whole.search(tokens, (1.0, 1.0), (True, True), every, 10, common)
        assert got
