"""Which model's vectors searches use, and the re-embedding toward the configured model.

Vectors are keyed by model id (kit/retrieval/vectors.py), so a store may hold several models'
vectors; searches use exactly one, the *serving* model, whose vectors cover the memory. When
the owner configures another model, it becomes the *target*: the re-embedding
(kit/retrieval/reindex.py) writes its vectors beside the serving model's, batch by batch (a
kill loses one batch at most: the next run embeds only what lacks a target vector), and only
once every row has one does the target become the serving model, in one transaction that also
deletes the other models' vectors. Until then searches use the serving model's vectors (its
spec, stored here, loads it to embed queries) or, when it cannot be loaded, words alone: never
some rows of one model and some of another.

One row per database, shared by every worker on it. A database from before this table gets
the configured model as its serving model when its vectors are that model's (or there are
none); vectors of another model alone make a re-embedding whose old model Kit cannot load
(word search until it ends).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime
from typing import Literal

from kit.clock import Clock, from_iso, to_iso
from kit.embed.spec import ModelSpec
from kit.store.db import Database, Transaction

log = logging.getLogger(__name__)

# What choosing the configured model at start found:
# "first"     no row yet: the configured model serves (a new store, or one from before)
# "same"      it serves already
# "started"   another model serves: re-embedding toward it starts now
# "continues" the re-embedding toward it was under way (a restart, a kill)
# "back"      it serves, and a re-embedding toward another model is given up
Change = Literal["first", "same", "started", "continues", "back"]


@dataclass(frozen=True)
class ModelState:
    serving: str  # the model id whose vectors searches use
    serving_spec: ModelSpec | None  # how to load it (None: Kit cannot, e.g. a test's fake)
    target: str | None  # being re-embedded toward (None: nothing to do)
    since: datetime | None  # when that began

    @property
    def reindexing(self) -> bool:
        return self.target is not None


@dataclass(frozen=True)
class ReindexProgress:
    """How far the re-embedding has got (`kit status`, `kit doctor`)."""

    serving: str  # the model searches use meanwhile
    target: str  # the configured model, being embedded
    since: datetime | None
    done: int  # rows with the target's vector
    total: int
    serving_loads: bool  # False: searches use words alone meanwhile (the old model is gone)
    problem: str | None = None  # why the target model cannot be loaded


class VectorModels:
    def __init__(self, db: Database, clock: Clock) -> None:
        self._db = db
        self._clock = clock

    async def read(self) -> ModelState | None:
        row = await self._db.fetchone(_SELECT)
        return None if row is None else _state(row)

    async def peek(self, model_id: str, spec: ModelSpec | None) -> tuple[ModelState, Change]:
        """What `choose` would make of the configured model, recording nothing: an open that
        must write nothing (`kit mcp --read-only`) leaves even this to the next one."""
        row = await self._db.fetchone(_SELECT)
        old = None if row is None else _state(row)
        found = model_id if old is not None else await _found_serving(self._db, model_id)
        return _decide(old, found, model_id, spec, self._clock.now())

    async def choose(self, model_id: str, spec: ModelSpec | None) -> tuple[ModelState, Change]:
        """Record the configured model (`spec`: how to load it; None for one Kit did not load
        itself) and say what that changed. One transaction: two workers starting at once
        agree. Nothing changed, nothing written (`kit context` writes nothing)."""
        now = self._clock.now()
        async with self._db.transaction() as tx:
            row = await tx.fetchone(_SELECT)
            old = None if row is None else _state(row)
            found = model_id if old is not None else await _found_serving(tx, model_id)
            new, change = _decide(old, found, model_id, spec, now)
            if old is None:
                await tx.execute(
                    "INSERT INTO vector_models (singleton, serving, serving_spec, target,"
                    " target_since, updated_at) VALUES (1, ?, ?, ?, ?, ?)",
                    (*_columns(new), to_iso(now)),
                )
            elif _columns(new) != _columns(old):
                await tx.execute(
                    "UPDATE vector_models SET serving = ?, serving_spec = ?, target = ?,"
                    " target_since = ?, updated_at = ?",
                    (*_columns(new), to_iso(now)),
                )
        return new, change

    async def finish(self, target: str, spec: ModelSpec | None) -> int | None:
        """Make `target` the serving model and delete every other model's vectors, in one
        transaction; how many vectors went. None when `target` is not the target any more
        (another worker finished it, or the owner chose another model meanwhile)."""
        async with self._db.transaction() as tx:
            row = await tx.fetchone("SELECT target FROM vector_models")
            if row is None or row[0] != target:
                return None
            await tx.execute(
                "UPDATE vector_models SET serving = ?, serving_spec = ?, target = NULL,"
                " target_since = NULL, updated_at = ?",
                (target, "" if spec is None else spec.to_json(), to_iso(self._clock.now())),
            )
            return await tx.execute_rowcount(
                "DELETE FROM embeddings WHERE model_id != ?", (target,)
            )

    async def prune(self) -> dict[str, int]:
        """Delete the vectors of models neither serving nor the target (left by an abandoned
        re-embedding, or from before this table): how many, by model."""
        async with self._db.transaction() as tx:
            row = await tx.fetchone("SELECT serving, target FROM vector_models")
            if row is None:
                return {}
            keep = [str(row[0])] + ([str(row[1])] if row[1] is not None else [])
            marks = ", ".join("?" for _ in keep)
            counts = await tx.fetchall(
                f"SELECT model_id, COUNT(*) FROM embeddings WHERE model_id NOT IN ({marks})"
                " GROUP BY model_id",
                keep,
            )
            await tx.execute(f"DELETE FROM embeddings WHERE model_id NOT IN ({marks})", keep)
        return {str(r[0]): int(r[1]) for r in counts}


_SELECT = "SELECT serving, serving_spec, target, target_since FROM vector_models"


def _decide(
    old: ModelState | None, found: str, model_id: str, spec: ModelSpec | None, now: datetime
) -> tuple[ModelState, Change]:
    """The state after configuring `model_id` over `old` (None: no row yet, and `found` is the
    model whose vectors the store holds), and what changed."""
    if old is None:
        if found == model_id:
            return ModelState(model_id, spec, None, None), "first"
        return ModelState(found, None, model_id, now), "started"
    if old.serving == model_id:
        # The spec too: the same model moved to another folder loads from there.
        change: Change = "back" if old.target is not None else "same"
        return ModelState(model_id, spec or old.serving_spec, None, None), change
    if old.target == model_id:
        return old, "continues"
    return ModelState(old.serving, old.serving_spec, model_id, now), "started"


def _columns(state: ModelState) -> tuple[str, str, str | None, str | None]:
    """A state as its row's columns (serving, serving_spec, target, target_since)."""
    spec = "" if state.serving_spec is None else state.serving_spec.to_json()
    since = None if state.since is None else to_iso(state.since)
    return state.serving, spec, state.target, since


async def _found_serving(tx: Transaction | Database, model_id: str) -> str:
    """A store without a row: the configured model, unless the vectors there are all of
    other models (then the most common of them serves, and Kit cannot load it)."""
    rows = await tx.fetchall(
        "SELECT model_id, COUNT(*) FROM embeddings GROUP BY model_id ORDER BY COUNT(*) DESC,"
        " model_id"
    )
    models = [str(r[0]) for r in rows]
    if not models or model_id in models:
        return model_id
    return models[0]


def _state(row: tuple[object, ...]) -> ModelState:
    since = row[3]
    return ModelState(
        serving=str(row[0]),
        serving_spec=ModelSpec.from_json(str(row[1])),
        target=None if row[2] is None else str(row[2]),
        since=None if since is None else from_iso(str(since)),
    )
