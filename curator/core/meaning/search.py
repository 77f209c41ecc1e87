"""Hybrid search: BM25 over section-sized chunks (whoosh), page vectors, and one hop over the link
graph, fused by reciprocal rank fusion. The whoosh index lives in `.curator/search/` and is kept
up to date page by page: changed pages are reindexed, deleted ones leave it, a schema change
rebuilds it.
"""

from __future__ import annotations

import json
import os
import re
import shutil
from collections import defaultdict
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from curator.core.common.atomic import write_atomic
from curator.core.common.errors import QueryError
from curator.core.meaning.chunks import chunks_of, within
from curator.core.read import markdown
from curator.core.read.page import tags_of
from curator.core.read.query import KNOWN_RELATIONS, Term, page_test
from curator.core.read.resolve import fold
from curator.core.read.words import languages_of, words_key
from curator.core.state import cache
from curator.core.state.lock import state_lock
from curator.core.state.statefiles import StateKeyError, label_of, make_state_folder, seal, state_folder

if TYPE_CHECKING:
    from curator.core.read.vault import Vault

# 3: sections found by markdown.sections; 4: words as each language writes them; 5: path a column;
# 6: a page named by an id by its heading; 7: a fence closes only three spaces or fewer further in,
# a plugin's query block is left out; 8: Chinese, Japanese and Korean as pairs of characters
SCHEMA_VERSION = 8
RRF_K = 60
VECTOR_DEPTH = 10  # pages the vector ranker offers (tuned on benchmarks/search_eval.py)
WEAK_UP_TO = 5  # a list shorter than this is filled with the meaning's next best, said to be weak
SEARCH_LOCK = "search.lock"  # under .curator/: held while the index is built or read
UPDATED = "search.updated"  # a load's key: the index files as its update left them, and its counts
PROGRESS_EVERY = 100  # pages indexed between two progress reports
MAX_QUERY_CHARS = 1_000  # a longer search is a pasted page, not a question: refused, not parsed
INDEXED_CHARS = 200_000  # of a page's section text BM25 reads: a 9 MB page is indexed in 0.3 s, not 12
SNIPPET_CHARS = 20_000  # of a section a snippet is picked from: highlighting reads every word of it
_FILTER = re.compile(r'(?<!\S)([A-Za-z_][\w-]*\+?):(>=|<=|>|<|!=)?("[^"]*"|\[\[[^\]]*\]\]|\S+)')


@dataclass(frozen=True)
class Query:
    text: str
    filters: tuple[Term, ...]


def parse_query(raw: str, fields: set[str] | None = None) -> Query:
    """Free text plus the filters `curator query` knows: `type:`, `path:`, `tag:`, frontmatter
    fields (`confidence:>0.5`, `owner:!=Dana`) and typed edges (`broader+:[[SOLID]]`).

    With `fields`, only those names are filters, so `tenant:entity:id` stays text to search for.
    """
    filters: list[Term] = []

    def take(m: re.Match[str]) -> str:
        name = m.group(1).casefold()
        if fields is not None and name.removesuffix("+") not in fields:
            return m.group(0)
        value = m.group(3)
        filters.append(Term(name, m.group(2) or "=", value[1:-1] if value.startswith('"') else value))
        return " "

    text = _FILTER.sub(take, raw)
    return Query(" ".join(text.split()), tuple(filters))


def _schema(languages: tuple[str, ...]) -> Any:
    from whoosh.fields import ID, KEYWORD, STORED, TEXT, Schema

    from curator.core.meaning.analysis import search_analyzer

    analyzer = search_analyzer(languages)  # stems and stop words of the vault's languages, compounds split
    return Schema(
        chunk=ID(unique=True, stored=True),
        # A column: a search of the best pages collapses sections by it from the column, not by
        # reading the posting list of each of the vault's paths (0.5 s a query at 10,000 pages).
        path=ID(stored=True, sortable=True),
        # Two searched fields keep a query to two posting lists a word: the title (boosted), and
        # the section's heading path, the page's aliases and the section text together. A word's
        # several terms (its stems, a compound's parts) are alternatives in a query.
        title=TEXT(analyzer=analyzer, field_boost=3.0, stored=True, multitoken_query="or"),
        content=TEXT(analyzer=analyzer, multitoken_query="or"),
        heading=STORED,
        body=STORED,
        type=KEYWORD(lowercase=True),
        tags=KEYWORD(lowercase=True, commas=True),
        sha=STORED,
    )


class SearchIndex:
    """The whoosh index under `.curator/search/`, synchronised with the vault on `update`.

    Every build and every read holds `.curator/search.lock`: one builder at a time (the TUI's
    workers, other processes), and no reader opens an index while it is being made."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.folder = cache.state_dir(root) / "search"
        self.state_file = self.folder / "state.json"
        self._recorded: dict[str, list[int]] | None = None  # the index files as `update` found or wrote them

    def _state(self, languages: tuple[str, ...] | None = None) -> dict[str, Any]:
        # Sealed: an index another user's curator built (a cloned vault's) is built anew, never
        # trusted to hold what the pages say (its snippets reach an agent as the vault's text).
        data = cache.read_json(self.state_file, sealed=True)
        if not isinstance(data, dict) or data.get("schema") != SCHEMA_VERSION or data.get("words") != words_key():
            return {}  # words analysed another way (another glossary): the index is built anew
        if languages is not None and tuple(data.get("languages") or ("en",)) != languages:
            return {}  # the vault's languages changed: its words are analysed anew
        return data

    def update(self, vault: Vault, progress: Callable[[int, int], None] | None = None) -> dict[str, int]:
        """Reindex changed pages, drop deleted ones; rebuild on a schema change. Returns the counts.
        `progress(done, total)` hears of the pages indexed as they go."""
        with state_lock(vault.root, SEARCH_LOCK):
            return self._update(vault, progress or (lambda _done, _total: None))

    def _update(self, vault: Vault, progress: Callable[[int, int], None]) -> dict[str, int]:
        from whoosh import index

        state_folder(vault.root, "search")  # a symbolic link here would take whoosh's writes elsewhere
        done = vault.derived.get(UPDATED)
        if done is not None and done[2] == self._made_as() and self._only_its_own(done[0]):
            self._recorded = done[0]  # this load's pages are indexed, as they were: nothing to read
            return {**done[1], "reindexed": 0, "removed": 0}
        languages = languages_of(vault)
        state = self._state(languages)
        if not state or not self._only_its_own(state.get("files")):
            shutil.rmtree(self.folder, ignore_errors=True)
            make_state_folder(vault.root, "search")
            index.create_in(str(self.folder), _schema(languages))
            state = {"schema": SCHEMA_VERSION, "words": words_key(), "languages": list(languages), "pages": {}}
        known: dict[str, str] = state["pages"]
        current = {p.path: p.sha for p in vault.pages.values() if p.unreadable is None}
        changed = [p for p, sha in current.items() if known.get(p) != sha]
        gone = [p for p in known if p not in current]
        if changed or gone:
            ix = index.open_dir(str(self.folder))
            writer = ix.writer()
            for path in (*changed, *gone):
                writer.delete_by_term("path", path)
            for done, path in enumerate(changed):
                if done % PROGRESS_EVERY == 0:
                    progress(done, len(changed))
                page = vault.pages[path]
                text = vault.text_of(path)
                tags = tags_of(page.frontmatter)
                for chunk in within(chunks_of(page.shown_title, path, text), INDEXED_CHARS):
                    writer.add_document(
                        chunk=f"{path}#{chunk.number}",
                        path=path,
                        title=page.shown_title,
                        content=f"{chunk.heading}\n{' '.join(page.aliases)}\n{chunk.body}",
                        heading=chunk.heading,
                        body=chunk.body,
                        type=str(page.type or ""),
                        tags=",".join(str(t) for t in tags),
                        sha=page.sha,
                    )
            writer.commit()
            state["pages"] = current
            state["files"] = self._files()
            try:
                stored = b"".join(seal(label_of(self.state_file), [json.dumps(state).encode()]))
            except StateKeyError:  # no key to seal it with: the next search builds the index again
                stored = json.dumps(state).encode()
            write_atomic(self.state_file, stored)
        self._recorded = state.get("files")
        progress(len(changed), len(changed))
        counts = {"reindexed": len(changed), "removed": len(gone), "pages": len(current)}
        if self._recorded is not None:
            vault.derived[UPDATED] = (self._recorded, counts, self._made_as())
        return counts

    def _made_as(self) -> tuple[object, ...]:
        """How the index was made (its schema, its words) and its state file as the system sees it."""
        try:
            stat = os.stat(self.state_file, follow_symlinks=False)
        except OSError:
            return (SCHEMA_VERSION, words_key(), None)
        return (SCHEMA_VERSION, words_key(), stat.st_ino, stat.st_size, stat.st_mtime_ns, stat.st_ctime_ns)

    def _files(self) -> dict[str, list[int]]:
        """Each index file's identity as the system keeps it (inode, size, modification and change
        times): a file replaced or written since, by git, a sync or anyone, has another."""
        found = {}
        for entry in os.scandir(self.folder):
            if entry.name != self.state_file.name and not entry.name.endswith("_WRITELOCK"):
                stat = entry.stat(follow_symlinks=False)
                found[entry.name] = [stat.st_ino, stat.st_size, stat.st_mtime_ns, stat.st_ctime_ns]
        return found

    def _only_its_own(self, recorded: Any) -> bool:
        """Whether the folder holds the files this user's curator wrote when it recorded the index,
        each as it left them. A file it did not record (what a builder that died left, or one
        planted through git) is removed unread: whoosh's tables of contents and stored fields are
        pickles, and opening a planted one would run its code. Safe only under the search lock."""
        if not isinstance(recorded, dict):
            return False
        try:
            for entry in os.scandir(self.folder):  # whoosh's lock file too, which a writer leaves behind
                if entry.name != self.state_file.name and entry.name not in recorded:
                    if entry.is_dir(follow_symlinks=False):
                        shutil.rmtree(entry.path)
                    else:
                        os.unlink(entry.path)
            return self._files() == recorded
        except OSError:  # the folder or a file went away meanwhile: the index is built again
            return False

    def bm25(self, text: str, limit: int = 60, pages: bool = False) -> tuple[list[tuple[str, str, str]], set[str]]:
        """(page, best section heading, that section's text), best page first, and the matched
        terms: the pages of the best `limit` sections, or with `pages` the best `limit` pages."""
        if not text.strip():
            return [], set()
        with state_lock(self.root, SEARCH_LOCK):  # never an index half made by another builder
            # Checked again at each query: a server or the TUI runs for hours, and a file planted
            # since the last update (a `git pull` changes no page) would be opened otherwise.
            recorded = self._recorded if self._recorded is not None else self._state().get("files")
            if not self._only_its_own(recorded):
                shutil.rmtree(self.folder, ignore_errors=True)  # the next update builds it again
                self._recorded = None
                return [], set()
            return self._bm25(text, limit, pages)

    def _bm25(self, text: str, limit: int, pages: bool) -> tuple[list[tuple[str, str, str]], set[str]]:
        from whoosh import index
        from whoosh.qparser.default import MultifieldParser
        from whoosh.qparser.syntax import OrGroup

        from curator.core.meaning.analysis import lone_characters_as_prefixes

        ix = index.open_dir(str(self.folder))
        parser = MultifieldParser(["title", "content"], ix.schema, group=OrGroup)
        try:  # a question's "?" after a word ends it; whoosh would read "an?" as a wildcard (ant, ani-cli)
            query = parser.parse(lone_characters_as_prefixes(re.sub(r"\?+(?=\s|$)", " ", text)))
        except RecursionError as exc:  # whoosh parses groups recursively
            raise QueryError("the search nests parentheses too deep for its parser") from exc
        terms = {t if isinstance(t, str) else t.decode() for field, t in query.all_terms() if field == "content"}
        found: list[tuple[str, str, str]] = []
        seen: set[str] = set()
        with ix.searcher() as searcher:
            # A page's sections are hits of their own: the best `limit` sections, the fusion's BM25
            # list as it is tuned, or with `pages` the best `limit` pages (one page whose title
            # holds a word would fill a short list alone: every section carries the title).
            collapse = {"collapse": "path", "collapse_limit": 1} if pages else {}
            for hit in searcher.search(query, limit=limit, **collapse):
                path = hit["path"]
                if path not in seen:
                    seen.add(path)
                    found.append((path, hit["heading"], hit["body"]))
        return found, terms


def snippet(body: str, terms: set[str], languages: tuple[str, ...] = ("en",)) -> str:
    """The best short passage of a section, matched words in «» (only for the hits shown)."""
    from whoosh import highlight

    from curator.core.meaning.analysis import search_analyzer

    body = markdown.plain(body[:SNIPPET_CHARS])  # read outside a Markdown renderer: no syntax marks
    if not terms:
        return " ".join(body[:160].split())
    fragmenter = highlight.ContextFragmenter(maxchars=160, surround=50)
    analyzer = search_analyzer(languages)
    marked = highlight.highlight(body, frozenset(terms), analyzer, fragmenter, _Marker(), top=2)
    return " ".join((marked or body[:160]).split())


class _Marker:
    """whoosh formatter that wraps matched terms in «» (plain text, for any adapter)."""

    between = " … "

    def __call__(self, text: str, fragments: list[Any]) -> str:
        return self.format(fragments)

    def format(self, fragments: list[Any], replace: bool = False) -> str:
        return self.between.join(self.format_fragment(f) for f in fragments)

    def format_fragment(self, fragment: Any, replace: bool = False) -> str:
        text, out, index = fragment.text, [], fragment.startchar
        for token in fragment.matches:
            if token.startchar < index:
                continue
            out.append(text[index : token.startchar])
            out.append(f"«{text[token.startchar : token.endchar]}»")
            index = token.endchar
        out.append(text[index : fragment.endchar])
        return "".join(out)


@dataclass
class SearchHit:
    path: str
    title: str
    score: float
    section: str
    snippet: str
    reasons: list[str] = field(default_factory=list)


@dataclass
class SearchResult:
    query: str
    hits: list[SearchHit]
    rankers: dict[str, list[str]]  # each ranker's own order (for evaluation)
    notes: list[str] = field(default_factory=list)


def _fuse(rankings: dict[str, list[str]], weights: dict[str, float]) -> dict[str, float]:
    scores: dict[str, float] = defaultdict(float)
    for name, ranked in rankings.items():
        for rank, path in enumerate(ranked):
            scores[path] += weights.get(name, 1.0) / (RRF_K + rank + 1)
    return scores


def _ranked(fused: dict[str, float], lexical: list[str], semantic: list[str]) -> list[str]:
    """Pages by fused score; on a tie the lexical rank decides (exact words are the stronger
    evidence: with equal weights, BM25's n-th page ties with the vectors' n-th), then the semantic one."""
    by_words = {p: i for i, p in enumerate(lexical)}
    by_meaning = {p: i for i, p in enumerate(semantic)}
    return sorted(
        fused, key=lambda p: (-fused[p], by_words.get(p, len(by_words)), by_meaning.get(p, len(by_meaning)), p)
    )


def _with_freshness(vault: Vault, fused: dict[str, float], half_life_days: float) -> dict[str, float]:
    """Each score times a decay by the page's age (its last commit, else its file time): a page
    `half_life_days` old counts three quarters, a very old one half, never less, so an old page
    that answers the words still ranks above a fresh one that barely does."""
    from curator.core.read.age import age_days

    ages = age_days(vault)
    return {path: score * (0.5 + 0.5 * 0.5 ** (ages[path] / half_life_days)) for path, score in fused.items()}


FIRST_STAGE_WORDS = 20  # BM25's best pages, which the model reads too when it has not read the vault
RERANK_DEPTH = 20  # the fused results a cross-encoder reads again


def _reranked(
    vault: Vault, text: str, ranked: list[str], sections: dict[str, tuple[str, str]], notes: list[str]
) -> list[str]:
    """The top RERANK_DEPTH results in the order a cross-encoder gives them (the query read
    together with each page's best section), the rest as they were. Without the model: as they
    were, with a note saying why (fail-open)."""
    from curator.core.meaning.embeddings import load_reranker

    config = vault.config
    model, folder = config.search_rerank_model or "", config.search_rerank_model_path
    reranker, why = load_reranker(model, folder, config.embedding_cache_dir)
    if reranker is None:
        notes.append(f"rerank unavailable ({why}); results as fused")
        return ranked
    top = ranked[:RERANK_DEPTH]
    documents = []
    for path in top:
        heading, body = sections.get(path, (vault.pages[path].shown_title, ""))
        documents.append(f"{heading}\n{body or vault.text_of(path)}"[:2000])
    scores = list(reranker.rerank(text, documents))
    order = sorted(range(len(top)), key=lambda i: (-scores[i], i))
    return [top[i] for i in order] + ranked[RERANK_DEPTH:]


def _naming_stops(languages: tuple[str, ...]) -> frozenset[str]:
    """Words that name no page in a "title match": the full Snowball lists of the vault's languages
    and English ("how", "what", "der"), longer than the lists the words are indexed with."""
    from whoosh.lang.stopwords import stoplists

    return frozenset(fold(w) for language in {*languages, "en"} for w in stoplists.get(language, ()))


SUPERSEDED_SHARE = 0.5  # the share of its score a page marked `superseded_by` keeps


def _superseded(vault: Vault, path: str) -> bool:
    value = vault.pages[path].frontmatter.get("superseded_by")
    return bool(value) and bool(str(value).strip())


def _query_fields(vault: Vault) -> set[str]:
    keys = {k.casefold() for p in vault.pages.values() for k in p.frontmatter}
    return {"type", "path", "tag", "tags", "scheme", *KNOWN_RELATIONS} | keys


def _one_of_each_text(vault: Vault, ranked: list[str], limit: int) -> tuple[list[str], dict[str, list[str]]]:
    """The first `limit` of `ranked` with one page for each text (byte-identical copies, as a
    backup folder keeps them, take one place, the best-ranked), and each shown page's copies."""
    shown: list[str] = []
    first: dict[str, str] = {}  # a text's hash -> the page shown for it
    copies: dict[str, list[str]] = {}
    for path in ranked:
        sha = vault.pages[path].sha
        if sha and sha in first:
            copies.setdefault(first[sha], []).append(path)
            continue
        if len(shown) == limit:
            break
        if sha:
            first[sha] = path
        shown.append(path)
    return shown, copies


def indexed(vault: Vault, progress: Callable[[int, int], None] | None = None) -> SearchIndex:
    """The vault's search index, brought up to date with the vault as loaded: on every call, which
    costs a read of its state when nothing changed, so that an index taken away since (its files
    not this user's any more) is built again in a process that lives on."""
    index = SearchIndex(vault.root)
    index.update(vault, progress)
    return index


def check_query(raw: str) -> None:
    """QueryError for a search that is empty or too long to be one (MAX_QUERY_CHARS), before any
    work is done."""
    if not raw.strip():
        raise QueryError("the search is empty: give words to look for, or filters such as type:person")
    if len(raw) > MAX_QUERY_CHARS:
        raise QueryError(
            f"the search is {len(raw):,} characters long; at most {MAX_QUERY_CHARS:,}: search for its key words"
        )


def search(vault: Vault, raw: str, limit: int = 10, use_vectors: bool = True) -> SearchResult:
    """Pages for a query, fused from BM25, vectors and one link hop, each with a reason."""
    from curator.core.meaning.across import (
        LEAD_DEPTH,
        LEAD_WEIGHT,
        MAPPED_FLOOR,
        across_note,
        asked_across,
        lead_ranking,
        question_vector,
        without_foreign_stops,
    )
    from curator.core.meaning.vectors import nearest, provider_for, read_note

    check_query(raw)

    fields = vault.once("search.fields", lambda: _query_fields(vault))  # the keys a query may filter on
    query = parse_query(raw, fields)
    notes: list[str] = []
    if query.filters:
        test = page_test(vault, query.filters)
        allowed = {p for p in vault.pages if test(p)}
    else:  # every page: a resident's warm search at 13,000 pages spent a fifth of its time asking each
        allowed = set(vault.pages)
    # A template's text is placeholders, and an empty page's vector its title's alone (a new user's
    # `contents.md` of one "-" came first for "Taylor"): near questions by meaning, the answer to
    # none (their words still find them).
    by_meaning = {p for p in allowed - vault.templates if vault.pages[p].body_chars}
    config = vault.config
    meaning = use_vectors and bool(query.text)
    provider, warning = provider_for(vault) if meaning else (None, None)
    with ThreadPoolExecutor(max_workers=1) as early:
        # The model reads the first stage's pages while the words are indexed (on a cold vault
        # both take seconds; the model and the tokenizer leave the interpreter to the index).
        proposed = early.submit(nearest, vault, provider, query.text, by_meaning) if provider and not warning else None
        index = indexed(vault)
        matched, terms = index.bm25(without_foreign_stops(vault, query.text))
        if proposed is not None:
            proposed.result()
    bm25 = [hit for hit in matched if hit[0] in allowed]
    rankings: dict[str, list[str]] = {"bm25": [p for p, _, _ in bm25]}
    sections = {p: (heading, body) for p, heading, body in bm25}
    notes.extend(f"no rerank: {note}" for note in config.untrusted if "[search]" in note)
    confident: list[str] = []  # the vector ranker's pages that take part in the fusion
    if meaning and provider is not None:
        if warning:
            notes.append(f"semantic search unavailable ({warning}); results from BM25 and links only")
        else:
            asked = asked_across(vault, provider, query.text)  # a question in another language than the pages'
            notes.extend(across_note(vault, asked))
            mapped = question_vector(vault, provider, query.text, asked)
            found = nearest(
                vault, provider, query.text, by_meaning, also=rankings["bm25"][:FIRST_STAGE_WORDS], vector=mapped
            )
            if found.read < found.pages:
                notes.append(f"meaning from a first stage: {read_note(found.read, found.pages)}")
            order = list(found.scores)[:50]
            rankings["vector"] = order  # the ranker's own order, as evaluated
            floor = provider.floor if mapped is None else MAPPED_FLOOR
            confident = [path for path in order[:VECTOR_DEPTH] if found.scores[path] >= floor]
            if asked == "de":  # the multilingual model reads the candidates' leads
                candidates = list(dict.fromkeys(p for p in (*rankings["bm25"], *order) if p in by_meaning))
                rankings["leads"] = lead_ranking(vault, query.text, candidates, notes)[:LEAD_DEPTH]
    vector_weight = config.search_vector_weight * (provider.weight if provider else 1.0)
    fused = _fuse(
        {"bm25": rankings["bm25"], "vector": confident, "leads": rankings.get("leads", [])},
        {"bm25": config.search_bm25_weight, "vector": vector_weight, "leads": vector_weight * LEAD_WEIGHT},
    )
    # One hop: a page linked with a top hit but not matched itself scores a share of that hit's
    # score; matched pages keep their order (measured: boosting them as well ranks worse).
    linked_from: dict[str, str] = {}
    hop: dict[str, float] = defaultdict(float)
    for seed in _ranked(fused, rankings["bm25"], confident)[:5]:
        for rl in (*vault.outlinks(seed), *vault.backlinks(seed)):
            other = rl.resolution.path if rl.source == seed else rl.source
            if other and other not in fused and other in allowed and rl.resolution.kind == "page":
                share = config.search_graph_weight * fused[seed]
                if share > hop[other]:
                    hop[other] = share
                    linked_from[other] = seed
    rankings["graph"] = sorted(hop, key=lambda p: (-hop[p], p))
    fused.update(hop)
    if config.search_half_life_days > 0 and fused:  # a freshness prior: off unless configured
        fused = _with_freshness(vault, fused, config.search_half_life_days)
    superseded = {p: str(vault.pages[p].frontmatter["superseded_by"]) for p in fused if _superseded(vault, p)}
    for path in superseded:  # what it said no longer holds: below the pages that still do
        fused[path] *= SUPERSEDED_SHARE
    ranked = _ranked(fused, rankings["bm25"], confident)
    if config.search_rerank_model and query.text:
        ranked = _reranked(vault, query.text, ranked, sections, notes)
    room = max(min(limit, WEAK_UP_TO) - len(ranked), 0)
    weak = [p for p in rankings.get("vector", [])[:VECTOR_DEPTH] if p not in fused][:room]
    ranked += weak  # few pages matched: the meaning's next best follow, rather than nothing
    fused.update(dict.fromkeys(weak, 0.0))
    if not query.text:  # filters only: every matching page, by title
        ranked = sorted(allowed, key=lambda p: (fold(vault.pages[p].title), p))
        fused = dict.fromkeys(ranked, 0.0)
    stops = _naming_stops(languages_of(vault))  # "der" names no page, even through an alias that holds it
    words = {fold(w) for w in re.findall(r"\w+", query.text)} - stops
    hits = []
    shown, copies = _one_of_each_text(vault, ranked, limit)
    for path in shown:
        page = vault.pages[path]
        reasons = []
        if words & {fold(w) for w in re.findall(r"\w+", page.shown_title + " " + " ".join(page.aliases))}:
            reasons.append("title match")
        elif path in sections:
            reasons.append("text match")
        if path in weak:
            reasons.append("semantic, weak")
        elif path in rankings.get("vector", [])[:10] or path in rankings.get("leads", []):
            reasons.append("semantic")
        if path in linked_from and path not in sections and "semantic" not in reasons:
            reasons.append(f"linked from {vault.pages[linked_from[path]].title}")
        if not query.text:
            reasons.append("filter")
        if path in superseded:
            reasons.append(f"superseded by {superseded[path]}")
        if copies.get(path):
            more = len(copies[path]) - 1
            reasons.append(f"same text at {copies[path][0]}" + (f" and {more} more" if more else ""))
        heading, body = sections.get(path, (page.shown_title, ""))
        hits.append(
            SearchHit(
                path,
                page.shown_title,
                round(fused[path], 5),
                heading,
                snippet(body, terms, languages_of(vault)) if body else "",
                reasons,
            )
        )
    return SearchResult(raw, hits, rankings, notes)
