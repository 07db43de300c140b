"""A big layer's int8 rows kept a second time, packed for numkong's pre-packed dot product
(`dots_pack` once, `dots_packed` per query): the same integer dot products bit for bit, read
faster. Measured in a build on the 100k archive (issue 33, round 22, docs/measurements.md):
the 87,600 messages' scan 1.0-1.3 ms less CPU a query, its end 0.8-2.0 ms earlier (p50, four
paired runs); the copy takes what the rows take (388 bytes a row at 384 dimensions: +31.8 MB
for those messages). The rows stay: `only=` searches, the first pass, the graph and the
repacking read them, and a packed block cannot be read back.

The copy is made of blocks of `BLOCK` rows, each packed once: an append packs only the
blocks it fills, a rewritten row repacks its block, and the rows past the last whole block
are scanned as rows. Blocks are published as a new tuple, never changed in place, so a search
in another thread reads one consistent copy.
"""

from __future__ import annotations

from collections.abc import Collection

import numkong
import numpy as np
import numpy.typing as npt

# From this many rows a layer keeps the copy (the size from which a scan is split in parts:
# on a turn's critical path), until the sign codes of kit/retrieval/first_pass.py take over.
PACKED_ROWS = 65_536
# Rows a block: packing one costs 2-4 ms of CPU (a rewrite's price). Each block is one call
# that gives the GIL back and takes it again: in a build, 8,192-row blocks ended the scan
# 1.2 ms earlier, 16,384 1.3-1.4 and one block a part 1.7-2.0 (round 22); alone in a loop
# they scan alike.
BLOCK = 16_384

Blocks = tuple[numkong.PackedMatrix, ...]


def extended(blocks: Blocks, rows: npt.NDArray[np.int8], size: int) -> Blocks:
    """`blocks` and every whole block of the first `size` rows they do not hold yet."""
    fresh = [
        numkong.dots_pack(rows[start : start + BLOCK])
        for start in range(len(blocks) * BLOCK, size - BLOCK + 1, BLOCK)
    ]
    return (*blocks, *fresh) if fresh else blocks


def repacked(blocks: Blocks, rows: npt.NDArray[np.int8], positions: Collection[int]) -> Blocks:
    """`blocks` with each block holding one of `positions` packed again from `rows`."""
    again = {p // BLOCK for p in positions if p // BLOCK < len(blocks)}
    if not again:
        return blocks
    return tuple(
        numkong.dots_pack(rows[i * BLOCK : (i + 1) * BLOCK]) if i in again else block
        for i, block in enumerate(blocks)
    )


def covered(blocks: Blocks, start: int, stop: int) -> tuple[int, int]:
    """The rows of [start, stop) the blocks hold whole: [first, end) (first == end: none)."""
    first = -(-start // BLOCK) * BLOCK
    end = min(stop // BLOCK, len(blocks)) * BLOCK
    return (first, end) if first < end else (start, start)


def dots(
    blocks: Blocks, small: npt.NDArray[np.int8], out: npt.NDArray[np.float32], first: int
) -> None:
    """Each packed row's integer dot product with the quantised query, written into `out`
    (the rows from `first`, a block's first row, one block after another)."""
    for at in range(0, len(out), BLOCK):
        found = numkong.dots_packed(small, blocks[(first + at) // BLOCK])
        out[at : at + BLOCK] = np.asarray(found)[0]
