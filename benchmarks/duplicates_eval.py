"""Precision and recall of the duplicate rule on a labelled set of page pairs, and what stage one loses.

    python -m benchmarks.duplicates_eval [--provider fastembed|lexical] [--full] [--keep DIR]

Builds one vault from the shared real vaults (dendron-docs and foam-docs, as written) plus:
- `reworded/`: hand-written pairs that say the same thing in other words (duplicates);
- `topics/`: hand-written pages on the topic of a `reworded/` page that say something else (not);
- `copies/`: near-verbatim copies of real pages: a sentence dropped, two swapped, the title
  punctuated differently (duplicates);
- `catalogue/`: 60 theme pages from one template, 5 of them entered twice under another title (those 5
  are duplicates;
  60 pairs of different themes are not).
Labelled pairs also come from the real vaults: sibling pages of one Dendron hierarchy (not
duplicates), and the Dendron pairs the rule scores highest, judged by reading them (DENDRON_JUDGED:
tutorial pages repeated word for word are duplicates; the docs of two commands that share a
layout are not).

Prints precision and recall over the labelled pairs for a range of thresholds, the pairs reported
that are not labelled (to read by eye), and how many labelled duplicates stage one passes on.
With --full, every page also goes through the transformer, and the pairs that scoring would report
are compared with what the two-stage search reports (the share the two stages lose).
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import tempfile
import time
from pathlib import Path

import numpy as np

from benchmarks.duplicate_pairs import DENDRON_JUDGED, REWORDED, SAME_TOPIC
from curator.core.meaning import distinct, similarity, stage_one, vectors
from curator.core.read.loading import load_vault
from curator.core.state.config import Config

SHARED = Path(__file__).resolve().parent.parent.parent / "shared" / "vaults"
Pair = tuple[str, str]

THEMES = (
    "Minimal Oxygen Nord Dracula Solarized Gruvbox Things Blue-Topaz Sanctum Primary California Cybertron "
    "Velocity Wasp Aurora Ayu Behave Catppuccin Comfort Dayspring Everforest Fancy Flexoki Forest Garden Gitsidian "
    "Hipstersmoothie Iceberg Kanagawa Lavender LYT-Mode Material Mado Night-Owl Obsidianite Origami Pisum "
    "Rose-Pine Shimmering Sodalite Spectrum Tokyo-Night Typewriter Ursa Vanilla Willemstad Yin-Yang Zenburn "
    "Abyssal Blossom Cobalt Dune Ember Fjord Glacier Harbor Ivory Juniper Kelp Lumen"
).split()
AUTHORS = "kepano Ben Sam Wen Ada Luis Mei Omar Ines Tom Kai Eva Rui Noor Jan Lia".split()
FEATURES = (
    "A calm colour palette for long writing sessions.",
    "Large headings that make the outline easy to scan.",
    "Compact lists that fit more notes on the screen.",
    "High contrast for readers who need it.",
    "Rounded callouts with soft shadows.",
    "A serif font for the reading view.",
    "Coloured folders in the file explorer.",
    "Cards for the kanban board and for embeds.",
    "Subtle animations when panes open.",
    "A focus mode that hides everything but the text.",
    "Coloured tags that match the accent colour.",
    "Wide tables that scroll sideways.",
)
TEMPLATE = """---
type: theme
author: {author}
downloads: {downloads}
tags:
  - theme
  - {mode}
---
# {name}

{name} is a community theme by {author}.

## Features

- Supports light and dark mode.
- Works with the Style Settings plugin.
- {feature_a}
- {feature_b}

## Installation

Open Settings, go to Appearance, select Manage next to Themes, search for the theme, then choose Install and use.

## Screenshots

![[{slug}.png]]

{description}
"""
DESCRIPTIONS = (
    "{name} takes its colours from {place} at dusk and keeps them muted so that the text stands out.",
    "{name} started as a personal setup and grew into a full theme after many requests from the forum.",
    "The idea behind {name} is a page that looks like paper, with generous margins and a narrow column.",
    "{name} is tuned for small laptop screens: sidebars collapse and the font size follows the window.",
    "{name} borrows the palette of a popular code editor theme so that notes and code feel the same.",
    "{name} was designed for people who write in several languages and need clear fonts for each script.",
)
PLACES = "Lisbon Oslo Kyoto Lima Accra Hanoi Quebec Tbilisi".split()


def near_copy(text: str, rng: random.Random) -> str:
    """A near-verbatim copy: frontmatter dropped, one line dropped, two neighbouring lines swapped."""
    body = text.split("\n---\n", 1)[1] if text.startswith("---\n") and "\n---\n" in text else text
    lines = body.splitlines()
    filled = [i for i, line in enumerate(lines) if line.strip()]
    if len(filled) > 4:
        k = rng.randrange(1, len(filled) - 1)
        lines[filled[k]], lines[filled[k + 1]] = lines[filled[k + 1]], lines[filled[k]]
        del lines[filled[rng.randrange(1, len(filled))]]
    return "\n".join(lines) + "\n"


def theme(name: str, author: str, rng: random.Random) -> dict[str, object]:
    """The slot values of one catalogue page (TEMPLATE)."""
    return {
        "name": name,
        "author": author,
        "downloads": rng.randint(1000, 900000),
        "mode": rng.choice(("dark", "light", "minimal")),
        "feature_a": rng.choice(FEATURES[:6]),
        "feature_b": rng.choice(FEATURES[6:]),
        "slug": name.lower(),
        "description": rng.choice(DESCRIPTIONS).format(name=name, place=rng.choice(PLACES)),
    }


def copy_title(title: str, rng: random.Random) -> str:
    return rng.choice((f"{title} (copy)", f"{title} - notes", title.replace(".", " "), f"Notes on {title}"))


def build(root: Path, seed: int = 5) -> tuple[list[Pair], list[Pair]]:
    """The evaluation vault under `root`; returns (duplicate pairs, pairs that are not duplicates)."""
    rng = random.Random(seed)
    if not (SHARED / "dendron-docs").is_dir():
        raise SystemExit(f"needs the shared real vaults at {SHARED}")
    for name in ("dendron-docs", "foam-docs"):
        shutil.copytree(SHARED / name, root / name.split("-")[0], ignore=shutil.ignore_patterns("assets", "*.png"))
    dupes: list[Pair] = []
    others: list[Pair] = []

    def write(path: str, text: str) -> str:
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_text(text, encoding="utf-8")
        return path

    reworded_paths: dict[str, str] = {}
    for title_a, body_a, title_b, body_b in REWORDED:
        a = write(f"reworded/{title_a}.md", f"# {title_a}\n\n{body_a}\n")
        b = write(f"reworded/{title_b}.md", f"# {title_b}\n\n{body_b}\n")
        reworded_paths[title_a] = a
        dupes.append((a, b))
    for title_a, body_a, title_b, body_b in SAME_TOPIC:
        a = reworded_paths.get(title_a) or write(f"topics/{title_a}.md", f"# {title_a}\n\n{body_a}\n")
        b = write(f"topics/{title_b}.md", f"# {title_b}\n\n{body_b}\n")
        others.append((a, b))

    real = sorted(p for p in (root / "dendron").glob("*.md") if 60 <= len(p.read_text().split()) <= 800)
    real += sorted(p for p in (root / "foam").rglob("*.md") if 60 <= len(p.read_text().split()) <= 800)
    for original in rng.sample(real, 30):
        title = copy_title(original.stem, rng)
        copy = write(f"copies/{title}.md", f"# {title}\n\n{near_copy(original.read_text(), rng)}")
        dupes.append((original.relative_to(root).as_posix(), copy))

    themes = THEMES[:60]
    for name in themes:
        values = theme(name, rng.choice(AUTHORS), rng)
        write(f"catalogue/{name}.md", TEMPLATE.format(**values))
        if len(dupes) < len(REWORDED) + 30 + 5:  # the first five themes are entered twice
            twin = f"{name} - Theme"  # entered again under another title, its count since updated
            text = TEMPLATE.format(**{**values, "downloads": int(str(values["downloads"])) + 17})
            dupes.append((f"catalogue/{name}.md", write(f"catalogue/{twin}.md", text)))
    for _ in range(60):
        a, b = rng.sample(themes, 2)
        others.append((f"catalogue/{a}.md", f"catalogue/{b}.md"))

    dendron = sorted(p.name for p in (root / "dendron").glob("*.md") if len(p.read_text().split()) >= 30)
    families: dict[str, list[str]] = {}
    for name in dendron:
        families.setdefault(name.rsplit(".", 2)[0], []).append(name)
    sibling_pairs = [(a, b) for names in families.values() for a in names for b in names if a < b]
    for a, b in rng.sample(sibling_pairs, 60):
        others.append((f"dendron/{a}", f"dendron/{b}"))
    for a, b, same in DENDRON_JUDGED:
        (dupes if same else others).append((f"dendron/{a}.md", f"dendron/{b}.md"))
    return dupes, others


def evaluate(root: Path, provider: str, full: bool) -> None:
    labels = root / "labels.json"  # a kept vault is reused, with its cache
    if labels.exists():
        dupes, others = ([tuple(p) for p in group] for group in json.loads(labels.read_text()))
    else:
        dupes, others = build(root)
        labels.write_text(json.dumps([dupes, others]))
    labelled = {tuple(sorted(p)): True for p in dupes} | {tuple(sorted(p)): False for p in others}
    print(
        f"vault: {sum(1 for _ in root.rglob('*.md'))} pages; labelled pairs: {len(dupes)} duplicates, {len(others)} not"
    )
    config = Config(  # every pair from 0.5 up, by its score alone (no reworded duplicates: none reaches 1.0)
        embedding_provider=provider,
        duplicate_threshold=0.5,
        merge_threshold=0.99,
        reworded_threshold=1.0,
        lexical_duplicate_threshold=0.5,
        lexical_merge_threshold=0.99,
    )
    vault = load_vault(root, config)
    started = time.perf_counter()
    report = similarity.find_similar(vault)
    print(
        f"provider: {report.provider}; {time.perf_counter() - started:.1f} s;",
        ", ".join(f"{s.name}: {s.pages} pages, {s.embedded} embedded, {s.seconds:.1f} s" for s in report.stages),
    )
    scores = {(p.a, p.b): p.score for p in report.pairs}
    print("by the score alone:")
    print(f"{'threshold':>9} {'precision':>9} {'recall':>7} {'unlabelled':>10}")
    for threshold in np.arange(0.40, 0.99, 0.02):
        tp = sum(1 for pair, dup in labelled.items() if dup and scores.get(pair, 0) >= threshold)
        fp = sum(1 for pair, dup in labelled.items() if not dup and scores.get(pair, 0) >= threshold)
        extra = sum(1 for pair, s in scores.items() if pair not in labelled and s >= threshold)
        precision = tp / (tp + fp) if tp + fp else 1.0
        print(f"{threshold:>9.2f} {precision:>9.3f} {tp / len(dupes):>7.3f} {extra:>10}")
    default = Config(embedding_provider=provider)
    cut = default.lexical_duplicate_threshold if provider == "lexical" else default.duplicate_threshold
    reported = {(p.a, p.b): p for p in similarity.find_similar(load_vault(root, default)).pairs}
    missed = [pair for pair, dup in labelled.items() if dup and pair not in reported]
    false = [(pair, reported[pair].score) for pair, dup in labelled.items() if not dup and pair in reported]
    extra_pairs = sorted(((p.score, pair) for pair, p in reported.items() if pair not in labelled), reverse=True)
    found = sum(1 for pair, dup in labelled.items() if dup and pair in reported)
    settings = f"threshold {cut}"
    if provider != "lexical":  # the lexical provider reports near-verbatim copies only
        settings += f"; reworded {default.reworded_threshold}"
    print(
        f"\nat the defaults ({settings}): precision {found / max(found + len(false), 1):.3f}, recall "
        f"{found / len(dupes):.3f}; missed {len(missed)}, false {len(false)}, unlabelled {len(extra_pairs)}; "
        f"{sum(1 for p in reported.values() if p.reworded)} pairs reported as reworded"
    )
    kinds: dict[str, list[bool]] = {}
    for pair, dup in labelled.items():
        if dup:
            kind = next(
                (k for k in ("reworded", "copies", "catalogue") if any(p.startswith(k) for p in pair)), "dendron"
            )
            kinds.setdefault(kind, []).append(pair in reported)
    print("recall by kind: " + ", ".join(f"{k} {sum(v)}/{len(v)}" for k, v in sorted(kinds.items())))

    def how(pair: Pair) -> str:
        reworded = pair in reported and reported[pair].reworded
        return f"{(reported[pair].score if pair in reported else scores.get(pair, 0)):.3f}" + (
            " (reworded)" if reworded else ""
        )

    for pair in missed:
        print(f"  missed  {how(pair)}  {pair[0]}  ~  {pair[1]}")
    for pair, _ in false:
        print(f"  false   {how(pair)}  {pair[0]}  ~  {pair[1]}")
    for _, pair in extra_pairs[:15]:
        print(f"  unlabelled {how(pair)}  {pair[0]}  ~  {pair[1]}")
    if provider != "lexical":
        stage_one_recall(vault, dupes)
    if full and provider != "lexical":
        compare_with_full(vault, cut)


def stage_one_recall(vault, dupes: list[Pair]) -> None:  # type: ignore[no-untyped-def]
    """How many labelled duplicates stage one passes on, and their centred static cosines."""
    found = distinct.distinctive_texts(vault)
    paths = list(found)
    candidates = stage_one.static_candidates(vault, list(found.values()), Config().duplicate_threshold).pairs
    passed = {tuple(sorted((paths[i], paths[j]))) for i, j, _ in candidates}
    kept = sum(1 for pair in dupes if tuple(sorted(pair)) in passed)
    pages = len({i for i, _, _ in candidates} | {j for _, j, _ in candidates})
    print(
        f"\nstage one: {len(candidates)} candidate pairs over {pages} of {len(paths)} pages; "
        f"{kept}/{len(dupes)} labelled duplicates among them"
    )


def compare_with_full(vault, cut: float) -> None:  # type: ignore[no-untyped-def]
    """Every page through the transformer, every pair scored: the pairs it reports at `cut` that the
    two stages do not."""
    found = distinct.distinctive_texts(vault)
    paths = list(found)
    provider, _ = vectors.provider_for(vault)
    started = time.perf_counter()
    rows, _ = distinct.piece_vectors(vault, provider, list(found.values()))
    print(f"full: every page through the transformer in {time.perf_counter() - started:.0f} s")
    piece_matrix = np.concatenate([r[:, :-1] for r in rows])
    starts = np.cumsum([0] + [len(r) for r in rows])[:-1]
    sims = piece_matrix @ piece_matrix.T
    block_max = np.maximum.reduceat(np.maximum.reduceat(sims, starts, axis=0), starts, axis=1)
    del sims
    full = set()
    for i, j in zip(*np.nonzero(np.triu(block_max, k=1) >= cut), strict=True):
        said = found[paths[i]].sentences and found[paths[j]].sentences  # a page with none is no one's duplicate
        titles = distinct.title_overlap(found[paths[i]].title, found[paths[j]].title)
        if said and distinct.aligned_score(rows[i], rows[j], titles) >= cut:
            full.add(tuple(sorted((paths[i], paths[j]))))
    two_stage = {(p.a, p.b) for p in similarity.find_similar(vault, threshold=cut).pairs}
    lost = full - two_stage
    share = len(lost) / len(full) if full else 0.0
    print(
        f"full scoring reports {len(full)} pairs at {cut}; the two stages report {len(two_stage)}; "
        f"lost {len(lost)} ({share:.1%})"
    )
    for pair in sorted(lost)[:10]:
        print(f"  lost  {pair[0]}  ~  {pair[1]}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--provider", choices=("fastembed", "lexical"), default="fastembed")
    parser.add_argument("--full", action="store_true", help="also score every page with the transformer")
    parser.add_argument("--keep", type=Path, help="build the vault here and keep it (reused, with its cache)")
    args = parser.parse_args()
    root = args.keep or Path(tempfile.mkdtemp(prefix="curator-dupes-"))
    root.mkdir(parents=True, exist_ok=True)
    try:
        evaluate(root, args.provider, args.full)
    finally:
        if not args.keep:
            shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
