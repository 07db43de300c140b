"""Every block of settings in the README and docs/ loads through Kit's own config loader, put
into the config.toml `kit init` writes the way docs/configuration.md tells the reader to:
each line into the table of the same name, in place of the line that sets the same key; a
table the file does not have is added whole. (A new user pasted the Ollama block below the
file and got a second [llm] table; the llama.cpp block stopped every command.)"""

from __future__ import annotations

import re
import textwrap
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from kit.commands.init import config_text
from kit.config import load_settings
from kit.model_settings import model_role
from tests.docs.named_paths import REPO

PAGES = [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]
_FENCE = re.compile(r"^( *)```toml\n(.*?)^\1```", re.M | re.S)
_HEADER = re.compile(r"^\[([^\]]+)\]\s*(#.*)?$")
_KEY = re.compile(r"^([A-Za-z0-9_-]+)\s*=")


@dataclass(frozen=True)
class Block:
    page: str
    line: int
    text: str


def _blocks() -> list[Block]:
    found = []
    for page in PAGES:
        source = page.read_text(encoding="utf-8")
        for match in _FENCE.finditer(source):
            line = source.count("\n", 0, match.start()) + 1
            text = textwrap.dedent(match.group(2))
            found.append(Block(str(page.relative_to(REPO)), line, text))
    return found


BLOCKS = _blocks()


def merged(base: str, block: str) -> str:
    """`block` put into `base` by the page's rule (docs/configuration.md, at the top)."""
    lines = base.splitlines()
    table: str | None = None
    for raw in block.splitlines():
        line = raw.strip()
        header = _HEADER.match(line)
        if header:
            table = header.group(1).strip()
            if _table_range(lines, table) is None:
                lines += ["", f"[{table}]"]
            continue
        key = _KEY.match(line)
        if key is None:
            continue  # a comment or a blank line
        assert table is not None, f"{line!r} sits before any [table]"
        tomllib.loads(line)  # one line, one setting: what the rule can place
        start, end = _table_range(lines, table) or (0, 0)
        found = [i for i in range(start + 1, end) if _sets(lines[i], key.group(1))]
        if found:
            lines[found[0]] = line
        else:
            settings = [i for i in range(start + 1, end) if _KEY.match(lines[i])]
            lines.insert((settings[-1] if settings else start) + 1, line)
    return "\n".join(lines) + "\n"


def _table_range(lines: list[str], table: str) -> tuple[int, int] | None:
    """The header's index and the index where the table ends."""
    starts = [i for i, line in enumerate(lines) if _HEADER.match(line.strip())]
    for n, i in enumerate(starts):
        header = _HEADER.match(lines[i].strip())
        if header is not None and header.group(1).strip() == table:
            return i, starts[n + 1] if n + 1 < len(starts) else len(lines)
    return None


def _sets(line: str, key: str) -> bool:
    found = _KEY.match(line)
    return found is not None and found.group(1) == key


def _values(document: dict[str, Any], prefix: str = "") -> dict[str, Any]:
    """Every setting as dotted path -> value."""
    flat: dict[str, Any] = {}
    for key, value in document.items():
        path = f"{prefix}{key}"
        if isinstance(value, dict) and not _is_value_table(path):
            flat |= _values(value, path + ".")
        else:
            flat[path] = value
    return flat


def _is_value_table(path: str) -> bool:
    """Settings whose value is itself a table (Telegram's id maps)."""
    return path.endswith(("allowed_user_ids", "allowed_group_ids"))


def test_the_pages_have_blocks_of_settings() -> None:
    pages = {b.page for b in BLOCKS}
    assert {"docs/configuration.md", "docs/telegram.md"} <= pages


@pytest.mark.parametrize("block", BLOCKS, ids=[f"{b.page}:{b.line}" for b in BLOCKS])
def test_every_block_of_settings_loads_as_the_page_says(block: Block, tmp_path: Path) -> None:
    config = tmp_path / "config.toml"
    config.write_text(merged(config_text(None), block.text), encoding="utf-8")
    settings = load_settings(config, tmp_path / "data", check_data_dir=False)  # no ConfigError
    loaded = _values(tomllib.loads(config.read_text(encoding="utf-8")))
    for path, value in _values(tomllib.loads(block.text)).items():
        assert loaded[path] == value, f"{block.page}:{block.line}: {path} did not take"
    for role in ("chat", "background", "judge"):
        model_role(settings.llm, role)


def _llm_block(title: str) -> str:
    page = (REPO / "docs" / "configuration.md").read_text(encoding="utf-8")
    after = page[page.index(f"**{title}**") :]
    match = _FENCE.search(after)
    assert match is not None
    return match.group(2)


def test_the_llama_cpp_block_curates_locally_in_json_and_chats_on_anthropic(
    tmp_path: Path,
) -> None:
    """The finding: `structured_output = "json"` in [llm] and chat on Anthropic in
    [llm.chat] stopped every command (exit 2). [llm]'s "json" is for the OpenAI roles."""
    config = tmp_path / "config.toml"
    config.write_text(merged(config_text(None), _llm_block("llama.cpp")), encoding="utf-8")
    llm = load_settings(config, tmp_path / "data", check_data_dir=False).llm
    chat, background = model_role(llm, "chat"), model_role(llm, "background")
    assert (chat.provider, chat.structured_output, chat.base_url) == ("anthropic", "tool", "")
    assert (background.provider, background.structured_output) == ("openai", "json")
    assert background.base_url == "http://127.0.0.1:8080/v1"


def test_pasting_below_the_file_is_not_the_rule() -> None:
    """Appending the Ollama block under the file `kit init` wrote repeats [llm] (a TOML
    error): the rule puts each line into the table that is there."""
    block = _llm_block("Ollama")
    with pytest.raises(tomllib.TOMLDecodeError):
        tomllib.loads(config_text(None) + "\n" + block)
    assert merged(config_text(None), block).count("\n[llm]\n") == 1
