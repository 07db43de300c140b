"""What bench/retrieval_ablations.py compares: its variants (the defaults changed in one way
each, and the simple baselines as Kit configurations), the levers its rotated hold-out chooses
among, and `--set`'s parsing into typed changes to RankingParams (bench/temporal.py uses it too).
"""

from __future__ import annotations

import dataclasses
import sys
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # `python bench/<name>.py` from anywhere
    sys.path.insert(0, str(ROOT))

from kit.eval.folds import Levers  # noqa: E402
from kit.retrieval.ranking import RankingParams  # noqa: E402

Changes = dict[str, object]
NO_NEIGHBOURS: Changes = {"previous_weight": 0.0, "next_weight": 0.0}
# The query-aware levers off: Kit's ranking as it was before them (score fusion + neighbours).
PLAIN: Changes = {
    "instance_weight": 0.0,
    "speaker_names_as_words": True,
    "context_weight": 0.0,
    "other_speaker_weight": 1.0,
    "time_weight": 0.0,
    "date_weight": 0.0,
    "dates_as_words": "all",
    "session_gap_hours": 0.0,
}
VARIANTS: dict[str, Changes] = {
    "kit (defaults)": {},
    # one lever changed at a time, the ones most in question first
    "vector weight 1": {"vector_weight": 1.0},
    "vector weight 2": {"vector_weight": 2.0},
    "no cosine floor": {"message_threshold": 0.0},
    "cosine floor 0.3": {"message_threshold": 0.3},
    "cosine floor 0.2": {"message_threshold": 0.2},
    "rank cut: under the floor within 15 vector ranks": {"floor_ranks": 15},
    "rank cut: under the floor within 50 vector ranks": {"floor_ranks": 50},
    "rank cut: under the floor within 100 vector ranks": {"floor_ranks": 100},
    "rank cut: floor 0.3, under it within 50 vector ranks": {
        "message_threshold": 0.3,
        "floor_ranks": 50,
    },
    "no lexical lift": {"lexical_lift": 0},
    "lexical lift 2": {"lexical_lift": 2},
    "lexical lift 5": {"lexical_lift": 5},
    "round 3 defaults (no strong vector hits, no cosines for words)": {
        "strong_z": None,
        "cosines_for_words": 0,
    },
    "no strong vector hits": {"strong_z": None},
    "no cosines for words": {"cosines_for_words": 0},
    "strong vector hits, z 2 (with cosines for words)": {"strong_z": 2.0},
    "strong vector hits, z 3 (with cosines for words)": {"strong_z": 3.0},
    "cosines for words: the best 200": {"cosines_for_words": 200},
    "cosines for words: the best 50": {"cosines_for_words": 50},
    "vector scores from the cosines' 0.3 quantile": {"vector_floor": 0.3},
    "candidates 400": {"candidates": 400},
    "round 2 defaults (floor 0.3, no lexical lift, no cosines for words)": {
        "message_threshold": 0.3,
        "lexical_lift": 0,
        "cosines_for_words": 0,
        "strong_z": None,
    },
    "no kinds of things": {"instance_weight": 0.0},
    "kinds of things 0.5": {"instance_weight": 0.5},
    "list questions: 2 x k": {"list_k": 2.0},
    "list questions: 1 x k": {"list_k": 1.0},
    "no speaker weighting": {"other_speaker_weight": 1.0},
    "replies 0.7": {"reply_weight": 0.7},
    "replies 0.5": {"reply_weight": 0.5},
    "replies 0.3": {"reply_weight": 0.3},
    "replies 1": {"reply_weight": 1.0},
    "no neighbour mixing": {**NO_NEIGHBOURS},
    "no lexical units (context weight 0)": {"context_weight": 0.0},
    "no when/time weighting": {"time_weight": 0.0},
    "no date spans": {"date_weight": 0.0},
    "speaker names as words": {"speaker_names_as_words": True},
    "no recency boost": {"recency_boost": 0.0},
    "vector weight 1.5": {"vector_weight": 1.5},
    "list questions: 1.5 x k": {"list_k": 1.5},
    "long turns shown whole (no passages)": {"passages": False},
    "no passage vectors": {"passage_vectors": False},
    "list spread 0.3": {"list_spread": 0.3},
    "vector floor: the candidates' minimum": {"vector_floor": 0.0},
    # the simple baselines, as Kit configurations
    "lexical only (FTS5 BM25 + day words)": {"vector_weight": 0.0, **NO_NEIGHBOURS, **PLAIN},
    "vector only (cosine)": {"lexical_weight": 0.0, **NO_NEIGHBOURS, **PLAIN},
    "RRF k=60 of the two": {"fusion": "rrf", "rrf_k": 60, **NO_NEIGHBOURS, **PLAIN},
}

# The rotated hold-out's levers: each value's changes to RankingParams, "off" (the ranking
# before the lever) first. A lever has to win on the training conversations to be turned on.
LEVERS: Levers = {
    "vector weight": [(f"{w:g}", {"vector_weight": w}) for w in (1.0, 1.5, 2.0)],
    "speaker names as words": [
        ("yes", {"speaker_names_as_words": True}),
        ("no", {"speaker_names_as_words": False}),
    ],
    "kinds of things": [(f"{w:g}", {"instance_weight": w}) for w in (0.0, 0.5)],
    "who": [(f"{w:g}", {"other_speaker_weight": w}) for w in (1.0, 0.8, 0.6)],
    "when": [(f"{w:g}", {"time_weight": w}) for w in (0.0, 0.2)],
    "date spans": [(f"{w:g}", {"date_weight": w}) for w in (0.0, 0.25)],
    "lexical units": [(f"{w:g}", {"context_weight": w}) for w in (0.0, 0.2)],
    "neighbours": [
        ("0", {"previous_weight": 0.0, "next_weight": 0.0}),
        ("0.3/0.15", {"previous_weight": 0.3, "next_weight": 0.15}),
    ],
    "cosine floor": [(f"{w:g}", {"message_threshold": w}) for w in (0.3, 0.2, 0.0)],
    "lexical lift": [(f"{n}", {"lexical_lift": n}) for n in (0, 3)],
    "cosines for words": [(f"{n}", {"cosines_for_words": n}) for n in (0, 50, 200)],
    "list questions": [(f"{w:g} x k", {"list_k": w}) for w in (1.0, 1.5, 2.0)],
    "replies": [(f"{w:g}", {"reply_weight": w}) for w in (1.0, 0.7, 0.5, 0.3)],
    "passage vectors": [("off", {"passage_vectors": False}), ("on", {"passage_vectors": True})],
}


def parse_set(items: Sequence[str]) -> Changes:
    """--set previous_weight=0.2 dates_as_words=all -> typed changes to RankingParams."""
    fields = {f.name: f for f in dataclasses.fields(RankingParams)}
    defaults = RankingParams()
    changes: Changes = {}
    for item in items:
        name, _, raw = item.partition("=")
        if name not in fields:
            raise SystemExit(f"--set {item}: no such parameter; known: {', '.join(fields)}")
        current = getattr(defaults, name)
        if raw.lower() == "none":
            changes[name] = None
        elif isinstance(current, bool):
            changes[name] = raw.lower() in ("1", "true", "yes", "on")
        elif current is None:
            changes[name] = float(raw)
        else:
            changes[name] = type(current)(raw)
    return changes
