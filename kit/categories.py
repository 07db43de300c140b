"""The fact categories, each declared once, as kit/surface.py declares the operations.

A record names the category, says in a line what belongs in it, and where the memory index
lists its subjects (kit/context/index.py); its curation prompt is prompts/curate/<name>.md
(kit/prompts.py checks each one is there). Everything that lists categories reads this tuple:
the settings and commands that offer them, the curator's passes, the export's checks.

The database does not fix the list: the first migrations' CHECK was relaxed by m035 to "a
name", and the historical migrations keep their own frozen copy of the seven they started
with, so a new category is one record here and its prompt file, and an existing database takes
its facts (docs/development.md: Adding a fact category).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

IndexLabel = Literal["People", "Projects", "Topics"]


@dataclass(frozen=True)
class Category:
    name: str
    about: str  # what belongs in it, in a line (the curator's prompt says it at length)
    index_line: IndexLabel  # the memory index's line that names its subjects

    @property
    def prompt(self) -> str:
        """The curation prompt's name (prompts/curate/<name>.md)."""
        return f"curate/{self.name}"


CATEGORY_RECORDS: tuple[Category, ...] = (
    Category("person", "the owner themself: who they are, where and how they live", "Topics"),
    Category("people", "the people in the owner's life, one dossier each", "People"),
    Category("preferences", "what the owner likes, dislikes and chooses", "Topics"),
    Category("projects", "what the owner works on: its state, plans and decisions", "Projects"),
    Category("technical", "the owner's tools, systems and how they are set up", "Topics"),
    Category("entities", "things, places and organisations that are not people", "Topics"),
    Category("workflows", "how the owner does recurring things", "Topics"),
)

CATEGORIES: tuple[str, ...] = tuple(c.name for c in CATEGORY_RECORDS)


def index_lines() -> dict[IndexLabel, tuple[str, ...]]:
    """Each memory-index line with the categories whose subjects it names, in record order."""
    lines: dict[IndexLabel, tuple[str, ...]] = {}
    for category in CATEGORY_RECORDS:
        lines[category.index_line] = (*lines.get(category.index_line, ()), category.name)
    return lines
