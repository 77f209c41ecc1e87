"""Generate a synthetic vault: N pages, ~3 links a page, frontmatter on most, some dead links and orphans.

    python -m benchmarks.synth OUT_DIR --pages 10000 [--seed 7] [--real-lengths]

Deterministic for a seed. Titles are unique word combinations spread over sqrt(N) folders; about
2% of links are dead, about 2% of pages are orphans (no links in or out), 85% have frontmatter;
15% of linking pages also hold an external markdown link and 5% a relative markdown link to a page.

`--real-lengths` writes pages as long as real ones: words per page drawn from a log-normal
(median 35, about 80 on average, 99th percentile about 700) with one page in a thousand of
10,000-40,000 words, prose recombined from the sentences of the shared real vaults, frontmatter
with block lists (`tags:` / `- x`) and fenced code on a share of pages.
"""

from __future__ import annotations

import argparse
import math
import os
import random
import re
import time
from functools import lru_cache
from pathlib import Path

WORDS = (
    "payment gateway cache cluster certificate renewal database pool index search queue retry deploy "
    "pipeline customer contract invoice ledger tenant region replica backup snapshot schema migration "
    "latency budget alert dashboard runbook incident outage capacity storage network proxy token session "
    "login audit export import report metric trace log worker scheduler batch stream topic partition "
    "consumer producer broker gateway vault secret rotation policy quota limit throttle fallback "
    "checkout cart price discount coupon catalog product inventory warehouse shipment carrier label"
).split()
TYPES = ("customer", "project", "system", "person", "problem", "topic")
SENTENCES = (
    "The {a} depends on the {b} and fails when the {c} is slow.",
    "We moved the {a} behind the {b} last quarter to reduce load on the {c}.",
    "Ownership of the {a} sits with the team that runs the {b}.",
    "When the {a} alerts, check the {b} first, then the {c}.",
    "The {a} keeps {n} days of history; older data goes to the {b}.",
    "Every change to the {a} needs a review from someone who knows the {b}.",
)


def titles(count: int, rng: random.Random) -> list[str]:
    seen: set[str] = set()
    result: list[str] = []
    while len(result) < count:
        words = rng.sample(WORDS, rng.choice((2, 3, 3, 4)))
        title = " ".join(words).capitalize()
        if title not in seen:
            seen.add(title)
            result.append(title)
    return result


def paragraph(rng: random.Random, sentences: int) -> str:
    return " ".join(
        rng.choice(SENTENCES).format(
            a=rng.choice(WORDS), b=rng.choice(WORDS), c=rng.choice(WORDS), n=rng.randint(2, 90)
        )
        for _ in range(sentences)
    )


SYNONYMS = {
    "depends": "relies",
    "fails": "breaks",
    "slow": "sluggish",
    "moved": "shifted",
    "reduce": "cut",
    "load": "pressure",
    "ownership": "responsibility",
    "sits": "lies",
    "team": "group",
    "runs": "operates",
    "alerts": "pages",
    "check": "inspect",
    "first": "initially",
    "keeps": "retains",
    "days": "days' worth",
    "older": "earlier",
    "data": "records",
    "goes": "is sent",
    "change": "modification",
    "needs": "requires",
    "review": "sign-off",
    "someone": "a person",
    "knows": "understands",
}


def reword(text: str, rng: random.Random) -> str:
    """The same knowledge in other words: sentences reordered, some words swapped for synonyms."""
    sentences = [s.strip() for s in text.replace("\n", " ").split(". ") if s.strip()]
    rng.shuffle(sentences)
    words = " ".join(s.rstrip(".") + "." for s in sentences).split(" ")
    return " ".join(SYNONYMS.get(w, w) if rng.random() < 0.7 else w for w in words)


def plant_duplicates(out: Path, count: int, seed: int = 11) -> list[tuple[str, str]]:
    """Add `count` reworded copies of random pages under `copies/`; returns (original, copy) paths."""
    rng = random.Random(seed)
    pages = sorted(p for p in out.rglob("*.md") if "copies" not in p.parts)
    planted = []
    (out / "copies").mkdir(exist_ok=True)
    for original in rng.sample(pages, count):
        text = original.read_text(encoding="utf-8")
        body = "\n".join(
            line for line in text.split("---")[-1].splitlines() if line and not line.startswith(("#", "See"))
        )
        copy = out / "copies" / f"{original.stem} (again).md"
        copy.write_text(f"# {original.stem} (again)\n\n{reword(body, rng)}\n", encoding="utf-8")
        planted.append((original.relative_to(out).as_posix(), copy.relative_to(out).as_posix()))
    then = time.time_ns() - 60 * 10**9
    for _, path in planted:
        os.utime(out / path, ns=(then, then))
    return planted


REAL_VAULTS = Path(__file__).resolve().parent.parent.parent / "shared" / "vaults"
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")
_NOT_PROSE = re.compile(r"^\s*(?:#|```|~~~|\||---|<|!\[|- \[|\d+\.)")


@lru_cache(maxsize=1)
def real_sentences() -> tuple[str, ...]:
    """Prose sentences of the shared real vaults (links flattened to their text); the synthetic
    templates where those vaults are not beside the repository."""
    found: list[str] = []
    for page in sorted(REAL_VAULTS.glob("*/**/*.md")):
        text = page.read_text(encoding="utf-8", errors="replace")
        fence = False
        for line in text.splitlines():
            if line.lstrip().startswith(("```", "~~~")):
                fence = not fence
                continue
            if fence or _NOT_PROSE.match(line):
                continue
            line = re.sub(r"!?\[\[([^\]|]*\|)?([^\]]*)\]\]", r"\2", line.strip("-* \t"))
            for sentence in _SENTENCE_END.split(line):
                if 5 <= len(sentence.split()) <= 40 and "](" not in sentence:
                    found.append(sentence)
    if len(found) < 1000:
        rng = random.Random(3)
        found = [paragraph(rng, 1) for _ in range(2000)]
    return tuple(found)


@lru_cache(maxsize=1)
def real_words() -> tuple[str, ...]:
    """The distinct words of those sentences."""
    return tuple(sorted({w.strip(".,;:()`*") for s in real_sentences() for w in s.split()} - {""}))


def real_length(rng: random.Random) -> int:
    """Words in one page, long-tailed as in real vaults."""
    if rng.random() < 0.001:
        return rng.randint(10_000, 40_000)
    return max(3, int(rng.lognormvariate(math.log(35), 1.3)))


def real_body(rng: random.Random, words: int) -> list[str]:
    """Paragraphs of real sentences, a heading every few hundred words, fenced code on some pages."""
    sentences = real_sentences()
    lines: list[str] = []
    paragraph_words: list[str] = []
    written = since_heading = 0
    code_blocks = rng.choice((0, 0, 0, 1, 1, 2)) if words > 80 else 0
    vocabulary = real_words()
    while written < words:
        sentence = rng.choice(sentences)
        if rng.random() < 0.8:  # most sentences varied, as real pages repeat few of each other's
            sentence = " ".join(rng.choice(vocabulary) if rng.random() < 0.3 else w for w in sentence.split())
        paragraph_words.append(sentence)
        count = len(sentence.split())
        written += count
        since_heading += count
        if len(paragraph_words) >= rng.randint(2, 6) or written >= words:
            lines += [" ".join(paragraph_words), ""]
            paragraph_words = []
            if code_blocks and rng.random() < 0.3:
                code_blocks -= 1
                code = [
                    f"    step_{k} = run({rng.choice(WORDS)!r}, retries={k})  # [[not a link]]"
                    for k in range(rng.randint(3, 12))
                ]
                lines += ["```python", *code, "```", ""]
            if since_heading > 250:
                lines += [f"## {rng.choice(WORDS).capitalize()} {rng.choice(WORDS)}", ""]
                since_heading = 0
    return lines


def generate(out: Path, pages: int, seed: int = 7, real_lengths: bool = False) -> Path:
    rng = random.Random(seed)
    names = titles(pages, rng)
    folders = [f"area-{i:03d}" for i in range(max(1, int(math.sqrt(pages) / 2)))]
    paths = [f"{rng.choice(folders)}/{name}.md" for name in names]
    orphans = set(rng.sample(range(pages), max(1, pages // 50)))
    linkable = [i for i in range(pages) if i not in orphans]
    out.mkdir(parents=True, exist_ok=True)
    for i, (name, path) in enumerate(zip(names, paths, strict=True)):
        lines: list[str] = []
        if rng.random() < 0.85:
            lines += [
                "---",
                f"type: {rng.choice(TYPES)}",
                f"updated: 2026-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}",
            ]
            if rng.random() < 0.2:
                lines.append(f"aliases: [{rng.choice(WORDS)} {rng.choice(WORDS)} {i}]")
            if real_lengths and rng.random() < 0.6:  # block lists, as most real headers have
                lines += ["tags:", *(f"  - {tag}" for tag in rng.sample(WORDS, rng.randint(1, 4)))]
            if rng.random() < 0.1:
                lines.append(f'related: "[[{names[rng.choice(linkable)]}]]"')
            lines += ["---", ""]
        lines += [f"# {name}", ""]
        lines += real_body(rng, real_length(rng)) if real_lengths else [paragraph(rng, rng.randint(2, 5)), ""]
        if i not in orphans:
            links = []
            for _ in range(rng.choice((1, 2, 3, 3, 4, 5))):
                target = names[rng.choice(linkable)]
                roll = rng.random()
                if roll < 0.02:
                    links.append(f"[[{target} draft]]")  # dead
                elif roll < 0.15:
                    links.append(f"[[{target}|{rng.choice(WORDS)}]]")
                elif roll < 0.22:
                    links.append(f"[[{target}#{target}]]")
                else:
                    links.append(f"[[{target}]]")
            lines += ["## Related", "", "See " + ", ".join(links) + ".", ""]
            roll = rng.random()
            if roll < 0.15:  # an external markdown link, as runbooks and dashboards are
                lines += [f"Dashboard: [{rng.choice(WORDS)} board](https://grafana.example.com/d/{i}).", ""]
            elif roll < 0.2:  # a relative markdown link to a page, URL-encoded
                other = paths[rng.choice(linkable)].replace(" ", "%20")
                lines += [f"Background in [{rng.choice(WORDS)}](../{other}).", ""]
        if not real_lengths:
            lines += ["## Notes", "", paragraph(rng, rng.randint(1, 4)), ""]
        target = out / path
        target.parent.mkdir(exist_ok=True)
        target.write_text("\n".join(lines), encoding="utf-8")
    # Pages written a minute ago, like any existing vault: outside the racy-timestamp window.
    then = time.time_ns() - 60 * 10**9
    for path in paths:
        os.utime(out / path, ns=(then, then))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--pages", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--real-lengths", action="store_true", help="pages as long as real ones, real prose")
    args = parser.parse_args()
    generate(args.out, args.pages, args.seed, args.real_lengths)


if __name__ == "__main__":
    main()
