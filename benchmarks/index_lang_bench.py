"""The search index's build time, one BM25 query and peak memory on an existing vault (its
`.curator/search/` is removed first, so point it at a copy).

    python -m benchmarks.index_lang_bench COPY_OF_VAULT
"""

from __future__ import annotations

import resource
import shutil
import sys
import time
from pathlib import Path

from curator.core.meaning.search import SearchIndex
from curator.core.read.loading import load_vault


def main() -> None:
    root = Path(sys.argv[1])
    shutil.rmtree(root / ".curator" / "search", ignore_errors=True)
    v = load_vault(root)
    t = time.perf_counter()
    counts = SearchIndex(root).update(v)
    build = time.perf_counter() - t
    t = time.perf_counter()
    r = SearchIndex(root).bm25("Archiv komprimieren")
    q1 = time.perf_counter() - t
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"{counts['pages']} pages: index build {build:.1f} s; a BM25 query {q1 * 1000:.0f} ms; peak {peak:.0f} MiB")
    print(f"top 3 for 'Archiv komprimieren': {[p for p, _, _ in r[0][:3]]}")


if __name__ == "__main__":
    main()
