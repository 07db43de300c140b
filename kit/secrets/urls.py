"""Secrets inside URLs: the password of `scheme://user:password@host` (detect-secrets' basic-auth
plugin misses an empty user and some characters), and the values of the query parameters that
carry credentials by their name (`sig=` of an Azure SAS token, `access_token=`, `api_key=`,
`X-Amz-Signature=`, …), and a path segment after one that names it (`/with/key/<key>`). Only
the value goes; the URL keeps its host and the rest of its path."""

from __future__ import annotations

import re
from collections.abc import Iterator

from kit.secrets.base import KEY, PASSWORD, Secret

_USERINFO = re.compile(r"\b[a-z][a-z0-9+.-]{1,20}://[^\s:/?#@]*:([^\s@/?#]{1,128})@[\w.-]", re.I)
_PARAMETER = re.compile(
    r"[?&#;](?:sig|signature|x-amz-signature|x-goog-signature|x-amz-credential|access_token"
    r"|refresh_token|id_token|auth_token|token|api_?key|apikey|key|secret|client_secret"
    r"|password|passwd|pwd|pass|auth|code_verifier|private_token|session)="
    r"([^&\s#\"'<>]{12,512})",
    re.I,
)


# A path that names its secret: ".../with/key/<key>", ".../token/<token>" (IFTTT, webhooks).
_NAMED_SEGMENT = re.compile(
    r"://[^\s/]+(?:/[^\s/?#]*)*?/(?:key|keys|token|secret|apikey|api_key|api-key|auth)/"
    r"([A-Za-z0-9_\-]{16,200})(?=[/?#\s]|$)",
    re.I,
)


def find_in_urls(text: str) -> Iterator[Secret]:
    if "://" in text:
        for match in _USERINFO.finditer(text):
            if not match.group(1).isdigit():  # host:port@ is not a password
                yield Secret(PASSWORD, match.start(1), match.end(1))
        for match in _NAMED_SEGMENT.finditer(text):
            if any(c.isdigit() for c in match.group(1)):
                yield Secret(KEY, match.start(1), match.end(1))
    if "=" in text:
        for match in _PARAMETER.finditer(text):
            value = match.group(1)
            if any(c.isdigit() or c == "%" for c in value) and any(c.isalpha() for c in value):
                yield Secret(KEY, match.start(1), match.end(1))
