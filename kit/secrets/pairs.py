"""A user and a password side by side: the password goes, the user stays.

A pair is a user (a name: `admin`, `bob.k`, `sam_deploy`, or an email address), a separator
(`/`, `//`, `|`, a tab, `user:pass`, a comma, "and", "with", "pass:") and a password: a word that
looks chosen (a digit or a symbol in it: a capital alone makes a product, `SurveyMonkey`),
never a path, a version, code, hyphenated words or a number alone. What says the two are a
login:
- a name for one before them on the line: "login", "user", "creds", "account", "FTP", "SSH"…
  in several languages (`router login admin / Adm1n!2023`, `creds are jdoe:2J6CWV9E…`,
  `Log in as mwilson with n1Qs…`);
- or the line is nothing else: an account line (`Steam: sam_deploy // Rocket&Falcon7`) or the
  pair alone (`bob.k / meadowriver85`, `jdoe<TAB>KRCB…<TAB>(bank)`); the password must then be
  longer and plainly chosen, since `Tom / Jerry` and `iPhone / Pixel` are pairs too;
- a table whose header names a password column (Markdown pipes, CSV, tabs): that column's
  cells.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from kit.secrets.base import PASSWORD, Secret
from kit.secrets.shapes import placeholder
from kit.secrets.windows import keyword_hits, near

_CUE = (
    r"log[- ]?in|log[- ]?on|sign[- ]?in|user(?:[ _-]?name|[ _-]?id)?|benutzer(?:name)?"
    r"|nutzername|utilisateur|identifiant|usuari[oa]|usuário|utente|gebruiker(?:snaam)?"
    r"|użytkownik|логин|пользователь|kullanıcı|account|acct|creds|credentials|zugangsdaten"
    r"|identifiants|credenciales|credenciais|ftp|sftp|ssh|smb|rdp|vnc|basic[ -]auth"
)
_USER = r"[A-Za-z0-9][\w.+-]{1,40}(?:@[\w-]+(?:\.[\w-]+)+)?"
_PASS = r"[^\s|/,;:]{4,64}"
_WITH_WORD = (
    r"[ \t]*(?:,|;|/{1,2}|\||\band\b|\bwith\b|\busing\b)?[ \t]*"
    r"(?:pass(?:word)?|pw|pwd|code|pin|mdp|passwort|contraseña|senha|пароль)[ \t]*[:=]?"
)
_SLASHES = r"[ \t]+/{1,2}[ \t]+|[ \t]+//|//[ \t]+"  # spaced: "a/b" is a path, "//" a URL's
_SEPARATOR = rf"(?:{_WITH_WORD}|{_SLASHES}|[ \t]*(?:\||,|;|\t|\band\b|\bwith\b|\busing\b)|:)"
# a cue is a word of its own: not part of an identifier (`flask_login`, `user.name`, `user(`)
_CUE_NAME = re.compile(rf"(?i:(?<![\w.(])(?:{_CUE})(?![\w.(=]))")
# what follows a cue: a few words, then the user, a separator and the password
_CUED = re.compile(
    rf"[^\n]{{0,40}}?(?<![\w.+@-])(?P<user>{_USER}){_SEPARATOR}[ \t]*(?P<value>{_PASS})"
)
_ALONE = re.compile(
    r"(?m:^)(?=[^\n]{0,100}(?:\n|$))(?=[^\n]*(?: /|/ |//|\||\t|\w:\w))[ \t]*(?:[-*•][ \t]*)?"
    r"(?:[^\n:]{1,30}:[ \t]+|[^\n:/]{1,30}?[ \t]+)??"
    rf"(?P<user>{_USER}+)(?:{_SLASHES}|[ \t]*\|[ \t]*|\t+|:)(?P<value>{_PASS}+)"
    r"(?:[ \t]+\([^)\n]{1,30}\)|\t+\S[^\n]{0,30})?[ \t]*(?=\n|$)"
)
_CUE_WORDS = re.compile(
    r"log|sign|user|benutzer|nutzer|utilisat|identifiant|usuari|usuário|utente|gebruiker"
    r"|użytkownik|логин|пользовател|kullanıcı|account|acct|cred|zugangsdaten|ftp|ssh|smb|rdp"
    r"|vnc|auth"
)
_TRAILING = ".,;:)]}'\"”’»!?"
_HEX = re.compile(r"[0-9a-fA-F]+")
# Between a cue and its user, code: a call, an assignment, a string.
_IN_CODE = re.compile(r"[(=\"'`\[{]")
# A value that is code or a word: a keyword argument, a snake_case name, a contraction,
# something quoted in code.
_CODE_VALUE = re.compile(
    r"^[A-Za-z_]\w*=|^[a-z]+(?:_[a-z]+)+$|^[A-Za-z]+'[a-z]{1,2}$|^[`_(\[<{]|`$|^\*\*|\*\*$"
)
_DIGIT_OR_SYMBOL = re.compile(r"\d|[^\w\s-]|_")
_HYPHENATED = re.compile(r"[A-Za-z]+(?:-[A-Za-z]+)+")
_VERSION = re.compile(r"\d+(?:[.-]\w+)+|v?\d+(?:\.\d+)+\S*")
_HEADER_NAMES = (
    r"pass(?:word|wort)?|pw|pwd|mot de passe|mdp|contraseña|senha|пароль|pin|secret|token"
)
_PASSWORD_HEADER = re.compile(rf"(?i:{_HEADER_NAMES})")
_HEADER_CELL_TEXT = re.compile(r"[\w .#/-]{0,30}")
_HEADER_WORDS = ("pass", "pw", "pin", "secret", "token", "mdp", "contraseña", "senha", "пароль")
# a cell that is a password's name, between column separators
_HEADER_CELL = re.compile(rf"(?im:(?:^|[|\t,])[ \t]*(?:{_HEADER_NAMES})[ \t]*(?:[|\t,]|$))")


def find_pairs(text: str) -> Iterator[Secret]:
    # Only near a cue (one cheap scan of the lowercase text) is the cued pattern tried; only
    # short lines can be a pair alone; only a header that names a password makes a table.
    for lo, hi in near(text, keyword_hits(text, _CUE_WORDS), 0, 16):
        for cue in _CUE_NAME.finditer(text, lo, hi):
            match = _CUED.match(text, cue.end())
            if match is not None:
                yield from _password(text, match, shortest=4, cued=True)
    if "/" in text or "|" in text or "\t" in text or ":" in text:
        for match in _ALONE.finditer(text):
            yield from _password(text, match, shortest=6)
    if ("|" in text or "," in text or "\t" in text) and any(
        word in text.lower() for word in _HEADER_WORDS
    ):
        yield from _table(text)


def _password(
    text: str, match: re.Match[str], shortest: int, cued: bool = False
) -> Iterator[Secret]:
    user, value = match.group("user"), match.group("value")
    if cued and _IN_CODE.search(text, match.start(), match.start("user")):
        return  # `username = db.Column(…, unique=True, nullable=False)`: code, not a login
    if text[match.start("user") - 1 : match.start("user")] in ("[", "<", "{"):
        return  # "[Username, password]": a template
    start = match.start("value")
    value = value.rstrip(_TRAILING)
    if not _chosen(value, shortest) or not _a_name(user) or "://" in text[match.start() : start]:
        return
    yield Secret(PASSWORD, start, start + len(value))


def _a_name(user: str) -> bool:
    """A user is a name: two letters or more, not a hex number (`fe80`, `a54e5ab`)."""
    return sum(c.isalpha() for c in user) >= 2 and not _HEX.fullmatch(user)


def _chosen(value: str, shortest: int) -> bool:
    """A password beside a user: a digit or a symbol in it (a capital alone makes a product,
    `SurveyMonkey`), no code, no hyphenated words (`Flask-Login`, `pre-built`)."""
    if len(value) < shortest or not any(c.isalpha() for c in value):
        return False
    if not _DIGIT_OR_SYMBOL.search(value) or _HYPHENATED.fullmatch(value):
        return False
    if _CODE_VALUE.search(value):
        return False
    if placeholder(value) or _VERSION.fullmatch(value) or _HEX.fullmatch(value):
        return False
    if "/" in value or "\\" in value:
        return False
    if shortest > 4:  # alone on its line: a word and a digit or two is a model, not a password
        return len(value) >= 8 or sum(not c.isalnum() for c in value) > 0
    return True


def _table(text: str) -> Iterator[Secret]:
    """Cells under a header that names a password: `| site | user | password |`, CSV, TSV."""
    done = -1
    for cell in _HEADER_CELL.finditer(text):
        line_start = text.rfind("\n", 0, cell.start()) + 1
        if line_start <= done:
            continue
        line_end = text.find("\n", cell.start())
        done = line_end = len(text) if line_end < 0 else line_end
        yield from _column(text, text[line_start:line_end], line_end)


def _column(text: str, line: str, end: int) -> Iterator[Secret]:
    separator = next((s for s in ("|", "\t", ",") if s in line), None)
    if separator is None:
        return
    names = [cell.strip() for cell in line.split(separator)]
    if len(names) < 2 or not all(_HEADER_CELL_TEXT.fullmatch(name) for name in names):
        return  # a header is a row of short names, not a sentence with commas
    columns = {j for j, name in enumerate(names) if _PASSWORD_HEADER.fullmatch(name)}
    at = end + 1
    while columns and at < len(text):
        end = text.find("\n", at)
        end = len(text) if end < 0 else end
        cells = text[at:end].split(separator)
        if len(cells) != len(names):
            break
        for j, cell in enumerate(cells):
            value = cell.strip()
            if j in columns and len(value) >= 3 and not set(value) <= set("-: "):
                if not placeholder(value) and not _PASSWORD_HEADER.fullmatch(value):
                    start = at + cell.index(value)
                    yield Secret(PASSWORD, start, start + len(value))
            at += len(cell) + 1
        at = end + 1
