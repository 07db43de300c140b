"""Token estimates for budgets and benchmarks.

Claude's tokenizer is not public; ~4 characters per token is its documented rule of thumb
for English, and a budget only needs to be right to within a few percent.
"""

from __future__ import annotations

import math


def estimate_tokens(text: str) -> int:
    return math.ceil(len(text) / 4) if text else 0
