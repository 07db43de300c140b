"""Voice messages on any channel: the audio is transcribed by an OpenAI-compatible server
(`[speech] url`: whisper.cpp's server, faster-whisper servers, OpenAI's API) and the text is
handled as the owner's message, kept marked as spoken (`Inbound.spoken`). The audio itself is
never kept: it is read, sent to the server, and dropped.

Without a server, `transcribe` raises `VoiceOff`, whose message is the one reply a channel
sends: voice is off, and how to turn it on. What the server answers is untrusted: a transcript
must be text of a sensible length, else nothing is kept and the owner is told.

No SDK here: the transcriber is a port (the openai SDK's adapter is kit/llm/openai.py's
`OpenAITranscriber`, built by the composition root, kit/app.py).
"""

from __future__ import annotations

from typing import Protocol

from kit.errors import InputError, KitError

MAX_AUDIO_BYTES = 25 * 1024 * 1024  # OpenAI's own limit; local servers take as much
MAX_TRANSCRIPT = 20_000  # characters: minutes of speech; more is not a voice message's text

VOICE_OFF = (
    "Voice messages are off: this Kit has no speech-to-text server, so I cannot listen to "
    "them (nothing was kept). To turn them on, set [speech] url in config.toml to an "
    "OpenAI-compatible transcription server (whisper.cpp's server, faster-whisper-server or "
    "OpenAI's API) and restart Kit; until then, please type it out."
)


class VoiceOff(KitError):
    """No speech server is configured: the channel says so, once per voice message."""


class Transcriber(Protocol):
    """Speech to text: an OpenAI-compatible /v1/audio/transcriptions (or a fake)."""

    async def transcribe(self, audio: bytes, *, file_name: str, mime_type: str) -> str: ...


class Speech:
    def __init__(self, transcriber: Transcriber | None) -> None:
        self._transcriber = transcriber

    @property
    def enabled(self) -> bool:
        return self._transcriber is not None

    def check(self, size: int | None) -> None:
        """Before anything is downloaded: voice is on, and the audio is not too big."""
        if self._transcriber is None:
            raise VoiceOff(VOICE_OFF)
        if size is not None and size > MAX_AUDIO_BYTES:
            raise InputError(
                f"that voice message is {size / 1e6:.0f} MB, more than the "
                f"{MAX_AUDIO_BYTES // 2**20} MB a transcription takes; nothing was kept. "
                "Please send it in shorter parts"
            )

    async def transcribe(self, audio: bytes, *, file_name: str, mime_type: str) -> str:
        """The words of `audio`, or a KitError saying why there are none (nothing is kept)."""
        self.check(len(audio))
        assert self._transcriber is not None
        text = await self._transcriber.transcribe(audio, file_name=file_name, mime_type=mime_type)
        if not isinstance(text, str):  # an adapter's parse of an answer from outside
            raise InputError("the speech server answered without a transcript; nothing was kept")
        words = text.replace("\x00", "").strip()
        if not words:
            raise InputError(
                "I could not make out any words in that voice message; nothing was kept. "
                "Please try again, or type it"
            )
        if len(words) > MAX_TRANSCRIPT:
            raise InputError(
                f"that voice message's transcript is over {MAX_TRANSCRIPT:,} characters; nothing "
                "was kept. Please send it in shorter parts"
            )
        return words
