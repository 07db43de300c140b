"""Where the tests find the real embedding model, and what they do when it is absent.

The model lives in `../shared/models` beside the repository (developer machines and CI);
`KIT_TEST_MODEL_DIR` points elsewhere. A test that needs it skips, saying why, on a machine
without it: a fresh clone on its own must still pass its test command.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

MODEL_NAME = "sentence-transformers/all-MiniLM-L6-v2"
MODEL_DIR = Path(
    os.environ.get("KIT_TEST_MODEL_DIR")
    or Path(__file__).resolve().parents[3] / "shared" / "models" / "all-MiniLM-L6-v2-onnx"
)


def have_model() -> bool:
    return (MODEL_DIR / "model.onnx").is_file()


def require_model() -> Path:
    """The model's folder, or skip the calling test with the reason."""
    if not have_model():
        pytest.skip(
            f"needs the local embedding model at {MODEL_DIR} "
            "(../shared/models beside the clone, or set KIT_TEST_MODEL_DIR)"
        )
    return MODEL_DIR
