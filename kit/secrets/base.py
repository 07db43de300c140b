"""What a detector reports: the kind of secret and where its value sits in the text."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Secret:
    kind: str  # "a password", "an API key or token", ...: said to the owner, never the value
    start: int
    end: int


# The kinds, as said to the owner ("Not stored: this looks like a password").
PASSWORD = "a password"
ACCESS_CODE = "a PIN or access code"
CARD_CODE = "a card security code"
KEY = "an API key or token"
PRIVATE_KEY = "a private key"
CARD = "a card number"
IBAN = "a bank account number (IBAN)"
SEED = "a wallet seed phrase"
RECOVERY = "a recovery key or 2FA secret"
