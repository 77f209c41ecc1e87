"""Vectors of pages, for search, remember and the similar-page search: the embedding provider
of a vault, each page's vector and its sections', kept on disk by content hash and on the loaded
vault for the rest of its life."""

from __future__ import annotations

import contextlib
import hashlib
import io
import os
import threading
import time
from collections.abc import Callable, Collection, Iterable, Sequence
from concurrent.futures import Future
from dataclasses import dataclass
from itertools import zip_longest
from typing import TYPE_CHECKING, BinaryIO

import numpy as np

from curator.core.common.errors import VaultBusy
from curator.core.meaning.embeddings import (
    CHUNK_WORDS,
    EmbeddingProvider,
    StaticEmbedder,
    Vectors,
    load_provider,
)
from curator.core.read import boilerplate, markdown
from curator.core.read.page import content_hash
from curator.core.read.parse import split_frontmatter
from curator.core.state import cache
from curator.core.state.lock import state_lock
from curator.core.state.statefiles import StateKeyError, UnsafeState

if TYPE_CHECKING:
    from pathlib import Path

    from curator.core.read.vault import Vault
    from curator.core.state.config import Config


TEXT_RECIPE = "v5"  # bump when page_text or section_texts change: every cached vector is then rebuilt


Progress = Callable[[int, int], None]


def page_text(title: str, text: str) -> str:
    """What a page's vector for search is made of: its title and body, without frontmatter, heading
    lines (template headings are the same on unrelated pages) and link brackets."""
    _, _, body_at = split_frontmatter(text)
    return f"{title}\n\n{_plain_words(text[body_at:])}"


def _plain_words(text: str) -> str:
    """The words of a stretch of Markdown: heading lines and HTML markup out, links as the words they show."""
    return " ".join(boilerplate.wikilinks_as_shown(markdown.without_html(markdown.without_heading_lines(text))).split())


_PROVIDERS: dict[tuple[str, str | None, str | None, str | None], Future[tuple[EmbeddingProvider, str | None]]] = {}
_PROVIDERS_LOCK = threading.Lock()


def _load(
    kind: str, model_path: str | None, model_name: str | None, cache_dir: str | None
) -> tuple[EmbeddingProvider, str | None]:
    """Each provider once a process; a second caller (another thread) waits for the first."""
    key = (kind, model_path, model_name, cache_dir)
    with _PROVIDERS_LOCK:
        future = _PROVIDERS.get(key)
        first = future is None
        if future is None:
            future = _PROVIDERS[key] = Future()
    if first:
        try:
            choice = load_provider(kind, model_path, model_name, cache_dir)  # a model that fails falls back
        except BaseException as exc:  # an interrupt: whoever waits hears of it too
            future.set_exception(exc)
            raise
        future.set_result((choice.provider, choice.warning))
    return future.result()


def load_model(kind: str) -> EmbeddingProvider:
    """The provider of `kind` as curator ships it, loaded once a process (the lexical one when it fails)."""
    return _load(kind, None, None, None)[0]


def preload_provider(config: Config, root: Path | None = None) -> None:
    """Start loading the configured model in a thread, so that it loads while the vault does
    (the model's runtime does its work without holding the GIL): `remember` and `search` start
    0.2 s sooner on a large vault. Not a daemon: the interpreter waits for it before it exits, as
    leaving while onnxruntime builds its session frees what that session is being built from
    (`std::bad_alloc`, then `terminate`: exit code 134 after a refused write or a bad query).
    With the choice left to the vault's language, the languages the words index of `root`
    recorded last time choose (the English model, most vaults', before a first index): loading
    the English model for a German vault, which then loads the multilingual one too, took a
    search's peak memory from 69 MB to 310 MB."""
    threading.Thread(target=_preload, args=(config, root), name="curator-model").start()


def _preload(config: Config, root: Path | None) -> None:
    kind = config.embedding_provider
    if kind == "auto":
        languages = _recorded_languages(root) if root is not None else None
        kind = provider_kind(config, languages) if languages is not None else "fastembed"
    _load_configured(config, kind)


def _recorded_languages(root: Path) -> tuple[str, ...] | None:
    """The vault's languages as its words index (search.py's `SearchIndex`, whose state file this
    reads: search imports this module) recorded them last time; None before a first index or when
    its state cannot be read. Sealed: this user's curator's. A guess, for the model loaded ahead."""
    try:
        data = cache.read_json(cache.state_dir(root) / "search" / "state.json", sealed=True)
    except (OSError, ValueError, StateKeyError, UnsafeState):  # a state folder that is a link: the command says so
        return None
    languages = data.get("languages") if isinstance(data, dict) else None
    if not isinstance(languages, list) or not all(isinstance(lang, str) for lang in languages):
        return None
    return tuple(languages)


def provider_kind(config: Config, languages: tuple[str, ...]) -> str:
    """The provider the vault's setting names. "auto" (the default): the multilingual model for a
    vault written (a tenth of it or more) in another language than English, when its package is
    installed; otherwise, and when a model folder or name is set, the English one."""
    from curator.core.meaning.embeddings import multilingual_installed

    kind = config.embedding_provider
    if kind != "auto":
        return kind
    if config.embedding_model_path or config.embedding_model_name:
        return "fastembed"
    return "multilingual" if set(languages) - {"en"} and multilingual_installed() else "fastembed"


def provider_for(vault: Vault) -> tuple[EmbeddingProvider, str | None]:
    """The vault's provider (loaded once a process) and why it is not the one the vault asked
    for, if it is not: the model fell back, or the vault's model setting needs trust."""
    from curator.core.read.words import languages_of

    config = vault.config
    languages = languages_of(vault) if config.embedding_provider == "auto" else ()
    return _load_configured(config, provider_kind(config, languages))


def _load_configured(config: Config, kind: str) -> tuple[EmbeddingProvider, str | None]:
    provider, warning = _load(
        kind, config.embedding_model_path, config.embedding_model_name, config.embedding_cache_dir
    )
    untrusted = [note for note in config.untrusted if "[embedding]" in note]
    return provider, "; ".join([*untrusted, *([warning] if warning else [])]) or None


def readable(vault: Vault) -> list[str]:
    return [p.path for p in vault.pages.values() if p.unreadable is None and p.sha]


MAX_SECTIONS = 12  # rows of a page beyond its vector: its largest sections
MAX_WORDS = 540  # of one text, what the model reads (three pieces): a 40,000-word page costs a long one's time


class PageRows:
    """Each page's rows under one provider (its vector, then its largest sections'), by `row_key`
    (its title and content hash): read from `.curator/cache/` once a load, embedded where missing,
    stored after each fill with what another process stored meanwhile. One per loaded vault and
    provider (`rows_of`); threads share it."""

    def __init__(self, vault: Vault, provider: EmbeddingProvider) -> None:
        self.vault, self.provider = vault, provider
        self.store = store_name("vectors", provider.id, TEXT_RECIPE)
        self.rows: dict[str, np.ndarray] = _load_rows(vault, self.store) if vault.use_cache else {}
        self.lock = threading.Lock()
        self._stacked: tuple[int, list[str], list[str], Vectors] | None = None
        self._unstored = False
        self._asked: dict[str, Vectors] = {}

    def missing(self, paths: Iterable[str]) -> list[str]:
        with self.lock:
            return [p for p in dict.fromkeys(paths) if row_key(self.vault, p) not in self.rows]

    def fill(self, paths: Iterable[str], progress: Progress | None = None, store: bool = True) -> int:
        """Embed those of `paths` not embedded yet; how many that was. The model runs outside the
        lock, so a search in one thread is not held up by a fill in another. `store`: write the
        rows to disk now (else at the next `store_now`)."""
        todo = self.missing(paths)
        if todo:
            made = _embed_rows(self.vault, self.provider, todo, progress)
            with self.lock:
                for key, row in made:  # a page changed since the load is kept under what was read
                    self.rows[key] = row
                self._unstored = True
        if store:
            self.store_now()
        return len(todo)

    def store_now(self) -> None:
        """Write the rows to disk, with those another process stored meanwhile."""
        with self.lock:
            if not self.vault.use_cache or not self._unstored:
                return
            current = {row_key(self.vault, p) for p in readable(self.vault)}
            try:
                with state_lock(self.vault.root, STORE_LOCK):  # no other writer between our read and our two files
                    for key, row in _load_rows(self.vault, self.store).items():
                        if key in current:
                            self.rows.setdefault(key, row)
                    keys = [key for key in self.rows if key in current]
                    _store_rows(self.vault, self.store, keys, [self.rows[key] for key in keys])
            except VaultBusy:  # no lock can be made (a read-only vault): not stored, as no store could be
                return
            self._unstored = False

    def vector_of(self, text: str) -> Vectors:
        """The text's vector (the last few asked are kept: a search asks twice)."""
        with self.lock:
            known = self._asked.get(text)
        if known is None:
            known = self.provider.embed_query(text)
            with self.lock:
                self._asked = {**dict(list(self._asked.items())[-7:]), text: known}
        return known

    def stacked(self, paths: list[str]) -> tuple[list[str], Vectors]:
        """(the page each row belongs to, the rows) of those `paths` that are embedded: every
        page's vector, then its sections'."""
        with self.lock:
            if self._stacked is not None and self._stacked[:2] == (len(self.rows), paths):
                return self._stacked[2], self._stacked[3]
            keys = [row_key(self.vault, p) for p in paths]
            have = [(p, self.rows[key]) for p, key in zip(paths, keys, strict=True) if key in self.rows]
            dim = next(iter(self.rows.values())).shape[1] if self.rows else 384
            owners = [p for p, _ in have] + [p for p, row in have for _ in range(len(row) - 1)]
            blocks = [np.stack([row[0] for _, row in have])] if have else [np.zeros((0, dim), np.float32)]
            blocks += [row[1:] for _, row in have if len(row) > 1]
            matrix = np.concatenate(blocks).astype(np.float32)
            self._stacked = (len(self.rows), paths, owners, matrix)
            return owners, matrix


def row_key(vault: Vault, path: str, sha: str | None = None) -> str:
    """What a page's rows are stored under: its content hash and its title (what the model reads
    of it), so that two pages of the same bytes (two empty notes) keep each its own vector."""
    if sha:
        return _row_key(vault.pages[path].title, sha)
    known: dict[str, str] = vault.once("vectors.row_keys", dict)  # each search asks for every page's
    if path not in known:
        known[path] = _row_key(vault.pages[path].title, vault.pages[path].sha)
    return known[path]


def _row_key(title: str, sha: str | None) -> str:
    return hashlib.blake2b(f"{title}\0{sha}".encode(), digest_size=16).hexdigest()


_ROWS_LOCK = threading.Lock()
STORE_LOCK = "vectors.lock"  # under .curator/: held while a vectors store's two files are read and written


def rows_of(vault: Vault, provider: EmbeddingProvider) -> PageRows:
    with _ROWS_LOCK:
        return vault.once(f"vectors.rows.{provider.id}", lambda: PageRows(vault, provider))


def page_vectors(
    vault: Vault, provider: EmbeddingProvider, progress: Progress | None = None
) -> tuple[list[str], Vectors, int]:
    """(paths, unit vectors, pages embedded now) of every readable page (the similarity bench and
    tests; search and remember ask `nearest`)."""
    rows = rows_of(vault, provider)
    paths = readable(vault)
    embedded = rows.fill(paths, progress)
    vectors = [rows.rows[row_key(vault, p)][0] for p in paths]
    return paths, (np.stack(vectors) if vectors else np.zeros((0, 384))).astype(np.float32), embedded


EMBED_NOW = 300  # pieces a search or remember has the model read of the pages not read yet, before it answers
FIRST_STAGE = 40  # pages the static table proposes to the model for one text, past EMBED_NOW
QUERY_PIECES = 48  # what the model reads for one text at most (about 5 s here): long pages cost more


@dataclass(frozen=True)
class Nearest:
    scores: dict[str, float]  # page -> cosine of its best row with the text, best first
    read: int  # pages the model has read (the rest were judged by the first stage)
    pages: int


def nearest(
    vault: Vault,
    provider: EmbeddingProvider,
    text: str,
    allowed: Collection[str] | None = None,
    also: Sequence[str] = (),
    vector: Vectors | None = None,
    read_now: bool = True,
) -> Nearest:
    """Pages by meaning nearest `text`, among `allowed`. With a model, when the pages not embedded
    yet cost more than EMBED_NOW pieces, only the first stage's FIRST_STAGE nearest (a static token table,
    every page in seconds), the pages in `also` and those embedded earlier are read by the model:
    the answer comes in seconds on any vault and the rest is read by `fill_all` (`curator index`,
    or behind the TUI and the MCP server). `vector`: the text's vector, when it is not the
    provider's own (a question across languages, `across.question_vector`). `read_now` False: by
    the pages read already, none read now."""
    rows = rows_of(vault, provider)
    paths = [p for p in readable(vault) if allowed is None or p in allowed]
    missing = rows.missing(paths) if read_now else []
    if not provider.cheap and len(_affordable(vault, missing, EMBED_NOW, provider.piece_cost)) < len(missing):
        proposed = first_stage(vault, text, paths, FIRST_STAGE)
        unread = set(missing)
        turns = dict.fromkeys(p for pair in zip_longest(also, proposed) for p in pair if p in unread)
        chosen = _affordable(vault, list(turns), QUERY_PIECES, provider.piece_cost)
        rows.fill(chosen)
    else:
        rows.fill(missing)
    owners, matrix = rows.stacked(paths)
    if not owners:
        return Nearest({}, 0, len(paths))
    cosines = matrix @ (rows.vector_of(text) if vector is None else vector)
    best: dict[str, float] = {}
    for i in np.argsort(-cosines).tolist():
        best.setdefault(owners[i], float(cosines[i]))
    return Nearest(best, len(set(owners)), len(paths))


def read_note(read: int, pages: int) -> str:
    return f"the model has read {read:,} of {pages:,} pages (curator index reads the rest)"


def unread_note(vault: Vault) -> str:
    """What a decision by meaning says while the model has not read the whole vault (a page it has
    not read may be the place: a new user's `remember`, 9 of 20 right before `curator index`, 12
    after), or ""."""
    pages = readable(vault)
    unread = len(rows_of(vault, provider_for(vault)[0]).missing(pages))
    return read_note(len(pages) - unread, len(pages)) if unread else ""


FILL_BATCH = 16  # pages a fill embeds at most at once
FILL_PIECES = 16  # pieces of the bundled model's time a fill reads between two looks at `stop`: a second or two
STORE_EVERY = 5.0  # seconds at least between two stores of a long fill: what a kill -9 loses
STORE_SHARE = 20  # and at least this many times what the last store took: storing costs a twentieth at most


def _affordable(vault: Vault, paths: list[str], budget: float, piece_cost: float) -> list[str]:
    """Of `paths`, in order, those the model reads within `budget` pieces of the bundled model's
    time; a page that would overrun what is left is passed over for shorter ones after it (a long
    first page would take the whole budget: the multilingual model, at four times the cost a
    piece, read nothing of a German vault whose nearest page had 14 pieces)."""
    spent, chosen = 0.0, []
    for path in paths:
        cost = pieces_of(vault, path) * piece_cost
        if spent + cost <= budget:
            spent += cost
            chosen.append(path)
    return chosen


def fill_all(
    vault: Vault,
    provider: EmbeddingProvider,
    progress: Progress | None = None,
    stop: Callable[[], bool] = lambda: False,
) -> int:
    """Have the model read every page not read yet, a few at a time, storing what it read every
    STORE_EVERY seconds or more (STORE_SHARE; a kill loses no more) and when it stops; how many it
    read. A batch ends at FILL_BATCH pages or FILL_PIECES pieces: 16 long pages took 10-30 s."""
    rows = rows_of(vault, provider)
    missing = rows.missing(readable(vault))
    done, at, stored_at, store_took = 0, 0, time.monotonic(), 0.0
    try:
        while at < len(missing) and not stop():
            batch: list[str] = []
            cost = 0.0
            while at < len(missing) and len(batch) < FILL_BATCH and cost < FILL_PIECES:
                batch.append(missing[at])
                cost += pieces_of(vault, missing[at]) * max(provider.piece_cost, 1.0)  # the bundled model's time
                at += 1
            done += rows.fill(batch, store=False)
            if time.monotonic() - stored_at > max(STORE_EVERY, STORE_SHARE * store_took):
                began = time.monotonic()  # a whole store is written each time: a large vault's takes longer
                rows.store_now()
                stored_at = time.monotonic()
                store_took = stored_at - began
            if progress is not None:
                progress(at, len(missing))
    finally:
        rows.store_now()
    return done


def first_stage(vault: Vault, text: str, paths: list[str], limit: int) -> list[str]:
    """The `limit` pages of `paths` nearest `text` by the static token table."""
    embedder = static_embedder()
    every = readable(vault)
    store = store_name("static", embedder.id, TEXT_RECIPE)

    def compute(missing: list[int]) -> list[np.ndarray]:
        texts = [page_text(vault.pages[every[i]].title, _text_now(vault, every[i])) for i in missing]
        return list(embedder.embed(texts)[:, None, :])

    def make() -> dict[str, np.ndarray]:
        rows, _ = cached_rows(vault, store, [row_key(vault, p) for p in every], compute)
        return {p: row[0] for p, row in zip(every, rows, strict=True)}

    with _ROWS_LOCK:
        table = vault.once(f"vectors.static.{embedder.id}", make)
    chosen = [p for p in paths if p in table]
    if not chosen:
        return []
    cosines = np.stack([table[p] for p in chosen]) @ embedder.embed([text])[0]
    return [chosen[i] for i in np.argsort(-cosines)[:limit].tolist()]


_STATIC: list[StaticEmbedder] = []


def static_embedder() -> StaticEmbedder:
    with _PROVIDERS_LOCK:
        if not _STATIC:
            _STATIC.append(StaticEmbedder())
        return _STATIC[0]


SECTION_WORDS = 20  # a section shorter than this says too little to be matched on its own


def section_texts(title: str, text: str) -> list[tuple[str, int]]:
    """(text, words) of each section of a page (heading path, then its words), for a page with two
    or more sections of SECTION_WORDS words; [] otherwise (its page vector says it all)."""
    _, _, body_at = split_frontmatter(text)
    found = []
    for heading, part in markdown.sections(title, text[body_at:]):
        words = _plain_words(part)
        if words:
            found.append((f"{heading}\n\n{words}", len(words.split())))
    return found if sum(n >= SECTION_WORDS for _, n in found) >= 2 else []


def _cut(text: str) -> str:
    words = text.split(maxsplit=MAX_WORDS)
    return text if len(words) <= MAX_WORDS else " ".join(words[:MAX_WORDS])


def _texts_of(title: str, page_text_now: str) -> tuple[list[tuple[str, int]], bool]:
    """(text, words) the model reads of a page, and whether they are its sections (its largest
    MAX_SECTIONS, in page order) rather than its whole text; each cut at MAX_WORDS."""
    found = section_texts(title, page_text_now)
    if len(found) > MAX_SECTIONS:
        largest = sorted(range(len(found)), key=lambda k: -found[k][1])[:MAX_SECTIONS]
        found = [found[k] for k in sorted(largest)]
    if found:
        return [(_cut(text), min(n, MAX_WORDS)) for text, n in found], True
    text = page_text(title, page_text_now)
    return [(_cut(text), min(len(text.split()), MAX_WORDS))], False


def pieces_of(vault: Vault, path: str) -> int:
    """What reading a page costs the model, in pieces it reads whole (see `chunks`); worked out
    once a load, as every search on a vault not read yet counts the same unread pages again."""
    known: dict[str, int] = vault.once("vectors.pieces", dict)
    if path not in known:
        texts = _texts_of(vault.pages[path].title, _text_now(vault, path))[0]
        known[path] = sum(-(-max(n, 1) // CHUNK_WORDS) for _, n in texts)
    return known[path]


def _text_now(vault: Vault, path: str) -> str:
    """The page's text on disk now; "" when it is gone since the load (a search does not fail on it)."""
    try:
        return vault.text_of(path)
    except OSError:
        return ""


def _embed_rows(
    vault: Vault, provider: EmbeddingProvider, paths: list[str], progress: Progress | None
) -> list[tuple[str, np.ndarray]]:
    """Per page, the key of the text read (`row_key`: a page edited since the load is not stored
    under its old text's key) and its vector then the vectors of its sections (see `_texts_of`):
    a page with sections is embedded section by section, its vector their mean weighted by words,
    so no text is read twice, and no page costs more than MAX_SECTIONS texts of MAX_WORDS."""
    keys, read = [], []
    for path in paths:
        try:
            data = (vault.root / path).read_bytes()
        except OSError:  # gone or unreadable since the load: no row, the next load sees why
            continue
        keys.append(row_key(vault, path, content_hash(data)))
        read.append(_texts_of(vault.pages[path].title, data.decode("utf-8", "replace")))
    if not read:
        return []
    vectors = provider.embed([text for texts, _ in read for text, _ in texts], progress)
    out, at = [], 0
    for texts, sectioned in read:
        rows = vectors[at : at + len(texts)]
        at += len(texts)
        if not sectioned:
            out.append(rows[:1].astype(np.float32))
            continue
        weights = np.array([n for _, n in texts], dtype=np.float32)[:, None]
        mean = (rows * weights).sum(axis=0)
        page = mean / max(float(np.linalg.norm(mean)), 1e-12)
        keep = [k for k, (_, n) in enumerate(texts) if n >= SECTION_WORDS]
        out.append(np.vstack([page[None], rows[keep]]).astype(np.float32))
    return list(zip(keys, out, strict=True))


def cached_rows(
    vault: Vault,
    store: str,
    keys: list[str],
    compute: Callable[[list[int]], list[np.ndarray]],
    also_keep: set[str] | None = None,
) -> tuple[list[np.ndarray], int]:
    """One 2-D array per key, from the store `store` under `.curator/cache/` where it has the key,
    else from `compute(missing indexes)`. The store then holds these keys' arrays and those it had
    for `also_keep` (the other current pages', when only some pages were asked for): a changed or
    deleted page leaves nothing behind."""
    stored = _load_rows(vault, store) if vault.use_cache else {}
    missing = [i for i, key in enumerate(keys) if key not in stored]
    fresh = dict(zip(missing, compute(missing), strict=True)) if missing else {}
    rows = [fresh[i] if i in fresh else stored[key] for i, key in enumerate(keys)]
    asked = set(keys)
    wanted = asked | (also_keep or set())
    if vault.use_cache and (missing or not stored.keys() <= wanted):
        with contextlib.suppress(VaultBusy), state_lock(vault.root, STORE_LOCK):  # its two files as one
            stored.update(_load_rows(vault, store))  # with what another process stored meanwhile
            kept = [(key, row) for key, row in stored.items() if key in wanted and key not in asked]
            _store_rows(vault, store, [*keys, *(k for k, _ in kept)], [*rows, *(r for _, r in kept)])
    return rows, len(missing)


INDEX_BYTES_A_PAGE = 1000  # a store's index holds a key and a count a page (about 50 bytes): more is not read


def _load_rows(vault: Vault, store: str) -> dict[str, np.ndarray]:
    """The store's rows by key; {} when it is missing, cut short, or not this user's curator's
    (its index is sealed and names the size and digest of the array it goes with: a cloned vault's
    store, or an array from another write, is made again)."""
    index_path = cache.cache_path(vault.root, f"{store}.json")
    try:
        too_large = os.lstat(index_path).st_size > INDEX_BYTES_A_PAGE * (len(vault.pages) + 1000)
    except OSError:  # missing: every row is made
        return {}
    index = None if too_large else cache.read_large_json(index_path, sealed=True)
    if not isinstance(index, dict) or not isinstance(index.get("rows"), list):
        return {}
    try:
        with cache.open_binary(cache.cache_path(vault.root, f"{store}.npy")) as handle:
            if os.fstat(handle.fileno()).st_size != index.get("bytes"):  # not read at all: it may be huge
                return {}
            data = handle.read()
        if hashlib.blake2b(data, digest_size=16).hexdigest() != index.get("digest"):
            return {}
        matrix = np.load(io.BytesIO(data), allow_pickle=False)
    except (OSError, ValueError, EOFError):  # missing, cut short or empty (a crash): made again
        return {}
    if sum(n for _, n in index["rows"]) != len(matrix):
        return {}
    rows, at = {}, 0
    for key, n in index["rows"]:
        rows[key] = matrix[at : at + n]
        at += n
    return rows


def _store_rows(vault: Vault, store: str, keys: list[str], rows: list[np.ndarray]) -> None:
    """Keep exactly the current keys' rows: a changed or deleted page leaves nothing behind."""
    unique: dict[str, np.ndarray] = {}
    for key, row in zip(keys, rows, strict=True):
        unique.setdefault(key, row)
    if not unique:
        return
    first = next(iter(unique.values()))
    header = {
        "descr": np.lib.format.dtype_to_descr(first.dtype),
        "fortran_order": False,
        "shape": (sum(len(row) for row in unique.values()), first.shape[1]),
    }
    digest, size = hashlib.blake2b(digest_size=16), [0]

    def write(handle: BinaryIO) -> None:  # row by row: no second copy of a large store in memory
        head = io.BytesIO()
        np.lib.format.write_array_header_1_0(head, header)
        for part in (head.getvalue(), *(np.ascontiguousarray(r, dtype=first.dtype).tobytes() for r in unique.values())):
            digest.update(part)
            size[0] += len(part)
            handle.write(part)

    if cache.write_with(vault.root, f"{store}.npy", write) is None:
        counts = [[key, len(row)] for key, row in unique.items()]
        index = {"rows": counts, "digest": digest.hexdigest(), "bytes": size[0]}
        cache.write_json(vault.root, f"{store}.json", index, sealed=True)


def store_name(kind: str, *parts: object) -> str:
    return f"{kind}-" + hashlib.blake2b("\0".join(map(str, parts)).encode(), digest_size=8).hexdigest()
