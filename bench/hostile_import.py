"""A huge JSON Lines import through the real CLI (`kit import --no-embed`) in a child process:
wall time and the child's peak resident memory, against the file's size; then the same file
imported again (nothing new: every line is found already present).

    python bench/hostile_import.py [--lines 200000] [--text-chars 200]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def write_file(path: Path, lines: int, text_chars: int) -> None:
    filler = ("lorem ipsum dolor sit amet " * (text_chars // 27 + 1))[:text_chars]
    with path.open("w", encoding="utf-8") as handle:
        for i in range(lines):
            at = f"20{10 + i % 15}-{1 + i % 12:02d}-{1 + i % 28:02d}T{i % 24:02d}:00:00Z"
            role = "user" if i % 2 else "assistant"
            handle.write(json.dumps({"role": role, "text": f"{i} {filler}", "at": at}) + "\n")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--lines", type=int, default=200_000)
    parser.add_argument("--text-chars", type=int, default=200)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        source = folder / "huge.jsonl"
        write_file(source, args.lines, args.text_chars)
        config = folder / "config.toml"
        config.write_text('[schedule]\ntimezone = "UTC"\n')
        env = os.environ | {"KIT_CONFIG": str(config), "KIT_DATA_DIR": str(folder / "data")}
        command = [sys.executable, "-m", "kit.cli", "import", "--no-embed", str(source)]
        size_mb = source.stat().st_size / 1e6
        print(f"{'import':>8} {'lines':>8} {'file MB':>8} {'stored':>8} {'seconds':>8} "
              f"{'lines/s':>8} {'peak RSS MB':>11} {'db MB':>6}")  # fmt: skip
        # The second run imports the same file again: every line is found already present.
        for run in ("first", "again"):
            started = time.perf_counter()
            done = subprocess.run(command, env=env, capture_output=True, text=True, check=False)
            elapsed = time.perf_counter() - started
            peak_kib = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss  # max over runs
            if done.returncode != 0:
                sys.exit(f"import failed: {done.stderr.strip()}")
            with sqlite3.connect(folder / "data" / "kit.db") as conn:
                stored = conn.execute("SELECT COUNT(*) FROM messages").fetchone()[0]
            conn.close()
            db_mb = (folder / "data" / "kit.db").stat().st_size / 1e6
            rate, peak_mb = args.lines / elapsed, peak_kib / 1024
            print(f"{run:>8} {args.lines:>8} {size_mb:>8.1f} {stored:>8} {elapsed:>8.1f} "
                  f"{rate:>8.0f} {peak_mb:>11.0f} {db_mb:>6.1f}")  # fmt: skip


if __name__ == "__main__":
    main()
