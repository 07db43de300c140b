"""Long random runs: a token nobody could type from memory is a credential, whoever issued it.

Most keys and tokens are long runs drawn at random from an alphabet (shapes.looks_random).
What else is long and random in ordinary text is public by its place or by its name, and is
left alone:
- by its place: inside a URL (urls.py reads the secrets a URL carries), a data: URI, a PEM or
  PGP block that is not a private key (a certificate, a public key, a signature), an email
  address;
- by its own opening: an SSH public key blob (`AAAAC3NzaC1…`), an extended public key (`xpub`),
  a bech32 address or public key (`bc1`, `npub1`, `age1`), an IPFS CID (`Qm…`), a publishable
  key (`pk_live_`), a hash with its algorithm (`sha512-…`, `sha256:…`, `h1:…`), a Bitcoin address
  (its base58check version byte), a provider's object id (`pi_` and 24 characters);
- by its name: the nearest name before it on its line says what it is. A public one ("public
  key", "address", "fingerprint", "hash", "commit", "tx", "id"…) keeps it; a secret one ("key",
  "token", "secret", "seed", "private"… in several languages) makes a shorter or plainer run a
  secret too: a hex run of 32 or more (a hash looks the same, so only when named), a base64 or
  base58 one of 16 or more.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from kit.secrets.base import KEY, Secret
from kit.secrets.shapes import base58check, entropy, looks_random

_RUN = re.compile(r"[A-Za-z0-9+/=_\-.~%]{16,}")
_EDGES = "+/=_-.~%"

_URL = re.compile(r"(?:\b[a-z][a-z0-9+.-]{1,20}://|\bwww\.)[^\s<>\"'`]+", re.I)
_DATA_URI = re.compile(r"\bdata:[\w/+.-]+(?:;[\w=.-]+)*;base64,[A-Za-z0-9+/=]+")
_ARMOR = re.compile(r"-{4,5} ?BEGIN ([A-Z0-9 ]+?) ?-{4,5}")
_ARMOR_END = re.compile(r"-{4,5} ?END [A-Z0-9 ]+? ?-{4,5}")
_BLANK_AFTER_BODY = re.compile(r"\S[^\n]*\n[ \t]*\n")  # a block cut short ends at a blank line

# What a public run opens with, and what may stand just before one.
_PUBLIC_OPENING = re.compile(
    r"(?:[xyztuvYZUV]pub[1-9A-HJ-NP-Za-km-z]{100}"
    r"|(?:npub|age|bc|tb|ltc|addr|stake)1[02-9ac-hj-np-z]{20,}"
    r"|Qm[1-9A-HJ-NP-Za-km-z]{44}$"
    r"|AAAA[BCE][0-9A-Za-z]{2}NzaC1|AAAAE2VjZHNh"
    r"|pk_(?:live|test)_|(?:sha|SHA)\d{0,3}[-:]|md5[-:]|blake\w*[-:]"
    r"|[a-z]{2,6}_[A-Za-z0-9]{8,25}$)"  # a provider's object id: pi_…, cus_…, ch_…
)
_PUBLIC_BEFORE = re.compile(
    r"(?:(?i:sha\d{0,3}|md5|h1|blake\w*|sri|base64)[:,=-]|\?[Bb]\?|ssh-(?:rsa|dss|ed25519) "
    r"|ecdsa-sha2-[\w-]+ |sk-(?:ssh|ecdsa)[\w@.-]+ |[@#]|[a-z]+:[a-z]+:)$"
)

# The names that say what a run is. A name is matched as the whole word it sits in
# ("PrivateKey", "api_key", "WEBHOOK_SECRET"), so "PublicKey" is public whatever it holds.
_NAME = re.compile(r"[^\W_]+(?:[_-][^\W_]+)*|[^\x00-\u2fff]+")
_PUBLIC_WORD = re.compile(
    r"(?i:public|pub|pubkey|publickey|publishable|site|peer|host|address|addr|fingerprint"
    r"|checksum|hash|digest|sha\d*|md5|crc\d*|signature|sig|integrity|etag|commit|revision|rev"
    r"|tx|txid|txn|transaction|block|cid|ipfs|id|ids|uuid|guid|ref|reference|order|invoice"
    r"|tracking|ticket|serial|sku|asin|isbn|doi|video|track|album|playlist|document|doc|file"
    r"|photo|image|invite|meeting|room|channel|username|handle|nonce|salt|iv|version|build"
    r"|image_id|request|trace|span|correlation|session_id|key_id|keyid|client_id|app_id)"
)
_SECRET_WORD = re.compile(
    r"(?i:.*(?:key|token|secret|seed|macaroon|credential|bearer|passw|passphrase|nsec|xprv"
    r"|privkey|auth|metamask|phantom|wallet)"
    r"|clé|cle|clave|chave|chiave|schlüssel|schluessel|sleutel|klucz|ключ\w*|κλειδί|anahtar\w*"
    r"|nyckel\w*|nøgle\w*|nøkkel\w*|avain\w*|kulcs\w*|klíč\w*|cheie|ključ\w*|kunci|khóa"
    r"|jeton|токен\w*|secreto|segredo|segreto|geheimnis|sekret\w*|секрет\w*"
    r"|.*(?:鍵|键|密钥|私钥|秘钥|キー|키|토큰|トークン|令牌|秘密|비밀|مفتاح|מפתח|कुंजी))"
)
_PRIVATE_WORD = re.compile(r"(?i:private|priv|privat|privée|privada|privata|secret\w*)")
_REACH = 64  # characters before a run where its name may stand

_HEX_RUN = re.compile(r"(?:0x)?[0-9a-fA-F]{32,}")
_LABEL = re.compile(r"([a-z][a-z0-9]{1,9})(?:[_-][a-z0-9]{1,8}){0,2}[_-]")
_ADDRESS = re.compile(r"0x[0-9a-fA-F]{40}")  # an Ethereum address, public


def find_random_runs(text: str) -> Iterator[Secret]:
    spans: list[tuple[int, int]] | None = None
    for match in _RUN.finditer(text):
        start, end = _trim(text, match.start(), match.end())
        if end - start < 16:
            continue
        run = text[start:end]
        if not any(c.isdigit() for c in run):
            continue  # every key this reads holds a digit: most words and names hold none
        if spans is None:
            spans = _public_places(text)
        if any(lo <= start < hi for lo, hi in spans) or _public_by_shape(text, start, run):
            continue
        name = _nearest_name(text, start)
        if name == "public":
            continue
        if (name == "secret" and _named_value(run)) or _prefixed(run) or looks_random(run):
            yield Secret(KEY, start, end)


def _trim(text: str, start: int, end: int) -> tuple[int, int]:
    while start < end and text[start] in _EDGES:
        start += 1
    while end > start and text[end - 1] in _EDGES and not _padding(text, start, end):
        end -= 1
    return start, end


def _padding(text: str, start: int, end: int) -> bool:
    return text[end - 1] == "=" and end - start > 20  # base64's padding belongs to the key


def _public_places(text: str) -> list[tuple[int, int]]:
    """Where a run is public by its place: URLs, data: URIs, armored blocks that are not private
    keys."""
    places = (
        [(m.start(), m.end()) for m in _URL.finditer(text)]
        if "://" in text or ("www." in text)
        else []
    )
    if "base64," in text:
        places.extend((m.start(), m.end()) for m in _DATA_URI.finditer(text))
    if "BEGIN" in text:
        for armor in _ARMOR.finditer(text):
            if "PRIVATE" in armor.group(1):
                continue
            end = _ARMOR_END.search(text, armor.end()) or _BLANK_AFTER_BODY.search(
                text, armor.end()
            )
            places.append((armor.start(), end.end() if end else len(text)))
    return places


def _public_by_shape(text: str, start: int, run: str) -> bool:
    if _PUBLIC_OPENING.match(run) or _PUBLIC_BEFORE.search(text, max(0, start - 40), start):
        return True
    if "@" in text[start - 1 : start] or text.startswith("@", start + len(run)):
        return True  # an email address or a handle
    if len(run) in range(26, 36) and run[0] in "123mn2":
        payload = base58check(run)  # a Bitcoin address: version byte and 20 bytes
        if payload is not None and len(payload) == 21 and payload[0] in (0, 5, 0x6F, 0xC4):
            return True
    return False


def _nearest_name(text: str, start: int) -> str | None:
    """What the nearest name before `start` (in its paragraph, at most _REACH characters back)
    calls the run there: "public", "secret", or None when none stands there."""
    lo = max(0, start - _REACH)
    window = text[lo:start]
    cut = window.rfind("\n\n")
    if cut >= 0:
        window = window[cut + 2 :]
    words = [w.group() for w in _NAME.finditer(window)]
    for i in range(len(words) - 1, -1, -1):
        found = words[i]
        if _PUBLIC_WORD.fullmatch(found) or _compound_public(found):
            return "public"
        if _SECRET_WORD.fullmatch(found):
            # "public key", "site key", "host key": the word before says whose
            before = words[i - 1] if i else ""
            return "public" if _PUBLIC_WORD.fullmatch(before) else "secret"
    return None


def _compound_public(word: str) -> bool:
    """A compound with a public part: "PublicKey", "public_key", "key-id", "KeyFingerprint"."""
    parts = re.findall(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|\d+", word)
    return (
        len(parts) > 1
        and any(_PUBLIC_WORD.fullmatch(p) for p in parts)
        and not any(_PRIVATE_WORD.fullmatch(p) for p in parts)
    )


def _prefixed(run: str) -> bool:
    """A provider's label and a random body: `sbp_` and 40 hex digits, `dckr_pat_…`,
    `lsv2_pt_…`: how most providers shape their tokens, whatever the provider."""
    label = _LABEL.match(run)
    if label is None or _PUBLIC_WORD.fullmatch(label.group(1)):
        return False
    body = run[label.end() :]
    return bool(_HEX_RUN.fullmatch(body.replace("_", ""))) or looks_random(body, 20)


def _named_value(run: str) -> bool:
    """A run a secret's name stands before: plainer and shorter ones count (a hex key of 32
    digits or more, a lowercase token with digits), but not a word."""
    if _HEX_RUN.fullmatch(run):
        return not _ADDRESS.fullmatch(run)
    if looks_random(run, 16):
        return True
    # one case and digits ("oauth:ifu0fstcqdd1nn2s7wh7p", base32): digits throughout, and
    # letters that do not make syllables (a fifth of random letters are vowels, of words 40%)
    letters = [c for c in run.lower() if c.isalpha()]
    digits = sum(c.isdigit() for c in run)
    vowels = sum(c in "aeiou" for c in letters)
    return (
        len(run) >= 20
        and digits >= 0.15 * len(run)
        and len(letters) >= 0.3 * len(run)
        and vowels < 0.25 * len(letters)
        and entropy(run) >= 3.8
    )
