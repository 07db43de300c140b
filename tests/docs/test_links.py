"""Every relative link in README.md and docs/ resolves: the file exists in the repository and
an `#anchor` names a heading of the page it points at."""

from __future__ import annotations

from pathlib import Path

from tests.docs.markdown_links import broken_links, check


def test_every_link_in_the_docs_resolves() -> None:
    broken = broken_links()
    assert not broken, "broken links:\n" + "\n".join(map(str, broken))


def _page(root: Path, name: str, text: str) -> Path:
    path = root / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def test_a_missing_file_a_missing_anchor_and_a_link_outside_are_found(tmp_path: Path) -> None:
    _page(tmp_path, "docs/memory.md", "# How Kit remembers\n\n## One turn\n\n## One turn\n")
    page = _page(
        tmp_path,
        "README.md",
        "[ok](docs/memory.md#one-turn) [second](docs/memory.md#one-turn-1) [web](https://x.org)\n"
        "[gone](docs/gone.md) [no heading](docs/memory.md#two-turns) [out](../elsewhere.md)\n"
        "`[in code](docs/gone.md)`\n```\n[fenced](docs/gone.md)\n```\n",
    )
    found = [(b.line, b.target, b.problem) for b in check(page, root=tmp_path)]
    assert found == [
        (2, "docs/gone.md", "no such file"),
        (2, "docs/memory.md#two-turns", "no heading #two-turns there"),
        (2, "../elsewhere.md", "points outside the repository"),
    ]


def test_anchors_are_githubs_slugs(tmp_path: Path) -> None:
    """Punctuation goes, spaces become hyphens, code and links keep their text."""
    _page(tmp_path, "docs/mcp.md", "# Kit as an MCP server: `kit mcp`\n## See [it](x.md) run\n")
    links = "[a](docs/mcp.md#kit-as-an-mcp-server-kit-mcp) [b](docs/mcp.md#see-it-run)\n"
    page = _page(tmp_path, "README.md", links)
    assert check(page, root=tmp_path) == []
