"""The layers of the house, top to bottom: a module imports its own layer or lower ones, never a
higher one. Every import counts — at the top of a file, inside a function, or under
TYPE_CHECKING — because each is a dependency a reader (and a later move) has to follow.

A new package or top-level module of kit/ must be placed here; the test says so when one is not.
"""

from __future__ import annotations

import ast
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
ROOTS = ("kit", "scheduler", "tui")

# Top to bottom. An entry names a package (and everything in it) or one module; a module belongs
# to its longest entry. Within a layer, entries may import each other.
LAYERS: tuple[tuple[str, ...], ...] = (
    # the program's entry (loads the subcommands); the reference pages generated from it
    ("kit.cli", "kit.docs_gen"),
    # front-ends: one module per `kit` subcommand; the TUI; the scheduler as a component of
    # the daemon that `kit run` starts (it takes the daemon's teardown bound)
    ("kit.commands", "tui", "scheduler.component"),
    ("kit.mcp",),  # the MCP server (`kit mcp` starts it)
    ("kit.daemon",),  # the daemon: control socket, runner, follower
    # KitClient in process or over the socket; the operations the declaration drives
    ("kit.client", "kit.operations"),
    # the public API and what drives it: `kit` itself (its public names), chat channels, the
    # scheduler, evaluation
    (
        "kit",
        "kit.api",
        "kit.api_access",
        "kit.api_base",
        "kit.api_facts",
        "kit.api_forget",
        "kit.api_reminders",
        "kit.api_upkeep",
        "kit.channels",
        "kit.chat_commands",
        "kit.eval",
        "scheduler",
    ),
    ("kit.surface",),  # the client surface: each operation declared once
    ("kit.app", "kit.app_models"),  # the composition root; the models' clients it builds
    # what a turn and the background do with memory; the inbox, where the owner answers the
    # questions a pass set aside (asked and stored by the curator, below)
    (
        "kit.agent",
        "kit.turn_reply",
        "kit.inbox",
        "kit.background",
        "kit.digest",
        "kit.portability",
    ),
    ("kit.curator",),  # writes long-term memory; sets aside what waits for the owner's word
    ("kit.tools", "kit.tool_input"),  # the chat model's tools
    ("kit.context",),  # one turn's prompt: the sandwich, index, window, render
    ("kit.retrieval", "kit.forget"),  # finding what memory holds; erasing it
    # what Kit keeps beside memory: notes, reminders, follow-ups, and delivery to the owner
    # below the channels (the outbox, button callbacks, splitting to a channel's limit)
    (
        "kit.access",
        "kit.notes",
        "kit.reminders",
        "kit.followups",
        "kit.delivery",
    ),
    ("kit.memory", "kit.turn"),  # the data: facts, messages, days; a turn's in and out
    # model ports and their costs; job ledgers; hearing voice messages
    ("kit.llm", "kit.embed", "kit.jobs", "kit.speech"),
    ("kit.store",),  # the database seam, both engines, migrations
    # foundations
    (
        "kit.config",
        "kit.categories",
        "kit.channel_settings",
        "kit.choices",
        "kit.embedding_settings",
        "kit.model_settings",
        "kit.providers",
        "kit.storage_url",
        "kit.prompts",
        "kit.clock",
        "kit.dates",
        "kit.errors",
        "kit.files",
        "kit.heap",
        "kit.logs",
        "kit.reach",
        "kit.secrets",
        "kit.text",
        "kit.untrusted",
        "kit.version",
    ),
)


def _modules() -> dict[str, Path]:
    found = {}
    for root in ROOTS:
        for path in sorted((REPO / root).rglob("*.py")):
            parts = list(path.relative_to(REPO).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join(parts)] = path
    return found


def _layer_of(module: str) -> int | None:
    best: tuple[int, int] | None = None  # (entry length, layer)
    for layer, entries in enumerate(LAYERS):
        for entry in entries:
            inside = module == entry or (entry != "kit" and module.startswith(entry + "."))
            if inside and (best is None or len(entry) > best[0]):
                best = (len(entry), layer)
    return None if best is None else best[1]


def _imports(path: Path, modules: dict[str, Path]) -> list[tuple[int, str]]:
    """(line, module) for every import of one of ours, wherever it stands in the file."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names = [
                f"{node.module}.{alias.name}"
                if f"{node.module}.{alias.name}" in modules
                else node.module
                for alias in node.names
            ]
        else:
            continue
        for name in names:
            while name not in modules and "." in name:
                name = name.rsplit(".", 1)[0]
            if name in modules:
                found.add((node.lineno, name))
    return sorted(found)


def test_every_module_has_a_layer() -> None:
    unplaced = sorted(m for m in _modules() if _layer_of(m) is None)
    assert unplaced == [], f"place these in LAYERS (tests/test_layers.py): {unplaced}"


def test_no_module_imports_a_higher_layer() -> None:
    modules = _modules()
    upward = []
    for module, path in modules.items():
        mine = _layer_of(module)
        for line, target in _imports(path, modules):
            theirs = _layer_of(target)
            if mine is not None and theirs is not None and theirs < mine:
                where = path.relative_to(REPO)
                upward.append(f"{where}:{line} imports {target} (layer {theirs} above {mine})")
    assert upward == [], "imports that run up the layers:\n" + "\n".join(upward)


def test_the_layer_table_names_only_what_exists() -> None:
    """A package renamed or removed leaves no stale entry that would quietly place nothing."""
    modules = _modules()
    stale = [
        entry
        for entries in LAYERS
        for entry in entries
        if not any(m == entry or m.startswith(entry + ".") for m in modules)
    ]
    assert stale == []


# Only these may import a channel: the channels themselves, the commands (`kit doctor`), the
# daemon that runs them and the composition root. The core reaches the owner through
# kit/delivery/ and never names a channel.
CHANNEL_USERS = ("kit.channels", "kit.commands", "kit.daemon", "kit.app")


def test_no_core_module_imports_the_channels() -> None:
    modules = _modules()

    def inside(module: str, entries: tuple[str, ...]) -> bool:
        return any(module == e or module.startswith(e + ".") for e in entries)

    found = [
        f"{path.relative_to(REPO)}:{line} imports {target}"
        for module, path in modules.items()
        if not inside(module, CHANNEL_USERS)
        for line, target in _imports(path, modules)
        if inside(target, ("kit.channels",))
    ]
    assert found == []


def _circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The groups of modules that import each other in a loop (Tarjan's strongly connected
    components of more than one module), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    circles: list[list[str]] = []

    def visit(module: str) -> None:
        index[module] = low[module] = len(index)
        stack.append(module)
        on_stack.add(module)
        for target in sorted(graph[module]):
            if target not in index:
                visit(target)
                low[module] = min(low[module], low[target])
            elif target in on_stack:
                low[module] = min(low[module], index[target])
        if low[module] == index[module]:
            group = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                group.append(top)
                if top == module:
                    break
            if len(group) > 1:
                circles.append(sorted(group))

    for module in sorted(graph):
        if module not in index:
            visit(module)
    return sorted(circles)


def test_no_modules_import_each_other_in_a_circle() -> None:
    """Within a layer modules may import each other, but never round in a loop — a
    TYPE_CHECKING import counts too (kit/retrieval/vectors.py once named the re-embedding job
    that imports it; the job now belongs to the services, and the vectors know only its
    `sync`)."""
    modules = _modules()
    graph = {
        module: {target for _, target in _imports(path, modules) if target != module}
        for module, path in modules.items()
    }
    assert _circles(graph) == []


def test_the_circle_finder_finds_a_loop_through_three_modules() -> None:
    """The check above can fail: a loop a -> b -> c -> a is one circle, a tail off it none."""
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": set()}
    assert _circles(graph) == [["a", "b", "c"]]
