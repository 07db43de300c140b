"""A realistic 100k-item memory for one owner, and its real MiniLM vectors cached on disk.

    python bench/archive.py [--scale 1.0]     # build (or finish building) the cache, print timings

Three years of chat with Kit (~88k messages, ~80 a day), ~11k curated facts and one summary
per day (1,095), clustered by topic as a real archive is: many near-duplicate everyday
messages (work, food, family, plans, weather, health, hobbies, home, commute), every LoCoMo
dev turn once as sentence material, and the 60 planted messages of bench/planted.py, each an
outlier among its neighbours. Deterministic for a given GENERATOR_VERSION.

The first build embeds every item with the real model (one text at a time, as Kit does; tens
of minutes on two shared cores) through Kit's own backfill, and keeps the vectors (by text)
and the filled database under ~/.cache/kit-bench/ (KIT_BENCH_CACHE), keyed by the generator
version and the model; an interrupted build resumes where it stopped. Later runs copy the
database (seconds) and re-embed nothing.
"""

from __future__ import annotations

import argparse
import asyncio
import fcntl
import hashlib
import json
import os
import random
import re
import shutil
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from pathlib import Path

import numpy as np
from archive_text import FACTS, SLOTS, TOPICS
from common import CATEGORY_SHARES, LOCOMO, NOW, load_minilm
from planted import PLANTED

from kit.embed.base import Embedder, Vectors
from kit.memory.fact_writer import Provenance
from kit.memory.messages import NewMessage

GENERATOR_VERSION = 1
DAYS = 1_095
MESSAGES_PER_DAY = 80
FACTS_COUNT = 11_000
CACHE_ROOT = Path(os.environ.get("KIT_BENCH_CACHE", "~/.cache/kit-bench")).expanduser()
_SLOT = re.compile(r"\{(\w+)\}")


@dataclass(frozen=True)
class Archive:
    facts: list[tuple[str, str, str]]  # (category, subject, content)
    messages: list[NewMessage]
    days: list[tuple[date, str, str]]  # (day, detailed, condensed)
    planted: list[int]  # positions in `messages` of PLANTED's messages, in PLANTED's order


def _fill(template: str, rng: random.Random, day_slots: dict[str, str]) -> str:
    """A template with its slots filled: mostly the day's own choices (a day is about a few
    things), sometimes another value."""

    def value(match: re.Match[str]) -> str:
        name = match.group(1)
        if name in day_slots and rng.random() < 0.6:
            return day_slots[name]
        return rng.choice(SLOTS[name])

    text = _SLOT.sub(value, template)
    return text[0].upper() + text[1:]


def _casual(text: str, rng: random.Random) -> str:
    """How people type: sometimes lower case, a filler word, a different ending."""
    roll = rng.random()
    if roll < 0.15:
        text = text[0].lower() + text[1:]
    elif roll < 0.22:
        opener = rng.choice(("Btw ", "Oh and ", "Quick one: ", "Hmm, ", "So "))
        text = opener + text[0].lower() + text[1:]
    ending = rng.random()
    if ending < 0.1:
        text += rng.choice((" :)", " haha", "!", "...", " ugh"))
    return text


_OPENERS = ("", "", "", "Got it. ", "Okay! ", "Sure. ", "Oh no. ", "Nice. ", "Right. ", "Hmm. ")
_FOLLOW_UPS = (
    "",
    "",
    "",
    " Anything else?",
    " Want a reminder?",
    " I'll keep that in mind.",
    " Let me know how it goes.",
    " I've added it to today's notes.",
    " Good luck!",
)
_WHEN = ("", "", "", "", " this morning", " tonight", " at lunch", " earlier", " today", " again")


_SINCE = (
    "",
    "",
    " (said in {0})",
    " since {0}",
    " as of {0}",
    " (mentioned by {1})",
    ", at least since {0}",
    " most weeks",
    " (checked {0})",
)
_SINCE = tuple(
    s.format(f"{m} {y}", f)
    for s in _SINCE
    for m in ("January", "March", "May", "July", "September", "November")
    for y in (2023, 2024, 2025)
    for f in ("Sam", "Hannah", "Priya")
)


def _reply(text: str, rng: random.Random) -> str:
    """Kit's replies vary their wording around the same content, as a model's do."""
    return (rng.choice(_OPENERS) + text + rng.choice(_FOLLOW_UPS)).strip()


def _locomo_turns() -> list[str]:
    if not LOCOMO.exists():
        return []
    turns: list[str] = []
    for sample in json.loads(LOCOMO.read_text(encoding="utf-8")):
        conversation = sample["conversation"]
        for key, value in conversation.items():
            if key.startswith("session_") and isinstance(value, list):
                turns += [str(t["text"]) for t in value if str(t.get("text", "")).strip()]
    return turns


def generate(scale: float = 1.0, seed: int = 23) -> Archive:
    """The archive (deterministic). `scale` shrinks it for quick runs."""
    rng = random.Random(seed)
    days = max(30, int(DAYS * scale))
    per_day = MESSAGES_PER_DAY
    topics = list(TOPICS)
    shares = [TOPICS[t][0] for t in topics]
    locomo = _locomo_turns()[: int(1_500 * scale)]
    locomo_days = {rng.randrange(days): turn for turn in locomo}  # at most one a day
    planted_days = rng.sample(range(days), min(len(PLANTED), days))
    first = NOW.date() - timedelta(days=days)
    messages: list[NewMessage] = []
    summaries: list[tuple[date, str, str]] = []
    planted_at: dict[int, int] = {}
    for index in range(days):
        day = first + timedelta(days=index)
        day_topics = rng.choices(topics, shares, k=4)
        day_slots = {name: rng.choice(values) for name, values in SLOTS.items()}
        minute = 7 * 60 + rng.randrange(60)
        step = (15 * 60) // (per_day // 2)
        exchanges: list[tuple[str, str, str]] = []  # (owner, reply, bullet)
        for _ in range(per_day // 2):
            topic = rng.choice(day_topics) if rng.random() < 0.8 else rng.choices(topics, shares)[0]
            _, owner, replies, bullets = TOPICS[topic]
            exchanges.append(
                (
                    _casual(_fill(rng.choice(owner), rng, day_slots) + rng.choice(_WHEN), rng),
                    _reply(_fill(rng.choice(replies), rng, day_slots), rng),
                    _fill(rng.choice(bullets), rng, day_slots),
                )
            )
        if index in locomo_days:
            exchanges[rng.randrange(len(exchanges))] = (
                locomo_days[index],
                _reply(rng.choice(("Sounds lovely.", "Thanks for sharing that.", "Noted.")), rng),
                "Caught up with friends' news",
            )
        planted_slot = -1
        if index in planted_days:
            which = planted_days.index(index)
            planted_slot = rng.randrange(len(exchanges))
            _, message = PLANTED[which]
            exchanges[planted_slot] = (
                message,
                rng.choice(("Noted, thanks for telling me.", "Got it, I'll remember that.")),
                message,
            )
        for position, (owner_text, reply_text, _) in enumerate(exchanges):
            clock = timedelta(minutes=min(minute, 23 * 60 + 58))
            at = datetime.combine(day, datetime.min.time(), NOW.tzinfo) + clock
            if position == planted_slot:
                planted_at[planted_days.index(index)] = len(messages)
            messages.append(NewMessage("user", owner_text, at))
            messages.append(NewMessage("assistant", reply_text, at + timedelta(seconds=40)))
            minute += step + rng.randrange(-step // 3, step // 3 + 1)
        bullets = [f"- {b}" for _, _, b in exchanges]
        detailed = "\n".join(dict.fromkeys(bullets[:30]))
        condensed = "\n".join(list(dict.fromkeys(bullets))[:12])
        summaries.append((day, detailed, condensed))
    facts = []
    categories = [c for c, _ in CATEGORY_SHARES]
    weights = [w for _, w in CATEGORY_SHARES]
    for category in rng.choices(categories, weights, k=int(FACTS_COUNT * scale)):
        day_slots = {name: rng.choice(values) for name, values in SLOTS.items()}
        content = _fill(rng.choice(FACTS[category]), rng, day_slots) + rng.choice(_SINCE)
        facts.append((category, "", content))
    return Archive(facts, messages, summaries, [planted_at[i] for i in sorted(planted_at)])


async def fill(kit: object, archive: Archive) -> list[int]:
    """Write the archive into Kit's memory (each kind in one transaction). Returns the ids of
    the planted messages, in PLANTED's order."""
    from kit.api import Kit

    assert isinstance(kit, Kit)
    s = kit.services
    user = s.settings.owner.user_id
    rng = random.Random(4)
    async with s.db.transaction() as tx:
        writer = s.facts.writer(tx, user)
        provenance = Provenance(actor="curator", reason="bench archive")
        for category, subject, content in archive.facts:
            await writer.insert(
                category=category,
                content=content,
                subject=subject,
                confidence=rng.choice((0.6, 0.8, 0.9)),
                provenance=provenance,
            )
    conv = await s.messages.conversation(user, "telegram", "owner")
    async with s.db.transaction() as tx:
        await s.messages.insert_bulk(tx, conv, archive.messages, "import")
    async with s.db.transaction() as tx:
        for day, detailed, condensed in archive.days:
            await s.days.put_detailed(user, day, detailed, len(detailed) // 4, tx)
            await s.days.put_condensed(user, day, condensed, tx)
    rows = await s.db.fetchall(
        "SELECT id FROM messages WHERE conversation_id = ? ORDER BY at, id", (conv.id,)
    )
    ids = [int(r[0]) for r in rows]
    return [ids[p] for p in archive.planted]


# -- the vector cache --------------------------------------------------------------------------


def _key(text: str) -> bytes:
    return hashlib.sha1(text.encode()).digest()


class VectorCache:
    """Vectors by text (SHA-1), in numbered .npz parts under one folder per generator
    version and model: an interrupted build keeps every part it wrote."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self._rows: dict[bytes, np.ndarray] = {}
        self._pending: dict[bytes, np.ndarray] = {}
        for part in sorted(folder.glob("part-*.npz")):
            with np.load(part) as data:
                for key, vector in zip(data["keys"], data["vectors"], strict=True):
                    self._rows[bytes(key)] = vector

    def __len__(self) -> int:
        return len(self._rows)

    def get(self, text: str) -> np.ndarray | None:
        return self._rows.get(_key(text))

    def put(self, text: str, vector: np.ndarray) -> None:
        key = _key(text)
        self._rows[key] = vector
        self._pending[key] = vector
        if len(self._pending) >= 2_000:
            self.flush()

    def flush(self) -> None:
        if not self._pending:
            return
        self.folder.mkdir(parents=True, exist_ok=True)
        number = len(list(self.folder.glob("part-*.npz")))
        keys = np.array(list(self._pending), dtype="S20")
        vectors = np.stack(list(self._pending.values())).astype(np.float32)
        partial = self.folder / f"part-{number:04d}.partial.npz"
        np.savez(partial, keys=keys, vectors=vectors)
        os.replace(partial, self.folder / f"part-{number:04d}.npz")
        self._pending.clear()


class CachedEmbedder:
    """The real model's vectors, from the cache when it has them; with `record`, vectors the
    model computes are added to it. Same model id and dimension as the model."""

    def __init__(self, real: Embedder, cache: VectorCache, *, record: bool = False) -> None:
        self.real = real
        self.cache = cache
        self.record = record
        self.model_id = real.model_id
        self.dim = real.dim
        self.computed = 0
        self.seconds = 0.0

    async def embed(self, texts: Sequence[str]) -> Vectors:
        found = [self.cache.get(t) for t in texts]
        missing = [i for i, v in enumerate(found) if v is None]
        if missing:
            began = time.perf_counter()
            vectors = await self.real.embed([texts[i] for i in missing])
            self.seconds += time.perf_counter() - began
            self.computed += len(missing)
            for i, vector in zip(missing, vectors, strict=True):
                found[i] = vector
                if self.record:
                    self.cache.put(texts[i], vector)
        return np.stack([np.asarray(v, dtype=np.float32) for v in found])


def cache_folder(model_id: str) -> Path:
    """Where the archive's vectors (by text, shared by every scale) are kept for a model."""
    slug = re.sub(r"[^A-Za-z0-9]+", "-", model_id).strip("-")
    return CACHE_ROOT / f"archive-v{GENERATOR_VERSION}-{slug}"


def database_folder(model_id: str, scale: float) -> Path:
    return cache_folder(model_id) / f"scale-{scale:g}"


async def build_cache(scale: float = 1.0, *, progress: bool = True) -> Path:
    """Fill a database with the archive and embed it through Kit's backfill, keeping every
    vector; saves `archive.sqlite3` and `meta.json` (a folder per scale). Returns the folder."""
    real = await load_minilm()
    if real is None:
        raise SystemExit("no local MiniLM model in ../shared/models: cannot embed the archive")
    folder = database_folder(real.model_id, scale)
    if (folder / "meta.json").exists():
        return folder
    folder.mkdir(parents=True, exist_ok=True)
    # Two runs building the same archive at once wiped each other's work folder and saved a
    # half-embedded database: the second waits for the first, then finds its archive.
    lock = os.open(folder / ".building.lock", os.O_CREAT | os.O_RDWR, 0o644)
    try:
        await asyncio.to_thread(fcntl.flock, lock, fcntl.LOCK_EX)
        if not (folder / "meta.json").exists():
            await _build(folder, real, scale, progress)
    finally:
        os.close(lock)  # and the lock with it
    return folder


async def _build(folder: Path, real: Embedder, scale: float, progress: bool) -> None:
    from kit.api import Kit
    from kit.clock import FakeClock
    from kit.config import ScheduleSettings, Settings
    from kit.llm.fake import FakeLLM

    cache = VectorCache(cache_folder(real.model_id))
    embedder = CachedEmbedder(real, cache, record=True)
    archive = generate(scale)
    work = folder / "building"
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    settings = Settings(data_dir=work, schedule=ScheduleSettings(timezone="UTC"))
    began = time.perf_counter()
    async with Kit.open(
        settings=settings, llm=FakeLLM(), embedder=embedder, clock=FakeClock(NOW), background=False
    ) as kit:
        planted = await fill(kit, archive)
        written = time.perf_counter() - began
        total = await kit.services.vectors.pending_count()
        done = 0

        def tick(count: int) -> None:
            nonlocal done
            done += count
            if progress and done % 4_096 < count:
                rate = embedder.computed / embedder.seconds if embedder.seconds else 0.0
                print(f"  embedded {done:,} / {total:,} ({rate:.0f} texts/s)", file=sys.stderr)

        await kit.services.vectors.backfill(on_batch=tick)
        cache.flush()
    shutil.move(str(settings.database_path), folder / "archive.sqlite3")
    shutil.rmtree(work, ignore_errors=True)
    meta = {
        "generator_version": GENERATOR_VERSION,
        "scale": scale,
        "model": real.model_id,
        "facts": len(archive.facts),
        "messages": len(archive.messages),
        "days": len(archive.days),
        "planted_ids": planted,
        "texts_embedded_now": embedder.computed,
        "embedding_seconds_now": round(embedder.seconds, 1),
        "fill_seconds": round(written, 1),
        "wall_seconds": round(time.perf_counter() - began, 1),
        "load_average": os.getloadavg()[0],
        "built": datetime.now(NOW.tzinfo).isoformat(timespec="seconds"),
    }
    (folder / "meta.json").write_text(json.dumps(meta, indent=1))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scale", type=float, default=1.0, help="archive size (1.0: 100k)")
    args = parser.parse_args()
    folder = asyncio.run(build_cache(args.scale))
    print(folder)
    print((folder / "meta.json").read_text())


if __name__ == "__main__":
    main()
