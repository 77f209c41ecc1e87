"""A scripted agent session over MCP, and the latency of `search` and `remember` on a warm large vault.

    python -m benchmarks.mcp_session [--pages 10000] [--vault DIR] [--calls 20] [--no-latency | --no-session]

Part 1: an operations team's agent hands 50 memories (English and German: incidents, status
updates, new facts, some repeating what the vault or an earlier memory says) to `remember` through
the SDK's client on a copy of sample_vault/ whose config lets the agent write without review, then
a dream runs. Printed: each decision's count, the diary-title and duplicate findings that are new
since the start (the target: none), what the dream proposes about pages the agent wrote, and
whether every applied decision is in `history` and its undo puts the vault back byte for byte (all
of them are undone, newest first, and the files compared with the start).

Part 2: on a synthetic vault (`--vault DIR`, generated there when missing; else `--pages` in a
temporary folder), a server is started and warmed (one search, one remember: the vault, the model,
the search index and the page vectors loaded), then each of `--calls` searches and `--calls`
remembers (proposed: the review queue) is timed through the client, protocol included, beside a
call that does almost nothing (`index` of one page): what the protocol itself costs.
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

import anyio
from mcp import Client

from benchmarks.synth import WORDS, generate
from curator.core.curate.dream import dream
from curator.core.read.loading import load_vault
from curator.core.state import trust
from curator.core.state.config import trust_asked
from curator.mcp.memory import Memory
from curator.mcp.server import build_server

SAMPLE = Path(__file__).resolve().parent.parent / "sample_vault"
WATCHED = ("diary-title", "duplicate")

MEMORIES = (
    # incidents, in English
    "Payments API returned 502s for twelve minutes on 3 Nov 2026 because the card-network gateway certificate expired.",
    "The certificate on the second card-network gateway expired again on 14.11.2026; we renewed it by hand on the "
    "HSM host.",
    "Postgres connection pool exhaustion hit checkout again during the Friday deploy; raising max_connections to "
    "400 fixed it.",
    "Search cluster went yellow after a node lost its disk; the shard replicas were rebuilt in forty minutes.",
    "Incident 2291: the checkout page timed out for Acme Corp users because the Payments API waited on a slow "
    "fraud check.",
    "The search cluster rejected writes for ten minutes when the disk watermark reached 95 percent.",
    # status updates
    "PR #812 merged.",
    "Deployed payments-api 3.15.0 to production.",
    "Rolled back search-indexer 2.4.1 after the smoke test failed.",
    "Merged PR #820 for the checkout rewrite.",
    "Released payments-api 3.15.2",
    # new facts
    "Acme Corp's change window is Tuesday 22:00 to 23:00 CET; nothing may be deployed to checkout outside it.",
    "Dana Whitfield is the escalation contact for card-network gateway incidents.",
    "The Payments API rate-limits each merchant to 200 requests per second.",
    "The Kafka cluster behind order events keeps seven days of retention.",
    "The checkout rewrite targets the end of Q1 2027 for moving the last endpoints off the monolith.",
    "Grafana alert rules live in the observability repository, one folder per team.",
    "The Redis cache in front of the product catalogue uses a five minute TTL.",
    "The fraud check service answers within 80 ms at the 99th percentile and times out after 2 seconds.",
    "Opsgenie pages the payments squad for Payments API alerts and the search team for search cluster alerts.",
    "The Payments API stores idempotency keys for 24 hours in Postgres.",
    "The search cluster runs OpenSearch 2.11 on six data nodes.",
    "Checkout uses PgBouncer in transaction mode in front of the checkout database.",
    "The payments squad owns the card-network gateways and renews their certificates.",
    # repeats of what the vault says, or of an earlier memory
    "TLS certificates from the internal CA last 90 days.",
    "Most hosts renew automatically; the two card-network gateways do not, because their keys live in the "
    "hardware security module.",
    "The Payments API rate-limits each merchant to 200 requests per second.",
    "Dana Whitfield is on call in the first week of each month.",
    "The Kafka cluster behind order events keeps seven days of retention.",
    # German: incidents, updates, facts, repeats
    "Ticket 4711 vom 29.07.2026: Zertifikat abgelaufen, Zahlungen schlugen zwanzig Minuten lang fehl.",
    "Störung am 02.12.2026: Der Suchcluster war wegen eines vollen Datenträgers nicht erreichbar.",
    "Am Freitagabend war der Connection Pool der Checkout-Datenbank wieder erschöpft, der Checkout stand eine Stunde.",
    "Die Payments API lieferte nach dem Deployment am Montag für fünf Minuten Fehler 500.",
    "Deployment von payments-api 3.15.1 abgeschlossen.",
    "PR #830 gemergt.",
    "Rollback von search-indexer 2.4.2 durchgeführt.",
    "Acme Corp verlangt eine Ankündigung von drei Werktagen vor jeder Wartung am Checkout.",
    "Das Zertifikat der Kartennetz-Gateways wird jetzt 21 Tage vor Ablauf per Alarm gemeldet.",
    "Der Connection Pool der Checkout-Datenbank ist jetzt auf 400 Verbindungen erhöht.",
    "Die Redis-Instanz für Sitzungen läuft nicht mehr auf der alten VM, sondern im Kubernetes-Cluster.",
    "Dana Whitfield leitet die Nachbesprechung jedes Vorfalls an der Payments API.",
    "Der Suchcluster braucht nach einem Knotenausfall etwa vierzig Minuten, bis alle Replikate wieder da sind.",
    "Das Runbook für die Payments API beschreibt, wie man den Zahlungsverkehr auf das zweite Rechenzentrum umschaltet.",
    "Die Checkout-Umstellung soll bis Ende des ersten Quartals 2027 abgeschlossen sein.",
    "Metriken der Payments API werden 13 Monate lang in Prometheus aufbewahrt.",
    "Die Kafka-Themen für Bestellereignisse haben zwölf Partitionen.",
    "Der Betrugsprüfdienst antwortet im 99. Perzentil innerhalb von 80 ms.",
    "Die Rufbereitschaft für den Suchcluster wechselt jeden Montag um 10 Uhr.",
    "Acme Corp verlangt eine Ankündigung von drei Werktagen vor jeder Wartung am Checkout.",
    "TLS-Zertifikate der internen CA sind 90 Tage gültig.",
)


async def call(client: Client, tool: str, **arguments: Any) -> dict[str, Any]:
    result = await client.call_tool(tool, arguments)
    if result.is_error or result.structured_content is None:
        raise SystemExit(f"{tool} failed: {result.content}")
    return result.structured_content


def _watched(findings: list[dict[str, Any]]) -> dict[str, set[str]]:
    return {rule: {f["fingerprint"] for f in findings if f["rule"] == rule} for rule in WATCHED}


def _tree(root: Path) -> dict[str, bytes]:
    return {
        p.relative_to(root).as_posix(): p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.is_file() and ".curator" not in p.relative_to(root).parts
    }


async def session(root: Path) -> None:
    with open(root / ".curator.toml", "a", encoding="utf-8") as config:
        config.write("\n[agent]\napply_without_review = true\n")
    trust.trust(root, trust_asked(root))  # in the session's own user folder (main): the user's is left alone
    start = _tree(root)
    async with Client(build_server(Memory(root)), mode="legacy") as client:
        before = _watched((await call(client, "findings", limit=10_000))["findings"])
        answers = [await call(client, "remember", text=text) for text in MEMORIES]
        decisions: dict[str, int] = {}
        for answer in answers:
            decisions[answer["decision"]] = decisions.get(answer["decision"], 0) + 1
        applied = [a for a in answers if a["applied"]]
        written = {a["page"] for a in applied if a["decision"] in ("add", "supersede")}
        dreamt = dream(load_vault(root))
        about_agent = [s for s in dreamt.proposed if set(s.pages) & written]
        after = _watched((await call(client, "findings", limit=10_000))["findings"])
        changes = {c["id"]: c for c in (await call(client, "history", limit=10_000))["changes"]}
        in_history = [a for a in applied if changes.get(a["change"], {}).get("state") == "applied"]
        for answer in reversed(applied):
            await call(client, "undo", change=answer["change"])
    print(f"session: {len(MEMORIES)} memories through remember over MCP on a copy of sample_vault/")
    print("  decisions: " + ", ".join(f"{kind} {n}" for kind, n in sorted(decisions.items())))
    print(f"  applied {len(applied)}; pages the agent added: {', '.join(sorted(written)) or 'none'}")
    for rule in WATCHED:
        new = after[rule] - before[rule]
        print(f"  new {rule} findings after the session and a dream: {len(new)} (before: {len(before[rule])})")
    print(f"  dream: {len(dreamt.proposed)} proposals, {len(about_agent)} about pages the agent added")
    for s in about_agent:
        print(f"    {s.kind}: {', '.join(s.pages)} ({s.reason})")
    print(f"  in history as applied: {len(in_history)} of {len(applied)} applied decisions")
    print(f"  every one undone, newest first: vault byte-identical to the start: {_tree(root) == start}")


def _figures(latencies: list[float]) -> str:
    ordered = sorted(latencies)
    p95 = ordered[int(0.95 * (len(ordered) - 1))]
    return f"p50 {statistics.median(ordered) * 1000:.0f} ms, p95 {p95 * 1000:.0f} ms, max {ordered[-1] * 1000:.0f} ms"


async def latency(root: Path, calls: int) -> None:
    rng = random.Random(5)
    queries = [" ".join(rng.sample(WORDS, rng.choice((1, 2, 3)))) for _ in range(calls)]
    texts = [
        f"The {a} {b} service keeps its {c} for {n} days, then moves it to the {d}."
        for a, b, c, d, n in (
            (*rng.sample(WORDS, 4), rng.randint(2, 90))
            for _ in range(calls)  # type: ignore[misc]
        )
    ]
    started = time.perf_counter()
    memory = Memory(root)
    async with Client(build_server(memory), mode="legacy") as client:
        await call(client, "search", query="warm up")
        await call(client, "remember", text="The warm up service keeps its logs for three days.")
        warm = time.perf_counter() - started
        searched, remembered, floor = [], [], []
        for _ in range(calls):  # a call that does almost nothing: the protocol's and the thread's share
            t = time.perf_counter()
            await call(client, "index", limit=1)
            floor.append(time.perf_counter() - t)
        for query in queries:
            t = time.perf_counter()
            await call(client, "search", query=query)
            searched.append(time.perf_counter() - t)
        for text in texts:
            t = time.perf_counter()
            await call(client, "remember", text=text)
            remembered.append(time.perf_counter() - t)
    pages = len(memory.vault().pages)
    print(f"latency: {pages} pages ({root}); server started and warmed in {warm:.1f} s, reloads {memory.reloads}")
    print(f"  index, limit 1 ({calls} calls):     {_figures(floor)}   (the protocol's own share)")
    print(f"  search ({calls} calls):            {_figures(searched)}   (target <= 150 ms)")
    print(f"  remember, proposed ({calls} calls): {_figures(remembered)}   (target <= 500 ms)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=int, default=10_000)
    parser.add_argument("--vault", type=Path, help="a synthetic vault to time (generated there when missing)")
    parser.add_argument("--calls", type=int, default=20)
    parser.add_argument("--no-latency", action="store_true", help="run the session only")
    parser.add_argument("--no-session", action="store_true", help="time the calls only")
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="curator-mcp-"))
    try:
        if not args.no_session:
            copy = work / "sample_vault"
            shutil.copytree(SAMPLE, copy)
            user = os.environ.get("CURATOR_CONFIG_HOME")
            os.environ["CURATOR_CONFIG_HOME"] = str(work / "user-config")  # the trust the session records
            try:
                anyio.run(session, copy)
            finally:
                if user is None:
                    os.environ.pop("CURATOR_CONFIG_HOME")
                else:
                    os.environ["CURATOR_CONFIG_HOME"] = user
        if not args.no_latency:
            root = args.vault or work / "synthetic"
            if not root.exists():
                generate(root, args.pages)
            anyio.run(latency, root, args.calls)
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
