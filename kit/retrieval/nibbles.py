"""A first pass for layers of ~100k rows: each int8 row again at four bits a dimension (192
bytes a row at 384 dimensions, half the row), scanned by numkong's int4 kernel; the rows it
ranks nearest are then scored exactly in int8 (kit/retrieval/matrix.py), and only those.

The messages' scan at 87,600 rows is bound by the bytes it reads (issue 33, round 21): inside
a build each half took ~3 ms of CPU against ~1 ms alone, the matrix read cold beside the event
loop. The int4 copy reads half. It bounds no cosine, so the pass is not exact: measured on the
bench's 87,600 messages and its 120 questions (docs/measurements.md, round 21), every one of
Kit's 200 candidates at >= 0.2 ranked within the int4 pass's nearest 692 rows (p95 492);
a search rescores a 32nd of the rows (2,737 there), never fewer than 8 per result asked.

A nibble is the int8 level times 7.5/127, rounded and clipped to [-8, 7] (the row's own scale
stays the int8 row's, times 127/7.5); two nibbles a byte, the even dimension in the low one.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

# From this many rows a layer keeps the int4 copy and searches through it (below, the exact
# scan of every row, unchanged); from first_pass.FIRST_PASS_ROWS the sign codes take over.
NIBBLE_ROWS = 65_536
RESCORED_SHARE = 32  # a search rescores this share of the rows exactly (1/32) ...
RESCORED_PER_RESULT = 8  # ... and at least this many rows per result asked

Nibbles = npt.NDArray[np.uint8]


def _level(small: npt.NDArray[np.int16]) -> npt.NDArray[np.uint8]:
    """Each int8 level's nibble (two's complement, in the low four bits)."""
    signed = np.clip(np.rint(small * (7.5 / 127)), -8, 7).astype(np.int8)
    low: npt.NDArray[np.uint8] = signed.view(np.uint8) & 0xF
    return low


# A pair of int8 levels (as the little-endian uint16 they make) -> their packed byte: the
# copy of a row is one table look-up per two dimensions, with no temporaries of the row's size.
_LEVELS = _level(np.arange(256, dtype=np.uint8).view(np.int8).astype(np.int16))
_PAIRS = (_LEVELS[np.arange(65_536) & 0xFF] | (_LEVELS[np.arange(65_536) >> 8] << 4)).astype(
    np.uint8
)


def width(dim: int) -> int:
    """Bytes a row's copy takes."""
    return (dim + 1) // 2


def nibbles(small: npt.NDArray[np.int8]) -> Nibbles:
    """Int8 rows (rows x dim) as packed signed nibbles (rows x `width(dim)`); an odd last
    dimension is paired with a zero."""
    small = np.asarray(small, dtype=np.int8)
    if small.shape[1] % 2:
        small = np.pad(small, ((0, 0), (0, 1)))
    pairs = np.ascontiguousarray(small).view("<u2")
    packed: Nibbles = _PAIRS[pairs]
    return packed


def depth(size: int, k: int) -> int:
    """Rows a search of `size` rows for `k` results scores exactly."""
    return max(size // RESCORED_SHARE, RESCORED_PER_RESULT * k)


def nearest(approx: npt.NDArray[np.float32], count: int) -> npt.NDArray[np.int64]:
    """Positions of the `count` rows of the highest approximate score and of every row
    scored as high as the last of them (ties at the cut are never split), in position order."""
    if len(approx) <= count:
        return np.arange(len(approx), dtype=np.int64)
    cut = np.partition(approx, len(approx) - count)[len(approx) - count]
    return np.flatnonzero(approx >= cut)
