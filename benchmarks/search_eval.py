"""Evaluate search on a golden set: recall@5, recall@10 and MRR@10 for BM25, vectors and the fusion.

    python -m benchmarks.search_eval [--check BASELINE]

How other ways to fuse the rankers would do on these queries: benchmarks/fusion_sweep.py.

154 queries over sample_vault/ and ../shared/vaults/foam-docs (read from copies): exact
identifiers, paraphrases that share few words with the page, and questions whose answer is one
link away from the page that matches the words. Each query lists the pages that answer it.
The model reads every page first (as after `curator index`): this measures the ranking; what a
cold vault's first searches answer is measured by benchmarks/first_search.py.
"""

from __future__ import annotations

import argparse
import json
import math
import shutil
import statistics
import sys
import tempfile
from pathlib import Path

from curator.core.meaning.search import search
from curator.core.meaning.vectors import fill_all, provider_for
from curator.core.read.loading import load_vault
from curator.core.read.vault import Vault

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
    # Added for issue 18: more paraphrases and questions, so that a retrieval change is judged
    # on at least 150 queries (written by reading the pages, before running any ranker on them).
    (
        "sample",
        "card network rejected the TLS handshake",
        [
            "problems/Certificate renewal.md",
            "incidents/Ticket 4711 vom 29.07.2026 - Zertifikat abgelaufen.md",
            "systems/payments/Runbook.md",
        ],
    ),
    (
        "sample",
        "how many connections may each pod open",
        [
            "problems/Postgres connection pool exhaustion.md",
            "incidents/DB pool exhausted again during the Friday evening deploy and nobody noticed for an hour.md",
        ],
    ),
    ("sample", "when may we deploy to production for our biggest customer", ["customers/Acme Corp.md"]),
    ("sample", "how long do the internal CA certificates last", ["problems/Certificate renewal.md"]),
    ("sample", "what do we cache at the edge and for how long", ["topics/Caching strategy.md"]),
    ("sample", "things we never cache", ["topics/Caching strategy.md"]),
    ("sample", "how to invalidate every cached key on a deploy", ["topics/Caching strategy.md"]),
    ("sample", "where do logs and traces go", ["topics/Observability.md"]),
    ("sample", "what to do before handing over the pager", ["notes/Broken header.md"]),
    ("sample", "should payment retries be asynchronous", ["notes/Loose thoughts on queues.md"]),
    ("sample", "how many nodes does the search cluster have", ["systems/Search cluster.md"]),
    ("sample", "reindexing takes how long", ["systems/search/Runbook.md"]),
    ("sample", "error rate threshold for paging on payments", ["systems/payments/Runbook.md"]),
    ("sample", "a retried request charges twice", ["systems/Payments API.md"]),
    ("sample", "how do I reach the payments tech lead", ["people/Dana Whitfield.md"]),
    ("sample", "why was checkout down for 38 minutes", ["incidents/2026-08-14 checkout outage postmortem.md"]),
    (
        "sample",
        "the certificate expired at night and payments failed",
        ["incidents/Ticket 4711 vom 29.07.2026 - Zertifikat abgelaufen.md", "problems/Certificate renewal.md"],
    ),
    (
        "sample",
        "the database ran out of connections after a Friday deploy",
        [
            "incidents/DB pool exhausted again during the Friday evening deploy and nobody noticed for an hour.md",
            "problems/Postgres connection pool exhaustion.md",
        ],
    ),
    ("sample", "dashboards generated from one template", ["topics/Observability.md"]),
    ("sample", "order service split from the monolith", ["projects/Checkout rewrite.md"]),
    ("foam", "code of conduct", ["dev/code-of-conduct.md"]),
    ("foam", "harassment-free community", ["dev/code-of-conduct.md"]),
    ("foam", "Astro and Starlight publishing", ["dev/design/improved-static-site-generation.md"]),
    ("foam", "research on static site publishing options", ["dev/design/static-site-publishing-research.md"]),
    ("foam", "contribute without installing node locally", ["dev/devcontainers.md"]),
    ("foam", "how the extension's tests are organised", ["dev/testing-conventions.md"]),
    ("foam", "unit tests versus integration tests in the extension", ["dev/testing-conventions.md"]),
    ("foam", "uncategorised thoughts to sort later", ["inbox.md"]),
    ("foam", "what does foam believe in", ["principles.md"]),
    ("foam", "own your thoughts", ["principles.md"]),
    ("foam", "create a note from the command palette", ["user/features/commands.md"]),
    ("foam", "use my own CSS in the markdown preview", ["user/features/custom-markdown-preview-styles.md"]),
    ("foam", "markdown.styles setting", ["user/features/custom-markdown-preview-styles.md"]),
    (
        "foam",
        "configure user snippets",
        ["user/features/custom-snippets.md", "user/recipes/predefined-user-snippets.md"],
    ),
    ("foam", "list notes linked to a topic", ["user/features/foam-queries.md"]),
    ("foam", "saved queries in the side bar", ["user/features/smart-folders.md"]),
    ("foam", "front matter properties of a note", ["user/features/note-properties.md"]),
    (
        "foam",
        "paste an image from the clipboard",
        ["user/features/paste-images-from-clipboard.md", "user/recipes/add-images-to-notes.md"],
    ),
    ("foam", "limit a command to notes with a tag", ["user/features/resource-filters.md"]),
    ("foam", "tag hierarchies", ["user/features/tags.md"]),
    ("foam", "categorize notes beyond folders", ["user/features/tags.md"]),
    ("foam", "backlinks do not work, how do I enable them", ["user/frequently-asked-questions.md"]),
    ("foam", "I don't want foam in every workspace", ["user/frequently-asked-questions.md"]),
    ("foam", "VS Code features that work with foam", ["user/getting-started/get-started-with-vscode.md"]),
    ("foam", "install foam", ["user/getting-started/installation.md"]),
    ("foam", "move through notes by following connections", ["user/getting-started/navigation.md"]),
    ("foam", "writing notes in markdown", ["user/getting-started/note-taking-in-foam.md"]),
    (
        "foam",
        "keep notes in source control",
        ["user/getting-started/sync-notes.md", "user/recipes/automatic-git-syncing.md"],
    ),
    ("foam", "Gatsby template", ["user/publishing/generate-gatsby-site.md"]),
    ("foam", "MathJax", ["user/publishing/math-support-with-mathjax.md"]),
    (
        "foam",
        "math formulas in published pages",
        ["user/publishing/math-support-with-mathjax.md", "user/publishing/math-support-with-katex.md"],
    ),
    ("foam", "Azure DevOps wiki", ["user/publishing/publish-to-azure-devops-wiki.md"]),
    ("foam", "navigate links inside the GitHub repository", ["user/publishing/publish-to-github.md"]),
    ("foam", "private notes on GitLab", ["user/publishing/publish-to-gitlab-pages.md"]),
    ("foam", "Eleventy and Netlify", ["user/publishing/publish-to-netlify-with-eleventy.md"]),
    ("foam", "drag and drop image files into a note", ["user/recipes/add-images-to-notes.md"]),
    (
        "foam",
        "turn a URL into a link with the page title",
        ["user/recipes/automatically-expand-urls-to-well-titled-links.md"],
    ),
    ("foam", "Drafts app on iOS", ["user/recipes/capture-notes-with-drafts-pro.md"]),
    ("foam", "capture notes with apple shortcuts", ["user/recipes/capture-notes-with-shortcuts-and-github-actions.md"]),
    ("foam", "Material for MkDocs", ["user/recipes/generate-material-for-mkdocs-site.md"]),
    ("foam", "structure of a recipe", ["user/recipes/how-to-write-recipes.md"]),
    ("foam", "convert word documents to markdown with pandoc", ["user/recipes/markup-converter.md"]),
    ("foam", "slash commands with snippets", ["user/recipes/predefined-user-snippets.md"]),
    ("foam", "open a note quickly by typing part of its name", ["user/recipes/search-and-navigate-notes.md"]),
    ("foam", "preview an image when hovering", ["user/recipes/shows-image-preview-on-hover.md"]),
    ("foam", "GistPad", ["user/recipes/write-your-notes-in-github-gist.md"]),
    ("foam", "work with the workspace from the terminal", ["user/tools/cli.md"]),
    ("foam", "create today's daily note from the command line", ["user/tools/cli/daily.md"]),
    ("foam", "regular expression search over note text", ["user/tools/cli/grep.md"]),
    ("foam", "show incoming and outgoing links of a note in the terminal", ["user/tools/cli/links.md"]),
    ("foam", "list placeholders and dead ends", ["user/tools/cli/list.md"]),
    ("foam", "let AI agents read my notes as a graph", ["user/tools/cli/mcp.md"]),
    ("foam", "Model Context Protocol server", ["user/tools/cli/mcp.md"]),
    ("foam", "move or delete a note from the terminal", ["user/tools/cli/note.md"]),
    ("foam", "heading structure of a long note", ["user/tools/cli/outline.md"]),
    ("foam", "rename a tag and rewrite links", ["user/tools/cli/rename.md", "user/tools/cli/tag.md"]),
    ("foam", "search by alias or frontmatter property", ["user/tools/cli/search.md"]),
    ("foam", "is there a newer version of the cli", ["user/tools/cli/update.md"]),
    ("foam", "where does the extension write its logs", ["user/tools/foam-logging-in-vscode.md"]),
    ("foam", "what is foam", ["index.md"]),
    ("foam", "page not found", ["404.md"]),
    ("foam", "footnote syntax", ["user/features/footnotes.md"]),
    ("foam", "reference a specific paragraph in another note", ["user/features/block-anchors.md"]),
    ("foam", "a new note from a template", ["user/features/templates.md"]),
    ("foam", "visualize how notes connect", ["user/features/graph-view.md"]),
    ("foam", "migrate notes from OneNote", ["user/recipes/migrating-from-onenote.md"]),
    ("foam", "coming from obsidian", ["user/recipes/migrating-from-obsidian.md"]),
    ("foam", "what foam collects about usage", ["user/tools/telemetry.md"]),
    ("foam", "check the workspace for problems", ["user/tools/workspace-lint.md", "user/tools/cli/lint.md"]),
    (
        "foam",
        "publish with vercel",
        ["user/publishing/publish-to-vercel.md", "user/publishing/generate-gatsby-site.md"],
    ),
]


def rank_of(ranked: list[str], wanted: list[str], depth: int) -> int | None:
    for i, path in enumerate(ranked[:depth]):
        if path in wanted:
            return i + 1
    return None


Measures = dict[str, float]
NAMES = ("recall@5", "recall@10", "MRR@10", "nDCG@10")


def measures(results: list[tuple[list[str], list[str]]]) -> Measures:
    """recall@5, recall@10 and MRR@10 of the first page that answers, and nDCG@10 over all of
    them (binary relevance), averaged over the queries; `results` holds (ranked, wanted) each."""
    ranks = [rank_of(ranked, wanted, 10) for ranked, wanted in results]
    return {
        "recall@5": statistics.mean(1.0 if r and r <= 5 else 0.0 for r in ranks),
        "recall@10": statistics.mean(1.0 if r else 0.0 for r in ranks),
        "MRR@10": statistics.mean(1.0 / r if r else 0.0 for r in ranks),
        "nDCG@10": statistics.mean(ndcg(ranked, wanted) for ranked, wanted in results),
    }


def ndcg(ranked: list[str], wanted: list[str], depth: int = 10) -> float:
    gain = sum(1.0 / math.log2(i + 2) for i, path in enumerate(ranked[:depth]) if path in wanted)
    ideal = sum(1.0 / math.log2(i + 2) for i in range(min(len(wanted), depth)))
    return gain / ideal


def evaluate(vaults: dict[str, Vault]) -> tuple[dict[str, Measures], list[str]]:
    """Each ranker's measures over the golden set, and the queries the fusion missed."""
    results: dict[str, list[tuple[list[str], list[str]]]] = {r: [] for r in ("bm25", "vector", "fusion")}
    misses = []
    for vault_name, query, wanted in GOLDEN:
        result = search(vaults[vault_name], query, limit=10)
        fused = [h.path for h in result.hits]
        results["bm25"].append((result.rankers.get("bm25", []), wanted))
        results["vector"].append((result.rankers.get("vector", []), wanted))
        results["fusion"].append((fused, wanted))
        if not rank_of(fused, wanted, 10):
            misses.append(f"{vault_name}: {query!r}")
    return {ranker: measures(found) for ranker, found in results.items()}, misses


def check(fusion: Measures, baseline_file: Path) -> list[str]:
    """What fell below the committed baseline (recall@10 and MRR@10 of the fusion)."""
    baseline = json.loads(baseline_file.read_text(encoding="utf-8"))
    if baseline.get("queries") != len(GOLDEN):
        return [f"the baseline was measured on {baseline.get('queries')} queries, the golden set has {len(GOLDEN)}"]
    return [
        f"fusion {name} {fusion[name]:.3f} is below the baseline {baseline['fusion'][name]:.3f}"
        for name in ("recall@10", "MRR@10")
        if round(fusion[name], 3) < baseline["fusion"][name]
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", type=Path, metavar="BASELINE", help="exit 1 when the fusion falls below it")
    parser.add_argument("--write-baseline", type=Path, metavar="BASELINE", help="record these figures as the baseline")
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="curator-eval-"))
    vaults = {}
    for name, source in VAULTS.items():
        if not source.is_dir():
            raise SystemExit(f"missing vault {source}")
        shutil.copytree(source, work / name)
        vaults[name] = load_vault(work / name)
        fill_all(vaults[name], provider_for(vaults[name])[0])  # the whole index: ranking, not a cold start
    figures, misses = evaluate(vaults)
    print(f"{len(GOLDEN)} queries")
    print(f"{'ranker':<8} " + " ".join(f"{name:>9}" for name in NAMES))
    for ranker, found in figures.items():
        print(f"{ranker:<8} " + " ".join(f"{found[name]:>9.3f}" for name in NAMES))
    for miss in misses:
        print(f"  fusion missed {miss}")
    shutil.rmtree(work, ignore_errors=True)
    if args.write_baseline:
        rounded = {name: round(value, 3) for name, value in figures["fusion"].items()}
        args.write_baseline.write_text(json.dumps({"queries": len(GOLDEN), "fusion": rounded}, indent=2) + "\n")
    if args.check:
        problems = check(figures["fusion"], args.check)
        for problem in problems:
            print(f"search_eval: {problem}", file=sys.stderr)
        if problems:
            raise SystemExit(1)
        print(f"search_eval: fusion holds the baseline in {args.check}")


if __name__ == "__main__":
    main()
