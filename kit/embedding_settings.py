"""The embedding model's settings: which model (a name fastembed lists, or a local ONNX folder
with its declared shape) and how its vectors are made.

Kept beside kit/config.py (which reads them into `Settings`) as kit/model_settings.py and
kit/channel_settings.py are: the section's shape and its checks, named once.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from kit.errors import ConfigError


@dataclass(frozen=True)
class EmbeddingSettings:
    """The embedding model (kit/embed/spec.py): a name fastembed lists, or a local ONNX folder
    (`model_path`) with its declared `dimension`, `pooling` and `normalization`."""

    model: str = "sentence-transformers/all-MiniLM-L6-v2"
    model_path: str = ""
    dimension: int = 0  # declared for a local model fastembed does not list (0: fastembed knows)
    pooling: str = ""  # with `dimension`: "mean", "cls", "last_token" or "none"
    normalization: bool = True  # with `dimension`: fastembed L2-normalises its vectors
    batch_size: int = 64
    # Long messages' passages get vectors of their own (kit/retrieval/passage_rows.py): found
    # by the paragraph that answers. They cost embedding work in proportion to the text (BEAM's
    # long assistant turns: ~10 passages each). Off: on both corpora they helped neither
    # (docs/retrieval-quality.md, passage vectors).
    passages: bool = False
    # How this model's cosines are read in the ranking (RankingParams.vector_floor): a vector
    # candidate's score is measured from this quantile of its layer's candidates' cosines up
    # to the best, not from zero (0: from zero). A ranking setting that comes with the model:
    # cosines of different models crowd in different bands, and the default (0) was chosen
    # with MiniLM; all-mpnet-base-v2's measured value is 0.3 (docs/retrieval-quality.md).
    cosine_quantile: float = 0.0
    # The messages' cosine floor that comes with the model (0: memory.message_similarity_
    # threshold, 0.2, chosen with MiniLM). A model whose cosines crowd higher needs its own:
    # all-mpnet-base-v2's measured value is 0.3 (with cosine_quantile 0.3: BEAM-100K +0.015
    # [+0.005, +0.027], LoCoMo dev within its noise; docs/retrieval-quality.md, round 5).
    message_floor: float = 0.0


EMBEDDING_POOLINGS = ("mean", "cls", "last_token", "none")  # each mapped in kit/embed/fastembed.py
MAX_EMBEDDING_DIMENSION = 16_384


def check_embedding(section: EmbeddingSettings, bad: Callable[[str, str], ConfigError]) -> None:
    """A model's name; a declared local model has a folder, a dimension and a pooling; the
    declaration's keys are not set without it (they would be silently ignored)."""
    if not section.model.strip():
        raise bad("model", "must name the model (a name fastembed lists, or your local one's)")
    if not 0 <= section.dimension <= MAX_EMBEDDING_DIMENSION:
        raise bad(
            "dimension",
            f"must be 0 (a model fastembed lists) or the length of a local model's vectors, "
            f"at most {MAX_EMBEDDING_DIMENSION:,}",
        )
    if not 0.0 <= section.cosine_quantile < 1.0:
        raise bad(
            "cosine_quantile",
            "must be at least 0 (cosines read from zero, the default) and under 1: the share "
            "of a search's candidates whose cosine a vector score is measured from (0.3 for "
            "all-mpnet-base-v2)",
        )
    if not 0.0 <= section.message_floor < 1.0:
        raise bad(
            "message_floor",
            "must be at least 0 (memory.message_similarity_threshold applies, the default) "
            "and under 1: the cosine a message needs to be a vector candidate with this model "
            "(0.3 for all-mpnet-base-v2)",
        )
    if section.dimension == 0:
        if section.pooling:
            raise bad(
                "pooling",
                "is declared only for a local model: set embedding.dimension (the length of "
                "its vectors) and embedding.model_path too, or leave pooling empty",
            )
        if not section.normalization:
            raise bad(
                "normalization",
                "is declared only for a local model with embedding.dimension; fastembed "
                "knows how its listed models normalise",
            )
        return
    if not section.model_path:
        raise bad(
            "dimension",
            "declares a local model: set embedding.model_path to its ONNX folder, or leave "
            "dimension = 0 for a model fastembed lists",
        )
    if section.pooling not in EMBEDDING_POOLINGS:
        raise bad(
            "pooling",
            f"must be one of {', '.join(map(repr, EMBEDDING_POOLINGS))} for a local model "
            "(a sentence-transformers folder says which in 1_Pooling/config.json; most are "
            "'mean')",
        )
