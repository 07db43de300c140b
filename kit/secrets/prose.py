"""Secrets said in words: "the password for the wifi is Tr0ub4dor&3", "mein Passwort ist ...",
"the gate code is 4711", "CVV 737", "the api key is ...", in several languages and scripts.

Each pattern is a name, an optional qualifier ("for the office wifi"), a connector ("is", ":",
"lautet", "est", "é", "は", "是" ...) and a value; only the value is reported, so withholding it
keeps the sentence. What the value must look like is what keeps ordinary talk about passwords
("my password is too long", "I forgot my password") from being flagged:
- after a clear connector, a password may be any word that is not a common word (too, wrong,
  the, same, expired ... in each language), or anything quoted;
- after an ambiguous one (English "to"/"on", no connector at all) or with an ambiguous name
  ("clave", "pw"), it must look made up: a digit, a symbol, or a capital inside the word;
- PINs, door and alarm codes and card codes must hold digits.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from kit.secrets import vocabulary as words
from kit.secrets.base import ACCESS_CODE, CARD_CODE, KEY, PASSWORD, Secret
from kit.secrets.shapes import placeholder
from kit.secrets.windows import keyword_hits, near

# -- values -------------------------------------------------------------------------------------
_QUOTED = (
    r'"[^"\n]{2,64}"|\'[^\'\n]{2,64}\'|“[^”\n]{2,64}”|‘[^’\n]{2,64}’|«[^»\n]{2,64}»'
    r"|„[^“”\n]{2,64}[“”]|`[^`\n]{2,64}`"
)
_BARE = r"[^\s\"'“”‘’«»„`]{3,64}"
_NOT_COMMON = r"(?!(?:" + "|".join(sorted(map(re.escape, words.COMMON_WORDS))) + r")(?![^\W_]))"
_MADE_UP = r"\d|[#&_@$%*+=/\\~^|<>{}\[\]-]|(?-i:[a-zà-ÿ][A-Z])"  # a digit, a symbol, camelCase
_TRAILING = ".,;:)]}'\"”’»"
_OPENING_QUOTES = "\"'“‘«„`"


def _c(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern, re.IGNORECASE)


def _named(names: str) -> str:
    """`names` as whole words: "DB_PASSWORD" names one, "PASSWORD_MIN_LENGTH" and
    "--password-file" do not."""
    return rf"(?<![^\W_])(?:{names})(?![^\W_]|[_-][^\W\d_])"


def _connected(connectors: str) -> str:
    """A qualifier only before a spoken connector: with none, "clave del wifi" must not make
    "wifi" the value, nor "password in 1Password" the product's name."""
    spoken = connectors.replace(r"|\s*[-–—]?", r"|\s*[-–—]")  # a dash, not nothing
    return rf"(?:{words.QUALIFIER}(?:{spoken})|{connectors})"


def _said(connectors: str) -> str:
    """A qualifier of any few words before a clear connector ("Heslo k wifi je", "Mật khẩu
    wifi là", "security question answer (first pet):"), unless the first says what the name is
    about rather than its value ("password manager", "password-protected")."""
    some = rf"(?![ \t]+{_ATTRIBUTE})(?:[ \t]+[^\s:=]{{1,25}}){{1,3}}?"
    return rf"(?:{words.QUALIFIER}(?:{connectors})|{some}(?:{connectors})|{connectors})"


# A plain uncommon word will do ("the password to my laptop is sunshine")...
_WORD_VALUE = rf"(?P<value>{_QUOTED}|{_NOT_COMMON}{_BARE})"
# ...or it must look made up.
_UNQUOTED = r"[^\s\"'“”‘’«»„`]"
_STRICT_VALUE = (
    rf"(?P<value>(?=.{_UNQUOTED}*?(?:{_MADE_UP})){_QUOTED}|(?={_UNQUOTED}*?(?:{_MADE_UP})){_BARE})"
)
_ANY = rf"{words.CLEAR}|{words.CHANGED}|{words.AMBIGUOUS}|\s*[-–—]?"
# What a password has that is not its value: "Password strength: 3/4".
_ATTRIBUTE = (
    r"(?:strength|policy|length|managers?|reset|rules?|requirements?|field|expir\w*|change[ds]?"
    r"|updated?|hint|tips?|generator|check(?:er)?|score|age|history|settings?|recovery"
    r"|protected|protection|storage|hashing|hash|security|management|vault|less|free)\b"
)
# A word or two with no connector, before a words.PIN's digits: "пин-код карты 3927".
_IS = r"(?:is|was|are|est|ist|es|era|é|è|är|er|je|là|este|jest|on|to)\b"
_FILLER = r"(?:[ \t]+[^\W\d_][\w-]{0,20}){1,2}?"  # or nothing at all: "şifrem Istanbul34!"

_ACCESS = words.ACCESS_EN + "|" + words.ACCESS_BARE + "|" + words.ACCESS_OTHER
_APP_PASSWORD = "app[- ]?passwor(?:d|t)"

# (kind, pattern with a "value" group)
_PATTERNS: tuple[tuple[str, re.Pattern[str]], ...] = (
    (
        PASSWORD,
        _c(
            rf"(?P<name>{_named(words.PASSWORD_CLEAR)})"
            rf"{_said(words.CLEAR + '|' + words.CHANGED)}\s*{_WORD_VALUE}"
        ),
    ),
    (
        PASSWORD,
        _c(rf"(?P<name>{words.PASSWORD_CJK})(?:{_connected(words.CLEAR)})?[ \t]*{_STRICT_VALUE}"),
    ),
    (
        PASSWORD,
        _c(
            rf"(?P<name>{_named(words.PASSWORD_CLEAR + '|' + words.PASSWORD_AMBIGUOUS)})"
            rf"(?![ \t]+{_ATTRIBUTE}){_connected(_ANY)}\s*{_STRICT_VALUE}"
        ),
    ),
    # "Kata sandi wifi-nya rocketthunder29": a word or two, no connector, a chosen value
    (
        PASSWORD,
        _c(
            rf"(?P<name>{_named(words.PASSWORD_CLEAR)})(?![ \t]+{_ATTRIBUTE})"
            rf"(?:[ \t]+(?!{_IS}){_NOT_COMMON}[^\W\d_][\w-]{{0,20}}){{1,2}}?[ \t]+"
            rf"(?P<value>(?={_UNQUOTED}*?(?:\d|[^\w\s.,;:!?)\]'\"-]|_)){_NOT_COMMON}"
            rf"{_UNQUOTED}{{4,64}})"
        ),
    ),
    # "use 'purple monkey dishwasher' as the passphrase", "Blue42! is my password"
    (
        PASSWORD,
        _c(
            rf"(?P<value>{_QUOTED}|(?<!\S)(?={_UNQUOTED}*?(?:{_MADE_UP})){_BARE})\s+(?:is|was|as|=)\s+"
            rf"(?:my|the|our|your|his|her|their)\s+(?:[\w-]+\s+){{0,3}}?"
            rf"{_named(words.PASSWORD_CLEAR)}"
        ),
    ),
    # "Netflix: ana@example.com / Hunter2024!": an account and a made-up word beside it
    (
        PASSWORD,
        _c(
            r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+\s*(?:/|\||;|–|—|\s-)\s*"
            r"(?P<value>(?=\S*?[^\W\d_])(?=\S*?[\d#&_$%*+=!?])[^\s@/]{4,64})"
        ),
    ),
    (
        ACCESS_CODE,
        _c(
            rf"(?P<name>{_named(words.PIN)})(?:{_connected(_ANY)}|{_FILLER}(?:{_ANY}))"
            r"\s*(?P<value>\d(?:[- .]?\d){3,7})(?![\d-])"
        ),
    ),
    (
        ACCESS_CODE,
        _c(
            rf"(?P<name>{_named(_ACCESS)})"
            rf"{_connected(_ANY)}\s*"
            r"(?P<value>(?=(?:[^\d\s]{0,3}[- ]?\d){3})"
            r"[0-9A-Z#*](?:[0-9A-Za-z#*]|[- ](?=[0-9#*])){2,23})"
        ),
    ),
    # "Use code 383443 to sign in": a one-time code and what it is for
    (
        ACCESS_CODE,
        _c(
            r"\bcode[ \t]+(?P<value>(?:[A-Z]{1,3}-)?\d{4,8})[ \t]+(?:to|for)[ \t]+"
            r"(?:sign|log|verify|confirm|complete|reset|access|unlock|activate|finish|continue"
            r"|proceed|authori[sz]e)"
        ),
    ),
    # "G-819912 is your Google verification code": a code before its name
    (
        ACCESS_CODE,
        _c(
            r"(?<![\w-])(?P<value>(?:[A-Z]{1,3}-)?\d{4,8})\s+(?:is|est|ist|es|é|è|是)\s+"
            r"(?:your|my|the|ton|votre|dein|ihr|tu|su|seu|il|la|le)\s+(?:[\w-]+\s+){0,3}?"
            rf"{_named(words.ACCESS_EN + '|' + words.PIN + '|code|passcode|otp')}"
        ),
    ),
    (
        CARD_CODE,
        _c(rf"(?P<name>{_named(words.CARD_CODE)}){_connected(_ANY)}\s*(?P<value>\d{{3,4}})(?!\d)"),
    ),
    (
        CARD_CODE,
        _c(
            rf"(?P<name>{words.CARD_CODE_CJK}){_connected(words.CLEAR)}?\s*"
            r"(?P<value>\d{3,4})(?!\d)"
        ),
    ),
    # Google's app passwords: four groups of four letters
    (
        PASSWORD,
        _c(
            rf"(?P<name>{_named(_APP_PASSWORD)}){_connected(_ANY)}\s*"
            r"(?P<value>[a-z]{4}(?: [a-z]{4}){3})\b"
        ),
    ),
    # a passphrase is words: "ssh key passphrase: Mountain Goat 88" (to the clause's end)
    (
        PASSWORD,
        _c(
            rf"(?P<name>{_named('passphrase|phrase de passe|phrase secrète')})"
            rf"{_said(words.CLEAR)}\s*"
            rf"(?P<value>{_NOT_COMMON}[^\s\"'“”‘’«»„`.,;!?]{{1,30}}"
            r"(?:[ \t]+[^\s.,;!?]{1,30}){1,5})"
        ),
    ),
    # "Mot de passe Netflix : Chocolat!12", "Passwort fürs Online-Banking: Sparkasse#88": what
    # the password is for, a few words before a colon; its value must look made up
    (
        PASSWORD,
        _c(
            rf"(?P<name>{_named(words.PASSWORD_CLEAR)})(?![ \t]+{_ATTRIBUTE})"
            rf"(?:[ \t]+[^\s:=]{{1,30}}){{1,3}}?[ \t]*[:=]\s*{_STRICT_VALUE}"
        ),
    ),
    (
        KEY,
        _c(
            rf"(?P<name>{_named(words.API)}){_connected(_ANY)}\s*"
            rf"(?P<value>(?=\S*?\d)(?=\S*?[a-z])[A-Za-z0-9_\-./+=:]{{12,}})"
        ),
    ),
)


_STRICT = frozenset(pattern for _, pattern in _PATTERNS if _STRICT_VALUE in pattern.pattern)
# A word of code, or a name again ("assert hashed != password"), is not a value.
_NOT_VALUES = words.CODE_WORDS | {"password", "passwd", "passwort", "pass", "token", "secret"}

# Patterns that open with their name, tried only where a name starts; the rest around names.
_AT_NAME = tuple((k, p) for k, p in _PATTERNS if p.pattern.startswith("(?P<name>"))
_AROUND = tuple((k, p) for k, p in _PATTERNS if not p.pattern.startswith("(?P<name>"))

# One quick scan for any name first: most text mentions none, and then no pattern need run.
_ANY_NAME = _c(
    _named(
        "|".join(
            (
                *(
                    _APP_PASSWORD,
                    words.PASSWORD_CLEAR,
                    words.PASSWORD_AMBIGUOUS,
                    words.PIN,
                    words.ACCESS_EN,
                    words.ACCESS_BARE,
                ),
                *(words.ACCESS_OTHER, words.CARD_CODE, words.API, words.LOGIN),
            )
        )
    )
    + f"|{words.PASSWORD_CJK}|{words.CARD_CODE_CJK}"
    + r"|\bcode(?=[ \t]+(?:[A-Z]{1,3}-)?\d)"  # a code and its digits: "Use code 383443 to …"
    + r"|@[\w-]+\."  # an account beside a password
)
# A plain word of a script other than Latin after "is" is the sentence's own language
# ("Ο κωδικός είναι λάθος": the password is wrong); passwords are typed in Latin letters.
_FOREIGN_WORD = re.compile(r"[^\W\da-zA-Z_]+")
# Code that mentions a password without holding one: a call, a subscript, a template, a
# keyword argument, a decorator, Markdown's bold.
_CODE = re.compile(
    r"[\w.]+\s*[(\[]|\$\{|\{\{|%\(|<[\w-]+>$|@[\w.]+\(|\*\*|__"
    r"|[a-z_]+=[\w(\[{'\"]"
)
_PATH = re.compile(r"(?:~|\.{1,2})?/[\w.-]+(?:/[\w.-]*)+|[\w.-]+/[\w.-]+\.\w{1,5}")
_OPENS_LINE = re.compile(r"[:=：]\s*$")
_SHARE = re.compile(r"\d+(?:[.,]\d+)?%")
_CODE_INSIDE = re.compile(r"[()\[\]{}]|\w=")
_LEADING_WORD = re.compile(r"[a-z]{2,}\s")
_HYPHENATED = re.compile(r"[^\W\d_]+(?:-[^\W\d_]+)+")


_KEYWORD = re.compile("|".join(map(re.escape, sorted(words.KEYWORDS, key=len, reverse=True))))


def has_keyword(text: str) -> bool:
    return _KEYWORD.search(text.lower()) is not None


_NAME_REACH = 80  # a name is at most this long around the keyword it holds
# How far from a name its value may sit: "X is my password" puts it before (a quoted value, a
# few words), a qualifier and a passphrase after.
_BEFORE = 250
_AFTER = 300


def find_prose(text: str) -> Iterator[Secret]:
    # Only near a name: the keywords (one cheap scan) say where names may be, the name scan
    # runs around them; a pattern that opens with its name is tried where a name starts, the
    # others around the names.
    for lo, hi in near(text, keyword_hits(text, _KEYWORD), _NAME_REACH, _NAME_REACH):
        names = list(_ANY_NAME.finditer(text, lo, hi))
        for start, end in near(text, iter(names), _BEFORE, _AFTER):
            at_names = [name.start() for name in names if start <= name.start() < end]
            found = [
                (kind, match)
                for kind, pattern in _AT_NAME
                for at in at_names
                if (match := pattern.match(text, at, end)) is not None
            ]
            found += [
                (kind, match)
                for kind, pattern in _AROUND
                for match in pattern.finditer(text, start, end)
            ]
            yield from _values(text, found)


def _values(text: str, found: list[tuple[str, re.Match[str]]]) -> Iterator[Secret]:
    for kind, match in found:
        value = match.group("value")
        if _FOREIGN_WORD.fullmatch(value) or _CODE.match(value) or placeholder(value):
            continue
        if value.lower() in _NOT_VALUES or "**" in value or _quoted_name(text, match):
            continue
        if _not_said(text, match, kind, value):
            continue
        if value[0] not in _OPENING_QUOTES:
            value = value.rstrip(_TRAILING)
            if len(value) < 3 or not (re.search(_MADE_UP, value) or len(value) >= 4):
                continue  # "…is abc." says too little to be a password
            if match.re in _STRICT and not re.search(_MADE_UP, value):
                continue  # its only symbol was the sentence's: "[Password Manager]"
            if _PATH.fullmatch(value):
                continue
        if _across_lines(text, match) or _hyphenated_word(text, match, value):
            continue
        at = match.start("value")
        yield Secret(kind, at, at + len(value))


def _not_said(text: str, match: re.Match[str], kind: str, value: str) -> bool:
    """What reads as talk about passwords, or as code, not as telling one: a plural name
    ("passwords are securely hashed") before a plain word; a Markdown heading ("**Password
    Test**: Generates"); a value that opens code or markup ("(length", "<input", "[Your") or is a
    share ("100%"); a time after an alarm ("alarm for 10")."""
    plain = not re.search(_MADE_UP, value)
    if "name" in match.re.groupindex and match.start("name") >= 0:
        name = match.group("name")
        if plain and name[-1:].lower() == "s" and not name.lower().endswith(("ss", "ass")):
            return True
        if "**" in text[match.start("name") : match.start("value")]:
            return True
    if value[:1] in "([<{" or _SHARE.fullmatch(value):
        return True
    if value[:1] in _OPENING_QUOTES and _CODE_INSIDE.search(value):
        return True
    return kind == ACCESS_CODE and _LEADING_WORD.match(value) is not None


def _quoted_name(text: str, match: re.Match[str]) -> bool:
    """A name inside quotes is a string in code or markup (`type="password"`,
    `PasswordField('Password', …)`): assignments.py reads `"password": "…"`."""
    if "name" not in match.re.groupindex or match.start("name") < 1:
        return False
    start = match.start("name")
    while start and (text[start - 1].isalnum() or text[start - 1] in "_."):
        start -= 1  # the identifier the name is part of: `test_login_none_password`
    before, after = text[start - 1 : start], text[match.end("name") : match.end("name") + 1]
    if not before or before not in "\"'`":
        return False
    # `"password"`, or `"password:" "…"` whose value opens with the name's own closing quote
    return after == before or match.group("value").startswith(before)


def _hyphenated_word(text: str, match: re.Match[str], value: str) -> bool:
    """Right after its name with nothing between, a value must be more than a hyphenated word
    ("wifi-nya", "e-mail"): its hyphen is not what makes a password."""
    if "name" not in match.re.groupindex or match.start("name") < 0:
        return False
    if text[match.end("name") : match.start("value")].strip():
        return False
    return _HYPHENATED.fullmatch(value) is not None


def _across_lines(text: str, match: re.Match[str]) -> bool:
    """A value on the line after its name only when the name's line ends in ":" or "="
    ("Password:\nHunter2024!"): else the next line is another thing (`pass` and a decorator)."""
    if "name" not in match.re.groupindex or match.start("name") < 0:
        return False
    between = text[match.end("name") : match.start("value")]
    return "\n" in between and not _OPENS_LINE.search(between.split("\n", 1)[0])
