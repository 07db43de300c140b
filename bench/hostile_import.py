"""A huge JSON Lines import through the real CLI (`kit import --no-embed`) in a child process:
wall time and the child's peak resident memory, against the file's size.

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
        started = time.perf_counter()
        done = subprocess.run(
            [sys.executable, "-m", "kit.cli", "import", "--no-embed", str(source)],
            env=env,
            capture_output=True,
            text=True,
            check=False,
        )
        elapsed = time.perf_counter() - started
        peak_kib = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
        if done.returncode != 0:
            sys.exit(f"import failed: {done.stderr.strip()}")
        with sqlite3.connect(folder / "data" / "kit.db") as conn:
            stored = conn.execute("SELECT COUNT(*) FROM messages").fetchone()[0]
        conn.close()
        size_mb = source.stat().st_size / 1e6
        db_mb = (folder / "data" / "kit.db").stat().st_size / 1e6
        print(f"{'lines':>10} {'file MB':>8} {'stored':>8} {'seconds':>8} {'lines/s':>8} "
              f"{'peak RSS MB':>11} {'db MB':>6}")  # fmt: skip
        print(f"{args.lines:>10} {size_mb:>8.1f} {stored:>8} {elapsed:>8.1f} "
              f"{args.lines / elapsed:>8.0f} {peak_kib / 1024:>11.0f} {db_mb:>6.1f}")  # fmt: skip


if __name__ == "__main__":
    main()
