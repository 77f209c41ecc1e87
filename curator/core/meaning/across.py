"""A question in another language than the vault's, for pages the English model read: whether a
question is one, and its vector by way of the multilingual model (`QuestionMap`)."""

from __future__ import annotations

import functools
import json
import re
import threading
from importlib import resources
from typing import TYPE_CHECKING

import numpy as np

from curator.core.meaning.embeddings import (
    BUNDLED_MODEL,
    EmbeddingProvider,
    MultilingualModel,
    QuestionMap,
    Vectors,
    multilingual_installed,
)
from curator.core.meaning.vectors import (
    TEXT_RECIPE,
    cached_rows,
    load_model,
    page_text,
    readable,
    row_key,
    rows_of,
    store_name,
)
from curator.core.read.resolve import fold
from curator.core.read.words import language_of, languages_of

if TYPE_CHECKING:
    from curator.core.read.vault import Vault


# A mapped question's cosines run lower than the English model's own (an attacker's tldr questions:
# answers at 0.32-0.43, the same questions in English 0.42-0.62): the search floor for it. On the
# tuning sets' 79 German questions on English vaults, fused recall@5 at 0.45 / 0.4 / 0.35 / 0.3:
# 47 / 49 / 48 / 44.
MAPPED_FLOOR = 0.4


def asked_across(vault: Vault, provider: EmbeddingProvider, text: str) -> str:
    """The language of `text` when it is not the vault's and the vault's model is the English
    MiniLM (bundled, or the same model through fastembed), which reads English only; else ""."""
    if not str(getattr(provider, "label", "")).startswith(BUNDLED_MODEL):
        return ""
    asked, pages = question_language(text), languages_of(vault)
    return asked if asked and asked not in pages and len(pages) == 1 else ""


# Above this mean log-odds a trigram a question without stop words is German. Chosen on the tuning
# sets' questions without stop words and the golden set's: 0.5 / 0.75 / 1.0 told 13 / 11 / 10 of 15
# German ones and took 1 / 0 / 0 of 107 English ones for German ("tag hierarchies").
GERMAN_TRIGRAMS = 0.75


def question_language(text: str) -> str:
    """`words.language_of`, and for a question of two words or more it cannot tell (no stop word, no
    German letters: "docker komplett deinstallieren") "de" when its letter trigrams are German
    by the table `scripts/fit_language_trigrams.py` fits on the tldr pages' descriptions."""
    told = language_of(text)
    if told or len(text.split()) < 2:  # one word is as often a name ("zebra", "bitwarden") as a language's
        return told
    unseen, table = _trigrams()
    grams = letter_trigrams(text)
    if not grams:
        return ""
    return "de" if sum(table.get(g, unseen) for g in grams) / len(grams) > GERMAN_TRIGRAMS else ""


def letter_trigrams(text: str) -> list[str]:
    """The trigrams of letters of `text`'s words, each word padded with a space (what the table is
    fitted on and read with)."""
    return [f" {w} "[i : i + 3] for w in re.findall(r"[^\W\d_]+", text.lower()) for i in range(len(w))]


@functools.cache
def _trigrams() -> tuple[float, dict[str, float]]:
    with resources.files("curator").joinpath("models/static/language-trigrams.json").open("rb") as handle:
        data = json.load(handle)
    return float(data["unseen"]), {str(k): float(v) for k, v in data["trigrams"].items()}


def question_vector(vault: Vault, provider: EmbeddingProvider, text: str, asked: str) -> Vectors | None:
    """A German question's vector in the English model's space, for a vault that model read
    (`asked`: `asked_across` of it); None for any other question, or when the multilingual model
    does not load. Search only:
    `remember` keeps the model's own vector, as its thresholds were measured on that (with the
    map, German memories on English vaults: 1 case gained, 3 lost, over the tuning sets)."""
    if asked in ("", "en"):
        return None
    mapping = question_map()
    if mapping is None:
        return None
    own = rows_of(vault, provider).vector_of(text)  # as `nearest` asks it: embedded once a text
    try:
        mapped = mapping.vector(text, own)
    except Exception:  # the multilingual engine failed: the English model's own vector, as without it
        return None
    return mapped if mapped.shape == own.shape and np.isfinite(mapped).all() else None


# A page's lead: its title and first words, all the multilingual model reads of an English vault's
# page for a question across languages (the whole page would cost it four times the English
# model's reading of the vault). On the tuning sets' 79 German questions on English vaults, the
# search's recall@5 0.63 -> 0.80 with the leads of BM25's and the vectors' pages, at 20 / 30 / 50 /
# 80 words alike within a few questions (benchmarks/search_heldout.py).
LEAD_WORDS = 50
LEAD_DEPTH = 10  # the lead ranker's pages in the fusion
LEAD_WEIGHT = 1.0  # its weight there, times the vectors'


def multilingual_model() -> MultilingualModel | None:
    """The multilingual model as curator ships it, loaded once a process; None when its package is
    not installed or it fell back to words."""
    model = load_model("multilingual") if multilingual_installed() else None
    return model if isinstance(model, MultilingualModel) else None


def lead_ranking(vault: Vault, text: str, candidates: list[str], notes: list[str]) -> list[str]:
    """`candidates` (the other rankers' pages) in the order of the multilingual model's cosine
    between the question and each page's lead, best first; [] without that model, or with a note
    in `notes` when it fails (the other rankers still answer). Each lead is read once a page
    version and kept under `.curator/cache/` beside the other pages' leads."""
    model = multilingual_model()
    if model is None or not candidates:
        return []
    store = store_name("leads", model.id, TEXT_RECIPE, LEAD_WORDS)
    width = len(model.passage_mean)  # the model's own: an engine's vectors of another width are not its

    def compute(missing: list[int]) -> list[np.ndarray]:
        leads = []
        for i in missing:
            try:
                body = vault.text_of(candidates[i])
            except OSError:  # gone since the load: its title alone
                body = ""
            leads.append(" ".join(page_text(vault.pages[candidates[i]].title, body).split()[:LEAD_WORDS]))
        read = model.embed_pieces(leads)
        if read.shape != (len(leads), width) or not np.isfinite(read).all():  # never stored
            raise ValueError(f"it gave vectors of shape {read.shape} or not numbers")
        return list(read[:, None, :])

    current = {row_key(vault, p) for p in readable(vault)}
    try:
        asked = model.embed_query(text)
        if asked.shape != (width,):
            raise ValueError(f"it gave a question vector of shape {asked.shape}")
        rows, _ = cached_rows(vault, store, [row_key(vault, p) for p in candidates], compute, also_keep=current)
        cosines = np.concatenate(rows) @ asked
        if not np.isfinite(cosines).all():
            raise ValueError("its vectors are not numbers")
    except Exception as exc:  # an optional ranker: whatever the model's engine raises, the search goes on
        notes.append(f"the pages' first words were not read by the multilingual model ({exc})")
        return []
    return [candidates[i] for i in np.argsort(-cosines, kind="stable").tolist()]


_MAPS: list[QuestionMap | None] = []
_MAPS_LOCK = threading.Lock()


def question_map() -> QuestionMap | None:
    """The map into the English model's space, loaded once a process; None when the multilingual
    model does not load."""
    with _MAPS_LOCK:
        if not _MAPS:
            multilingual = multilingual_model()
            try:
                mapping = QuestionMap(multilingual) if multilingual is not None else None
            except (OSError, ValueError, EOFError):  # the map's file gone or damaged: the English model's own vector
                mapping = None
            _MAPS.append(mapping)
        return _MAPS[0]


_LANGUAGE_NAMES = {"en": "English", "de": "German"}


def across_note(vault: Vault, asked: str) -> list[str]:
    """A note when the question is in a language the vault's pages are not and the model is the
    English MiniLM (`asked`: `asked_across` of it): a German question meets the pages through a map
    of the multilingual model's question vector (`QuestionMap`) and the glossary's words, an English
    one through the glossary."""
    if not asked:
        return []
    pages = languages_of(vault)[0]
    said = f"a {_LANGUAGE_NAMES[asked]} question on {_LANGUAGE_NAMES.get(pages, pages)} pages: "
    setting = '[embedding] provider = "multilingual"'
    if asked == "de" and question_map() is not None:  # a new user read "reads English only" as "not at all"
        return [
            said + "the multilingual model read the question and the first words of the pages found; "
            f"with {setting} it reads whole pages (an index about four times as long)"
        ]
    return [said + f"the model reads English only; the multilingual model ({setting}) answers across languages better"]


def without_foreign_stops(vault: Vault, text: str) -> str:
    """A question in a language the vault's pages are not, without that language's stop words,
    which the vault's index keeps as words ("den", "ist", "an" on English pages matched anything)."""
    from whoosh.lang.stopwords import stoplists

    asked = language_of(text)
    if not asked or asked in languages_of(vault):
        return text
    stops = frozenset(fold(w) for w in stoplists.get(asked, ()))
    return " ".join(w for w in text.split() if fold(w.strip(".,;:!?()\"'")) not in stops)
