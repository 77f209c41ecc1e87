"""German and cross-language search on the tldr pages: how often a page's task, asked in one
language, finds the page (or its translation) among the first five.

    python -m benchmarks.tldr_lang_eval [--queries 300] [--vectors]

The shared vault holds German pages (`pages.de/`) with their English originals at the same path
(`pages/`). Two vaults are made in a temporary folder from the pages that have both, and each
page's first example line ("- Erstelle ein Archiv von Dateien:", "- Create an archive from
files:") is a question, as a user would ask for a task, without the command's name. Prints
recall@5 and MRR@10 for the four pairs (German or English questions on German or English pages),
BM25 only unless `--vectors`.
"""

from __future__ import annotations

import argparse
import random
import re
import shutil
import tempfile
from pathlib import Path

from curator.core.meaning.search import search
from curator.core.read.loading import load_vault

TLDR = Path(__file__).resolve().parent.parent.parent / "shared" / "vaults" / "tldr-pages"
_EXAMPLE = re.compile(r"^- (.+?):?\s*$", re.MULTILINE)


def _question(path: Path) -> str | None:
    m = _EXAMPLE.search(path.read_text(encoding="utf-8", errors="replace"))
    if m is None:
        return None
    name = path.stem
    words = [w for w in m.group(1).split() if name.casefold() not in w.casefold() and "`" not in w]
    return " ".join(words) or None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--queries", type=int, default=300)
    parser.add_argument("--vectors", action="store_true", help="fuse with the vectors (slow: every page embedded)")
    args = parser.parse_args()
    german = sorted(p.relative_to(TLDR / "pages.de") for p in (TLDR / "pages.de").rglob("*.md"))
    pairs = [p for p in german if (TLDR / "pages" / p).exists()]
    work = Path(tempfile.mkdtemp(prefix="curator-tldr-"))
    for lang, folder in (("de", "pages.de"), ("en", "pages")):
        for rel in pairs:
            target = work / lang / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(TLDR / folder / rel, target)
    vaults = {lang: load_vault(work / lang) for lang in ("de", "en")}
    asked = random.Random(7).sample(pairs, min(args.queries, len(pairs)))
    print(f"{len(pairs)} pages in each language, {len(asked)} questions")
    for q_lang, p_lang in (("de", "de"), ("en", "en"), ("de", "en"), ("en", "de")):
        hits5 = 0
        rr = 0.0
        n = 0
        for rel in asked:
            question = _question(TLDR / ("pages.de" if q_lang == "de" else "pages") / rel)
            if not question:
                continue
            n += 1
            found = [h.path for h in search(vaults[p_lang], question, limit=10, use_vectors=args.vectors).hits]
            want = rel.as_posix()
            hits5 += want in found[:5]
            rr += 1.0 / (found.index(want) + 1) if want in found else 0.0
        print(f"  {q_lang} questions on {p_lang} pages: recall@5 {hits5 / n:.3f}  MRR@10 {rr / n:.3f}  ({n} questions)")
    shutil.rmtree(work)


if __name__ == "__main__":
    main()
