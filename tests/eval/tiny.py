"""A tiny hand-made LoCoMo-format dataset whose retrieval results are known in advance."""

from __future__ import annotations

import copy
from typing import Any

TINY: list[dict[str, Any]] = [
    {
        "sample_id": "tiny-1",
        "conversation": {
            "speaker_a": "Ana",
            "speaker_b": "Ben",
            "session_1_date_time": "1:56 pm on 8 May, 2023",
            "session_1": [
                {
                    "speaker": "Ana",
                    "dia_id": "D1:1",
                    "text": "I adopted a greyhound called Biscuit",
                },
                {"speaker": "Ben", "dia_id": "D1:2", "text": "Lovely! How old is he?"},
                {
                    "speaker": "Ana",
                    "dia_id": "D1:3",
                    "text": "Three, and lazy.",
                    "img_url": ["https://example.org/dog.jpg"],
                    "blip_caption": "a photo of a dog asleep on a sofa",
                    "query": "greyhound sofa",
                },
            ],
            "session_2_date_time": "10:00 am on 9 June, 2023",
            "session_2": [
                {"speaker": "Ben", "dia_id": "D2:1", "text": "I started learning the cello"},
                {"speaker": "Ana", "dia_id": "D2:2", "text": "Which teacher?"},
                {"speaker": "Ben", "dia_id": "D2:3", "text": "Mrs Okafor from the conservatory"},
            ],
        },
        "qa": [
            # found first: the only turn that says "greyhound"
            {
                "question": "What greyhound?",
                "answer": "Biscuit",
                "evidence": ["D1:1"],
                "category": 4,
            },
            # never found: no turn shares a word with the question (Kit returns nothing for it)
            {"question": "Which orchestra?", "answer": "-", "evidence": ["D2:3"], "category": 1},
            # left out: adversarial, no evidence, evidence naming no turn
            {
                "question": "What cat?",
                "adversarial_answer": "x",
                "evidence": ["D1:1"],
                "category": 5,
            },
            {"question": "Anything?", "answer": "-", "evidence": [], "category": 4},
            {"question": "Lost?", "answer": "-", "evidence": ["D9:9"], "category": 2},
        ],
    },
    {
        "sample_id": "tiny-2",
        "conversation": {
            "speaker_a": "Cy",
            "speaker_b": "Di",
            "session_1_date_time": "9:00 am on 1 March, 2024",
            "session_1": [
                {"speaker": "Cy", "dia_id": "D1:1", "text": "My marathon is in Lisbon"},
                {"speaker": "Di", "dia_id": "D1:2", "text": "Good luck with the training"},
            ],
        },
        "qa": [
            # malformed evidence, normalised to D1:1 and D1:2; only D1:1 says "marathon"
            {
                "question": "Where is the marathon?",
                "answer": "Lisbon",
                "evidence": ["D1:1; D:1:02"],
                "category": 2,
            }
        ],
    },
]


def tiny() -> list[dict[str, Any]]:
    return copy.deepcopy(TINY)
