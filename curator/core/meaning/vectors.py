"""Vectors of pages, for search, remember and the similar-page search: the embedding provider
of a vault, each page's vector and its sections', kept on disk by content hash and on the loaded
vault for the rest of its life."""

from __future__ import annotations

import hashlib
import threading
from collections.abc import Callable
from concurrent.futures import Future
from typing import TYPE_CHECKING, BinaryIO

import numpy as np

from curator.core.meaning.embeddings import (
    EmbeddingProvider,
    Vectors,
    load_provider,
)
from curator.core.read import boilerplate, markdown
from curator.core.read.parse import split_frontmatter
from curator.core.state import cache

if TYPE_CHECKING:
    from curator.core.read.vault import Vault
    from curator.core.state.config import Config


TEXT_RECIPE = "v3"  # bump when page_text or section_texts change: every cached vector is then rebuilt


Progress = Callable[[int, int], None]


def page_text(title: str, text: str) -> str:
    """What a page's vector for search is made of: its title and body, without frontmatter, heading
    lines (template headings are the same on unrelated pages) and link brackets."""
    _, _, body_at = split_frontmatter(text)
    return f"{title}\n\n{_plain_words(text[body_at:])}"


def _plain_words(markdown_text: str) -> str:
    """The words of a stretch of Markdown: heading lines out, links as the words they show."""
    return " ".join(boilerplate.wikilinks_as_shown(markdown.without_heading_lines(markdown_text)).split())


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


def preload_provider(config: Config) -> None:
    """Start loading the configured model in a thread, so that it loads while the vault does
    (the model's runtime does its work without holding the GIL): `remember` and `search` start
    0.2 s sooner on a large vault. Not a daemon: the interpreter waits for it before it exits, as
    leaving while onnxruntime builds its session frees what that session is being built from
    (`std::bad_alloc`, then `terminate`: exit code 134 after a refused write or a bad query)."""
    threading.Thread(target=provider_for, args=(config,), name="curator-model").start()


def provider_for(config: Config) -> tuple[EmbeddingProvider, str | None]:
    """The configured provider (loaded once a process) and why it is not the one the vault asked
    for, if it is not: the model fell back, or the vault's model setting needs trust."""
    provider, warning = _load(
        config.embedding_provider, config.embedding_model_path, config.embedding_model_name, config.embedding_cache_dir
    )
    untrusted = [note for note in config.untrusted if "[embedding]" in note]
    return provider, "; ".join([*untrusted, *([warning] if warning else [])]) or None


def page_vectors(
    vault: Vault, provider: EmbeddingProvider, progress: Progress | None = None
) -> tuple[list[str], Vectors, int]:
    """(paths, unit vectors, pages embedded now) of every readable page's whole text (for search
    and remember); cached by content hash on disk, and on the loaded vault for the rest of its life."""
    paths, rows, embedded = _page_rows(vault, provider, progress)

    def make() -> tuple[list[str], Vectors]:
        matrix = np.stack([row[0] for row in rows]) if rows else np.zeros((0, 384), dtype=np.float32)
        return paths, matrix.astype(np.float32)

    return (*vault.once(f"vectors.page_vectors.{provider.id}", make), embedded)


def search_vectors(vault: Vault, provider: EmbeddingProvider) -> tuple[list[str], Vectors]:
    """Rows search compares a query with, and the page each belongs to: every page's vector, then
    the vectors of the sections of pages that have several (measured on benchmarks/search_eval.py,
    they find the page one of whose sections answers a question)."""

    def make() -> tuple[list[str], Vectors]:
        paths, pages, _ = page_vectors(vault, provider)
        _, rows, _ = _page_rows(vault, provider)
        owners = [*paths, *(path for path, row in zip(paths, rows, strict=True) for _ in range(len(row) - 1))]
        sections = [row[1:] for row in rows if len(row) > 1]
        matrix = np.concatenate([pages, *sections]).astype(np.float32) if sections else pages
        return owners, matrix

    return vault.once(f"vectors.search_vectors.{provider.id}", make)


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


def _page_rows(
    vault: Vault, provider: EmbeddingProvider, progress: Progress | None = None
) -> tuple[list[str], list[np.ndarray], int]:
    """Per readable page, its vector then the vectors of its sections (see section_texts): a page
    with sections is embedded section by section, its vector their mean weighted by words, so no
    text is read twice."""
    key = f"vectors.page_rows.{provider.id}"
    if key in vault.derived:
        paths, rows = vault.derived[key]
        return paths, rows, 0
    paths = [p.path for p in vault.pages.values() if p.unreadable is None and p.sha]

    def compute(missing: list[int]) -> list[np.ndarray]:
        plain: list[int] = []
        parts: dict[int, list[tuple[str, int]]] = {}
        for i in missing:
            page = vault.pages[paths[i]]
            found = section_texts(page.title, vault.text_of(page.path))
            if found:
                parts[i] = found
            else:
                plain.append(i)
        texts = [page_text(vault.pages[paths[i]].title, vault.text_of(paths[i])) for i in plain]
        texts += [text for i in parts for text, _ in parts[i]]
        vectors = provider.embed(texts, progress)
        out: dict[int, np.ndarray] = {i: vectors[k][None] for k, i in enumerate(plain)}
        at = len(plain)
        for i, found in parts.items():
            sections = vectors[at : at + len(found)]
            at += len(found)
            weights = np.array([n for _, n in found], dtype=np.float32)[:, None]
            mean = (sections * weights).sum(axis=0)
            page = mean / max(float(np.linalg.norm(mean)), 1e-12)
            keep = [k for k, (_, n) in enumerate(found) if n >= SECTION_WORDS]
            out[i] = np.vstack([page[None], sections[keep]]).astype(np.float32)
        return [out[i] for i in missing]

    store = store_name("vectors", provider.id, TEXT_RECIPE)
    rows, embedded = cached_rows(vault, store, [vault.pages[p].sha for p in paths], compute)
    vault.derived[key] = (paths, rows)
    return paths, rows, embedded


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
        kept = [(key, row) for key, row in stored.items() if key in wanted and key not in asked]
        _store_rows(vault, store, [*keys, *(k for k, _ in kept)], [*rows, *(r for _, r in kept)])
    return rows, len(missing)


def _load_rows(vault: Vault, store: str) -> dict[str, np.ndarray]:
    index = cache.read_large_json(cache.cache_path(vault.root, f"{store}.json"))
    try:
        with cache.open_binary(cache.cache_path(vault.root, f"{store}.npy")) as handle:
            matrix = np.load(handle, allow_pickle=False)
    except (OSError, ValueError, EOFError):  # missing, cut short or empty (a crash): made again
        return {}
    if not isinstance(index, list) or sum(n for _, n in index) != len(matrix):
        return {}
    rows, at = {}, 0
    for key, n in index:
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

    def write(handle: BinaryIO) -> None:  # row by row: no second copy of a large store in memory
        np.lib.format.write_array_header_1_0(handle, header)
        for row in unique.values():
            handle.write(np.ascontiguousarray(row, dtype=first.dtype).tobytes())

    if cache.write_with(vault.root, f"{store}.npy", write) is None:
        cache.write_json(vault.root, f"{store}.json", [[key, len(row)] for key, row in unique.items()])


def store_name(kind: str, *parts: object) -> str:
    return f"{kind}-" + hashlib.blake2b("\0".join(map(str, parts)).encode(), digest_size=8).hexdigest()
