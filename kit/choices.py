"""Fixed choices that settings and commands offer: the fact categories (declared in
kit/categories.py) and the retrieval filters (kit/config.py re-exports both). A module of its
own so that `kit --help` can offer them without loading the config's dataclasses."""

from __future__ import annotations

from kit.categories import CATEGORIES as CATEGORIES

FILTERS = ("none", "model")
