"""`kit doctor`'s line on voice messages (the channels' own are their records':
kit/channels/registry.py)."""

from __future__ import annotations

from kit.commands.doctor_models import Lines
from kit.config import Settings


def check_speech(report: Lines, settings: Settings) -> None:
    url = settings.speech.url.strip()
    if not url:
        report.ok("voice messages", "off ([speech] url is empty: voice messages get a reply)")
        return
    report.ok("voice messages", f"transcribed by {url} ({settings.speech.model})")
