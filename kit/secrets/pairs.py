"""A user and a password side by side: the password goes, the user stays.

A pair is a user (a name: `admin`, `bob.k`, `sam_deploy`, or an email address), a separator
(`/`, `//`, `|`, a tab, `user:pass`, a comma, "and", "with", "pass:") and a password: a word that
looks chosen (a digit, a symbol, a capital inside it: shapes.made_up), never a path, a version
or a number alone. What says the two are a login:
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
from kit.secrets.shapes import made_up, placeholder
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
_CUE_NAME = re.compile(rf"(?i:(?<![^\W_])(?:{_CUE})(?![^\W_]))")
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
_VERSION = re.compile(r"\d+(?:[.-]\w+)+|v?\d+(?:\.\d+)+\S*")
_HEADER_NAMES = (
    r"pass(?:word|wort)?|pw|pwd|mot de passe|mdp|contraseña|senha|пароль|pin|secret|token"
)
_PASSWORD_HEADER = re.compile(rf"(?i:{_HEADER_NAMES})")
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
                yield from _password(text, match, shortest=4)
    if "/" in text or "|" in text or "\t" in text or ":" in text:
        for match in _ALONE.finditer(text):
            yield from _password(text, match, shortest=6)
    if ("|" in text or "," in text or "\t" in text) and any(
        word in text.lower() for word in _HEADER_WORDS
    ):
        yield from _table(text)


def _password(text: str, match: re.Match[str], shortest: int) -> Iterator[Secret]:
    user, value = match.group("user"), match.group("value")
    start = match.start("value")
    if value[0] not in "\"'":
        value = value.rstrip(_TRAILING) if len(value.rstrip(_TRAILING)) >= shortest else value
    if not _chosen(value, shortest) or not _a_name(user) or "://" in text[match.start() : start]:
        return
    yield Secret(PASSWORD, start, start + len(value))


def _a_name(user: str) -> bool:
    """A user is a name: two letters or more, not a hex number (`fe80`, `a54e5ab`)."""
    return sum(c.isalpha() for c in user) >= 2 and not _HEX.fullmatch(user)


def _chosen(value: str, shortest: int) -> bool:
    if len(value) < shortest or not any(c.isalpha() for c in value) or not made_up(value):
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
                if not placeholder(value):
                    start = at + cell.index(value)
                    yield Secret(PASSWORD, start, start + len(value))
            at += len(cell) + 1
        at = end + 1
