"""Every repository path that README.md, docs/ and the comments and docstrings of the code
name exists (a file moved leaves them behind, and nothing else notices), and the docs name no
path outside the repository."""

from __future__ import annotations

from pathlib import Path

from tests.docs.named_paths import check_markdown, check_python, resolves, stale_paths


def test_every_path_named_in_docs_and_comments_exists() -> None:
    stale = stale_paths()
    assert not stale, "paths that do not exist (fix the name, or the text):\n" + "\n".join(
        map(str, stale)
    )


def _repo(tmp_path: Path) -> Path:
    for name in ("kit/memory/search.py", "kit/memory/__init__.py", "prompts/curate/person.md"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("def hybrid():\n    pass\n", encoding="utf-8")
    (tmp_path / "docs").mkdir()
    return tmp_path


def test_a_moved_file_named_in_markdown_is_found(tmp_path: Path) -> None:
    root = _repo(tmp_path)
    page = root / "docs" / "memory.md"
    page.write_text(
        "Search is in `kit/memory/search.py`, prompts in `prompts/curate/<category>.md`.\n"
        "Ranking moved to kit/retrieval/rank.py; see `kit.memory.search.hybrid`.\n"
        "`kit.memory.search.gone` and the model in ../shared/models.\n"
        "The [link](../kit/retrieval/x.py) is the link test's, and kit/ is a folder.\n",
        encoding="utf-8",
    )
    found = sorted((n.line, n.path, n.problem) for n in check_markdown(page, root=root))
    assert found == [
        (2, "kit/retrieval/rank.py", "no such path"),
        (3, "../shared/models.", "outside the repository"),
        (3, "kit.memory.search.gone", "gone is not defined in kit/memory/search.py"),
    ]


def test_a_comment_naming_a_file_that_is_not_there_is_found(tmp_path: Path) -> None:
    root = _repo(tmp_path)
    module = root / "kit" / "memory" / "plan.py"
    module.write_text(
        '"""Plans (kit/memory/search.py ranks, kit/context/plan.py will)."""\n\n'
        "# beside: search.py; not beside: vectors.py\n"
        'x = "kit/not/a/comment.py"\n',
        encoding="utf-8",
    )
    found = [(n.line, n.path) for n in check_python(module, root=root)]
    assert found == [(1, "kit/context/plan.py"), (3, "vectors.py")]


def test_placeholders_and_ellipses_match_what_exists(tmp_path: Path) -> None:
    root = _repo(tmp_path)
    assert resolves("prompts/curate/<category>.md", root=root)
    assert not resolves("prompts/rem/<step>.md", root=root)
    assert resolves("kit/memory/…", root=root)
    assert resolves("kit/", root=root)
    assert not resolves("kit/retrieval/", root=root)
