"""Passwords on a command line: what an option's name says, or what a tool's flag means.

- an option named for a secret, whatever the tool: `--password=…`, `--password …`,
  `-storepass …`, `-passout pass:…`, `--api-key …`, `--http-password=…` (an option that only
  points at one, `--password-file`, `--password-stdin`, `--no-password`, is not a value);
- a short flag that means password for the tool it follows, and for that tool only (`-p` is
  a port for ssh and a parent for mkdir): `mysql -pX` (attached: `-p X` asks for it and names
  the database), `sshpass -p X`, `docker login -p X`, `mongosh -p X`, `zip -P X`,
  `sqlcmd -P X`, `redis-cli -a X`, `ldapsearch -w X`, `ssh-keygen -N X`, `7z -pX`…;
- a user and a password in one argument: `curl -u user:pass`, `smbclient -U user%pass`,
  `lftp -u user,pass`, `net use … /user:name pass`, `htpasswd -b file user pass`;
- a value echoed into a program that reads a password from its input
  (`echo X | sudo -S`, `echo X | docker login --password-stdin`, `<(echo X)`).
A value that only refers to one (`$DB_PASS`, `${TOKEN}`, `env:VAR`, `file:path`) is left.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from kit.secrets.base import PASSWORD, Secret
from kit.secrets.shapes import placeholder

# tool -> (flags whose value may be attached or follow, flags whose value must be attached)
_SHORT_FLAGS: dict[str, tuple[str, str]] = {
    **dict.fromkeys(
        "mysql mysqldump mysqladmin mysqlimport mysqlcheck mysqlpump mysqlshow mysqlsh "
        "mariadb mariadb-dump mariadb-admin".split(),
        ("", "p"),
    ),
    **dict.fromkeys("7z 7za 7zr 7zz rar unrar".split(), ("", "p")),
    **dict.fromkeys("sshpass rdesktop hydra".split(), ("p", "")),
    **dict.fromkeys("zip unzip sqlcmd bcp osql isql".split(), ("P", "")),
    **dict.fromkeys(
        "mongo mongosh mongodump mongorestore mongoexport mongoimport mongostat mongotop".split(),
        ("p", ""),
    ),
    "redis-cli": ("a", ""),
    **dict.fromkeys(
        "ldapsearch ldapadd ldapmodify ldapdelete ldappasswd ldapwhoami ldapcompare".split(),
        ("w", ""),
    ),
    "ssh-keygen": ("NP", ""),
    "login": ("p", ""),  # docker / podman / helm / oc / cf / az login -p
}
_TOOL = re.compile(
    r"(?<![\w/.-])("
    + "|".join(sorted(map(re.escape, _SHORT_FLAGS), key=len, reverse=True))
    + r")(?![\w-])"
)
_ARGUMENT = re.compile(r"'[^'\n]*'|\"[^\"\n]*\"|`[^`\n]*`|[^\s'\"`|;]+")
# where a command ends: a pipe, ";", "&&", a background "&", a line break, a comment
_END_OF_COMMAND = re.compile(r"[|;\n`]|&&|\s&(?:\s|$)|\s#")

# An option named for a secret, ending in that name: its value follows (= or a space).
_NAMED_OPTION = re.compile(
    r"(?<![\w-])--?(?!no-)(?:[A-Za-z][\w-]*?[-_])?"
    r"(?:password|passwd|passphrase|passcode|pass|pwd|secret|token|api[-_]?key|apikey"
    r"|access[-_]key|secret[-_]key|storepass|keypass|srcstorepass|deststorepass|passin|passout"
    r"|auth[-_]?key|auth[-_]token)(?:=|[ \t]+)"
    r"(?P<value>'[^'\n]*'|\"[^\"\n]*\"|[^\s'\"`|;&]+)",
    re.IGNORECASE,
)
_REFERENCE = re.compile(r"(?:env|file|fd|stdin)(?::|$)", re.IGNORECASE)
_PAIR_OPTION = re.compile(
    r"(?<![\w-])(?:-u|--user|-U|--username)(?:=|[ \t]+)['\"]?(?P<user>[^\s:%,'\"]+)"
    r"(?P<sep>[:%,])(?P<value>[^\s'\"]+)"
)
_NET_USE = re.compile(r"(?i:/user:)\S+[ \t]+(?P<value>[^\s/][^\s]*)")
_NET_USER = re.compile(r"(?i:\bnet\s+user)\s+\S+\s+(?P<value>[^\s/*][^\s]*)")
_HTPASSWD = re.compile(r"\bhtpasswd\s+-\w*b\w*\s+\S+\s+\S+\s+(?P<value>\S+)")
_ECHOED = re.compile(
    r"(?:\bprintf(?:\s+'%s(?:\\n)?')?|\becho(?:\s+-n)?)\s+(?P<value>'[^'\n]+'|\"[^\"\n]+\"|[^\s|)]+)"
    r"(?=\s*(?:\)|\|\s*[^|\n]*?(?:--password-stdin|sudo\s+-\w*S|chpasswd|passwd|--stdin)))"
)
# expect scripts: what is sent after the password prompt is expected
_EXPECT_SEND = re.compile(
    r"\bexpect\s+(?:-\w+\s+)?[\"'{][^\"'}\n]*(?i:pass(?:word|phrase)?|pin)[^\"'}\n]*[\"'}]"
    r"[\s;]*send\s+(?:--\s+)?[\"{](?P<value>[^\"}\\\n]+)"
)

# (a literal each match holds, lowercase; the pattern)
_PATTERNS = (
    ("-", _NAMED_OPTION),
    (" -u", _PAIR_OPTION),
    ("/user:", _NET_USE),
    ("net user", _NET_USER),
    ("htpasswd", _HTPASSWD),
    ("echo", _ECHOED),
    ("printf", _ECHOED),
    ("expect", _EXPECT_SEND),
)


def find_commands(text: str) -> Iterator[Secret]:
    lowered = text.lower()
    for literal, pattern in _PATTERNS:
        if literal in lowered:
            for match in pattern.finditer(text):
                yield from _value(match)
    if " -" in text:  # a flag: no command line without one
        for tool in _TOOL.finditer(text):
            yield from _short_flags(text, tool)


def _value(match: re.Match[str]) -> Iterator[Secret]:
    value = match.group("value")
    start, end = match.start("value"), match.end("value")
    if value[:1] in "'\"`" and value[-1:] == value[:1] and len(value) > 1:
        value, start, end = value[1:-1], start + 1, end - 1
    if value.lower().startswith("pass:"):  # openssl's "-passout pass:…"
        value, start = value[5:], start + 5
    if "user" in match.re.groupindex and match.group("user").isdigit():
        return  # `docker run -u 1000:1000`: a user id and a group id
    if len(value) < 3 or value.startswith("-") or placeholder(value) or _REFERENCE.match(value):
        return
    yield Secret(PASSWORD, start, end)


def _short_flags(text: str, tool: re.Match[str]) -> Iterator[Secret]:
    """The arguments after `tool`, to the end of its command, read for its password flags."""
    either, attached = _SHORT_FLAGS[tool.group(1)]
    stop = _END_OF_COMMAND.search(text, tool.end())
    end = stop.start() if stop else len(text)
    arguments = list(_ARGUMENT.finditer(text, tool.end(), end))
    for i, argument in enumerate(arguments):
        word = argument.group()
        if len(word) < 2 or word[0] != "-" or word[1] == "-":
            continue
        flag = word[1]
        if flag in either + attached and len(word) > 2:  # attached: "-pS3cret", "-p-x" too
            yield from _checked(argument.start() + 2, argument.end(), text, attached=True)
        elif flag in either and len(word) == 2 and i + 1 < len(arguments):
            following = arguments[i + 1]
            yield from _checked(following.start(), following.end(), text, attached=False)


def _checked(start: int, end: int, text: str, attached: bool) -> Iterator[Secret]:
    value = text[start:end]
    if value[:1] in "'\"" and value[-1:] == value[:1] and len(value) > 2:
        start, end, value = start + 1, end - 1, value[1:-1]
    if len(value) >= 3 and (attached or not value.startswith("-")) and not placeholder(value):
        yield Secret(PASSWORD, start, end)
