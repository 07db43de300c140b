"""Which embedding model, as the owner chose it: a name fastembed lists, or a local ONNX folder
with its declared dimension, pooling and normalisation.

A model's id keys its stored vectors (kit/retrieval/vectors.py): two models never share one.
A listed model's id is its name (with or without `embedding.model_path`: the folder holds that
model). A declared local model's id is its name and a fingerprint of what makes its vectors:
the declaration and the model files' bytes (their size, and a hash of their first and last
mebibyte). Another export, another pooling or a folder swapped under the same name is another
id, and so a re-embedding, never a mix. Computing it reads a few MiB and imports nothing.

A spec is stored with the vectors it made (kit/retrieval/model_state.py), so that after the
owner changes the model the previous one can still embed queries until the re-embedding ends.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict, dataclass
from pathlib import Path

from kit.embedding_settings import EmbeddingSettings
from kit.errors import KitError

# Where a local folder may hold its model, in the order looked for.
MODEL_FILES = ("model.onnx", "onnx/model.onnx")
_EDGE = 1 << 20  # bytes hashed at each end of a model file


class EmbeddingModelUnavailable(KitError):
    """The configured embedding model cannot be had (not there, not loadable, or not what
    the configuration declares); Kit searches by words until it is fixed."""


@dataclass(frozen=True)
class ModelSpec:
    name: str  # embedding.model
    path: str = ""  # embedding.model_path: a local folder ("" = fetched by name)
    dimension: int = 0  # declared (a local model fastembed does not list); 0 = fastembed knows
    pooling: str = ""
    normalization: bool = True

    @property
    def declared(self) -> bool:
        """A local model Kit registers with fastembed itself (not one fastembed lists)."""
        return self.dimension > 0

    def model_file(self) -> str:
        """The ONNX file inside `path` (relative to it); EmbeddingModelUnavailable if none."""
        folder = Path(self.path).expanduser()
        for name in MODEL_FILES:
            if (folder / name).exists():  # not is_file(): a FIFO or a device is for the loader
                return name
        raise EmbeddingModelUnavailable(
            f"embedding.model_path {folder} has no model.onnx (nor onnx/model.onnx); point it "
            "at a folder holding the ONNX model and its tokenizer files, or leave it empty to "
            "download a model fastembed lists"
        )

    def model_id(self) -> str:
        """What keys this model's vectors (module note)."""
        if not self.declared:
            return self.name
        return f"{self.name}@{self.fingerprint()}"

    def fingerprint(self) -> str:
        folder = Path(self.path).expanduser()
        model_file = folder / self.model_file()
        digest = hashlib.sha256(f"{self.dimension}|{self.pooling}|{self.normalization}".encode())
        data = model_file.with_name(model_file.name + ".data")  # external weights, if any
        for path in (model_file, data):
            if path.is_file():
                digest.update(_file_print(path))
        return digest.hexdigest()[:12]

    def to_json(self) -> str:
        return json.dumps(asdict(self), sort_keys=True)

    @classmethod
    def from_json(cls, text: str) -> ModelSpec | None:
        """A stored spec; None for none ("": vectors of a model Kit did not load itself, such
        as a test's) or one this version cannot read."""
        if not text:
            return None
        try:
            data = json.loads(text)
            return cls(
                name=str(data["name"]),
                path=str(data.get("path", "")),
                dimension=int(data.get("dimension", 0)),
                pooling=str(data.get("pooling", "")),
                normalization=bool(data.get("normalization", True)),
            )
        except (ValueError, KeyError, TypeError):
            return None


def spec_of(settings: EmbeddingSettings) -> ModelSpec:
    return ModelSpec(
        name=settings.model,
        path=settings.model_path,
        dimension=settings.dimension,
        pooling=settings.pooling,
        normalization=settings.normalization,
    )


def _file_print(path: Path) -> bytes:
    """A file's size and the hash of its first and last mebibyte."""
    size = path.stat().st_size
    digest = hashlib.sha256(str(size).encode())
    with path.open("rb") as handle:
        digest.update(handle.read(_EDGE))
        if size > _EDGE:
            handle.seek(max(_EDGE, size - _EDGE))
            digest.update(handle.read(_EDGE))
    return digest.digest()
