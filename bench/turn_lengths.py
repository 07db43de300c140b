"""How long a corpus's turns are in an embedding model's word pieces, and whether what answers
a question sits past the part of its evidence turn the model reads.

    python bench/turn_lengths.py FILE [FILE ...] --model DIR [DIR ...] [--cuts 128,256,384,512]

FILE is LoCoMo-format (../shared/data/locomo-dev.json, beam-100k.json); DIR an ONNX model folder
with its `tokenizer.json` (the text is tokenised without truncation: the model's own limit is
what is asked about). A turn is counted as Kit embeds it, "speaker: text"
(kit/retrieval/vectors.py). Per corpus and model: the word pieces of every turn and of every
evidence turn (a turn cited by several questions counts once per question), how many are over
each cut, and, of the evidence turns over a cut, how many have their **answering sentence**
starting past it: the sentence (kit/retrieval/passages.py `sentences`) sharing the most
content words (kit/eval/overlap.py) with the question and its answer, the first on a tie.
That sentence is a proxy (the evidence is labelled by turn, not by sentence), read it as such.
fastembed reads a text's first `model_max_length` word pieces (tokenizer_config.json; 512 for
MiniLM and all-mpnet-base-v2), sentence-transformers trained them to 256 and 384. Prints
numbers; asserts nothing.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # `python bench/<name>.py` from anywhere
    sys.path.insert(0, str(ROOT))

from kit.eval import locomo  # noqa: E402
from kit.eval.overlap import content_stems  # noqa: E402
from kit.retrieval.passages import sentences  # noqa: E402

Count = Callable[[str], int]  # word pieces of a text


def embedded(turn: locomo.Turn) -> str:
    """A turn as Kit embeds it (kit/retrieval/vectors.py)."""
    return f"{turn.speaker}: {turn.text}" if turn.speaker else turn.text


def answer_start(text: str, asked: str, count: Count) -> int:
    """Word pieces of `text` before its sentence sharing the most content words with `asked`
    (the question and its answer); 0 when no sentence shares any."""
    wanted = content_stems(asked)
    best, start = 0, 0
    for begin, end in sentences(text):
        shared = len(wanted & content_stems(text[begin:end]))
        if shared > best:
            best, start = shared, begin
    return count(text[:start]) if start else 0


def evidence(samples: Sequence[locomo.Sample]) -> list[tuple[locomo.Question, str]]:
    """Every (question, evidence turn as embedded) pair."""
    pairs = []
    for sample in samples:
        turns = {t.ref: embedded(t) for t in sample.turns}
        for question in sample.questions:
            pairs.extend((question, turns[ref]) for ref in question.evidence if ref in turns)
    return pairs


def report(samples: Sequence[locomo.Sample], count: Count, cuts: Sequence[int]) -> list[str]:
    every = [count(embedded(t)) for s in samples for t in s.turns]
    pairs = evidence(samples)
    lengths = [count(text) for _, text in pairs]
    lines = [
        f"  turns {len(every):,}: mean {statistics.fmean(every):.0f}, median "
        f"{statistics.median(every):.0f} word pieces; evidence turns {len(pairs):,}: mean "
        f"{statistics.fmean(lengths):.0f}, median {statistics.median(lengths):.0f}"
    ]
    for cut in cuts:
        over = [(q, text) for (q, text), n in zip(pairs, lengths, strict=True) if n > cut]
        past = sum(answer_start(text, f"{q.text} {q.answer}", count) >= cut for q, text in over)
        turns_over = sum(n > cut for n in every)
        lines.append(
            f"  over {cut}: turns {turns_over:,} ({turns_over / len(every):.0%}), evidence "
            f"{len(over):,} ({len(over) / max(len(pairs), 1):.0%}); answering sentence past "
            f"the cut in {past} ({past / max(len(over), 1):.0%} of those, "
            f"{past / max(len(pairs), 1):.1%} of all evidence)"
        )
    return lines


def counter(folder: Path) -> Count:
    from tokenizers import Tokenizer  # fastembed's own tokenizer package

    tokenizer = Tokenizer.from_file(str(folder / "tokenizer.json"))
    tokenizer.no_truncation()
    tokenizer.no_padding()
    return lambda text: len(tokenizer.encode(text).ids)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("files", nargs="+", type=Path)
    parser.add_argument("--model", nargs="+", type=Path, required=True, help="ONNX folders")
    parser.add_argument("--cuts", default="128,256,384,512")
    args = parser.parse_args(argv)
    cuts = [int(c) for c in args.cuts.split(",")]
    for path in args.files:
        samples = locomo.load(path)
        for folder in args.model:
            print(f"{path.name}, {folder.name}:")
            print("\n".join(report(samples, counter(folder), cuts)), flush=True)


if __name__ == "__main__":
    main()
