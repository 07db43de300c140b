"""Voice messages on Matrix (a voice-marked m.audio, as Element sends them), against a real
homeserver: heard by the speech server (a local fake for the real openai SDK) and answered as
the owner's text, kept marked as spoken; without a server, one reply says voice is off."""

from __future__ import annotations

import dataclasses

from kit.api import Kit
from kit.channel_settings import SpeechSettings
from kit.clock import FakeClock
from kit.config import Settings
from kit.embed.hashing import HashingEmbedder
from kit.llm.fake import FakeLLM
from kit.speech.service import VOICE_OFF
from tests.matrix.conftest import Accounts, ChannelFactory, running
from tests.matrix.test_conversation import count_messages, open_room
from tests.matrix.test_features import from_kit
from tests.servers.speech_api import FakeSpeechServer
from tests.support.digest import at
from tests.support.matrix_user import MatrixUser


async def test_a_voice_message_is_heard_and_kept_as_the_owners_spoken_text(
    settings: Settings,
    clock: FakeClock,
    owner: MatrixUser,
    accounts: Accounts,
    make_channel: ChannelFactory,
) -> None:
    llm = FakeLLM(default="Noted: the plumber on Friday.")
    with FakeSpeechServer() as speech:
        speech.queue_text("The plumber comes on Friday")
        heard = dataclasses.replace(settings, speech=SpeechSettings(url=speech.url))
        async with Kit.open(
            settings=heard, llm=llm, embedder=HashingEmbedder(), clock=clock, background=False
        ) as kit:
            async with running(make_channel(kit)):
                room = await open_room(owner, accounts)
                await owner.send_voice(room, b"OggS spoken words")
                await owner.wait_for(lambda: bool(from_kit(owner, accounts, room)))
            stored = await kit.services.messages.on_day("owner", at(9).date())
        (request,) = speech.heard
    assert request.audio == b"OggS spoken words"
    assert request.mime_type == "audio/ogg"
    assert from_kit(owner, accounts, room) == ["Noted: the plumber on Friday."]
    assert [(m.text, m.spoken) for m in stored] == [
        ("The plumber comes on Friday", True),
        ("Noted: the plumber on Friday.", False),
    ]


async def test_without_a_speech_server_a_voice_message_gets_one_reply(
    kit: Kit,
    fake_llm: FakeLLM,
    owner: MatrixUser,
    accounts: Accounts,
    make_channel: ChannelFactory,
) -> None:
    async with running(make_channel(kit)):
        room = await open_room(owner, accounts)
        await owner.send_voice(room, b"OggS")
        await owner.wait_for(lambda: bool(from_kit(owner, accounts, room)))
    assert from_kit(owner, accounts, room) == [VOICE_OFF]
    assert await count_messages(kit) == 0 and fake_llm.requests == []
