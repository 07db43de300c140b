"""Secrets assigned to a name in configuration and code: `.env` lines, YAML, JSON, TOML, INI,
Java properties, XML `key=… value=…` pairs, PHP `define('AUTH_KEY', '…')`, `-e name=value`.

The name says it holds a secret when one of its parts (split at `_`, `-`, `.` and case changes:
`DB_PASSWORD`, `jwtSecret`, `spring.datasource.password`, `PGPASSWORD`) is a secret's word
(password, passwd, pwd, passphrase, secret, token, credentials, an api/app/auth/private/access/
signing/encryption… key, a salt) and no part after it says it is about one rather than one
(`PASSWORD_MIN_LENGTH`, `token_url`, `secret_name`, `key_id`, `password_hash`).

What stands after it is its value unless it only refers to one: a variable, a template, a
lookup, a call, a mask, a type (`${DB_PASSWORD}`, `os.environ[...]`, `!vault`, `********`,
`string`), or another name in code (`password = hashed_password`).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from kit.secrets.base import KEY, PASSWORD, Secret
from kit.secrets.shapes import made_up, placeholder
from kit.secrets.vocabulary import COMMON_WORDS

_PASSWORD_PART = re.compile(r"(?i:.*(?:password|passwd|passphrase|passcode|pwd)|pass|pw)")
_SECRET_PART = re.compile(
    r"(?i:secret|secrets|token|credentials?|creds|apikey|salt|privatekey|privkey|seckey)"
)
_KEY_QUALIFIER = re.compile(
    r"(?i:api|app|auth|private|priv|secret|access|signing|sign|encryption|encrypt|decryption"
    r"|master|session|client|license|licence|hmac|jwt|webhook|cookie|nonce|logged|secure"
    r"|account|admin|root|service|bot|deploy|storage|subscription|ssh|gpg|aes|shared)"
)
_ABOUT = re.compile(
    r"(?i:length|len|min|max|policy|file|path|dir|url|uri|endpoint|host|name|id|type|algorithm"
    r"|alg|expiry|expires|expiration|ttl|timeout|lifetime|age|header|prefix|field|hint|required"
    r"|enabled|enable|prompt|stdin|reset|count|size|bits|format|version|mode|hash|hashed|env"
    r"|var|command|cmd|helper|public|pub|publishable|rotation|regex|pattern|validator|label"
    r"|input|form|manager|strength|rules?|changed|updated|at|placeholder|example)"
)
_PARTS = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+")

_QUOTED = r"\"[^\"\n]{1,200}\"|'[^'\n]{1,200}'"
_BARE = r"[^\s,;}\]\)#\"'][^\s,;}\]\)\"']{0,199}"
# What follows a name that is assigned a value: `: "…"`, ` = …`, `=>`, `:=`; the closing quote of
# a quoted name ("password": "…"); PHP's define('NAME', '…'); XML's key="NAME" value="…".
_ASSIGNED = re.compile(rf"[\"']?[ \t]*(?P<op>:=|=>|=|:)[ \t]*(?P<value>{_QUOTED}|{_BARE})")
_DEFINED = re.compile(rf"[\"']\s*,\s*(?P<value>{_QUOTED})")
_XML_PAIR = re.compile(rf"[\"']\s+value=(?P<value>{_QUOTED})", re.IGNORECASE)
_DEFINE_BEFORE = re.compile(r"define\(\s*[\"']$", re.IGNORECASE)
_XML_BEFORE = re.compile(r"(?:key|name)=[\"']$", re.IGNORECASE)
_NAME_CHAR = re.compile(r"[\w.-]")
_KEYWORDS = re.compile(r"pass|pwd|pw|secret|token|cred|key|salt")
# A line of PostgreSQL's password file: host:port:database:user:password.
_PGPASS = re.compile(
    r"(?:^|(?<=\s))(?:[\w-]+(?:\.[\w-]+)+|localhost|\*):(?:\d{2,5}|\*)"
    r":(?:[A-Za-z_][\w.-]*|\*):(?:[A-Za-z_][\w.@-]*|\*):(?P<value>\S+)$",
    re.MULTILINE,
)
# What a schema or a form says a field is, not what it holds.
_TYPES = frozenset(
    "string str int integer bool boolean number text varchar char bytes none null nil true "
    "false optional required hidden masked encrypted redacted sensitive secret password token "
    "undefined empty".split()
)


def secret_name(name: str) -> str | None:
    """PASSWORD or KEY when `name` names a secret (see the module's note), else None."""
    parts = _PARTS.findall(name)
    for i, part in enumerate(parts):
        kind = None
        if _PASSWORD_PART.fullmatch(part):
            kind = PASSWORD
        elif _SECRET_PART.fullmatch(part) or (
            part.lower() in ("key", "keys") and i and _KEY_QUALIFIER.fullmatch(parts[i - 1])
        ):
            kind = KEY
        if kind is not None and not any(_ABOUT.fullmatch(p) for p in parts[i + 1 :]):
            return kind
    return None


def find_assignments(text: str) -> Iterator[Secret]:
    if ":" in text:
        for match in _PGPASS.finditer(text):
            if not placeholder(match.group("value")):
                yield Secret(PASSWORD, match.start("value"), match.end("value"))
    lowered = text.lower()
    if len(lowered) != len(text):
        return  # a rare letter whose lower case is longer: positions would not line up
    names: set[int] = set()
    for hit in _KEYWORDS.finditer(lowered):  # a name holds a keyword: read the name around it
        start, end = hit.start(), hit.end()
        while start and _NAME_CHAR.match(text, start - 1):
            start -= 1
        while end < len(text) and _NAME_CHAR.match(text, end):
            end += 1
        name = text[start:end].strip(".-")
        kind = secret_name(name) if name and start not in names else None
        if kind is None:
            continue
        names.add(start)
        before = text[max(0, start - 12) : start]
        tail = (
            _DEFINED
            if _DEFINE_BEFORE.search(before)
            else _XML_PAIR
            if _XML_BEFORE.search(before)
            else _ASSIGNED
        )
        assigned = tail.match(text, end)
        if assigned is not None:
            yield from _found(text, assigned, kind)


def _found(text: str, match: re.Match[str], kind: str) -> Iterator[Secret]:
    quoted = match.group("value")[0] in "\"'"
    start, end = match.start("value"), match.end("value")
    if quoted:
        start, end = start + 1, end - 1
    if _value(text[start:end], quoted, match):
        yield Secret(kind, start, end)


def _value(value: str, quoted: bool, match: re.Match[str]) -> bool:
    if len(value) < 3 or placeholder(value) or value.lower() in _TYPES:
        return False
    if quoted:
        return True
    if value.startswith(("[", "{", "(", "<", "@", "*")) or _REFERENCE.fullmatch(value):
        return False  # code: a list, a dict, a name (`password = hashed_password`)
    if made_up(value):
        return True
    # a plain word only in a .env line (`PASSWORD=sunshine`), not in prose ("Password: Stored")
    op = match.group("op") if "op" in match.re.groupindex else ""
    before = match.group(0)[: match.start("value") - match.start()]
    unspaced = op == "=" and not before.endswith((" ", "\t"))
    return unspaced and len(value) >= 4 and value.lower() not in COMMON_WORDS


_REFERENCE = re.compile(r"[A-Za-z_][A-Za-z_.]*")  # a name without digits: a variable
