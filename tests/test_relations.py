"""Typed relations, `curator query`, `curator stats` and staleness, on a vault written for them:
a SOLID hierarchy three levels deep under its root, two schemes with one related edge between
them, pages with source and confidence."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import git
import pytest
from helpers import make_vault

from curator.cli.main import main
from curator.core.check.findings import check_vault
from curator.core.common.errors import QueryError
from curator.core.read.loading import load_vault
from curator.core.read.query import parse, run
from curator.core.read.stats import stats


def concept(broader: str | None = None, extra: str = "") -> str:
    up = f'broader: "[[{broader}]]"\n' if broader else ""
    return f"---\ntype: concept\n{up}{extra}---\nA principle of object-oriented design, explained at length here.\n"


FILES: dict[str, str | bytes] = {
    "design/SOLID.md": concept(None, 'narrower: ["[[Dependency inversion]]"]\nsource: manual\nconfidence: 0.9\n'),
    "design/Single responsibility.md": concept("SOLID", "source: manual\nconfidence: 0.8\n"),
    "design/Open closed.md": concept("SOLID", "source: agent\nconfidence: 0.4\n"),
    "design/Liskov substitution.md": concept("SOLID", "source: agent\n"),
    "design/Interface segregation.md": concept("SOLID"),
    "design/Dependency inversion.md": concept(),  # under SOLID through SOLID's `narrower`
    "design/Cohesion.md": concept("Single responsibility", "confidence: 0.7\n"),
    "design/Dependency injection.md": concept("Dependency inversion", 'related: "[[Deployment]]"\n'),
    "design/Constructor injection.md": concept("Dependency injection"),
    "design/DRY.md": concept(None, 'related: "[[Cohesion]]"\n'),
    "ops/Deployment.md": '---\ntype: runbook\nrelated: ["[[Dependency injection]]"]\n---\nHow we deploy.\n',
    "ops/Rollback.md": "---\ntype: runbook\nsource: agent\n---\nHow we roll back a deploy.\n",
}
UNDER_SOLID = [
    "Cohesion",
    "Constructor injection",
    "Dependency injection",
    "Dependency inversion",
    "Interface segregation",
    "Liskov substitution",
    "Open closed",
    "Single responsibility",
]


@pytest.fixture
def vault_root(tmp_path: Path) -> Path:
    return make_vault(tmp_path / "v", FILES)


def titles(root: Path, text: str) -> list[str]:
    vault = load_vault(root, use_cache=False)
    return [vault.pages[p].title for p in run(vault, text).pages]


def test_broader_plus_is_the_transitive_set_sorted_by_title(vault_root: Path) -> None:
    assert titles(vault_root, "broader+:[[SOLID]]") == UNDER_SOLID
    assert titles(vault_root, "broader:[[SOLID]]") == [  # one step only; `narrower` read as its inverse
        "Dependency inversion",
        "Interface segregation",
        "Liskov substitution",
        "Open closed",
        "Single responsibility",
    ]
    assert titles(vault_root, "narrower:[[Dependency inversion]]") == ["SOLID"]
    assert titles(vault_root, "broader+:[[Dependency inversion]]") == ["Constructor injection", "Dependency injection"]


def test_filters_combine_with_and_or_not_and_sort(vault_root: Path) -> None:
    assert titles(vault_root, "broader+:[[SOLID]] AND source:agent") == ["Liskov substitution", "Open closed"]
    assert titles(vault_root, "source:manual OR path:ops/ sort:title") == [
        "Deployment",
        "Rollback",
        "Single responsibility",
        "SOLID",
    ]
    assert titles(vault_root, "type:concept NOT broader+:[[SOLID]] NOT title:SOLID") == ["DRY"]
    assert titles(vault_root, "confidence>=0.7 sort:-confidence") == ["SOLID", "Single responsibility", "Cohesion"]
    assert titles(vault_root, "(type:runbook OR confidence:<0.5) AND NOT related:*") == ["Open closed", "Rollback"]
    assert titles(vault_root, "scheme=ops") == ["Deployment", "Rollback"]
    assert titles(vault_root, "injection") == ["Constructor injection", "Dependency injection"]
    assert titles(vault_root, "confidence:*") == ["Cohesion", "Open closed", "Single responsibility", "SOLID"]
    assert titles(vault_root, "type:concept NOT source:*") == [
        "Cohesion",
        "Constructor injection",
        "Dependency injection",
        "Dependency inversion",
        "DRY",
        "Interface segregation",
    ]


def test_the_cross_scheme_query_returns_the_one_edge_once(vault_root: Path) -> None:
    vault = load_vault(vault_root, use_cache=False)
    across = run(vault, "edges:related AND a.scheme!=b.scheme")
    assert across.edges == [("design/Dependency injection.md", "ops/Deployment.md")]
    assert len(run(vault, "edges:related").edges) == 2  # the same-scheme one too, each once


def test_bad_queries_say_what_is_wrong_in_one_line(vault_root: Path) -> None:
    for text in ("(type:concept", "type:concept AND", "broader>[[SOLID]]", "OR type:x"):
        with pytest.raises(QueryError) as caught:
            run(load_vault(vault_root, use_cache=False), text)
        assert "\n" not in str(caught.value)
    assert parse("tenant:entity:id").expression is not None  # a value may hold colons


def test_query_from_the_command_line(vault_root: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["query", str(vault_root), "broader+:[[SOLID]]", "sort:title", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [p["title"] for p in data["pages"]] == UNDER_SOLID and data["count"] == 8
    assert data["pages"][0]["fields"] == {"broader+": ["Single responsibility"]}
    assert main(["query", str(vault_root), "(type:concept"]) == 2
    assert "parenthesis" in capsys.readouterr().err


def test_stats_match_hand_counts(vault_root: Path) -> None:
    vault = load_vault(vault_root, use_cache=False)
    counted = stats(vault, check_vault(vault), ("type", "source", "confidence", "folder"))
    assert counted.pages == 12
    assert counted.by["type"] == {"concept": 10, "runbook": 2}
    assert counted.by["source"] == {"": 7, "agent": 3, "manual": 2}
    assert counted.by["confidence"] == {"": 8, "0.4": 1, "0.7": 1, "0.8": 1, "0.9": 1}
    assert counted.by["folder"] == {"design": 10, "ops": 2}
    # 7 broader, 1 narrower, 3 related (two of them one edge declared from both ends)
    assert (counted.links["broader"], counted.links["narrower"], counted.links["related"]) == (7, 1, 3)
    assert counted.links["total"] == counted.links["resolved"] == 11 and counted.links["dead"] == 0


def test_a_cycle_and_a_dead_relation_are_findings(tmp_path: Path) -> None:
    root = make_vault(
        tmp_path / "v",
        {
            "A.md": concept("C"),
            "B.md": concept("A"),
            "C.md": concept("B"),
            "D.md": concept("Nowhere"),
            "E.md": concept("D"),
            "Self.md": concept("Self"),
        },
    )
    found = {(f.rule, f.path): f for f in check_vault(load_vault(root, use_cache=False))}
    cycle = found[("relation-cycle", "A.md")]
    assert cycle.message.startswith("broader cycle: A → B → C → A") or cycle.message.startswith(
        "broader cycle: A → C → B → A"
    )
    assert [p for rule, p in found if rule == "relation-cycle"] == ["A.md", "Self.md"]  # one finding a cycle
    assert found[("relation-cycle", "Self.md")].message.startswith("broader cycle: Self → Self")
    dead = found[("relation-dead", "D.md")]
    assert dead.data["key"] == "broader" and "Nowhere" in dead.message
    assert ("dead-link", "D.md") not in found


def commit(repo: git.Repo, paths: list[str], days_ago: float, message: str) -> None:
    when = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(time.time() - days_ago * 86_400))
    repo.git.add("--", *paths)
    env = {"GIT_AUTHOR_DATE": when, "GIT_COMMITTER_DATE": when}
    repo.git.commit("-m", message, "--", *paths, env={**os.environ, **env})


def test_stale_pages_come_from_back_dated_commits(tmp_path: Path) -> None:
    """Often linked and untouched for `stale_days`: stale, naming its owner. Recently committed,
    rarely linked, or edited since its commit: not stale."""
    links = "".join(f"[[{name}]] " for name in ("Old hub", "Fresh hub", "Rare", "Edited hub"))
    files: dict[str, str | bytes] = {f"Linker {i}.md": f"See {links}\n" for i in range(6)}
    files["Old hub.md"] = "---\nowner: Dana Whitfield\n---\nThe old hub.\n"
    files["Fresh hub.md"] = "The fresh hub.\n"
    files["Rare.md"] = "Linked rarely: only six pages, but the threshold is set to seven below.\n"
    files["Edited hub.md"] = "The edited hub.\n"
    root = make_vault(tmp_path / "repo", files)
    repo = git.Repo.init(root)
    with repo.config_writer() as config:
        config.set_value("user", "name", "Test")
        config.set_value("user", "email", "test@example.com")
    commit(repo, [p for p in files if p != "Fresh hub.md"], 300, "long ago")
    commit(repo, ["Fresh hub.md"], 10, "lately")
    (root / "Edited hub.md").write_text("The edited hub, edited since.\n")
    (root / ".curator.toml").write_text("[thresholds]\nstale_backlinks = 6\nstale_days = 180\n")
    stale = {f.path: f for f in check_vault(load_vault(root, use_cache=False)) if f.rule == "stale"}
    assert sorted(stale) == ["Old hub.md", "Rare.md"]
    assert "Dana Whitfield" in stale["Old hub.md"].message and stale["Old hub.md"].data["days"] >= 299
    (root / ".curator.toml").write_text("[thresholds]\nstale_backlinks = 7\n")
    assert not [f for f in check_vault(load_vault(root, use_cache=False)) if f.rule == "stale"]


def test_search_takes_the_same_filters(vault_root: Path) -> None:
    from curator.core.meaning.search import search

    vault = load_vault(vault_root, use_cache=False)
    found = search(vault, "broader+:[[Dependency inversion]] scheme:design", use_vectors=False)
    assert sorted(h.path for h in found.hits) == ["design/Constructor injection.md", "design/Dependency injection.md"]
    assert not search(vault, "principle source:!=agent confidence:<0.5", use_vectors=False).hits


def test_a_freshness_prior_ranks_the_fresh_page_first_only_when_configured(tmp_path: Path) -> None:
    from curator.core.meaning.search import search

    text = "The deploy freezes over the holidays; ask the release manager first.\n"
    # The same words, not the same bytes: a byte-identical copy would take the same place in a search.
    root = make_vault(tmp_path / "repo", {"A old.md": text, "B new.md": text.replace(";", ",")})
    repo = git.Repo.init(root)
    with repo.config_writer() as config:
        config.set_value("user", "name", "Test")
        config.set_value("user", "email", "test@example.com")
    commit(repo, ["A old.md"], 400, "long ago")
    commit(repo, ["B new.md"], 1, "lately")

    def order() -> list[str]:
        return [h.path for h in search(load_vault(root, use_cache=False), "deploy freezes", use_vectors=False).hits]

    assert order() == ["A old.md", "B new.md"]  # a tie, broken by path
    (root / ".curator.toml").write_text("[search]\nhalf_life_days = 90\n")
    assert order() == ["B new.md", "A old.md"]


def test_a_cross_encoder_reranks_the_top_and_search_works_without_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Opt-in: with `[search] rerank_model` the top 20 come in the cross-encoder's order; a model
    that cannot load leaves the fused order, with a note (fail-open)."""
    from curator.core.meaning import embeddings
    from curator.core.meaning.search import search

    files: dict[str, str | bytes] = {f"Deploy note {i}.md": f"Deploy freeze rule number {i}.\n" for i in range(5)}
    root = make_vault(tmp_path / "v", files)
    plain = [h.path for h in search(load_vault(root, use_cache=False), "deploy freeze", use_vectors=False).hits]
    (root / ".curator.toml").write_text('[search]\nrerank_model = "x/y"\nrerank_model_path = "none"\n')  # in the vault
    failed = search(load_vault(root, use_cache=False), "deploy freeze", use_vectors=False)
    assert [h.path for h in failed.hits] == plain
    assert any("rerank unavailable" in note and "\n" not in note for note in failed.notes)

    class Backwards:
        def rerank(self, query: str, documents: list[str]) -> list[float]:
            return [float(i) for i in range(len(documents))]  # the last read scores highest

    folder = os.path.realpath(root / "none")  # a relative folder is read from the vault, and kept absolute
    monkeypatch.setitem(embeddings._RERANKERS, ("x/y", folder, None), (Backwards(), ""))
    reranked = search(load_vault(root, use_cache=False), "deploy freeze", use_vectors=False)
    assert [h.path for h in reranked.hits] == plain[::-1]


def test_sorting_keeps_pages_without_the_field_last_and_names_bad_terms(vault_root: Path) -> None:
    assert titles(vault_root, "type:concept sort:-confidence")[:4] == [
        "SOLID",
        "Single responsibility",
        "Cohesion",
        "Open closed",
    ]
    assert titles(vault_root, "type:concept sort:confidence")[:4] == [
        "Open closed",
        "Cohesion",
        "Single responsibility",
        "SOLID",
    ]
    assert (
        titles(vault_root, "type:concept sort:-confidence")[4:]
        == titles(vault_root, "type:concept sort:confidence")[4:]
    )
    for text, words in (("a.scheme=design", "edges:KIND"), ("broader:[[Nowhere]]", "no page")):
        with pytest.raises(QueryError, match=words):
            run(load_vault(vault_root, use_cache=False), text)


def test_a_dead_relation_with_a_near_title_is_fixed_like_a_dead_link(tmp_path: Path) -> None:
    from curator.core.change.changes import apply, undo
    from curator.core.check.fixes import fixable_findings, plan_fix

    root = make_vault(tmp_path / "v", {"SOLID.md": concept(), "Open closed.md": concept("SOILD")})
    start = (root / "Open closed.md").read_bytes()
    vault = load_vault(root, use_cache=False)
    (finding,) = [f for f in fixable_findings(vault) if f.rule == "relation-dead"]
    assert finding.data["did_you_mean"] == "SOLID"
    _, plan = plan_fix(vault, finding.fingerprint)
    entry = apply(root, plan)
    assert 'broader: "[[SOLID]]"' in (root / "Open closed.md").read_text()
    undo(root, entry.id)
    assert (root / "Open closed.md").read_bytes() == start
