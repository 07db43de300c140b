"""Start-up: how long `kit --help`, `kit --version`, `import kit` and `from kit import Kit` take,
each beside `python -c pass` measured in the same run (the two alternate, A B A B ..., and the
ratio is taken pair by pair, so a machine whose speed drifts still gives a fair ratio).

    python bench/startup.py [--runs 21] [--daemon]

Every command is a fresh process of this interpreter, as a user's shell starts it. CPU time is
the child's user + system time (what the import costs, whatever else runs on the machine);
wall time is printed beside it. Bytecode is cached as on any installed machine: one warm-up
run of each command first, with PYTHONDONTWRITEBYTECODE removed from the children's
environment (a setting that makes every start compile every module from source).
Targets (issue 20): `kit --help` and `kit --version` at most 4x `python -c pass`, `import kit`
at most 5x. `from kit import Kit` loads the class and its declarations, not the core (that loads
when Kit is opened, an SDK where it is used; tests/cli/test_startup.py): target (issue 33) at
most 300 ms of CPU.

With --daemon, a real `kit run` (its model a local fake of the Messages API) holds a fresh data
directory meanwhile, and `kit status` and `kit chat` (one message) are timed as its clients:
they load the socket's client, not the engine (issue 24; tests/cli/test_startup.py).
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import Row, machine

from tests.servers.anthropic_api import FakeAnthropicServer
from tests.support.daemon_process import DaemonProcess, write_config

PASS = "python -c pass"
TARGETS = {"kit --help": 4.0, "kit --version": 4.0, "import kit": 5.0}
CPU_TARGETS_MS = {"from kit import Kit": 300}


def _cli() -> list[str]:
    python = sys.executable
    kit = shutil.which("kit", path=str(Path(python).parent)) or shutil.which("kit")
    return [kit] if kit else [python, "-m", "kit.cli"]


def commands(daemon: DaemonProcess | None = None) -> dict[str, list[str]]:
    python, cli = sys.executable, _cli()
    found = {
        PASS: [python, "-c", "pass"],
        "kit --help": [*cli, "--help"],
        "kit --version": [*cli, "--version"],
        "import kit": [python, "-c", "import kit"],
        "from kit import Kit": [python, "-c", "from kit import Kit"],
    }
    if daemon is not None:
        where = ["--config", str(daemon.config), "--data-dir", str(daemon.data_dir)]
        found["kit status (daemon)"] = [*cli, *where, "status"]
        found["kit chat (daemon)"] = [*cli, *where, "chat"]
    return found


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


def once(argv: Sequence[str], env: dict[str, str]) -> tuple[float, float]:
    """(wall, cpu) seconds of one run of `argv` as a child process (`kit chat` says one line)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    began = time.perf_counter()
    subprocess.run(
        argv,
        env=env,
        input=b"what do you know about me?\n",
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        check=True,
    )
    wall = time.perf_counter() - began
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def measure(runs: int, daemon: DaemonProcess | None = None) -> dict[str, dict[str, list[float]]]:
    """name -> {"wall", "cpu", "wall_ratio", "cpu_ratio"}: each command alternating with
    `python -c pass`, the ratio taken against the pass run next to it."""
    env = _env() if daemon is None else {**_env(), **daemon.env}
    found = commands(daemon)
    for argv in found.values():
        once(argv, env)  # warm-up: bytecode written, files in the page cache
    results: dict[str, dict[str, list[float]]] = {}
    for name, argv in found.items():
        if name == PASS:
            continue
        got: dict[str, list[float]] = {k: [] for k in ("wall", "cpu", "wall_ratio", "cpu_ratio")}
        base = results.setdefault(PASS, {"wall": [], "cpu": []})
        for _ in range(runs):
            b_wall, b_cpu = once(found[PASS], env)
            a_wall, a_cpu = once(argv, env)
            base["wall"].append(b_wall)
            base["cpu"].append(b_cpu)
            got["wall"].append(a_wall)
            got["cpu"].append(a_cpu)
            got["wall_ratio"].append(a_wall / b_wall)
            got["cpu_ratio"].append(a_cpu / max(b_cpu, 1e-3))
        results[name] = got
    return results


def rows_of(results: dict[str, dict[str, list[float]]]) -> list[Row]:
    med = statistics.median
    base = results[PASS]
    rows = [
        Row(
            "start-up",
            f"{PASS} (the baseline)",
            med(base["wall"]) * 1000,
            "ms",
            f"CPU {med(base['cpu']) * 1000:.0f} ms",
        )
    ]
    for name, got in results.items():
        if name == PASS:
            continue
        target, cpu_target = TARGETS.get(name), CPU_TARGETS_MS.get(name)
        goal = f"; target <= {target:g}x" if target else ""
        goal += f"; target <= {cpu_target} ms CPU" if cpu_target else ""
        rows.append(
            Row(
                "start-up",
                f"{name}, x baseline (CPU)",
                med(got["cpu_ratio"]),
                "x",
                f"{med(got['cpu']) * 1000:.0f} ms CPU, {med(got['wall']) * 1000:.0f} ms wall "
                f"({med(got['wall_ratio']):.1f}x){goal}",
            )
        )
    return rows


def _beside_a_daemon(runs: int) -> dict[str, dict[str, list[float]]]:
    with tempfile.TemporaryDirectory(prefix="kit-bench-") as folder, FakeAnthropicServer() as api:
        work = Path(folder)
        daemon = DaemonProcess(work, write_config(work / "config.toml", api))
        try:
            daemon.start()
            return measure(runs, daemon)
        finally:
            daemon.close()


async def run(quick: bool) -> list[Row]:
    return rows_of(measure(3 if quick else 21))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=21, help="runs of each command (default 21)")
    parser.add_argument(
        "--daemon", action="store_true", help="also time kit status and kit chat beside kit run"
    )
    args = parser.parse_args(argv)
    if args.daemon:
        results = _beside_a_daemon(args.runs)
    else:
        results = measure(args.runs)
    load = os.getloadavg()
    print(f"Start-up on {machine()}, load average {load[0]:.2f}")
    print(f"{args.runs} runs of each, alternating with `{PASS}`; medians")
    base = results[PASS]
    print(
        f"  {PASS:<22} {statistics.median(base['cpu']) * 1000:6.0f} ms CPU "
        f"{statistics.median(base['wall']) * 1000:6.0f} ms wall   (the baseline)"
    )
    for name, got in results.items():
        if name == PASS:
            continue
        target, cpu_target = TARGETS.get(name), CPU_TARGETS_MS.get(name)
        print(
            f"  {name:<22} {statistics.median(got['cpu']) * 1000:6.0f} ms CPU "
            f"{statistics.median(got['wall']) * 1000:6.0f} ms wall   "
            f"{statistics.median(got['cpu_ratio']):4.1f}x CPU "
            f"{statistics.median(got['wall_ratio']):4.1f}x wall"
            + (f"   (target <= {target:g}x)" if target else "")
            + (f"   (target <= {cpu_target} ms CPU)" if cpu_target else "")
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
