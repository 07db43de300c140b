"""A narrower first pass for very big layers: one sign bit per dimension of each int8 row (48
bytes a row at 384 dimensions, an eighth of the row), compared with the query's by Hamming
distance, so a search reads 48 MB at 1M rows instead of 384 MB; the rows nearest by that
distance are then scored exactly in int8 (kit/retrieval/matrix.py), and only those.

The sign bit bounds no cosine, so the pass is not exact: measured on the bench's 500k and 1M
layers (bench/sandwich_scale.py, docs/measurements.md round 12), rescoring the 32,768 nearest
rows kept 0.998-1.000 of the exact float32 top 15 (16,000 kept 0.995-0.997; 8,000
0.988-0.991). A random rotation before the sign, a mean taken off, and the first 32 or 64
principal dimensions in int8 kept no more at any depth, and mostly less.

The codes are held column by column (one uint64 array per 64 dimensions): a distance is six
XOR-and-popcount passes over contiguous words, done a block of rows at a time so the
temporaries stay in the cache.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

# From this many rows a layer's search takes the first pass (below it the exact scan of every
# row, unchanged): the sizes measured are 500k and 1M, where the scan read 384 MB a query.
FIRST_PASS_ROWS = 500_000
# Rows rescored exactly: the nearest by Hamming distance, all those at the cut distance too
# (so ties are never split by position): 32,768 to ~40,000 rows at 1M.
RESCORED_ROWS = 32_768
_BLOCK = 32_768  # rows per block: a block's temporaries (256 kB) stay in the L2 cache

Codes = npt.NDArray[np.uint64]


def words(dim: int) -> int:
    """64-bit words a row's code takes."""
    return (dim + 63) // 64


def sign_codes(small: npt.NDArray[np.int8]) -> Codes:
    """Each row's sign bits (1 where a component is > 0), one uint64 array per 64 dimensions
    (shape: words x rows; dimensions past the last whole word are zero bits)."""
    count, dim = small.shape
    packed = np.zeros((count, words(dim) * 8), dtype=np.uint8)
    packed[:, : (dim + 7) // 8] = np.packbits(small > 0, axis=1)
    return np.ascontiguousarray(packed.view(np.uint64).T)


def distances(codes: Codes, query: Codes, out: npt.NDArray[np.uint16]) -> None:
    """Each row's Hamming distance to the query's code, written into `out` (`codes`: words x
    rows; `query`: its words x 1)."""
    count = codes.shape[1]
    scratch = np.empty(min(count, _BLOCK), dtype=np.uint64)
    bits = np.empty(min(count, _BLOCK), dtype=np.uint8)
    for start in range(0, count, _BLOCK):
        end = min(start + _BLOCK, count)
        n = end - start
        acc = out[start:end]
        acc[:] = 0
        for word, q in zip(codes, query[:, 0], strict=True):
            np.bitwise_xor(word[start:end], q, out=scratch[:n])
            np.bitwise_count(scratch[:n], out=bits[:n])
            np.add(acc, bits[:n], out=acc)


def nearest(dist: npt.NDArray[np.uint16], depth: int) -> npt.NDArray[np.int64]:
    """Positions of the `depth` rows nearest by distance and of every row as near as the last
    of them, in position order."""
    if len(dist) <= depth:
        return np.arange(len(dist), dtype=np.int64)
    cut = np.partition(dist, depth - 1)[depth - 1]  # the least distance with >= depth rows
    return np.flatnonzero(dist <= cut)
