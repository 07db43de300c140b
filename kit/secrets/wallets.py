"""Wallet keys by the shapes their formats define:
- Bitcoin WIF keys (5/K/L, testnet 9/c) by their base58check checksum and version byte;
- BIP-32 extended private keys (`xprv`, `tprv`, `yprv`, `zprv`…): their four letters and 107
  to 112 base58 characters say what they are, checksum or not (a key typed out by hand, or
  made up for an example, is still one to withhold);
- a 64-byte key in base58 (Solana and other ed25519 wallets export the key pair so: 86 to 88
  characters); a 32-byte one (43 or 44 characters) is an address and is left to its name;
- bech32 secret keys, whose prefix says so (`nsec1…` of Nostr, `ed25519_sk1…` of Cardano);
- a key pair written as its bytes (`[174,47,…]`, 64 numbers below 256: Solana's id.json).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from kit.secrets.base import PRIVATE_KEY, Secret
from kit.secrets.shapes import base58, base58check

_B58 = "1-9A-HJ-NP-Za-km-z"
_WIF = re.compile(rf"(?<![A-Za-z0-9])(?:[59][{_B58}]{{50}}|[KLc][{_B58}]{{51}})(?![A-Za-z0-9])")
_XPRV = re.compile(rf"(?<![A-Za-z0-9])[xtyzuvYZUV]prv[{_B58}]{{100,108}}(?![A-Za-z0-9])")
_PAIR_58 = re.compile(rf"(?<![A-Za-z0-9])[{_B58}]{{85,90}}(?![A-Za-z0-9])")
_BECH32_SECRET = re.compile(
    r"(?<![\w-])(?:nsec|ed25519e?_sk|(?:addr|stake|root|acct)_x?sk|ed25519_bip32_sk)1"
    r"[02-9ac-hj-np-z]{50,}(?![\w-])",
    re.IGNORECASE,
)
_RUN = re.compile(r"[\w-]{50,}")
_BYTES = re.compile(r"\[\s*(?:\d{1,3}\s*,\s*){63}\d{1,3}\s*\]")


def find_wallet_keys(text: str) -> Iterator[Secret]:
    for run in _RUN.finditer(text):  # one scan; each shape is tried only inside a long run
        start, end = run.start(), run.end()
        for match in _WIF.finditer(text, start, end):
            payload = base58check(match.group())
            if (
                payload is not None
                and payload[:1] in (b"\x80", b"\xef")
                and len(payload) in (33, 34)
            ):
                yield Secret(PRIVATE_KEY, match.start(), match.end())
        for match in _XPRV.finditer(text, start, end):
            yield Secret(PRIVATE_KEY, match.start(), match.end())
        for match in _PAIR_58.finditer(text, start, end):
            raw = base58(match.group())
            if raw is not None and len(raw) == 64:
                yield Secret(PRIVATE_KEY, match.start(), match.end())
        for match in _BECH32_SECRET.finditer(text, start, end):
            yield Secret(PRIVATE_KEY, match.start(), match.end())
    if "[" in text:
        for match in _BYTES.finditer(text):
            if all(int(n) < 256 for n in re.findall(r"\d+", match.group())):
                yield Secret(PRIVATE_KEY, match.start(), match.end())
