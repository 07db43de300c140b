"""Prompts are files in prompts/, loaded by name and rendered with explicit variables.

Placeholders are `$name` (string.Template), so JSON examples with braces stay literal.
`check()` runs at start-up: a missing prompt or a variable mismatch fails then, not at 3 a.m.
"""

from __future__ import annotations

import string
from collections.abc import Mapping
from pathlib import Path

from kit.categories import CATEGORY_RECORDS
from kit.errors import ConfigError

PROMPTS_DIR = Path(__file__).resolve().parent.parent / "prompts"

# Every prompt Kit uses, with exactly the variables its caller supplies. Add new ones here.
REQUIRED: dict[str, frozenset[str]] = {
    "chat": frozenset({"owner_name"}),
    "window_summary": frozenset({"previous_summary", "messages"}),
    "daily_summary": frozenset({"owner_name", "day", "message_count", "messages"}),
    "rem_condense": frozenset({"day", "detailed"}),
    "rem_review": frozenset({"owner_name", "today", "category", "stale_days", "facts"}),
    "filter": frozenset({"today", "question", "candidates"}),
    "reminder_task": frozenset({"task"}),
    # Added to a turn where the owner mentioned a plan with a time (kit/followups/).
    "followup_offer": frozenset({"when"}),
    # `kit eval qa`'s grader: Mem0's LoCoMo judge prompt, word for word (docs/retrieval-quality.md).
    "eval_judge": frozenset({"question", "gold_answer", "generated_answer"}),
    "eval_answer_short": frozenset({"question"}),
    # Curation: shared rules + the conversation, then one file of rules per category.
    "curate/base": frozenset({"owner_name", "today", "messages"}),
    **{category.prompt: frozenset({"owner_name", "facts"}) for category in CATEGORY_RECORDS},
    # The "extract" style's one prompt for every category (kit/curator/extract.py).
    "extract_facts": frozenset({"owner_name", "today", "topics", "messages"}),
    # Put before the facts when a large category is shown only in part (kit/curator/shown.py).
    "curate/partial": frozenset({"shown", "total", "category"}),
    # Put after them: other categories' facts about what the batch names (kit/curator/shown.py).
    "curate/elsewhere": frozenset({"category", "facts"}),
}


class Prompts:
    def __init__(self, folder: Path = PROMPTS_DIR) -> None:
        self.folder = folder
        self._cache: dict[str, string.Template] = {}

    def template(self, name: str) -> string.Template:
        if name not in self._cache:
            path = self.folder / f"{name}.md"
            try:
                template = string.Template(path.read_text(encoding="utf-8"))
            except (OSError, UnicodeDecodeError) as exc:
                raise ConfigError(
                    f"{path}: prompt file missing or unreadable; restore it from the repository"
                ) from exc
            # A stray `$` (like "$5") would otherwise only fail when the prompt is rendered.
            if not template.is_valid():
                raise ConfigError(
                    f"{path}: a `$` that is not a $placeholder; write $$ for a literal dollar sign"
                )
            self._cache[name] = template
        return self._cache[name]

    def variables(self, name: str) -> frozenset[str]:
        return frozenset(self.template(name).get_identifiers())

    def render(self, name: str, /, **values: object) -> str:  # `/`: a prompt may use $name
        template = self.template(name)
        expected = self.variables(name)
        missing = expected - values.keys()
        extra = values.keys() - expected
        if missing or extra:
            raise ConfigError(
                f"prompts/{name}.md: variables do not match (missing: {sorted(missing)}, "
                f"unexpected: {sorted(extra)}); fix the prompt's $placeholders"
            )
        return template.substitute({k: str(v) for k, v in values.items()})

    def check(self, required: Mapping[str, frozenset[str]] = REQUIRED) -> None:
        for name, expected in required.items():
            found = self.variables(name)
            if found != expected:
                raise ConfigError(
                    f"prompts/{name}.md: expects variables {sorted(found)} but Kit supplies "
                    f"{sorted(expected)}; fix the prompt's $placeholders"
                )
