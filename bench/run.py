"""Run every benchmark and print one table: speed, size and cost of Kit's memory.

    python bench/run.py [--quick] [--only sandwich tokens startup ...] [--json OUT]

--quick uses small sizes (seconds, for CI); the full run takes several minutes on 2 cores
(on the first run also embedding the realistic 100k archive for the sandwich and the daemon,
~11 minutes, and 20,000 facts for curation_context, both cached after). Numbers only: nothing
here asserts a speed. Retrieval quality is `kit eval retrieval` (and
bench/retrieval_ablations.py); other scripts in bench/ measure narrower things on their own.
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import importlib
import json
import platform
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import Row, machine, print_rows

# Each module has `async def run(quick: bool) -> list[Row]`.
BENCHMARKS = (
    "sandwich",
    "searchable",
    "passes",
    "curation_context",
    "tokens",
    "context_recall",
    "footprint",
    "mcp_roundtrip",
    "startup",
)


async def run_all(names: list[str], quick: bool) -> list[Row]:
    rows: list[Row] = []
    for name in names:
        module = importlib.import_module(name)
        began = time.perf_counter()
        rows += await module.run(quick)
        print(f"[{name}: {time.perf_counter() - began:.0f}s]", file=sys.stderr, flush=True)
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small sizes, a few seconds (CI)")
    parser.add_argument("--only", nargs="+", choices=BENCHMARKS, help="run just these")
    parser.add_argument("--json", type=Path, metavar="OUT", help="also write the rows here")
    args = parser.parse_args(argv)
    names = list(args.only or BENCHMARKS)
    rows = asyncio.run(run_all(names, args.quick))
    mode = "quick" if args.quick else "full"
    print(f"Kit benchmarks ({mode}) on {machine()}, {platform.system()} {platform.release()}")
    print_rows(rows)
    if args.json is not None:
        write_json(args.json, rows, mode)
    return 0


def write_json(out: Path, rows: list[Row], mode: str) -> None:
    data = {"machine": machine(), "mode": mode, "rows": [dataclasses.asdict(r) for r in rows]}
    out.write_text(json.dumps(data, indent=1))


if __name__ == "__main__":
    sys.exit(main())
