"""Private keys and recovery keys, by the structure their formats define rather than by a
name nearby where the format allows it:
- PEM blocks ("-----BEGIN … PRIVATE KEY-----"), withheld whole from BEGIN to its END, however
  the body was pasted (wrapped, flattened onto one line by a chat app, with PGP's blank line,
  or inside a JSON string with its line breaks written `\n`); a block cut short stops at the
  first line that is not key body, so a note that pastes only a header loses that and nothing
  after;
- PuTTY key files: the lines their `Private-Lines:` header counts;
- the body alone (the header left out): DER private keys open with the same bytes whatever the
  key (PKCS#1 RSA, PKCS#8, SEC1 EC, Ed25519, encrypted PKCS#8), OpenSSH's with "openssh-key-v1";
- an Ethereum private key (64 hex digits) only when named: a hash looks the same;
- BitLocker recovery keys, eight groups of six digits each a multiple of 11 (their check);
- Apple and FileVault recovery keys (six or seven groups of four letters and digits), and any
  recovery or security key, recovery or backup code (a list of them too), TOTP seed or
  authenticator setup key when it is named;
- TOTP seeds in otpauth:// links.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from kit.secrets.base import KEY, PRIVATE_KEY, RECOVERY, Secret
from kit.secrets.windows import keyword_hits, near

# A PEM private key block with its END: everything between is key, however it was pasted.
_PEM_WHOLE = re.compile(
    r"-{4,5} ?BEGIN ([A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?) ?-{4,5}.{0,16000}?-{4,5} ?END \1 ?-{4,5}",
    re.DOTALL,
)
# One cut short: body lines are base64 (or "Proc-Type: …" style headers, and PGP's blank line
# after them), each the whole of its line; the END line may be cut short too.
_PEM = re.compile(
    r"-----BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----(?:[ \t]*\n(?=[ \t]*\n[ \t]*[A-Za-z0-9+/]))?"
    r"(?:[ \t]*\n?[ \t]*(?:[A-Za-z0-9+/=]{4,}|[A-Za-z-]+: [^\n]*)(?=[ \t]*(?:\n|$|-----END)))*+"
    r"(?:\s*-----END[ A-Z0-9]*(?:-----)?)?"
)
_PUTTY_PRIVATE = re.compile(r"^Private-Lines:[ \t]*(\d{1,3})[ \t]*\n", re.MULTILINE)
# The first bytes of DER private keys in base64, then the rest of the body (lines of base64).
_DER_BODY = re.compile(
    r"(?<![A-Za-z0-9+/])"
    r"(?:b3BlbnNzaC1rZXktdjE"  # openssh-key-v1
    r"|MII[A-Za-z0-9+/]{2}[AQgw]IBAAK"  # PKCS#1 RSA
    r"|MII[A-Za-z0-9+/]{2}[AQgw]IBADAN"  # PKCS#8
    r"|MII[A-Za-z0-9+/]{3}DBOBgkqhkiG9w0BBQ0"  # encrypted PKCS#8
    r"|MHcCAQEE|MIGkAgEBBD|MIHcAgEBBE"  # SEC1 EC, P-256 / P-384 / P-521
    r"|MIGHAgEAMBMGByqGSM49|MIG2AgEAMBAGByqGSM49"  # PKCS#8 EC
    r"|MC4CAQAwBQYDK2Vw"  # PKCS#8 Ed25519
    r")[A-Za-z0-9+/=]{8,}+(?:[ \t]*\n[ \t]*[A-Za-z0-9+/=]{16,}+)*+"
)
_NAMED_HEX = re.compile(
    r"(?i:private[ _-]?key|priv(?:ate)?[ _-]?key|privkey|secret[ _-]?key|wallet[ _-]?key"
    r"|clé privée|clave privada|chave privada|chiave privata|privater schlüssel)"
    r"[^\n]{0,30}?(?<![0-9A-Fa-fx])((?:0x)?[0-9a-fA-F]{64})(?![0-9A-Za-z])"
)  # fmt: skip
_HEX_64 = re.compile(r"(?<![0-9A-Fa-f])[0-9a-fA-F]{64}(?![0-9A-Za-z])")
_BITLOCKER = re.compile(r"(?<![\d-])\d{6}(?:-\d{6}){7}(?![\d-])")
_GROUPED_KEY = re.compile(r"(?<![A-Z0-9-])[A-Z0-9]{4}(?:-[A-Z0-9]{4}){5,6}(?![A-Z0-9-])")
_RECOVERY_NAME = (
    r"(?:recovery|rescue|backup|emergency|security)[ -](?:key|code)s?|filevault|bitlocker"
    r"|wiederherstellungs(?:schlüssel|code)|clé de (?:récupération|secours)"
    r"|clave de recuperación|chave de recuperação|chiave di ripristino|herstelsleutel"
)
_TOTP_NAME = (
    r"(?:totp|2fa|mfa|otp|authenticator|two[- ]factor)(?:[ -][\w-]+){0,2}?[ -]"
    r"(?:secret|seed|setup[ -]key|key|backup)"
)
_NAMED = re.compile(
    rf"(?i:(?<![^\W_])(?:{_RECOVERY_NAME}|{_TOTP_NAME})(?![^\W_]))"
    r"(?:[^\n:=]{0,30}?(?:[:=]|\bis\b|\bwas\b|\bare\b|\bist\b|\best\b|\bes\b|\bé\b|\bè\b)|[ \t]*)"
    r"[ \t]*\n?[ \t]*(?P<value>"
    r"[A-Za-z2-7]{4}(?:[ -]?[A-Za-z2-7]{4}){3,15}(?![A-Za-z0-9])"  # base32, grouped or not
    r"|[A-Za-z0-9]{4,6}(?:[ -][A-Za-z0-9]{4,6}){3,11}(?![A-Za-z0-9])"  # grouped key
    r"|[A-Za-z0-9]{4,10}(?:-[A-Za-z0-9]{4,10}){1,3}(?![A-Za-z0-9])"  # a dashed code
    r"|[0-9]{6}(?:-[0-9]{6}){7}"
    r"|(?=[A-Za-z]*\d)[A-Za-z0-9]{4,12}(?![\w-])"  # one code (and a list: _more_codes)
    r")"
)
_OTPAUTH = re.compile(r"otpauth://[^\s?]*\?(?:[^\s#]*?&)?secret=([A-Za-z2-7=]{16,})", re.I)


def _bitlocker(key: str) -> bool:
    return all(int(g) % 11 == 0 and int(g) < 65536 * 11 for g in key.split("-"))


def _mixed(key: str) -> bool:
    return any(c.isdigit() for c in key) and any(c.isalpha() for c in key)


# A long run of key characters: where BitLocker and grouped recovery keys can be.
# One scan finds the runs (chat has few); each key's own pattern is tried only inside them.
_LONG_RUN = re.compile(r"(?<![A-Za-z0-9-])[A-Za-z0-9][A-Za-z0-9-]{26,}+")
_DER_STARTS = ("b3BlbnNzaC1rZXktdjE", "MI", "MHcC", "MC4C")
_NAMED_WORDS = re.compile(
    r"recover|rescue|backup|emergency|security|filevault|bitlocker|wiederherstell|récupération"
    r"|secours|recupera|ripristino|herstel|totp|2fa|mfa|otp|authenticator|factor"
)


# More codes after a named one: a list of backup codes, one a line or side by side.
_MORE_CODES = re.compile(
    r"[ \t]*[\n,;]?[ \t]*([A-Za-z0-9]{4,10}(?:[ -][A-Za-z0-9]{4,10})?)(?![\w-])"
)


def find_keys(text: str) -> Iterator[Secret]:
    if "BEGIN" in text:
        whole = [(m.start(), m.end()) for m in _PEM_WHOLE.finditer(text)]
        for start, end in whole:
            yield Secret(PRIVATE_KEY, start, end)
        for match in _PEM.finditer(text):
            if not any(start <= match.start() < end for start, end in whole):
                yield Secret(PRIVATE_KEY, match.start(), match.end())
    if "Private-Lines:" in text:
        yield from _putty(text)
    if any(start in text for start in _DER_STARTS):
        for match in _DER_BODY.finditer(text):
            yield Secret(PRIVATE_KEY, match.start(), match.end())
    for run in _LONG_RUN.finditer(text):
        yield from _in_run(text, run.start(), run.end())
    for lo, hi in near(text, _HEX_64.finditer(text), 80, 0):  # a hex key, named just before
        for match in _NAMED_HEX.finditer(text, lo, hi):
            yield Secret(PRIVATE_KEY, match.start(1), match.end(1))
    for lo, hi in near(text, keyword_hits(text, _NAMED_WORDS), 40, 200):
        for match in _NAMED.finditer(text, lo, hi):
            value = match.group("value")
            if any(c.isdigit() for c in value):  # named: any value with a digit (base32 has 2-7)
                yield Secret(RECOVERY, match.start("value"), _more_codes(text, match.end("value")))
    if "otpauth" in text.lower():
        for match in _OTPAUTH.finditer(text):
            yield Secret(KEY, match.start(1), match.end(1))


def _putty(text: str) -> Iterator[Secret]:
    """The private lines of a PuTTY key file (its header counts them) and its MAC."""
    for header in _PUTTY_PRIVATE.finditer(text):
        end = header.end()
        for _ in range(int(header.group(1))):
            line = re.compile(r"[ \t]*[A-Za-z0-9+/=]+[ \t]*(?:\n|$)").match(text, end)
            if line is None:
                break
            end = line.end()
        yield Secret(PRIVATE_KEY, header.end(), end)


def _more_codes(text: str, end: int) -> int:
    """Where a list of codes that opens at a named one ends: each next one a code with a digit."""
    while (more := _MORE_CODES.match(text, end)) is not None and any(
        c.isdigit() for c in more.group(1)
    ):
        end = more.end()
    return end


def _in_run(text: str, start: int, end: int) -> Iterator[Secret]:
    for match in _BITLOCKER.finditer(text, start, end):
        if _bitlocker(match.group()):
            yield Secret(RECOVERY, match.start(), match.end())
    for match in _GROUPED_KEY.finditer(text, start, end):
        if _mixed(match.group()):
            yield Secret(RECOVERY, match.start(), match.end())
