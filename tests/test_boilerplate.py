"""Template text found from the vault, and the static embedder that picks duplicate candidates."""

from __future__ import annotations

import numpy as np
import pytest

from curator.core.read.boilerplate import TEMPLATE_PAGES, Template, _words, body_sentences


def test_sentences_join_wrapped_lines_and_drop_markup() -> None:
    text = (
        "---\ntype: topic\n---\n# Heading\nA line\nwrapped here. Second [[Page|one]].\n\n"
        "- item one\n- item [two](x.md)\n1. numbered\n> quoted\n"
    )
    assert body_sentences(text) == [
        "A line wrapped here.",
        "Second one.",
        "item one",
        "item two",
        "numbered",
        "quoted",
    ]


def test_sentences_end_at_each_stop_and_words_fold_alike_in_ascii_or_not() -> None:
    text = "Is it up? It is!  Then go.Now\tand\u00a0here. "
    assert body_sentences(text) == ["Is it up?", "It is!", "Then go.Now and here."]
    # The ASCII table and the regex for other text split and fold the same way.
    assert _words("Don't STOP: now_1, x2") == ["don", "t", "stop", "now_1", "x2"]
    assert _words("Don\u2019t STOP\u2014now_1, x2") == ["don", "t", "stop", "now_1", "x2"]
    assert _words("Straße ÉTÉ") == ["strasse", "été"]


def test_sentences_on_many_pages_are_template_and_on_a_few_are_not() -> None:
    shared = "Open Settings, go to Appearance and choose Install."
    copied = "The gateway keys live in the hardware security module."
    pages = [[shared, f"Page {i} is about its own thing number {i}."] for i in range(TEMPLATE_PAGES)]
    pages[0].append(copied)
    pages[1].append(copied)  # a page copied once: on two pages, still its own text
    template = Template.of(pages)
    assert template.distinctive(pages[0]) == ["Page 0 is about its own thing number 0.", copied]


def test_a_page_opening_with_a_word_alone_keeps_the_words_of_its_template_sentences() -> None:
    """A sentence of one word has no word triple: its slice of the triples is empty, not the page's."""
    filled = "Install the theme from the community store and enable it in Appearance for {}."
    pages = [[f"Projekt{i}", filled.format(f"vault {i}")] for i in range(TEMPLATE_PAGES + 2)]
    template = Template.of(pages)
    assert template.distinctive(pages[0]) == ["Projekt0", "0"]


@pytest.mark.parametrize("batch", [3, 8192])
def test_what_names_the_template_text_a_page_holds_tells_pages_apart_as_their_sets_do(
    monkeypatch: pytest.MonkeyPatch, batch: int
) -> None:
    """Pages holding the same template text (sentences and word triples) are named alike, others not."""
    import random

    from curator.core.read import boilerplate
    from curator.core.read.boilerplate import WordHashes, _member, page_row

    monkeypatch.setattr(boilerplate, "HELD_BATCH", batch)

    rng = random.Random(4)
    stock = [f"The {w} service restarts every {n} minutes after a deploy." for w in "abcdef" for n in (5, 10)]
    pages = [[*rng.sample(stock, rng.randint(0, 5)), f"Own line {i} of this page."] for i in range(40)]
    for i in range(0, 40, 2):  # a filled-in stock sentence: its own sentence, but template triples
        pages[i].append(f"The x{i} service restarts every 5 minutes after a deploy.")
    known = WordHashes()
    rows = [page_row(sentences, known) for sentences in pages]
    template = Template([row.copy() for row in rows], known)

    def held(row: np.ndarray) -> tuple[frozenset[int], frozenset[int]]:
        count = int(row[0])
        sentences, triples = row[1 : 1 + count], row[1 + count :]
        return (
            frozenset(sentences[_member(sentences, template.sentences)].tolist()),
            frozenset(triples[_member(triples, template.triples)].tolist()),
        )

    names = template.held_by_each(rows)
    sets = [held(row) for row in rows]
    assert len(set(sets)) > 10  # many different holdings
    for i in range(len(rows)):
        for j in range(len(rows)):
            assert (names[i] == names[j]) == (sets[i] == sets[j])


def test_a_filled_in_template_sentence_keeps_only_its_slots() -> None:
    names = ["Minimal", "Oxygen", "Nord", "Dracula", "Sanctum"]
    pages = [[f"{name} takes its colours from the harbour at dusk and keeps them muted."] for name in names]
    template = Template.of(pages)
    assert template.distinctive(pages[0]) == ["minimal"]


def test_the_static_embedder_ranks_related_text_above_unrelated() -> None:
    from curator.core.meaning.embeddings import StaticEmbedder

    embedder = StaticEmbedder()
    assert embedder.table.shape == (30522, 256)
    vectors = embedder.embed(
        [
            "TLS certificates from the internal CA expire after 90 days.",
            "Certificates issued by our certificate authority are valid for ninety days.",
            "New engineers get a laptop and a buddy in their first week.",
            "Postgres runs out of connections under load.",
            " ".join(["renewal"] * 5000),  # a long page takes the counting path
        ]
    )
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1, atol=1e-5)
    assert vectors[0] @ vectors[1] > max(vectors[0] @ vectors[2], vectors[0] @ vectors[3])
    assert np.allclose(vectors[4], embedder.embed(["renewal"])[0], atol=1e-5)
