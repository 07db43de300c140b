"""What the sandwich bench's baseline leaves behind: OpenBLAS's threads spin after a product
before they sleep, and that CPU lands in whatever runs next (in bench/sandwich_real.py: the
next build, whose CPU counts every thread of the process, and which shares the cores with them).

    python bench/blas_spin.py [--rows 99695]

Prints, for OpenBLAS's default and for OPENBLAS_THREAD_TIMEOUT=4 (each in a fresh process: the
variable is read when numpy loads), the CPU of the process during the 30 ms after each product
of the baseline's shape (`rows x 384` float32 @ q), and the product's own time.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys

_CHILD = """
import json, sys, time
import numpy as np
rows = int(sys.argv[1])
a = np.random.default_rng(1).random((rows, 384), dtype=np.float32)
q = np.ones(384, dtype=np.float32)
after = product = 0.0
for _ in range(3):
    a @ q
for _ in range(30):
    began = time.perf_counter()
    a @ q
    product += time.perf_counter() - began
    used = time.process_time()
    time.sleep(0.03)
    after += time.process_time() - used
print(json.dumps({"after_ms": after / 30 * 1000, "product_ms": product / 30 * 1000}))
"""


def measure(rows: int, timeout: str | None) -> dict[str, float]:
    env = dict(os.environ)
    env.pop("OPENBLAS_THREAD_TIMEOUT", None)
    if timeout is not None:
        env["OPENBLAS_THREAD_TIMEOUT"] = timeout
    out = subprocess.run(
        [sys.executable, "-c", _CHILD, str(rows)],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    found: dict[str, float] = json.loads(out.stdout)
    return found


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=99_695)
    args = parser.parse_args()
    for label, timeout in (("OpenBLAS default", None), ("OPENBLAS_THREAD_TIMEOUT=4", "4")):
        found = measure(args.rows, timeout)
        print(
            f"{label:28s} CPU in the 30 ms after a product {found['after_ms']:6.2f} ms"
            f"   product {found['product_ms']:6.2f} ms"
        )
    print(f"load average (1 min) {os.getloadavg()[0]:.2f}")
