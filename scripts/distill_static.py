"""Distil a static token-embedding table from the bundled MiniLM (the model2vec method).

    python scripts/distill_static.py [--dims 256]

Every vocabulary token goes through the transformer on its own (`[CLS] token [SEP]`, mean-pooled
output), the table is centred and reduced by PCA, and written as float16 to
`curator/models/static/minilm-static.npy`. Token weights are not baked in: curator weights tokens
by their inverse document frequency in the vault being checked. Runs offline in a few minutes.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np

OUT = Path(__file__).resolve().parent.parent / "curator" / "models" / "static" / "minilm-static.npy"


def token_vectors(batch: int = 512) -> np.ndarray:
    import onnxruntime as ort
    from tokenizers import Tokenizer

    from curator.core.meaning.embeddings import _bundled_onnx, bundled_model_dir

    folder = bundled_model_dir()
    tokenizer = Tokenizer.from_file(str(folder / "tokenizer.json"))
    vocab = tokenizer.get_vocab_size()
    cls, sep = tokenizer.token_to_id("[CLS]"), tokenizer.token_to_id("[SEP]")
    session = ort.InferenceSession(str(_bundled_onnx()), providers=["CPUExecutionProvider"])
    out = np.zeros((vocab, 384), dtype=np.float32)
    started = time.perf_counter()
    for start in range(0, vocab, batch):
        ids = np.arange(start, min(start + batch, vocab), dtype=np.int64)
        input_ids = np.stack([np.full_like(ids, cls), ids, np.full_like(ids, sep)], axis=1)
        hidden = session.run(
            None,
            {
                "input_ids": input_ids,
                "attention_mask": np.ones_like(input_ids),
                "token_type_ids": np.zeros_like(input_ids),
            },
        )[0]
        out[start : start + len(ids)] = hidden.mean(axis=1)
        if start % (batch * 10) == 0:
            print(f"{start + len(ids)}/{vocab} tokens, {time.perf_counter() - started:.0f} s", flush=True)
    return out


def pca(matrix: np.ndarray, dims: int) -> np.ndarray:
    centred = matrix - matrix.mean(axis=0)
    _, _, components = np.linalg.svd(centred, full_matrices=False)
    reduced: np.ndarray = centred @ components[:dims].T
    return reduced


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dims", type=int, default=256)
    args = parser.parse_args()
    table = pca(token_vectors(), args.dims).astype(np.float16)
    OUT.parent.mkdir(parents=True, exist_ok=True)
    np.save(OUT, table, allow_pickle=False)
    print(f"wrote {OUT} ({table.shape[0]} tokens x {table.shape[1]} dims, {OUT.stat().st_size / 2**20:.1f} MiB)")


if __name__ == "__main__":
    main()
