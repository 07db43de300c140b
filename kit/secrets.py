"""Spotting secrets so they are never stored as facts or written to logs."""

from __future__ import annotations

import re

_PATTERNS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("a password", re.compile(r"\b(pass(word|phrase|code)?|pwd|pin)\b\s*(is|:|=|was)\s*\S+", re.I)),
    ("an API key", re.compile(r"\b(sk|pk|rk)-[A-Za-z0-9_\-]{16,}")),
    ("an API key", re.compile(r"\b(api[_ -]?key|secret|token)\b\s*(is|:|=)\s*\S{8,}", re.I)),
    ("a token", re.compile(r"\b\d{6,12}:[A-Za-z0-9_\-]{30,}\b")),  # Telegram bot token shape
    ("a token", re.compile(r"\b(ghp|gho|github_pat|xox[abp]|AKIA)[A-Za-z0-9_\-]{12,}")),
    ("a private key", re.compile(r"-----BEGIN [A-Z ]*PRIVATE KEY-----")),
)
_CARD = re.compile(r"\b(?:\d[ -]?){13,19}\b")


def _luhn(digits: str) -> bool:
    total = 0
    for i, ch in enumerate(reversed(digits)):
        n = int(ch)
        if i % 2 == 1:
            n = n * 2 - 9 if n > 4 else n * 2
        total += n
    return total % 10 == 0


def find_secret(text: str) -> str | None:
    """What kind of secret `text` seems to hold ("a password", ...), or None."""
    for label, pattern in _PATTERNS:
        if pattern.search(text):
            return label
    for match in _CARD.finditer(text):
        digits = re.sub(r"\D", "", match.group())
        if 13 <= len(digits) <= 19 and _luhn(digits):
            return "a card number"
    return None


def redact(text: str, secrets: list[str]) -> str:
    """Replace known secret values (keys, tokens) with a marker."""
    for secret in secrets:
        if secret and len(secret) >= 6:
            text = text.replace(secret, "[redacted]")
    return text
