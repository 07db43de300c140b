"""Voice messages on Telegram (kit/speech/): with `[speech] url` naming an OpenAI-compatible
transcription server (here a local fake, tests/servers/speech_api.py, for the real openai SDK),
a voice message is heard and answered as the owner's text, kept marked as spoken, the audio not
kept; without one, one reply says voice is off and how to turn it on, and nothing is stored."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator

import pytest

from kit.api import Kit
from kit.channel_settings import SpeechSettings
from kit.channels.telegram.channel import TelegramChannel
from kit.clock import FakeClock
from kit.config import Settings
from kit.embed.hashing import HashingEmbedder
from kit.llm.fake import FakeLLM
from kit.speech.service import VOICE_OFF
from tests.servers.speech_api import FakeSpeechServer
from tests.servers.telegram_api import FakeTelegramServer
from tests.telegram.conftest import OWNER_TG, ChannelFactory, running, telegram_settings
from tests.telegram.test_channel import TODAY, count_messages


@pytest.fixture
def speech() -> Iterator[FakeSpeechServer]:
    with FakeSpeechServer() as server:
        yield server


def with_speech(settings: Settings, server: FakeSpeechServer) -> Settings:
    return dataclasses.replace(
        settings, speech=SpeechSettings(url=server.url, model="whisper-small", language="en")
    )


async def test_a_voice_message_is_heard_answered_and_kept_as_spoken_text(
    settings: Settings,
    clock: FakeClock,
    tg: FakeTelegramServer,
    speech: FakeSpeechServer,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-speech")
    speech.queue_text("  Remind me that Ana's birthday is on Friday.  ")
    llm = FakeLLM(default="Noted: Ana's birthday is on Friday.")
    heard = with_speech(settings, speech)
    async with Kit.open(
        settings=heard, llm=llm, embedder=HashingEmbedder(), clock=clock, background=False
    ) as kit:
        channel = TelegramChannel(
            kit.services, tg.token, settings=telegram_settings(heard, tg), poll_timeout=1.0
        )
        async with running(channel):
            tg.push_voice(OWNER_TG, content=b"OggS the owner speaking")
            (sent,) = await tg.async_wait_for_sent(1)
        stored = await kit.services.messages.on_day("owner", TODAY)
    assert sent["text"] == "Noted: Ana's birthday is on Friday."
    (request,) = speech.heard
    assert request.audio == b"OggS the owner speaking"
    assert (request.model, request.language, request.file_name) == (
        "whisper-small",
        "en",
        "voice.ogg",
    )
    assert request.authorization == "Bearer sk-speech"
    assert [(m.role, m.text, m.spoken) for m in stored] == [
        ("user", "Remind me that Ana's birthday is on Friday.", True),
        ("assistant", "Noted: Ana's birthday is on Friday.", False),
    ]
    chat = "\n".join(str(m.content) for m in llm.requests[0].messages)
    assert "[voice message, transcribed]\\nRemind me that Ana's birthday is on Friday." in chat


async def test_without_a_speech_server_voice_gets_one_reply_and_nothing_is_stored(
    kit: Kit, fake_llm: FakeLLM, tg: FakeTelegramServer, make_channel: ChannelFactory
) -> None:
    async with running(make_channel()):
        tg.push_voice(OWNER_TG)
        sent = await tg.async_wait_for_sent(1)
    assert sent == [{"chat_id": OWNER_TG, "text": VOICE_OFF}]
    assert "[speech] url" in VOICE_OFF and "config.toml" in VOICE_OFF
    assert "download" not in [m for m, _ in tg.calls]  # the audio was not even fetched
    assert await count_messages(kit) == 0 and fake_llm.requests == []


async def test_a_speech_server_that_fails_loses_nothing_silently(
    settings: Settings, clock: FakeClock, tg: FakeTelegramServer, speech: FakeSpeechServer
) -> None:
    """The server's error, or a transcript with no words: the owner is told nothing was kept
    and asked to try again; no message is stored, no model called."""
    speech.queue_error(500)
    speech.queue_error(500)  # the SDK tries once more
    speech.queue_text("   ")
    llm = FakeLLM()
    heard = with_speech(settings, speech)
    async with Kit.open(
        settings=heard, llm=llm, embedder=HashingEmbedder(), clock=clock, background=False
    ) as kit:
        channel = TelegramChannel(
            kit.services, tg.token, settings=telegram_settings(heard, tg), poll_timeout=1.0
        )
        async with running(channel):
            tg.push_voice(OWNER_TG)
            await tg.async_wait_for_sent(1)
            tg.push_voice(OWNER_TG)
            first, second = await tg.async_wait_for_sent(2)
        assert await count_messages(kit) == 0
    assert first["text"].startswith("The speech-to-text server answered with an error (500)")
    assert "nothing was kept" in first["text"]
    assert second["text"].startswith("I could not make out any words in that voice message")
    assert llm.requests == [] and len(speech.heard) == 3


async def test_a_voice_message_too_big_is_refused_before_it_is_downloaded(
    settings: Settings, clock: FakeClock, tg: FakeTelegramServer, speech: FakeSpeechServer
) -> None:
    heard = with_speech(settings, speech)
    async with Kit.open(
        settings=heard, llm=FakeLLM(), embedder=HashingEmbedder(), clock=clock, background=False
    ) as kit:
        channel = TelegramChannel(
            kit.services, tg.token, settings=telegram_settings(heard, tg), poll_timeout=1.0
        )
        async with running(channel):
            tg.push_voice(OWNER_TG, file_size=40 * 1024 * 1024)
            (sent,) = await tg.async_wait_for_sent(1)
    assert sent["text"].startswith("That voice message is 42 MB, more than the 25 MB")
    assert speech.heard == [] and tg.downloads == []
