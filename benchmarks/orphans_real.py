"""How many orphans `curator lint` reports on real vaults written by others, and how many pages it
finds without a link (and so does not report).

    python -m benchmarks.orphans_real [--vault NAME ...] [--kind KIND]

For each vault of benchmarks/real_vaults.py whose mirror is on this machine (checked out at its
pinned commit; the shared ones read in place, never written): its pages, the pages no link leads
to or from (what the rule reported before it knew pages found otherwise), and of those the ones
found without a link, by why (`curator.core.check.pages.found_otherwise`): a page of a dated
series, a file found by its name (an agent's harness loads it, a folder's README), a page of a
skill's folder, a page the index page names by its path or under a folder it names, a template.
The `orphan` findings are the rest. Nothing is cached or written.
"""

from __future__ import annotations

import argparse
from collections import Counter

from benchmarks.real_vaults import VAULTS, MirrorMissing, available, checkout
from curator.core.check.pages import found_otherwise, rule_orphans
from curator.core.read.loading import load_vault

KINDS = ("dated series", "found by name", "a skill's folder", "named by the index", "template")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--vault", action="append", help="only these vaults (names of benchmarks/real_vaults.py)")
    parser.add_argument("--kind", help="only vaults of this kind (zettelkasten, agent, wiki, ...)")
    args = parser.parse_args()
    totals: Counter[str] = Counter()
    print(f"{'vault':28} {'kind':13} {'pages':>6} {'unlinked':>8} {'orphans':>7}  found without a link")
    for real in VAULTS:
        if (args.vault and real.name not in args.vault) or (args.kind and real.kind != args.kind):
            continue
        if not available(real.name):
            continue
        try:
            vault = load_vault(checkout(real.name), use_cache=False)
        except MirrorMissing:
            continue
        linked = {
            rl.resolution.path for rl in vault.links if rl.resolution.kind == "page" and rl.resolution.path != rl.source
        }
        out = {rl.source for rl in vault.links if rl.resolution.kind == "page" and rl.resolution.path != rl.source}
        unlinked = [
            p for p, page in vault.pages.items() if p not in linked and p not in out and page.unreadable is None
        ]
        found = found_otherwise(vault)
        why = Counter(kind for p in unlinked if (kind := found(p)) is not None)
        orphans = sum(1 for _ in rule_orphans(vault))
        totals.update(pages=len(vault.pages), unlinked=len(unlinked), orphans=orphans, **why)
        said = ", ".join(f"{why[k]} {k}" for k in KINDS if why[k])
        print(f"{real.name:28} {real.kind:13} {len(vault.pages):>6} {len(unlinked):>8} {orphans:>7}  {said}")
    said = ", ".join(f"{totals[k]} {k}" for k in KINDS if totals[k])
    print(f"{'all':28} {'':13} {totals['pages']:>6} {totals['unlinked']:>8} {totals['orphans']:>7}  {said}")


if __name__ == "__main__":
    main()
