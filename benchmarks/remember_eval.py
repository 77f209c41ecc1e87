"""How often `curator remember` decides as a person would, on labelled cases over the sample vault.

    python -m benchmarks.remember_eval [--verbose]

Each case is a text an agent might hand over, the decision a person would make (add, merge-into,
supersede, drop) and, where it goes to a page, which page. The cases were written for this
benchmark against `sample_vault/` (English and German, as memories are); nothing is applied.
Prints the accuracy of the decision, of the page among the cases that name one, and a confusion
table.
"""

from __future__ import annotations

import argparse
import shutil
import tempfile
import time
from collections import Counter
from pathlib import Path

from curator.core.curate.remember import DECISIONS, remember
from curator.core.read.loading import load_vault

SAMPLE = Path(__file__).resolve().parent.parent / "sample_vault"
CERT = "problems/Certificate renewal.md"
POOL = "problems/Postgres connection pool exhaustion.md"
PAY = "systems/Payments API.md"
SEARCH = "systems/Search cluster.md"
CACHE = "topics/Caching strategy.md"
ACME = "customers/Acme Corp.md"
DANA = "people/Dana Whitfield.md"
CHECKOUT = "projects/Checkout rewrite.md"
OBS = "topics/Observability.md"

# (text, decision, page it goes to: the page merged into or superseded, None for add and drop)
CASES: list[tuple[str, str, str | None]] = [
    # merge-into: a fact about a thing that has a page
    ("Ticket 4711 vom 29.07.2026: Zertifikat abgelaufen", "merge-into", CERT),
    ("The certificate renewal for the HSM gateways needs two people: one holds the HSM card.", "merge-into", CERT),
    ("cert renewal: the internal CA sends no expiry mail, so nobody is warned.", "merge-into", CERT),
    ("Acme asked for a change window on Fridays too; not agreed yet.", "merge-into", ACME),
    ("Acme Corp's platform group wants a status page for checkout.", "merge-into", ACME),
    ("Dana Whitfield will move to the platform team in January.", "merge-into", DANA),
    ("The Payments API rejects requests without an idempotency key since version 3.", "merge-into", PAY),
    ("Payments API latency p99 is 180 ms at peak.", "merge-into", PAY),
    ("The search cluster's snapshots also go to a second region since June.", "merge-into", SEARCH),
    ("Search cluster: a fourth data node was added for the holiday season.", "merge-into", SEARCH),
    ("Checkout rewrite: the new payment flow goes live behind a feature flag in October.", "merge-into", CHECKOUT),
    ("The checkout rewrite drops the legacy coupon service.", "merge-into", CHECKOUT),
    ("Postgres connection pool exhaustion happened again when a batch job opened 200 connections.", "merge-into", POOL),
    ("Caching strategy: search results are cached for 30 seconds at the edge.", "merge-into", CACHE),
    ("Observability: traces are sampled at 5 percent in production.", "merge-into", OBS),
    ("Der Zertifikatswechsel auf den Gateways braucht ein Wartungsfenster (cert renewal).", "merge-into", CERT),
    ("PgBouncer pool size for checkout is 40 per node (Postgres connection pool exhaustion).", "merge-into", POOL),
    ("The Payments API owner is the payments squad; Dana reviews idempotency changes.", "merge-into", PAY),
    # add: nothing in the vault is about it
    ("The Redis cache cluster evicts keys with allkeys-lru; the memory limit is 8 GB per node.", "add", None),
    ("Kafka consumer group billing-events must be reset after schema changes.", "add", None),
    ("The VPN for contractors uses WireGuard; configs are issued by the IT desk.", "add", None),
    ("Feature flags are managed in Unleash; stale flags are removed every quarter.", "add", None),
    ("The mobile app release train ships every second Wednesday.", "add", None),
    ("Our CDN is Fastly; purges by surrogate key take about two seconds.", "add", None),
    ("The data warehouse loads orders nightly into BigQuery at 01:00 UTC.", "add", None),
    ("Terraform state for production lives in a locked S3 bucket with versioning on.", "add", None),
    ("Die Buchhaltung exportiert Rechnungen monatlich als DATEV-Datei.", "add", None),
    ("Grafana alerts route to Opsgenie; the payments rotation has its own schedule.", "add", None),
    # drop: a repeat, or a status update
    ("TLS certificates from the internal CA last 90 days.", "drop", None),
    ("Acme allows production changes on Tuesdays and Thursdays between 06:00 and 09:00 CET only.", "drop", None),
    ("Carts and anything that touches payments are never cached.", "drop", None),
    ("PR #482 merged", "drop", None),
    ("Deployed payments-api 3.14.2 to production.", "drop", None),
    ("JIRA-1234 closed", "drop", None),
    ("Ticket 5120 erledigt.", "drop", None),
    ("Released checkout web 2026.09.1", "drop", None),
    # supersede: the page's fact changed
    ("Certificate renewal on the gateways is no longer manual: the HSM hosts now renew via ACME.", "supersede", CERT),
    ("Acme no longer restricts change windows; any weekday morning works now.", "supersede", ACME),
    ("The Payments API no longer accepts SEPA payments; they moved to a separate service.", "supersede", PAY),
    ("Search cluster snapshots are no longer kept for 14 days but for 30 days.", "supersede", SEARCH),
    ("Dana Whitfield is no longer the payments tech lead; Luis took over in November.", "supersede", DANA),
    ("Caching strategy: prices are no longer cached in Redis, only at the edge.", "supersede", CACHE),
]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--verbose", action="store_true", help="print every case that went wrong")
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="curator-remember-")) / "vault"
    shutil.copytree(SAMPLE, work)
    vault = load_vault(work)
    remember(vault, "warm up the model and the search index")
    right_decision = right_page = with_page = 0
    confusion: Counter[tuple[str, str]] = Counter()
    seconds = []
    for text, decision, page in CASES:
        started = time.perf_counter()
        proposal = remember(vault, text)
        seconds.append(time.perf_counter() - started)
        got_page = proposal.page if proposal.decision == "merge-into" else None
        if proposal.decision == "supersede":
            got_page = next((c.path for c in proposal.evidence), None)
        confusion[(decision, proposal.decision)] += 1
        right_decision += proposal.decision == decision
        if page is not None:
            with_page += 1
            right_page += got_page == page
        if args.verbose and (proposal.decision != decision or (page is not None and got_page != page)):
            print(f"  expected {decision} {page}, got {proposal.decision} {got_page}: {text}")
    shutil.rmtree(work.parent)
    print(
        f"{len(CASES)} cases: decision right {right_decision}/{len(CASES)} ({right_decision / len(CASES):.0%}); "
        f"page right {right_page}/{with_page} ({right_page / with_page:.0%}) of the cases that go to a page"
    )
    print(f"seconds a case: median {sorted(seconds)[len(seconds) // 2]:.3f}, max {max(seconds):.3f}")
    print("expected \\ decided  " + "  ".join(f"{d:>10}" for d in DECISIONS))
    for expected in DECISIONS:
        print(f"{expected:>18}  " + "  ".join(f"{confusion[(expected, d)]:>10}" for d in DECISIONS))


if __name__ == "__main__":
    main()
