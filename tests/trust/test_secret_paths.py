"""Every way text is stored passes the one secret detector (kit/secrets/): the chat's and MCP's
`remember`, the Python API, `kit facts add`, curation, day summaries, REM's condensed days,
reminders, notes (text, name, description, file name, source) and `kit export`, and the log.
The forms are ones issue 19 found stored on every path; ordinary word lists are kept."""

from __future__ import annotations

import json
import logging
import random
from datetime import date

import pytest
from mnemonic import Mnemonic

from kit.api import Kit
from kit.client import LocalClient
from kit.clock import FakeClock
from kit.curator.screen import screen
from kit.errors import InputError
from kit.llm.fake import FakeLLM
from kit.logs import RedactSecrets
from kit.portability.export import export_document, to_json
from kit.secrets import WITHHELD
from tests.support.rem import bullets, chat_on
from tests.trust.test_secret_detector import SHOPPING_LIST

pytestmark = pytest.mark.stores

SUN = date(2026, 3, 1)  # the clock is Monday 2026-03-02 09:00 UTC

# (sentence, the value that must not be stored): forms issue 19 found stored everywhere
FORMS = [
    (
        "The homelab Vault: hvs.O0Dur-8_hW4p1yCcD_AN1Y-o5MgG_yG1FYmM-6uF_AuG5g0NyMPEXYte3Z"
        "HKqqIW8lR2eC8SkkDBBx1Gxnq6Ig6c7s4H8p",
        "hvs.O0Dur-8_hW4p1yCcD_AN1Y",
    ),
    ("Shopify admin for the shop 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", "shpat_c0d00c8"),
    ("The owner's wifi key: BlueSky-4471", "BlueSky-4471"),
    ("Netflix: ana@example.com / Hunter2024!", "Hunter2024!"),
    ("The owner's pass\u200bword is Orchid#5521", "Orchid#5521"),
    ("The owner's раssword is Lemon-Tree-8", "Lemon-Tree-8"),  # Cyrillic р and а
    ("Work laptop BitLocker key 620653-122177-479061-296219-148467-063481-341253-223311", "620653"),
]
IDS = [value[:12] for _, value in FORMS]


@pytest.mark.parametrize(("text", "value"), FORMS, ids=IDS)
async def test_remember_over_mcp_and_the_python_api_refuse_it(
    kit: Kit, clock: FakeClock, text: str, value: str
) -> None:
    with pytest.raises(InputError) as refused:
        await LocalClient(kit, clock.now()).remember(text)  # what `kit mcp` calls
    assert value not in str(refused.value)
    with pytest.raises(InputError):
        await kit.remember(text)  # the Python API wrote it without a look
    assert await kit.facts() == []


@pytest.mark.parametrize(("text", "value"), FORMS, ids=IDS)
async def test_the_owner_adding_it_as_a_fact_is_refused(kit: Kit, text: str, value: str) -> None:
    with pytest.raises(InputError) as refused:
        await kit.add_fact(text)  # `kit facts add`
    assert value not in str(refused.value)
    assert await kit.facts() == []


@pytest.mark.parametrize(("text", "value"), FORMS, ids=IDS)
def test_curation_screens_it_out(text: str, value: str) -> None:
    why = screen(text)
    assert why is not None and "secrets are never stored" in why and value not in why


async def test_a_shopping_list_is_kept_by_facts_add_remember_and_as_a_note(
    kit: Kit, clock: FakeClock
) -> None:
    """Issue 19, Medium 2: refused by `kit facts add` and `remember`, withheld as a note."""
    await kit.add_fact(SHOPPING_LIST)
    await LocalClient(kit, clock.now()).remember(SHOPPING_LIST.replace("\n", " "))
    written = await kit.add_note(SHOPPING_LIST, name="groceries")
    assert written.withheld == ()
    assert (await kit.note("groceries")).text == SHOPPING_LIST
    # Kept whole by both; `remember` of the text of an active fact returns that fact (issue 20).
    facts = await kit.facts()
    assert [" ".join(f.content.split()) for f in facts] == [" ".join(SHOPPING_LIST.split())]


async def test_a_256_kb_note_of_wordlist_words_is_kept_whole(kit: Kit) -> None:
    """Issue 19, Medium 2: the whole note became one "[secret withheld]"."""
    words = Mnemonic("english").wordlist
    rng = random.Random(256)
    text = "\n".join(rng.choice(words) for _ in range(60_000))[: 256 * 1024].rsplit("\n", 1)[0]
    written = await kit.add_note(text, name="words")
    assert written.withheld == () and (await kit.note("words")).text == text


async def test_a_day_summary_and_a_condensed_day_keep_the_sentence_and_lose_the_value(
    kit: Kit, fake_llm: FakeLLM
) -> None:
    await chat_on(kit, SUN, "hello, I moved my Netflix account to a new email today", "hi")
    fake_llm.queue("\n".join(f"- {text}" for text, _ in FORMS) + "\n- Planned the week")
    day = await kit.services.summarizer.summarize_day("owner", SUN)
    assert all(value not in day.detailed for _, value in FORMS)
    assert "- Netflix: ana@example.com / [secret withheld]" in day.detailed
    assert day.detailed.endswith("- Planned the week")

    await kit.services.days.put_detailed("owner", SUN, bullets(30, "detail"), 40)
    fake_llm.queue("\n".join(f"- {text}" for text, _ in FORMS) + "\n- Planned the week")
    await kit.services.rem.run("owner")
    condensed = (await kit.day(SUN)).condensed  # type: ignore[union-attr]
    assert condensed is not None and all(value not in condensed for _, value in FORMS)
    assert "- The owner's wifi key: [secret withheld]" in condensed


@pytest.mark.parametrize(("text", "value"), FORMS, ids=IDS)
async def test_a_reminder_holding_it_is_refused(kit: Kit, text: str, value: str) -> None:
    with pytest.raises(InputError) as refused:
        await kit.services.reminders.schedule(
            "owner",
            channel="terminal",
            conversation="t",
            fields={"text": f"tell me: {text}", "in_minutes": 30},
        )
    assert value not in str(refused.value)
    assert await kit.services.reminders.store.every("owner") == []


async def test_a_note_keeps_its_text_and_loses_only_the_values(kit: Kit) -> None:
    lines = [text for text, _ in FORMS]
    written = await kit.add_note(
        "# Home\n" + "\n".join(lines) + "\nBins go out on Tuesday", name="home"
    )
    text = (await kit.note("home")).text
    assert all(value not in text for _, value in FORMS)
    assert text.startswith("# Home\n") and text.endswith("\nBins go out on Tuesday")
    assert "Netflix: ana@example.com / [secret withheld]" in text
    assert len(written.withheld) == len(FORMS)


# -- issue 19, Medium 4: a note's metadata --------------------------------------------------------


async def _everywhere(kit: Kit) -> str:
    """Everything a note's metadata reaches: the memory index sent with every prompt, the
    notes' history, and `kit export` (JSON and Markdown)."""
    s = kit.services
    index = json.dumps(await s.notes.index("owner"))
    history = json.dumps([tuple(r) for r in await s.db.fetchall("SELECT * FROM note_history")])
    sandwich = await s.context.build("owner", "hello", now=s.clock.now())
    prompt = "\n".join(b.text for b in sandwich.system)
    exported = to_json(await export_document(s.db, "owner", s.clock.now()))
    return "\n".join((index, history, prompt, exported))


async def test_a_password_in_a_description_is_withheld_in_place(kit: Kit) -> None:
    await kit.add_note(
        "router settings", name="router", description="admin password: Tr0ub4dor&3 (the new one)"
    )
    assert "Tr0ub4dor" not in await _everywhere(kit)
    info = (await kit.notes())[0]
    assert info.description == f"admin password: {WITHHELD} (the new one)"


async def test_a_password_in_the_file_name_reaches_neither_name_source_nor_export(
    kit: Kit,
) -> None:
    written = await kit.add_note(
        b"the router's settings", file_name="wifi password=Hunter2024!.txt", source="file x"
    )
    await kit.add_note(
        b"more settings", name="modem", file_name="pw Sunny!88.md", source="file pw Sunny!88.md"
    )
    everywhere = await _everywhere(kit)
    assert "Hunter2024" not in everywhere and "Sunny!88" not in everywhere
    assert written.note.name == "wifi-password-withheld"
    history = await kit.note_history()
    assert history[1].source == f"file pw {WITHHELD}.md"


async def test_a_name_that_holds_a_password_is_refused_and_nothing_is_kept(kit: Kit) -> None:
    with pytest.raises(InputError, match="choose another name"):
        await kit.add_note("text", name="gmail pass BlueBird42")
    assert await kit.notes() == [] and await kit.note_history() == []


async def test_export_withholds_a_secret_that_an_older_kit_stored_in_note_metadata(
    kit: Kit,
) -> None:
    """Rows written before metadata was screened: `kit export` screens them on the way out."""
    await kit.add_note("router settings", name="router", source="file router.txt")
    s = kit.services
    async with s.db.transaction() as tx:
        await tx.execute(
            "UPDATE note_history SET description = 'wifi key: BlueSky-4471',"
            " source = 'file wifi key BlueSky-4471.txt'"
        )
        await tx.execute("UPDATE notes SET description = 'wifi key: BlueSky-4471'")
    exported = to_json(await export_document(s.db, "owner", s.clock.now()))
    assert "BlueSky-4471" not in exported and exported.count(WITHHELD) == 3


@pytest.mark.parametrize(("text", "value"), FORMS, ids=IDS)
def test_a_log_line_holding_it_is_withheld(text: str, value: str) -> None:
    record = logging.LogRecord("x", logging.INFO, __file__, 1, "said %s", (text,), None)
    assert RedactSecrets([]).filter(record)
    assert value not in record.getMessage() and WITHHELD in record.getMessage()
