"""Print the secret detector's rates for the README: detection per family over the secret
corpus, false positives over the ordinary corpus and every LoCoMo turn (if present).

    python -m tests.trust.secret_rates [--show]     (--show lists each miss and false positive)
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path

from kit.secrets import find_secret
from tests.trust.secret_corpus import ORDINARY, SECRETS

LOCOMO = Path(__file__).resolve().parents[3] / "shared" / "data" / "locomo-dev.json"


def locomo_turns(path: Path = LOCOMO) -> list[str]:
    """Every turn of the LoCoMo dev conversations: ordinary chat, none of it a secret."""
    if not path.exists():
        return []
    data = json.loads(path.read_text(encoding="utf-8"))
    return [
        turn["text"]
        for sample in data
        for key, session in sample["conversation"].items()
        if key.startswith("session_") and isinstance(session, list)
        for turn in session
    ]


def main(show: bool = False) -> None:
    found: Counter[str] = Counter()
    total: Counter[str] = Counter()
    for family, text in SECRETS:
        total[family] += 1
        if find_secret(text) is not None:
            found[family] += 1
        elif show:
            print(f"missed ({family}): {text!r}")
    print("| family | detected |\n|---|---|")
    for family in total:
        print(f"| {family} | {found[family]}/{total[family]} |")
    print(f"| **all** | **{sum(found.values())}/{sum(total.values())}** |\n")
    for name, corpus in (("ordinary corpus", list(ORDINARY)), ("LoCoMo turns", locomo_turns())):
        flagged = [t for t in corpus if find_secret(t) is not None]
        print(f"false positives, {name}: {len(flagged)}/{len(corpus)}")
        if show:
            for text in flagged:
                print(f"  flagged as {find_secret(text)}: {text!r}")


if __name__ == "__main__":
    main(show="--show" in sys.argv)
