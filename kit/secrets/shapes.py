"""What a credential looks like, whoever issued it: the tests every detector shares.

- `looks_random`: a run nobody typed from memory. A key is drawn at random from an alphabet
  (base58, base62, base64): its characters are nearly all different, mixed in case and
  digits, and it holds no words. Shannon entropy measures the first; the share of the run
  that reads as words ("mockErrorResponse", "IntegrityError") the last.
- `made_up`: a word a person chose as a password: a digit, a symbol or a capital inside it.
- `placeholder`: what stands where a value would be without being one (`${DB_PASSWORD}`,
  `<your-token>`, `********`, `[Your Password]`, `os.environ[...]`, a call).
- `base58check`: the payload of a base58check string, when its checksum holds.
"""

from __future__ import annotations

import hashlib
import math
import re
from collections import Counter

_WORDISH = re.compile(r"[A-Z]?[a-z]{3,}")
_HEX = re.compile(r"[0-9a-fA-F]+")
_SEGMENT = re.compile(r"[A-Za-z0-9+/]+")  # base64's alphabet, between separators (-_.=~%)


def entropy(text: str) -> float:
    """Shannon entropy of `text`'s characters, in bits per character."""
    size = len(text)
    return -sum(n / size * math.log2(n / size) for n in Counter(text).values())


def looks_random(run: str, shortest: int = 24) -> bool:
    """`run` (token characters only) reads as drawn at random: long enough, with a stretch of
    at least 12 characters between separators, upper and lower case and digits, few
    repeats, no words. 99% of random base62 runs of 24 characters pass; identifiers
    (`mockErrorResponse429`, `Flask-SQLAlchemy==2.5.1`) and hex hashes do not."""
    if len(run) < shortest or _HEX.fullmatch(run.replace("-", "")):
        return False
    if max(len(m.group()) for m in _SEGMENT.finditer(run)) < min(shortest, 12):
        return False
    upper = lower = digit = 0
    for char in run:
        upper += char.isupper()
        lower += char.islower()
        digit += char.isdigit()
    if not (upper and lower and digit):
        return False
    words = sum(len(m.group()) for m in _WORDISH.finditer(run))
    floor = min(3.6 + 0.02 * (len(run) - 20), 4.4)  # below the 1st percentile of random runs
    return words <= 0.55 * len(run) and entropy(run) >= floor


_SYMBOL = re.compile(r"[^\w\s]|_")
_INNER_CAPITAL = re.compile(r"[a-zà-ÿ][A-Z]")


def made_up(word: str) -> bool:
    """A word with a digit, a symbol or a capital after a small letter: chosen, not spoken."""
    return (
        any(c.isdigit() for c in word)
        or _SYMBOL.search(word) is not None
        or _INNER_CAPITAL.search(word) is not None
    )


# Where a value would be: a variable, a template, an environment lookup, a call, a mask.
_PLACEHOLDER = re.compile(
    r"""
    [$%][({]                                    # ${VAR}, $(cmd), %(name)s
    | \$(?:[A-Z_][A-Z0-9_]*|[a-z_][a-z0-9_]*)\b  # $VAR, $var (a mixed-case run is a value)
    | \{\{ | \{[A-Za-z_][\w.]*\}                # {{ secrets.X }}, {token}
    | <[^<>\n]{1,40}>                           # <your-token>
    | \[[^\[\]\n]{1,40}\]                       # [Your Password]
    | (?:os\.|process\.env|env\(|getenv|getpass|secrets\.|vault:|!)   # lookups, YAML tags
    | [\w.]+[(\[]                               # a call, a subscript
    | (?i:your[-_ ]|my[-_ ]|some[-_]|replace|change[-_ ]?me|example|placeholder|dummy|redacted|xxx)
    """,
    re.VERBOSE,
)
_NAMES_ITSELF = re.compile(r"(?i:passw(?:or)?d)")


# A password's hash in the formats that say so: Werkzeug, crypt(3), bcrypt, argon2, LDAP.
_HASHED = re.compile(
    r"(?:pbkdf2|scrypt|sha\d+|md5|bcrypt|argon2\w*):|\$(?:2[abxy]?|[156]|argon2\w*|y|gy|7)\$"
    r"|\{(?:SSHA|SHA|SMD5|MD5|CRYPT|SSHA512)\}"
)
_MASK = re.compile(r"([*xX•#._-])\1{2,}|…")  # ****, xxxx, ...


def placeholder(value: str) -> bool:
    """`value` stands where a secret would be without being one: a reference, a template, a
    mask, a value that names itself ("wrong_password", `check_password_hash`: a real one does
    not), a password's hash (what is stored instead of it)."""
    stripped = value.strip("\"'`")
    if not any(c.isalnum() for c in stripped):
        return True  # "********", "", "--"
    if _PLACEHOLDER.match(stripped) or _HASHED.match(stripped):
        return True
    letters = "".join(c for c in stripped if c.isalpha())
    if _NAMES_ITSELF.search(letters) and _NAMES_ITSELF.sub("", letters):
        return True  # "wrong_password", "mysecretpassword" (but "Password1!" is one)
    mask = _MASK.search(stripped)
    return mask is not None and len(mask.group()) * 2 >= len(stripped)


_BASE58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
_B58_INDEX = {c: i for i, c in enumerate(_BASE58)}


def base58(text: str) -> bytes | None:
    """`text` decoded from base58, or None when it holds a character outside the alphabet."""
    number = 0
    for char in text:
        digit = _B58_INDEX.get(char)
        if digit is None:
            return None
        number = number * 58 + digit
    raw = number.to_bytes((number.bit_length() + 7) // 8, "big")
    return b"\0" * (len(text) - len(text.lstrip("1"))) + raw


def base58check(text: str) -> bytes | None:
    """The payload of a base58check string, or None when its checksum does not hold."""
    raw = base58(text)
    if raw is None or len(raw) <= 4:
        return None
    payload, check = raw[:-4], raw[-4:]
    digest = hashlib.sha256(hashlib.sha256(payload).digest()).digest()
    return payload if digest[:4] == check else None
