"""What the secret detector (kit/secrets/) costs per KB of text: on chat turns one call each (its
hot path: every message logged, every fact), on whole 256 KB notes, and on hostile texts that
would show a regex that is not linear (each at 64 KB and 256 KB: the ms per KB should match).

    python bench/secret_detector.py [--rounds 5]

Prints numbers (the best of the rounds); asserts nothing. Reads only `find_secrets`, so the
same file times an older Kit too.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from kit.secrets import find_secrets  # noqa: E402

LOCOMO = ROOT.parent / "shared" / "data" / "locomo-dev.json"
KB = 1024
PEM_LINES = "-----BEGIN PRIVATE KEY-----\n" + "QUJD" * 16 + "\n"


def locomo_turns() -> list[str]:
    if not LOCOMO.exists():
        return ["I went hiking with my sister last weekend, it was lovely."] * 1500
    data = json.loads(LOCOMO.read_text(encoding="utf-8"))
    return [
        turn["text"]
        for sample in data
        for key, session in sample["conversation"].items()
        if key.startswith("session_") and isinstance(session, list)
        for turn in session
    ]


def best(run: Callable[[], object], rounds: int) -> float:
    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return min(times)


def size_kb(texts: list[str]) -> float:
    return sum(len(t.encode("utf-8")) for t in texts) / KB


def fill(unit: str, size: int) -> str:
    return (unit * (size // len(unit) + 1))[:size]


def main(rounds: int, turns_only: bool = False) -> None:
    turns = locomo_turns()
    chat = "\n".join(turns)
    rng = random.Random(7)
    words = [w for t in turns for w in t.split()]
    intl = (
        "Mein Passwort ist sicher, sagte sie. Пароль слишком короткий. パスワードを変更しました。"
        " كلمة المرور هي نفسها. Le mot de passe est trop court. Ｆｕｌｌｗｉｄｔｈ text here.\n"
    )
    print(f"{'text':44} {'ms/KB':>8}")
    elapsed = best(lambda: [find_secrets(t) for t in turns], rounds)
    per_turn = elapsed / len(turns) * 1e6
    print(f"{'LoCoMo turns, one call each':44} {elapsed * 1000 / size_kb(turns):8.2f}")
    print(f"{'  (per turn, µs)':44} {per_turn:8.0f}")
    if turns_only:
        return
    cases: list[tuple[str, Callable[[int], str]]] = [
        ("chat turns as one note", lambda n: chat[:n]),
        ("random English words, one a line", lambda n: fill("\n".join(rng.sample(words, 2000)), n)),
        ("mixed scripts and fullwidth", lambda n: fill(intl, n)),
        ("one token-character run", lambda n: "A" * n),
        ("'password: ' over and over", lambda n: fill("password: ", n)),
        ("digits and spaces", lambda n: fill("4 ", n)),
        ("a key header and base64 lines", lambda n: fill(PEM_LINES, n)),
        ("BIP-39-like words, one a line", lambda n: fill("apple\nbanana\nbread\nbutter\n", n)),
    ]  # fmt: skip
    for name, make in cases:
        for size in (64 * KB, 256 * KB):
            text = make(size)
            ms_per_kb = best(lambda text=text: find_secrets(text), rounds) * 1000 / (len(text) / KB)
            print(f"{name + f' ({size // KB} KB)':44} {ms_per_kb:8.2f}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--turns-only", action="store_true", help="only the chat turns")
    args = parser.parse_args()
    main(args.rounds, args.turns_only)
