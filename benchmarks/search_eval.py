"""Evaluate search on a golden set: recall@5, recall@10 and MRR@10 for BM25, vectors and the fusion.

    python -m benchmarks.search_eval [--sweep]

`--sweep` also prints the fusion's figures around the defaults (vector weight against the
vector floor), to show how much the result depends on them.

64 queries over sample_vault/ and ../shared/vaults/foam-docs (read from copies): exact
identifiers, paraphrases that share few words with the page, and questions whose answer is one
link away from the page that matches the words. Each query lists the pages that answer it.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import tempfile
from pathlib import Path

from curator.core import search as search_module
from curator.core.loading import load_vault
from curator.core.search import search
from curator.core.vault import Vault

ROOT = Path(__file__).resolve().parent.parent
VAULTS = {"sample": ROOT / "sample_vault", "foam": ROOT.parent / "shared" / "vaults" / "foam-docs"}

GOLDEN: list[tuple[str, str, list[str]]] = [
    # sample_vault: exact identifiers
    ("sample", "PgBouncer transaction mode", ["problems/Postgres connection pool exhaustion.md"]),
    ("sample", "idempotency key", ["systems/Payments API.md"]),
    ("sample", "OpenSearch snapshots", ["systems/Search cluster.md"]),
    ("sample", "Dana Whitfield", ["people/Dana Whitfield.md"]),
    ("sample", "Acme change window", ["customers/Acme Corp.md"]),
    ("sample", "HSM CSR internal CA", ["problems/Certificate renewal.md"]),
    ("sample", "tenant:entity:id:version", ["topics/Caching strategy.md"]),
    ("sample", "Prometheus Loki Tempo", ["topics/Observability.md"]),
    ("sample", "Ticket 4711", ["incidents/Ticket 4711 vom 29.07.2026 - Zertifikat abgelaufen.md"]),
    ("sample", "disk watermark", ["systems/search/Runbook.md"]),
    ("sample", "SEPA invoices milestone", ["projects/Checkout rewrite.md"]),
    ("sample", "on-call handover checklist", ["notes/Broken header.md"]),
    # sample_vault: paraphrases
    ("sample", "only alert people when users can see the problem", ["topics/Observability.md"]),
    ("sample", "who owns card transactions", ["systems/Payments API.md", "people/Dana Whitfield.md"]),
    ("sample", "where do old copies of the search data go", ["systems/Search cluster.md"]),
    (
        "sample",
        "too many pods use up all database sessions",
        [
            "problems/Postgres connection pool exhaustion.md",
            "incidents/DB pool exhausted again during the Friday evening deploy and nobody noticed for an hour.md",
        ],
    ),
    (
        "sample",
        "the card network refused the handshake",
        ["systems/payments/Runbook.md", "problems/Certificate renewal.md"],
    ),
    ("sample", "retrying payments asynchronously through a queue", ["notes/Loose thoughts on queues.md"]),
    ("sample", "how long are prices kept before they expire", ["topics/Caching strategy.md"]),
    ("sample", "largest customer in Europe", ["customers/Acme Corp.md"]),
    (
        "sample",
        "what happened when checkout went down in August",
        ["incidents/2026-08-14 checkout outage postmortem.md"],
    ),
    ("sample", "leaving the monolith", ["projects/Checkout rewrite.md"]),
    ("sample", "the search cluster is red", ["systems/search/Runbook.md"]),
    ("sample", "hardware security module pricing", ["notes/Vendor call.md"]),
    # sample_vault: one link away
    ("sample", "who leads the team that owns the payments api", ["people/Dana Whitfield.md"]),
    (
        "sample",
        "what to read before changing idempotency handling",
        ["people/Dana Whitfield.md", "systems/Payments API.md"],
    ),
    ("sample", "runbook for the payment system", ["systems/payments/Runbook.md"]),
    ("sample", "which project came out of the august outage", ["projects/Checkout rewrite.md"]),
    ("sample", "the page that lists everything the team knows", ["MEMORY.md"]),
    ("sample", "problems of the payments database", ["problems/Postgres connection pool exhaustion.md"]),
    ("sample", "what the customer cares about during checkout", ["customers/Acme Corp.md"]),
    ("sample", "certificates the payments api depends on", ["problems/Certificate renewal.md"]),
    # foam-docs: exact identifiers
    ("foam", "wikilinks", ["user/features/wikilinks.md"]),
    ("foam", "block anchors", ["user/features/block-anchors.md"]),
    ("foam", "daily notes", ["user/features/daily-notes.md"]),
    ("foam", "graph view", ["user/features/graph-view.md"]),
    ("foam", "link reference definitions", ["user/features/link-reference-definitions.md"]),
    ("foam", "templates", ["user/features/templates.md"]),
    ("foam", "KaTeX math", ["user/publishing/math-support-with-katex.md"]),
    ("foam", "GitHub Pages", ["user/publishing/publish-to-github-pages.md"]),
    ("foam", "Vercel", ["user/publishing/publish-to-vercel.md"]),
    ("foam", "Obsidian migration", ["user/recipes/migrating-from-obsidian.md"]),
    ("foam", "OneNote", ["user/recipes/migrating-from-onenote.md"]),
    ("foam", "telemetry", ["user/tools/telemetry.md"]),
    ("foam", "orphans", ["user/tools/orphans.md"]),
    ("foam", "foam lint command", ["user/tools/cli/lint.md", "user/tools/workspace-lint.md"]),
    ("foam", "spell checking", ["user/features/spell-checking.md"]),
    ("foam", "footnotes", ["user/features/footnotes.md"]),
    # foam-docs: paraphrases
    ("foam", "see which notes point at the current note", ["user/features/backlinking.md"]),
    (
        "foam",
        "put a picture into a note",
        ["user/recipes/add-images-to-notes.md", "user/features/paste-images-from-clipboard.md"],
    ),
    ("foam", "write notes on my phone", ["user/recipes/take-notes-from-mobile-phone.md"]),
    ("foam", "turn my notes into a pdf file", ["user/recipes/export-to-pdf.md"]),
    ("foam", "save web pages into my notes", ["user/recipes/web-clipper.md"]),
    ("foam", "commit and push notes automatically", ["user/recipes/automatic-git-syncing.md"]),
    ("foam", "edit notes together at the same time", ["user/recipes/real-time-collaboration.md"]),
    ("foam", "draw flowcharts in markdown", ["user/recipes/diagrams-in-markdown.md"]),
    ("foam", "show another note inside this one", ["user/features/embeds.md"]),
    ("foam", "notes that nothing links to", ["user/tools/orphans.md"]),
    ("foam", "keys to press for common actions", ["user/getting-started/keyboard-shortcuts.md"]),
    ("foam", "how to release a new version of foam", ["dev/releasing-foam.md"]),
    # foam-docs: one link away
    ("foam", "the list of all recipes", ["user/recipes/recipes.md"]),
    ("foam", "extensions recommended when starting out", ["user/getting-started/recommended-extensions.md"]),
    ("foam", "how do I contribute code to foam", ["dev/contribution-guide.md"]),
    ("foam", "setting up a first workspace", ["user/getting-started/first-workspace.md"]),
]


def rank_of(ranked: list[str], wanted: list[str], depth: int) -> int | None:
    for i, path in enumerate(ranked[:depth]):
        if path in wanted:
            return i + 1
    return None


def measures(ranks: list[int | None]) -> tuple[float, float, float]:
    """(recall@5, recall@10, MRR@10) of the first wanted page's rank per query."""
    return (
        statistics.mean(1.0 if r and r <= 5 else 0.0 for r in ranks),
        statistics.mean(1.0 if r else 0.0 for r in ranks),
        statistics.mean(1.0 / r if r else 0.0 for r in ranks),
    )


def sweep(vaults: dict[str, Vault]) -> None:
    print("\nfusion around the defaults (recall@5 / recall@10 / MRR@10)")
    configs = {name: vault.config for name, vault in vaults.items()}
    floor_default = search_module.VECTOR_FLOOR
    try:
        for floor in (0.35, 0.4, 0.45):
            search_module.VECTOR_FLOOR = floor
            for weight in (0.8, 0.9, 1.0, 1.1, 1.25):
                for name, vault in vaults.items():
                    vault.config = configs[name]._replace(search_vector_weight=weight)
                ranks = [
                    rank_of([h.path for h in search(vaults[v], q, limit=10).hits], wanted, 10)
                    for v, q, wanted in GOLDEN
                ]
                r5, r10, mrr = measures(ranks)
                print(f"  floor {floor:.2f} vector weight {weight:.2f}: {r5:.3f} / {r10:.3f} / {mrr:.3f}")
    finally:
        search_module.VECTOR_FLOOR = floor_default
        for name, vault in vaults.items():
            vault.config = configs[name]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sweep", action="store_true", help="also vary the vector weight and floor")
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="curator-eval-"))
    vaults = {}
    for name, source in VAULTS.items():
        if not source.is_dir():
            raise SystemExit(f"missing vault {source}")
        shutil.copytree(source, work / name)
        vaults[name] = load_vault(work / name)
    ranks: dict[str, list[int | None]] = {r: [] for r in ("bm25", "vector", "fusion")}
    misses = []
    for vault_name, query, wanted in GOLDEN:
        result = search(vaults[vault_name], query, limit=10)
        ranked = {
            "bm25": result.rankers.get("bm25", []),
            "vector": result.rankers.get("vector", []),
            "fusion": [h.path for h in result.hits],
        }
        for ranker, order in ranked.items():
            ranks[ranker].append(rank_of(order, wanted, 10))
        if not rank_of(ranked["fusion"], wanted, 10):
            misses.append(f"{vault_name}: {query!r}")
    print(f"{len(GOLDEN)} queries")
    print(f"{'ranker':<8} {'recall@5':>9} {'recall@10':>10} {'MRR@10':>8}")
    for ranker, found in ranks.items():
        r5, r10, mrr = measures(found)
        print(f"{ranker:<8} {r5:>9.3f} {r10:>10.3f} {mrr:>8.3f}")
    for miss in misses:
        print(f"  fusion missed {miss}")
    if args.sweep:
        sweep(vaults)
    shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
