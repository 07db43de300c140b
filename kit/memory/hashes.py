"""Content hashes: they key derived state (embeddings) to the exact text it came from."""

from __future__ import annotations

import hashlib


def content_hash(*parts: str) -> str:
    digest = hashlib.sha1(usedforsecurity=False)
    for part in parts:
        digest.update(part.encode("utf-8", "surrogatepass"))
        digest.update(b"\x00")
    return digest.hexdigest()
