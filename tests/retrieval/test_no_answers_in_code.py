"""No evaluation answers in the code (issue 28): a word of the LoCoMo dev split's answers, or of
the turns the paraphrase set's questions point at, may appear in a word list written in Kit's
code only when WordNet, the lexical resource Kit installs (kit/retrieval/wordnet.py), holds it
too. The kinds-of-things lever once held "cobbler", "sundae" and "instagram" in a list of its
own; its instances now come from WordNet alone."""

from __future__ import annotations

import ast
import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from kit.eval import locomo
from kit.retrieval.lexical import STOPWORDS, words_of
from kit.retrieval.wordnet import wordnet

REPO = Path(__file__).resolve().parents[2]
DEV = REPO.parent / "shared" / "data" / "locomo-dev.json"
PARAPHRASES = REPO / "bench" / "data" / "paraphrase-questions.json"
_ENTRY = re.compile(r"[a-z][a-z' ]*")
# Grammar words in Kit's date reading (kit/dates/text.py) and question reading
# (kit/curator/clauses.py) that are not in Kit's stopwords: WordNet holds nouns, verbs,
# adjectives and adverbs only, so a preposition or a pronoun is never in it.
GRAMMAR = frozenset({"since", "anything"})


def _entries(values: list[str]) -> list[str] | None:
    """Lower-case words or phrases, five or more: a word list (not a sentence of prose)."""
    if len(values) >= 5 and all(_ENTRY.fullmatch(v) for v in values):
        return values
    return None


def word_lists(root: Path) -> Iterator[tuple[Path, int, list[str]]]:
    """Every word list written in the code: a string split into words (`"a b c".split()`), a
    string of comma-separated entries, a tuple / list / set of string literals."""
    for path in sorted(root.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        split = {
            id(node.func.value)
            for node in ast.walk(tree)
            if isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "split"
            and isinstance(node.func.value, ast.Constant)
        }
        for node in ast.walk(tree):
            found = None
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                text = node.value.strip()
                if id(node) in split:
                    found = _entries(text.split())
                elif text.count(",") >= 4:
                    found = _entries([p.strip() for p in text.split(",") if p.strip()])
            elif isinstance(node, ast.Tuple | ast.List | ast.Set):
                items = [e.value for e in node.elts if isinstance(e, ast.Constant)]
                if len(items) == len(node.elts) and all(isinstance(i, str) for i in items):
                    found = _entries([str(i).strip() for i in items])
            if found:
                yield path, node.lineno, found


def answer_words() -> set[str]:
    samples = locomo.load(DEV)
    words = {w for s in samples for q in s.questions for w in words_of(q.answer)}
    turns = {s.sample_id: {t.ref: t.text for t in s.turns} for s in samples}
    data = json.loads(PARAPHRASES.read_text(encoding="utf-8"))
    for q in data["questions"]:
        for ref in q["evidence"]:
            words.update(words_of(turns[q["sample_id"]][ref]))
    return {w for w in words if w not in STOPWORDS and len(w) > 2 and not w.isdigit()}


def test_the_scan_finds_word_lists_and_not_prose(tmp_path: Path) -> None:
    (tmp_path / "m.py").write_text(
        'A = "apple pear plum fig kiwi".split()\n'
        'B = ("cobbler", "sundae", "pie", "tart", "cake")\n'
        'C = """usa, america, sweden, norway, japan"""\n'
        'D = "this sentence has more than five words in it"\n'
        'E = ("one", "two")\n'
    )
    found = {line: words for _, line, words in word_lists(tmp_path)}
    assert set(found) == {1, 2, 3}
    assert found[2] == ["cobbler", "sundae", "pie", "tart", "cake"]


def test_no_answer_word_sits_in_a_hand_written_list_unless_wordnet_holds_it() -> None:
    if not DEV.exists():
        pytest.skip(f"the LoCoMo dev split is not at {DEV}")
    answers = answer_words()
    assert {"sweden", "cobbler", "instagram"} <= answers  # the set is what it says
    net = wordnet()
    assert net.knows("cobbler") and net.knows("sweden") and not net.knows("instagram")
    offending = [
        f"{path.relative_to(REPO)}:{line}: {word}"
        for path, line, words in word_lists(REPO / "kit")
        for word in sorted({w for entry in words for w in entry.split()} & answers)
        if not net.knows(word) and word not in GRAMMAR
    ]
    assert offending == []
