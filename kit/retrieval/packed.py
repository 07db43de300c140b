"""A big layer's int8 rows kept a second time, packed for numkong's pre-packed dot product
(`dots_pack` once, `dots_packed` per query): the same integer dot products bit for bit, read
faster. Measured in a build on the 100k archive (issue 33, round 22, docs/measurements.md):
the 87,600 messages' scan 1.0-1.3 ms less CPU a query, its end 0.8-2.0 ms earlier (p50, four
paired runs); the copy takes what the rows take (388 bytes a row at 384 dimensions). The rows
stay: `only=` searches, the first pass, the graph and the repacking read them, and a packed
block cannot be read back.

The copy is a prefix packed whole in one block a part (up to `BIG` rows a block: a rewritten
row repacks its block) and `SMALL`-row blocks after it, each packed once by the append that
fills it; once the rows past the prefix reach a quarter of it, the whole copy is packed again
(each row is packed about six times as the layer grows). A scan's parts each take one big
block, the small blocks go to the lightest part, and the rows no block holds are shared out
so that the parts end together (`plan`): in a build one block a part ended the scan 1.7-2.0
ms earlier where 16,384-row blocks gave 1.3-1.4 (round 22). A copy is published whole, never
changed in place, so a search in another thread reads one consistent copy.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from itertools import pairwise
from typing import NamedTuple

import numkong
import numpy as np
import numpy.typing as npt

# From this many rows a layer keeps the copy (the size from which a scan is split in parts:
# on a turn's critical path), until the sign codes of kit/retrieval/first_pass.py take over.
PACKED_ROWS = 65_536
# A prefix block's most rows: packing 65,536 takes ~17 ms of CPU, a rewrite's price.
BIG = 65_536
# Rows a block after the prefix: ~2 ms of CPU to pack, once.
SMALL = 8_192
# A row read by `cdist` costs about this many packed rows' reading (round 22, in a loop:
# 87,600 rows 5.37 ms by `cdist`, 4.06-4.37 packed).
ROW_COST = 1.3


class Block(NamedTuple):
    start: int
    stop: int
    matrix: numkong.PackedMatrix


@dataclass(frozen=True)
class Copy:
    blocks: tuple[Block, ...]
    prefix: int  # rows packed by the last whole packing

    @property
    def nbytes(self) -> int:
        return sum(block.matrix.nbytes for block in self.blocks)


class Part(NamedTuple):
    """One part of a scan: the blocks it reads and the row ranges it reads by `cdist`."""

    blocks: list[Block]
    ranges: list[tuple[int, int]]


def extended(copy: Copy | None, rows: npt.NDArray[np.int8], size: int, parts: int) -> Copy:
    """`copy` holding the first `size` rows: every whole small block it lacks packed, or
    the whole copy packed again once the rows past its prefix reach a quarter of it."""
    if copy is None or 4 * (size - copy.prefix) >= copy.prefix:
        count = -(-size // BIG)
        count = -(-count // parts) * parts  # whole blocks per part
        bounds = np.linspace(0, size, count + 1).astype(int).tolist()
        blocks = tuple(_pack(rows, a, b) for a, b in pairwise(bounds))
        return Copy(blocks, size)
    end = copy.blocks[-1].stop
    fresh = [_pack(rows, a, a + SMALL) for a in range(end, size - SMALL + 1, SMALL)]
    return Copy((*copy.blocks, *fresh), copy.prefix) if fresh else copy


def repacked(copy: Copy, rows: npt.NDArray[np.int8], positions: Collection[int]) -> Copy:
    """`copy` with each block holding one of `positions` packed again from `rows`."""
    spots = sorted(positions)
    blocks = tuple(_pack(rows, b.start, b.stop) if _holds(b, spots) else b for b in copy.blocks)
    return Copy(blocks, copy.prefix)


def plan(copy: Copy, size: int, parts: int) -> list[Part]:
    """The first `size` rows in `parts` parts of equal cost: the blocks whole within them,
    largest first, each to the part with the least so far; the rest by `cdist`, filling the
    lightest parts up to one level."""
    out = [Part([], []) for _ in range(parts)]
    cost = [0.0] * parts
    held = [b for b in copy.blocks if b.stop <= size]
    for block in sorted(held, key=lambda b: b.start - b.stop):
        i = cost.index(min(cost))
        out[i].blocks.append(block)
        cost[i] += block.stop - block.start
    first = held[-1].stop if held else 0
    if first < size:
        level = _level(cost, (size - first) * ROW_COST)
        shares = np.cumsum([max(0.0, level - c) / ROW_COST for c in cost])
        ends = np.minimum(first + np.rint(shares).astype(int), size)
        ends[-1] = size
        for i, (a, b) in enumerate(pairwise([first, *ends.tolist()])):
            if a < b:
                out[i].ranges.append((a, b))
    return [part for part in out if part.blocks or part.ranges]


def dots(block: Block, small: npt.NDArray[np.int8], out: npt.NDArray[np.float32]) -> None:
    """The block's rows' integer dot products with the quantised query, into `out` (the
    whole scan's array)."""
    found = numkong.dots_packed(small, block.matrix)
    out[block.start : block.stop] = np.asarray(found)[0]


def _level(cost: list[float], rest: float) -> float:
    """The cost every part reaches when `rest` is poured into the lightest ones first."""
    ordered = sorted(cost)
    for n in range(len(ordered), 0, -1):
        level = (sum(ordered[:n]) + rest) / n
        if level >= ordered[n - 1]:
            return level
    return ordered[0] + rest


def _holds(block: Block, spots: list[int]) -> bool:
    at = int(np.searchsorted(spots, block.start))
    return at < len(spots) and spots[at] < block.stop


def _pack(rows: npt.NDArray[np.int8], start: int, stop: int) -> Block:
    return Block(start, stop, numkong.dots_pack(rows[start:stop]))
