"""Question sets of one's own over LoCoMo conversations, photo captions only where a photo was
shared, and the paraphrase set's promise: no content word shared with its evidence."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from kit.errors import InputError
from kit.eval.locomo import load, load_questions, parse, turn_text
from kit.eval.overlap import content_stems, shares_a_word
from tests.eval.tiny import tiny

ROOT = Path(__file__).resolve().parents[2]
PARAPHRASES = ROOT / "bench" / "data" / "paraphrase-questions.json"
DEV = ROOT.parent / "shared" / "data" / "locomo-dev.json"


def test_a_caption_is_part_of_a_turn_only_where_a_photo_was_shared() -> None:
    shared = {"text": "Look!", "img_url": ["https://x/y.jpg"], "blip_caption": "a dog"}
    stale = {"text": "These are for running.", "blip_caption": "a photo of pink sneakers"}
    assert turn_text(shared) == "Look! [shares a photo: a dog]"
    assert turn_text(stale) == "These are for running."  # LoCoMo keeps captions of no photo
    assert turn_text(shared, captions=False) == "Look!"


def test_words_are_compared_by_their_stems_without_stopwords() -> None:
    assert content_stems("What did you paint?") == {"paint"}
    assert shares_a_word("Which paintings?", "I painted the lake")
    assert not shares_a_word("What did she do?", "She did it")  # stopwords only
    assert not shares_a_word("Which nation?", "my home country, Sweden")


def test_a_question_set_replaces_the_questions_of_the_samples_it_names(tmp_path: Path) -> None:
    samples = parse(tiny(), "tiny.json")
    path = tmp_path / "set.json"
    path.write_text(
        json.dumps(
            {
                "questions": [
                    {"sample_id": "tiny-1", "question": "Which dog?", "evidence": ["D1:1"]},
                    {
                        "sample_id": "tiny-1",
                        "question": "Who teaches?",
                        "evidence": ["D2:3"],
                        "kind": "reply",
                    },
                ]
            }
        )
    )
    (only,) = load_questions(path, samples)
    assert only.sample_id == "tiny-1" and only.turns == samples[0].turns
    assert [(q.text, q.category_name) for q in only.questions] == [
        ("Which dog?", "asked"),
        ("Who teaches?", "reply"),
    ]


@pytest.mark.parametrize(
    ("entry", "problem"),
    [
        ({"sample_id": "nope", "question": "?", "evidence": ["D1:1"]}, "not in the conversations"),
        ({"sample_id": "tiny-1", "question": "?", "evidence": ["D9:9"]}, "names no turn"),
        ({"sample_id": "tiny-1", "question": "?", "evidence": []}, "names no turn"),
        ({"sample_id": "tiny-1", "evidence": ["D1:1"]}, "'question' must be a str"),
    ],
)
def test_a_bad_question_set_is_named_precisely(
    tmp_path: Path, entry: dict[str, object], problem: str
) -> None:
    path = tmp_path / "set.json"
    path.write_text(json.dumps({"questions": [entry]}))
    with pytest.raises(InputError, match=problem):
        load_questions(path, parse(tiny(), "tiny.json"))
    path.write_text("[]")
    with pytest.raises(InputError, match='"questions" list'):
        load_questions(path, parse(tiny(), "tiny.json"))


@pytest.mark.skipif(not DEV.exists(), reason="the LoCoMo dev split is not beside the repository")
def test_the_paraphrase_set_shares_no_content_word_with_its_evidence() -> None:
    """Checked against the turns with every caption LoCoMo has, shared or not."""
    samples = {s.sample_id: s for s in load(DEV)}
    data = json.loads(PARAPHRASES.read_text())
    raw = {s["sample_id"]: s for s in json.loads(DEV.read_text())}
    assert len(data["questions"]) >= 60
    for question in data["questions"]:
        sample = samples[question["sample_id"]]
        conversation = raw[question["sample_id"]]["conversation"]
        turns = {
            t["dia_id"]: f"{t['text']} {t.get('blip_caption', '')}"
            for key, session in conversation.items()
            if key.startswith("session_") and isinstance(session, list)
            for t in session
        }
        for ref in question["evidence"]:
            assert ref in {t.ref for t in sample.turns}, (question["question"], ref)
            assert not shares_a_word(question["question"], turns[ref]), (question, ref)
    assert len(load_questions(PARAPHRASES, list(samples.values()))) == 3
