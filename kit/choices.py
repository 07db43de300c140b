"""Fixed choices that settings and commands offer: the seven fact categories and the
retrieval filters (kit/config.py re-exports both). A module of its own so that `kit --help`
can offer them without loading the config's dataclasses."""

from __future__ import annotations

CATEGORIES = ("person", "people", "preferences", "projects", "technical", "entities", "workflows")
FILTERS = ("none", "model")
