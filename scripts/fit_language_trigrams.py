"""Fit the letter-trigram table that tells a short German question from an English one.

    python scripts/fit_language_trigrams.py [--tldr /work/shared/vaults/tldr-pages]

A question of a few words often has no stop word ("Festplatte voll", "docker komplett
deinstallieren"), so `words.language_of` cannot tell its language. The table holds, for each
trigram of letters (words padded with a space) seen at least twice in the description lines of
the tldr pages (926 German pages in `pages.de`, 7,425 English ones in `pages`; commands left out),
log P(trigram | German) - log P(trigram | English), add-one smoothed, and the same for a trigram
seen in neither. Written to `curator/models/static/language-trigrams.json`.
"""

from __future__ import annotations

import argparse
import json
import math
from collections import Counter
from pathlib import Path

from curator.core.meaning.across import letter_trigrams

OUT = Path(__file__).resolve().parent.parent / "curator" / "models" / "static" / "language-trigrams.json"


def descriptions(page: Path) -> str:
    lines = page.read_text(encoding="utf-8").splitlines()
    return " ".join(line.lstrip(">- ").strip() for line in lines if line.startswith((">", "-")))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tldr", type=Path, default=Path("/work/shared/vaults/tldr-pages"))
    args = parser.parse_args()
    counts: dict[str, Counter[str]] = {}
    for language, folder in (("de", "pages.de"), ("en", "pages")):
        pages = (args.tldr / folder).rglob("*.md")
        counts[language] = Counter(g for page in pages for g in letter_trigrams(descriptions(page)))
    seen = {g for g in counts["de"].keys() | counts["en"].keys() if counts["de"][g] + counts["en"][g] >= 2}
    totals = {lang: sum(c.values()) + len(seen) for lang, c in counts.items()}
    table = {
        g: round(math.log((counts["de"][g] + 1) / totals["de"]) - math.log((counts["en"][g] + 1) / totals["en"]), 3)
        for g in sorted(seen)
    }
    unseen = round(math.log(1 / totals["de"]) - math.log(1 / totals["en"]), 3)
    OUT.write_text(json.dumps({"unseen": unseen, "trigrams": table}, ensure_ascii=False, separators=(",", ":")) + "\n")
    print(f"wrote {OUT} ({len(table)} trigrams, {OUT.stat().st_size / 1024:.0f} KiB)")


if __name__ == "__main__":
    main()
