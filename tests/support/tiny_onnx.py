"""A tiny ONNX embedding model the tests write themselves (never a download): a word-level
tokenizer over a fixed vocabulary and one Gather from a seeded random table, so a text's
vector is the mean of its known words' rows (fastembed pools and normalises it). Texts sharing
words are near, texts sharing none are not, as with the HashingEmbedder, but through the real
fastembed and onnxruntime path a local model takes (`embedding.model_path` with its declared
dimension, pooling and normalisation).

Two models of different `dim` or `seed` make different vectors: what a model change is.
"""

from __future__ import annotations

import dataclasses
import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from kit.config import Settings
from kit.embedding_settings import EmbeddingSettings

SPECIAL = ("[PAD]", "[UNK]")
# Every word the tests embed, and "probe" (Kit checks a loaded model on it). Unknown words
# are [UNK], whose row is zero: they pull no text toward another.
WORDS = """
probe garden beans bean sprouting planted tomatoes boiler repair booked friday noise bea
called ana likes green tea bicycle shop leeds bristol moved sister brother dog cat walk park
coffee morning evening dinner pizza pasta soup cake birthday party trip paris london train
flight hotel beach swim run marathon knee doctor dentist appointment tuesday monday work
project deadline meeting report manager email phone call mother father kids school homework
piano guitar lesson book novel library film movie music concert garden roses weather rain
sun snow winter summer spring autumn holiday keys lost found car bike bus note remember
""".split()


@dataclass(frozen=True)
class TinyModel:
    folder: Path
    dim: int
    name: str = "test/tiny"

    def settings(self, settings: Settings, **changes: Any) -> Settings:
        """`settings` with this model declared as embedding.model_path (and `changes`)."""
        embedding = EmbeddingSettings(
            model=self.name,
            model_path=str(self.folder),
            dimension=self.dim,
            pooling="mean",
            normalization=True,
            **changes,
        )
        return dataclasses.replace(settings, embedding=embedding)

    def config(self) -> str:
        """The [embedding] table declaring it, as config.toml lines."""
        return (
            f'[embedding]\nmodel = "{self.name}"\nmodel_path = "{self.folder}"\n'
            f'dimension = {self.dim}\npooling = "mean"\nnormalization = true\n'
        )


@dataclass(frozen=True)
class TinyModels:
    a: TinyModel
    b: TinyModel


def vocabulary(extra: str = "") -> list[str]:
    words = list(dict.fromkeys([*WORDS, *re.findall(r"[a-z]+", extra.lower())]))
    return [*SPECIAL, *words]


def write_tiny_model(folder: Path, *, dim: int, seed: int, extra_words: str = "") -> Path:
    """Write the model (model.onnx and its tokenizer files) into `folder`; returns it.
    Declared as: dimension `dim`, pooling "mean", normalization true."""
    import onnx
    from onnx import TensorProto, helper, numpy_helper
    from tokenizers import Tokenizer, models, normalizers, pre_tokenizers

    folder.mkdir(parents=True, exist_ok=True)
    vocab = vocabulary(extra_words)
    table = np.random.default_rng(seed).standard_normal((len(vocab), dim)).astype(np.float32)
    table[: len(SPECIAL)] = 0.0  # padding and unknown words point nowhere

    graph = helper.make_graph(
        [helper.make_node("Gather", ["table", "input_ids"], ["last_hidden_state"])],
        "tiny",
        [
            helper.make_tensor_value_info("input_ids", TensorProto.INT64, ["batch", "seq"]),
            helper.make_tensor_value_info("attention_mask", TensorProto.INT64, ["batch", "seq"]),
        ],
        [
            helper.make_tensor_value_info(
                "last_hidden_state", TensorProto.FLOAT, ["batch", "seq", dim]
            )
        ],
        [numpy_helper.from_array(table, "table")],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    onnx.checker.check_model(model)
    onnx.save_model(model, str(folder / "model.onnx"))

    tokenizer = Tokenizer(models.WordLevel({w: i for i, w in enumerate(vocab)}, unk_token="[UNK]"))
    tokenizer.normalizer = normalizers.Lowercase()
    tokenizer.pre_tokenizer = pre_tokenizers.Whitespace()
    tokenizer.save(str(folder / "tokenizer.json"))
    files = {
        "tokenizer_config.json": {"model_max_length": 128, "pad_token": "[PAD]"},
        "special_tokens_map.json": {"pad_token": "[PAD]", "unk_token": "[UNK]"},
        "config.json": {"pad_token_id": 0, "hidden_size": dim},
    }
    for name, content in files.items():
        (folder / name).write_text(json.dumps(content), encoding="utf-8")
    return folder
