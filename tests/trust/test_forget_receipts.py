"""Forget receipts (issue 22, item 4): `kit forget` keeps a receipt of what it erased, without
it; `--verify` checks nothing of it is back; an import of the same messages is refused (or,
when forced, flagged, and then the receipt fails to verify)."""

from __future__ import annotations

import json
from datetime import date, timedelta
from pathlib import Path

import pytest

from kit.api import Kit
from kit.clock import FakeClock
from kit.config import Settings
from kit.embed.hashing import HashingEmbedder
from kit.errors import InputError, NotFound
from kit.forget.findings import MESSAGES, PLACES
from kit.forget.receipt import from_document, read_file, to_document, to_json
from kit.forget.receipts import ForgottenMessages
from kit.forget.scope import ForgetScope
from kit.memory.messages import NewMessage
from kit.portability.export import export_document
from kit.portability.restore import restore
from tests.support.receipts import at_restore, dump, forget, only
from tests.support.small_memory import START, seed

pytestmark = pytest.mark.stores

ANA = NewMessage("user", "My sister Ana is a cardiologist in Lisbon.", START)
OLD_NOTE = NewMessage("user", "Old notes: Ana visited in 2025.", START - timedelta(days=30))


async def test_a_forget_keeps_a_receipt_with_counts_and_hashes_but_no_content(
    kit: Kit, clock: FakeClock
) -> None:
    await seed(kit, clock)
    receipt = await forget(kit, ForgetScope.named("Ana"))
    assert receipt.scope == "person" and receipt.id.startswith("fr-")
    c = receipt.counts
    assert (c["messages_removed"], c["facts_forgotten"], c["days_removed"]) == (3, 2, 1)
    assert c["vectors_erased"] == 7 and c["index_entries_erased"] == 7
    assert c["days_rewritten"] == 1 and c["conversation_summaries_rewritten"] == 1
    assert len(receipt.messages) == 3 and len(set(receipt.texts)) >= 4
    assert receipt.ids.messages and receipt.ids.facts and receipt.ids.days
    [kept] = await kit.forget_receipts()
    assert (kept.id, kept.erased, kept.counts) == (receipt.id, receipt.erased, c)
    text = json.dumps(to_document(receipt)).lower()
    rows = await kit.services.db.fetchall(
        "SELECT receipt_id, at, scope, counts_json, erased, document FROM forget_receipts"
    )
    text += json.dumps([tuple(r) for r in rows]).lower()
    assert receipt.erased in text  # the rows were read
    for word in ("ana", "cardiolog", "lisbon", "sister", "owner"):
        assert word not in text.replace("banana", ""), word  # not the name, not the user
    assert (await kit.verify_forget(receipt.id)).ok


async def test_a_time_range_receipt_verifies_and_keeps_its_dates(
    kit: Kit, clock: FakeClock
) -> None:
    await seed(kit, clock)
    scope = ForgetScope.time(after=date(2026, 2, 20), before=date(2026, 2, 24))
    receipt = await forget(kit, scope)
    assert (receipt.after, receipt.before) == (date(2026, 2, 20), date(2026, 2, 24))
    result = await kit.verify_forget(receipt.id)
    assert result.ok and result.places == PLACES
    assert result.receipt.scope == "the days after 2026-02-20 and before 2026-02-24"


async def test_a_receipt_fails_to_verify_when_a_matching_message_is_imported_again(
    kit: Kit, clock: FakeClock
) -> None:
    """The issue's "done when": refused by default; forced, imported and flagged; then the
    receipt names the message as back."""
    await seed(kit, clock)
    receipt = await forget(kit, ForgetScope.named("Ana"))
    before = await dump(kit)
    with pytest.raises(ForgottenMessages) as refused:
        await kit.import_messages([OLD_NOTE, ANA], conversation="again")
    assert str(refused.value).count("\n") == 0
    assert f"2 messages of this import were erased by `kit forget` (receipt {receipt.id}" in str(
        refused.value
    )
    assert await dump(kit) == before  # not even the new conversation's row stays
    heard: list[object] = []
    added = await kit.import_messages(
        [OLD_NOTE], conversation="again", allow_forgotten=True, on_forgotten=heard.extend
    )
    assert added == 1 and [m.receipt_id for m in heard] == [receipt.id]  # type: ignore[attr-defined]
    result = await kit.verify_forget(receipt.id)
    back = only(result, MESSAGES)
    assert len(back) == 1 and not result.ok
    assert "erased messages back" in result.leftovers[0].what


async def test_a_message_written_back_another_way_fails_verification(
    kit: Kit, clock: FakeClock
) -> None:
    """Not only imports: the same message stored by any path (here, straight into a chat)."""
    await seed(kit, clock)
    receipt = await forget(kit, ForgetScope.named("Ana"))
    chat = await kit.services.messages.conversation("owner", "telegram", "99")
    again = await kit.services.messages.add(chat, "user", ANA.text, at=ANA.at)
    assert only(await kit.verify_forget(receipt.id), MESSAGES) == [again.id]


async def test_new_memory_after_a_forget_does_not_fail_its_receipt(
    kit: Kit, clock: FakeClock
) -> None:
    """New messages (one even taking an erased message's id, as SQLite does with the
    highest), new facts and summaries are no leftovers."""
    await seed(kit, clock)
    receipt = await forget(kit, ForgetScope.time(after=date(2026, 2, 24)))
    chat = await kit.services.messages.conversation("owner", "telegram", "42")
    await kit.services.messages.add(chat, "user", "Bruno moved to Porto last week.")
    await kit.remember("Bruno lives in Porto now.")
    await kit.settle()
    assert (await kit.verify_forget(receipt.id)).ok


async def test_a_restore_of_an_export_from_before_the_forget_reapplies_it_or_flags_it(
    kit: Kit, clock: FakeClock
) -> None:
    """Issue 30: a restore answers to the forgets made after its file. Re-applied by default
    (the report says which, and the receipt verifies in the restored memory); with
    allow_forgotten, counted and brought back."""
    await seed(kit, clock)
    s = kit.services
    old = await export_document(s.db, "owner", clock.now())
    receipt = await forget(kit, ForgetScope.named("Ana"))
    result = await restore(s.db, old, "copy", at_restore(s))
    [again] = result.reapplied
    assert (again.receipt_id, again.user_id) == (receipt.id, "copy")
    assert again.report.messages_removed == 3 and again.report.facts_forgotten >= 2
    texts = [r[0] for r in await s.db.fetchall("SELECT text FROM messages WHERE user_id = 'copy'")]
    assert texts and not any("Ana" in t for t in texts)
    assert (await kit.verify_forget(receipt.id, user="copy")).ok
    result = await restore(s.db, old, "copy2", at_restore(s), allow_forgotten=True)
    assert result.reapplied == ()
    assert [(m.receipt_id, m.messages) for m in result.forgotten] == [(receipt.id, 3)]
    assert not (await kit.verify_forget(receipt.id, user="copy2")).ok


async def test_an_export_carries_the_receipts_and_they_refuse_what_they_erased_where_the_ledger_is(
    kit: Kit, clock: FakeClock, settings: Settings, elsewhere: object
) -> None:
    """Kit moved to another data directory with its forget ledger: the receipts an export
    carries check there as here."""
    await seed(kit, clock)
    receipt = await forget(kit, ForgetScope.named("Ana"))
    document = json.loads(json.dumps(await export_document(kit.services.db, "owner", clock.now())))
    assert document["counts"]["forget_receipts"] == 1
    other = elsewhere("other")  # type: ignore[operator]
    moved = other.data_dir / "forget-ledger"
    moved.mkdir(parents=True, mode=0o700)
    entry = kit.services.forget_ledger.path(receipt.id)
    (moved / entry.name).write_bytes(entry.read_bytes())
    async with Kit.open(
        settings=other, embedder=HashingEmbedder(), clock=clock, background=False
    ) as there:
        await restore(there.services.db, document, "me", at_restore(there.services))
        [kept] = await there.forget_receipts(user="me")
        assert kept.id == receipt.id
        assert (await there.verify_forget(receipt.id, user="me")).ok
        with pytest.raises(ForgottenMessages, match=receipt.id):
            await there.import_messages([ANA], user="me")


async def test_without_the_ledger_an_exports_receipts_are_kept_but_check_nothing(
    kit: Kit, clock: FakeClock, settings: Settings, elsewhere: object
) -> None:
    """The trade of secret salts (docs/reliability.md): elsewhere a receipt is a record only,
    and says where it can be checked."""
    await seed(kit, clock)
    receipt = await forget(kit, ForgetScope.named("Ana"))
    document = json.loads(json.dumps(await export_document(kit.services.db, "owner", clock.now())))
    other = elsewhere("other")  # type: ignore[operator]
    async with Kit.open(
        settings=other, embedder=HashingEmbedder(), clock=clock, background=False
    ) as there:
        await restore(there.services.db, document, "me", at_restore(there.services))
        [kept] = await there.forget_receipts(user="me")
        assert (kept.id, kept.erased) == (receipt.id, receipt.erased)
        with pytest.raises(InputError, match="made with another data directory") as refused:
            await there.verify_forget(receipt.id, user="me")
        assert "forget-ledger" in str(refused.value) and "\n" not in str(refused.value)
        assert await there.import_messages([ANA], user="me") == 1  # nothing here to refuse it


async def test_an_export_with_a_damaged_receipt_is_refused_whole(
    kit: Kit, clock: FakeClock
) -> None:
    await seed(kit, clock)
    await forget(kit, ForgetScope.named("Ana"))
    document = await export_document(kit.services.db, "owner", clock.now())
    document["forget_receipts"][0]["counts"]["messages_removed"] = 0
    from kit.portability.export_check import validate

    with pytest.raises(InputError, match=r"forget_receipts\[0\].*damaged"):
        validate(document, "x.json", kit.services.forget_ledger.salt_of)
    before = await dump(kit)
    with pytest.raises(InputError, match=r"forget_receipts\[0\].*damaged"):
        await restore(kit.services.db, document, "copy", at_restore(kit.services))
    assert await dump(kit) == before


# ---- bad input: one clear line, nothing changed ----------------------------------------------


async def test_an_unknown_receipt_id_is_one_clear_line(kit: Kit, clock: FakeClock) -> None:
    await seed(kit, clock)
    await forget(kit, ForgetScope.named("Ana"))
    before = await dump(kit)
    with pytest.raises(NotFound, match="no forget receipt fr-aaaaaaaaaa in the memory of 'owner'"):
        await kit.verify_forget("fr-aaaaaaaaaa")
    with pytest.raises(InputError, match="neither a forget receipt id"):
        await kit.verify_forget("yesterday")
    assert await dump(kit) == before


async def test_a_receipt_of_another_users_memory_is_refused(kit: Kit, clock: FakeClock) -> None:
    await seed(kit, clock, user="bob")
    receipt = await forget(kit, ForgetScope.named("Ana"), user="bob")
    with pytest.raises(InputError, match=f"{receipt.id} is of another user's memory"):
        await kit.verify_forget(receipt.id)  # as the owner
    assert (await kit.verify_forget(receipt.id, user="bob")).ok


async def test_a_receipt_file_verifies_and_a_damaged_or_foreign_one_is_refused(
    kit: Kit, clock: FakeClock, tmp_path: Path
) -> None:
    await seed(kit, clock)
    receipt = await forget(kit, ForgetScope.named("Ana"))
    good = tmp_path / "receipt.json"
    good.write_text(to_json(receipt))
    assert read_file(good, kit.services.forget_ledger.salt_of) == receipt
    assert (await kit.verify_forget(str(good))).ok
    before = await dump(kit)
    document = json.loads(good.read_text())
    cases = {
        "cut.json": good.read_text()[:200],
        "edited.json": good.read_text().replace('"messages_removed":3', '"messages_removed":0'),
        "hash.json": json.dumps({**document, "hashes": {"messages": [], "texts": []}}),
        "other.json": "not json at all",
    }
    for name, text in cases.items():
        (tmp_path / name).write_text(text)
        with pytest.raises(InputError) as refused:
            await kit.verify_forget(str(tmp_path / name))
        assert str(refused.value).startswith(str(tmp_path / name)) and "\n" not in str(
            refused.value
        ), name
    foreign = from_document(document, "x", kit.services.forget_ledger.salt_of).for_user("bob")
    (tmp_path / "bob.json").write_text(to_json(foreign))
    with pytest.raises(InputError, match="of another user's memory"):
        await kit.verify_forget(str(tmp_path / "bob.json"))
    with pytest.raises(InputError, match="no such receipt file"):
        await kit.verify_forget(str(tmp_path / "missing.json"))
    assert await dump(kit) == before


# ---- issue 30 (low): a receipt alone confirms no guess, and cannot be forged ----------------

SUSPECTS = [
    "Quentin", "Alex", "Robin", "Jamie", "Morgan", "Taylor", "Jordan", "Casey", "Riley", "Avery",
    "Quinn", "Parker", "Rowan", "Sage", "Drew", "Emery", "Hayden", "Jules", "Kai", "Logan",
]  # fmt: skip
PHRASINGS = ["Sam is dating {}", "Sam is seeing {}", "Sam is married to {}", "Sam lives with {}"]


def _keys_in(value: object) -> list[bytes]:
    """Every string in a document that could be a hash key (hex of 16 bytes or more)."""
    if isinstance(value, dict):
        return [k for v in value.values() for k in _keys_in(v)]
    if isinstance(value, list):
        return [k for v in value for k in _keys_in(v)]
    if isinstance(value, str) and len(value) >= 32 and len(value) % 2 == 0:
        try:
            return [bytes.fromhex(value)]
        except ValueError:
            return []
    return []


async def test_a_receipt_alone_confirms_no_guess_of_a_short_erased_fact(
    kit: Kit, clock: FakeClock, tmp_path: Path
) -> None:
    """ "Sam is dating Quentin" used to fall to 80 guesses (20 names x 4 phrasings) with the
    salt the receipt carried. The salt is now the data directory's secret."""
    from kit.forget.traces import Hasher, units

    await kit.add_fact("Sam is dating Quentin", category="people")
    receipt = (await kit.forget(ForgetScope.named("Sam"))).receipt
    assert receipt is not None
    copy = tmp_path / "receipt.json"
    copy.write_text(to_json(receipt))
    document = json.loads(copy.read_text())
    erased = set(document["hashes"]["texts"])
    guesses = [p.format(name) for p in PHRASINGS for name in SUSPECTS]
    assert len(guesses) == 80

    def confirmed(key: bytes) -> list[str]:
        hasher = Hasher(key)
        return [g for g in guesses if hasher.texts(units(g)) & erased]

    assert [g for key in _keys_in(document) for g in confirmed(key)] == []
    assert "salt" not in document
    rows = await kit.services.db.fetchall("SELECT document FROM forget_receipts")
    assert all("salt" not in json.loads(r[0]) for r in rows)  # nor does the database (a backup)
    secret = kit.services.forget_ledger.salt_of(receipt.id)
    assert secret is not None  # where it is kept, it does confirm: the receipt is a real one
    assert confirmed(bytes.fromhex(secret)) == ["Sam is dating Quentin"]


async def test_a_receipt_with_emptied_hashes_and_a_recomputed_seal_is_refused(
    kit: Kit, clock: FakeClock, tmp_path: Path
) -> None:
    import hashlib

    from kit.forget.traces import Hasher

    await seed(kit, clock)
    receipt = (await kit.forget(ForgetScope.named("Ana"))).receipt
    assert receipt is not None
    await kit.import_messages([ANA], conversation="again", allow_forgotten=True)
    assert not (await kit.verify_forget(receipt.id)).ok  # what a forged receipt would hide
    document = to_document(receipt)

    def forged(version: int) -> dict[str, object]:
        body = {k: v for k, v in document.items() if k != "seal"}
        body["hashes"] = {"messages": [], "texts": []} | ({"near": []} if version == 2 else {})
        body["version"] = version
        if version == 1:  # self-consistent: a salt of the forger's, the user bound to it
            body["salt"] = str(document.get("salt", "00" * 16))
            body["user"] = Hasher(bytes.fromhex(str(body["salt"]))).user("owner")
        body["erased"] = hashlib.sha256().hexdigest()  # the digest of no hashes
        canonical = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
        return {**body, "seal": hashlib.sha256(canonical.encode()).hexdigest()}

    for version, says in ((1, "does not match forget receipt"), (2, "seal does not match")):
        path = tmp_path / f"forged-v{version}.json"
        path.write_text(json.dumps(forged(version)))
        with pytest.raises(InputError, match=says):
            await kit.verify_forget(str(path))
    # An edited database row changes nothing either: the ledger's copy is the reference.
    async with kit.services.db.transaction() as tx:
        await tx.execute(
            "UPDATE forget_receipts SET document = ? WHERE receipt_id = ?",
            (json.dumps(forged(1)), receipt.id),
        )
    assert not (await kit.verify_forget(receipt.id)).ok
