"""Links in README.md and docs/: every relative link names a file of the repository, and every
`#anchor` a heading of the page it points at (GitHub's anchors: lower case, punctuation out,
spaces to hyphens, a repeated heading numbered -1, -2, ...)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from urllib.parse import unquote

from tests.docs.named_paths import REPO, markdown_files

_FENCE = re.compile(r"^\s*(```|~~~)")
_CODE_SPAN = re.compile(r"`[^`\n]*`")
_LINK = re.compile(r"!?\[[^\]\n]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
_INLINE_LINK_TEXT = re.compile(r"!?\[([^\]]*)\]\([^)]*\)")
_SCHEME = re.compile(r"^[a-z][a-z0-9+.-]*:", re.I)


@dataclass(frozen=True)
class Broken:
    where: str
    line: int
    target: str
    problem: str

    def __str__(self) -> str:
        return f"{self.where}:{self.line}: ({self.target}) {self.problem}"


def _prose_lines(text: str) -> list[tuple[int, str]]:
    """(line, text) outside fenced code blocks."""
    lines, fenced = [], False
    for number, line in enumerate(text.splitlines(), start=1):
        if _FENCE.match(line):
            fenced = not fenced
            continue
        if not fenced:
            lines.append((number, line))
    return lines


def slug(heading: str) -> str:
    """GitHub's anchor for a heading's text."""
    text = _INLINE_LINK_TEXT.sub(r"\1", heading).lower()
    kept = "".join(c for c in text if c.isalnum() or c in " -_")
    return kept.replace(" ", "-")


@cache
def anchors(path: Path) -> frozenset[str]:
    seen: dict[str, int] = {}
    found = set()
    for _, line in _prose_lines(path.read_text(encoding="utf-8")):
        match = _HEADING.match(line)
        if not match:
            continue
        base = slug(match.group(2))
        count = seen.get(base, 0)
        seen[base] = count + 1
        found.add(base if count == 0 else f"{base}-{count}")
    return frozenset(found)


def links(path: Path) -> list[tuple[int, str]]:
    found = []
    for number, line in _prose_lines(path.read_text(encoding="utf-8")):
        for match in _LINK.finditer(_CODE_SPAN.sub("code", line)):
            found.append((number, match.group(1)))
    return found


def check(path: Path, *, root: Path = REPO) -> list[Broken]:
    where = path.relative_to(root).as_posix()
    broken = []
    for number, target in links(path):
        if _SCHEME.match(target):
            continue
        name, _, anchor = target.partition("#")
        goal = (path.parent / unquote(name)).resolve() if name else path
        if not goal.is_relative_to(root.resolve()):
            broken.append(Broken(where, number, target, "points outside the repository"))
        elif not goal.exists():
            broken.append(Broken(where, number, target, "no such file"))
        elif anchor and goal.suffix != ".md":
            problem = "an anchor into a file that is not Markdown"
            broken.append(Broken(where, number, target, problem))
        elif anchor and unquote(anchor) not in anchors(goal):
            broken.append(Broken(where, number, target, f"no heading #{anchor} there"))
    return broken


def broken_links(root: Path = REPO) -> list[Broken]:
    found = []
    for path in markdown_files(root):
        found += check(path, root=root)
    return found
