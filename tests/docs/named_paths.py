"""Finding the repository paths that docs and code comments name, and those that do not exist.

A file moved or renamed leaves behind every page and comment that named it, and nothing else
notices. What counts as a named path (so that prose is never mistaken for one):

- a token starting with a top-level folder of the repository and a slash: `kit/cli.py`,
  `tests/servers/`, `prompts/curate/<category>.md` (a `<placeholder>` or `*` matches any name,
  and at least one file must match), `bench/…` (what comes before an ellipsis must exist);
- a bare file name ending in .py, .md or .toml, in a Python comment or docstring, or as a whole
  `code span` in Markdown: it must be beside the file that names it, or at the top of the
  repository (`config.toml`); anything else is to be written as its repository path;
- in Markdown, a `code span` naming a module in dotted form (`kit.llm.fake.FakeLLM`,
  `python -m tests.tui.scenes`): the module must exist, and the name after it must be defined
  at its top level.

Markdown must also name no path outside the repository (`../shared/...`, `/work/...`): the
docs are read in any clone. Links are checked by tests/docs/test_links.py.
"""

from __future__ import annotations

import ast
import io
import re
import tokenize
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]

# Where comments and docstrings are read; the Markdown is README.md and docs/.
CODE_FOLDERS = ("kit", "tests", "bench", "scheduler", "tui")

_NOT_A_TOP_FOLDER = {"build", "dist", "__pycache__", "node_modules"}
_PATH_CHARS = r"[\w./<>*…+-]"
_BARE_NAME = r"[\w-]+(?:\.[\w-]+)*\.(?:py|md|toml)"
_ELLIPSIS = re.compile(r"…|\.\.\.")
_CODE_SPAN = re.compile(r"`([^`\n]+)`")
_LINK_TARGET = re.compile(r"\]\(([^)\s]*)\)")
_DOTTED = re.compile(
    r"^(?:python -m )?((?:kit|tests|bench|scheduler|tui)(?:\.[A-Za-z_]\w*){2,})(?:\(.*|\s.*)?$"
)
_OUTSIDE = re.compile(r"(?<![\w.])\.\./|(?<![\w.~/-])/work/")


@dataclass(frozen=True)
class Named:
    """One path named at file:line, and why it does not resolve."""

    where: str
    line: int
    path: str
    problem: str

    def __str__(self) -> str:
        return f"{self.where}:{self.line}: {self.path} ({self.problem})"


def top_folders(root: Path = REPO) -> list[str]:
    return sorted(
        p.name
        for p in root.iterdir()
        if p.is_dir()
        and (p.name == ".ci" or not p.name.startswith("."))
        and not p.name.endswith(".egg-info")
        and p.name not in _NOT_A_TOP_FOLDER
    )


@cache
def _path_pattern(tops: tuple[str, ...]) -> re.Pattern[str]:
    alternatives = "|".join(re.escape(top) for top in tops)
    return re.compile(rf"(?<![\w./~$@:\\-])((?:{alternatives})/{_PATH_CHARS}*)")


_BARE_IN_CODE = re.compile(rf"(?<![\w./~$'\"\\-])({_BARE_NAME})(?![\w/-])")


def python_prose(source: str) -> Iterator[tuple[int, str]]:
    """(line, text) of every comment and every statement-level string (docstrings)."""
    previous = tokenize.NEWLINE
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type == tokenize.COMMENT:
            yield token.start[0], token.string
        elif token.type == tokenize.STRING and previous in _STATEMENT_START:
            for offset, text in enumerate(token.string.splitlines()):
                yield token.start[0] + offset, text
        if token.type not in (tokenize.COMMENT, tokenize.NL):
            previous = token.type


_STATEMENT_START = {tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT}


def resolves(path: str, *, root: Path = REPO) -> bool:
    cut = _ELLIPSIS.search(path)
    if cut:
        path = path[: cut.start()]
        if "/" not in path:
            return True
        path = path[: path.rindex("/") + 1]
    path = path.rstrip(".")
    if re.search(r"[<*]", path):
        pattern = re.sub(r"<[^>/]*>", "*", path)
        return next(root.glob(pattern.rstrip("/")), None) is not None
    return (root / path).exists()


def _bare_resolves(name: str, beside: Path, root: Path) -> bool:
    return (beside / name).exists() or (root / name).exists()


def _paths_in(text: str, tops: tuple[str, ...]) -> Iterator[str]:
    for match in _path_pattern(tops).finditer(text):
        yield match.group(1)


def check_python(path: Path, *, root: Path = REPO) -> list[Named]:
    where = path.relative_to(root).as_posix()
    tops = tuple(top_folders(root))
    found = []
    for line, text in python_prose(path.read_text(encoding="utf-8")):
        for named in _paths_in(text, tops):
            if not resolves(named, root=root):
                found.append(Named(where, line, named, "no such path"))
        for match in _BARE_IN_CODE.finditer(text):
            name = match.group(1)
            if not _bare_resolves(name, path.parent, root):
                found.append(Named(where, line, name, _NOT_BESIDE))
    return found


_NOT_BESIDE = "not beside this file nor at the top: name it by its repository path"


def check_markdown(path: Path, *, root: Path = REPO) -> list[Named]:
    where = path.relative_to(root).as_posix()
    tops = tuple(top_folders(root))
    found = []
    for line, text in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        prose = _LINK_TARGET.sub("]()", text)  # link targets: tests/docs/test_links.py
        for named in _paths_in(prose, tops):
            if not resolves(named, root=root):
                found.append(Named(where, line, named, "no such path"))
        for match in _OUTSIDE.finditer(prose):
            rest = prose[match.start() :].split()[0].strip("`'\"(),;")
            found.append(Named(where, line, rest, "outside the repository"))
        for span in _CODE_SPAN.findall(text):
            span = span.strip()
            if re.fullmatch(_BARE_NAME, span) and not _bare_resolves(span, path.parent, root):
                found.append(Named(where, line, span, _NOT_BESIDE))
            dotted = _DOTTED.match(span)
            if dotted:
                problem = _module_problem(dotted.group(1), root)
                if problem:
                    found.append(Named(where, line, dotted.group(1), problem))
    return found


def _module_problem(dotted: str, root: Path) -> str | None:
    """None when `a.b.c` (or `a.b.C`, a name defined in a.b) exists, else what is missing."""
    parts = dotted.split(".")
    for size in range(len(parts), 1, -1):
        base = root.joinpath(*parts[:size])
        module = base.with_suffix(".py")
        if not module.is_file() and (base / "__init__.py").is_file():
            module = base / "__init__.py"
        if not module.is_file():
            continue
        if size == len(parts) or parts[size] in _top_level_names(module):
            return None
        return f"{parts[size]} is not defined in {module.relative_to(root).as_posix()}"
    return "no such module"


def _top_level_names(module: Path) -> set[str]:
    tree = ast.parse(module.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(node.name)
        elif isinstance(node, ast.Assign):
            names.update(t.id for t in node.targets if isinstance(t, ast.Name))
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
        elif isinstance(node, ast.Import | ast.ImportFrom):
            names.update((alias.asname or alias.name).split(".")[0] for alias in node.names)
    if "__getattr__" in names:  # a package that loads its names on first use: kit/__init__.py
        names.update(_lazy_names(tree))
    return names


def _lazy_names(tree: ast.Module) -> set[str]:
    """The names a lazy `__getattr__` package declares in `__all__`."""
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets
        ):
            value = ast.literal_eval(node.value)
            return {str(name) for name in value}
    return set()


def markdown_files(root: Path = REPO) -> list[Path]:
    return [root / "README.md", *sorted((root / "docs").rglob("*.md"))]


def python_files(root: Path = REPO) -> list[Path]:
    return [
        path
        for folder in CODE_FOLDERS
        if (root / folder).is_dir()
        for path in sorted((root / folder).rglob("*.py"))
    ]


def stale_paths(root: Path = REPO) -> list[Named]:
    found = []
    for path in markdown_files(root):
        found += check_markdown(path, root=root)
    for path in python_files(root):
        found += check_python(path, root=root)
    return found
