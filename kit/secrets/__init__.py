"""Spotting secrets so they are never stored in memory nor written to logs: the one detector
every stored text passes (docs/security.md).

The text is read normalised (normalise.py: invisible characters out, NFKC, look-alike letters
and leetspeak folded, wrapped keys joined) and each detector returns spans, mapped back to the
text as written: provider tokens (tokens.py: detect-secrets' plugins; providers.py: gitleaks'
published formats), private and recovery keys by their structure and checksums (keys.py),
secrets inside URLs (urls.py), passwords, PINs and codes said in prose in 20 languages
(prose.py), card numbers and IBANs by their checksums (numbers.py) and wallet seed phrases
(seeds.py). `find_secret` says what kind a text holds (for refusals and screen reasons, which
never quote it); `withhold_secrets` replaces just the values, so a summary keeps its sentence.
"""

from __future__ import annotations

import re

from kit.secrets.assignments import find_assignments
from kit.secrets.base import Secret
from kit.secrets.commands import find_commands
from kit.secrets.entropy import find_random_runs
from kit.secrets.keys import find_keys
from kit.secrets.normalise import normalise
from kit.secrets.numbers import find_numbers
from kit.secrets.pairs import find_pairs
from kit.secrets.prose import find_prose
from kit.secrets.providers import find_providers
from kit.secrets.seeds import find_seeds
from kit.secrets.tokens import find_tokens
from kit.secrets.urls import find_in_urls
from kit.secrets.wallets import find_wallet_keys

WITHHELD = "[secret withheld]"
_PLACEHOLDER = re.compile(re.escape(WITHHELD))
_STAND_IN = "x" * len(WITHHELD)

_DETECTORS = (
    find_tokens,
    find_providers,
    find_keys,
    find_wallet_keys,
    find_in_urls,
    find_prose,
    find_numbers,
    find_seeds,
    find_random_runs,
    find_commands,
    find_assignments,
    find_pairs,
)


def find_secrets(text: str) -> list[Secret]:
    """Every secret in `text`, by position in `text` as written (the detectors read it
    normalised: normalise.py); overlapping finds are merged into one span."""
    # What was withheld before stands in for its value: the detectors read a plain word of
    # the same length there, and what they find over it (the value again, with a file name's
    # ".txt" after it) was withheld already. Screening twice changes nothing more.
    before = [(m.start(), m.end()) for m in _PLACEHOLDER.finditer(text)] if WITHHELD in text else []
    normalised = normalise(_PLACEHOLDER.sub(_STAND_IN, text) if before else text)
    found = sorted(
        (
            secret
            for detect in _DETECTORS
            for s in detect(normalised.text)
            if not _overlaps(secret := Secret(s.kind, *normalised.span(s.start, s.end)), before)
        ),
        key=lambda s: (s.start, -s.end),
    )
    merged: list[Secret] = []
    for secret in found:
        if merged and secret.start < merged[-1].end:
            last = merged[-1]
            merged[-1] = Secret(last.kind, last.start, max(last.end, secret.end))
        else:
            merged.append(secret)
    return merged


def _overlaps(secret: Secret, spans: list[tuple[int, int]]) -> bool:
    return any(secret.start < end and start < secret.end for start, end in spans)


def find_secret(text: str) -> str | None:
    """What kind of secret `text` seems to hold ("a password", ...), or None."""
    found = find_secrets(text)
    return found[0].kind if found else None


def withhold_secrets(text: str) -> str:
    """`text` with each secret value replaced by "[secret withheld]"."""
    for secret in reversed(find_secrets(text)):
        text = text[: secret.start] + WITHHELD + text[secret.end :]
    return text


__all__ = ["WITHHELD", "Secret", "find_secret", "find_secrets", "withhold_secrets"]
