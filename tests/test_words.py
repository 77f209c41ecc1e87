"""Words as each language writes them: stop words, stems, German compounds, in search, remember's
candidates and the dead-link rule's "did you mean"."""

from __future__ import annotations

import shutil
from pathlib import Path

from helpers import make_vault

from curator.core.check.lint import lint
from curator.core.meaning.search import SearchIndex, search
from curator.core.read.loading import load_vault
from curator.core.read.words import Analyser, language_of, languages_of, split_compound

BENCH_VAULTS = Path(__file__).resolve().parent.parent / "benchmarks" / "remember_vaults"


def test_a_german_compound_splits_into_its_known_parts() -> None:
    known = Analyser().known
    assert split_compound("zertifikatserneuerung", known) == ["zertifikat", "erneuerung"]
    assert split_compound("datenbankverbindungen", known) == ["datenbank", "verbindungen"]
    assert split_compound("gateway", known) == ["gateway"]
    terms = Analyser().terms("Zertifikatserneuerung")
    assert "certif" in terms and "renew" in terms  # its parts, met with the English words


def test_the_language_of_a_sentence_and_of_a_name() -> None:
    assert language_of("Der CI-Build schlägt bei jedem Pull Request fehl.") == "de"
    assert language_of("The rate limiter now allows a burst.") == "en"
    assert language_of("Zertifikatserneuerung") == "de"
    assert language_of("CI pipeline") == ""


def test_a_stop_word_finds_nothing_not_even_through_an_alias(tmp_path: Path) -> None:
    root = make_vault(
        tmp_path / "v",
        {
            "SRP.md": "---\naliases: [Prinzip der einzigen Verantwortung]\n---\n# SRP\n\nEin Grund je Klasse.\n",
            "Kopplung.md": "# Kopplung\n\nDie Module hängen wenig voneinander ab, das ist der Sinn.\n",
        },
    )
    vault = load_vault(root)
    assert languages_of(vault) == ("de", "en")
    SearchIndex(root).update(vault)
    assert SearchIndex(root).bm25("der") == ([], set())
    result = search(vault, "der")
    assert all("title match" not in hit.reasons for hit in result.hits)


def test_a_question_word_makes_no_title_match(tmp_path: Path) -> None:
    root = make_vault(
        tmp_path / "v",
        {
            "How to cook rice.md": "# How to cook rice\n\nRinse, then simmer for twelve minutes.\n",
            "Kettle.md": "# Kettle\n\nA kettle boils water for tea.\n",
        },
    )
    result = search(load_vault(root), "how long does water take to boil")
    kettle = next(hit for hit in result.hits if hit.path == "Kettle.md")
    rice = [hit for hit in result.hits if hit.path == "How to cook rice.md"]
    assert "text match" in kettle.reasons
    assert all("title match" not in hit.reasons for hit in rice)


def test_german_and_english_questions_find_pages_in_the_other_language(tmp_path: Path) -> None:
    for name in ("de", "en"):
        shutil.copytree(BENCH_VAULTS / name, tmp_path / name)
    german = load_vault(tmp_path / "de")
    english = load_vault(tmp_path / "en")
    assert search(german, "certificate renewal", use_vectors=False).hits[0].path == "probleme/Zertifikatserneuerung.md"
    assert (
        search(german, "Zertifikat abgelaufen", use_vectors=False).hits[0].path == "probleme/Zertifikatserneuerung.md"
    )
    assert search(english, "Zertifikatserneuerung", use_vectors=False).hits[0].path == "problems/Certificate renewal.md"
    assert search(english, "Datenbankverbindungen", use_vectors=False).hits[0].path == "systems/Orders database.md"


def test_a_dead_link_in_another_form_of_the_words_gets_a_did_you_mean(tmp_path: Path) -> None:
    root = make_vault(
        tmp_path / "v",
        {
            "Zertifikatserneuerung.md": "# Zertifikatserneuerung\n\nAlle 90 Tage.\n",
            "Notiz.md": "# Notiz\n\nSiehe [[Zertifikats-Erneuerung]] und [[Erneuerungen der Zertifikate]].\n",
        },
    )
    findings = [f for f in lint(root, use_cache=False).findings if f.rule == "dead-link"]
    guesses = {f.data["target"]: f.data.get("did_you_mean") for f in findings}
    assert guesses == {
        "Zertifikats-Erneuerung": "Zertifikatserneuerung",
        "Erneuerungen der Zertifikate": "Zertifikatserneuerung",
    }


def test_one_new_page_does_not_flip_the_vaults_language(tmp_path: Path) -> None:
    """The language (and so the model, and the words index) is told from a sample of the pages: a
    sample of every n-th page in name order moved with every page added before the others, and a
    vault of 400 pages, 60 of them German, was English, then German, then English again, each time
    with every page's vectors made anew by the other model. The sample is each page's own draw."""
    english = "The cat sits on the mat and the dog sleeps in the garden."
    german = "Die Katze sitzt auf der Matte und der Hund schläft im Garten."
    pages = {f"p{i:03d}.md": german if i % 2 and i < 120 else english for i in range(400)}
    root = make_vault(tmp_path / "v", pages)
    before = languages_of(load_vault(root, use_cache=False))
    (root / "a new page.md").write_text(english)
    after = languages_of(load_vault(root, use_cache=False))
    assert before == after == ("en", "de") or before == after == ("de", "en")


def test_a_few_bare_pages_with_an_umlaut_do_not_make_an_english_vault_german(tmp_path: Path) -> None:
    """A page without stop words ("- [[Gödel]]", "Young") is German to `language_of` by its letters
    or endings (right for a title): two of them made a vault of 18 English meeting notes German,
    and read by the multilingual model, four times slower. Such a page says nothing of the vault."""
    note = "The notes of the meeting are in the shared drive and we met on Monday."
    pages = {f"Meeting {i}.md": note for i in range(18)}
    pages |= {"Kurt.md": "---\ntags: [person]\n---\n- [[Gödel]]\n", "Neil.md": "Young\n"}
    assert languages_of(load_vault(make_vault(tmp_path / "v", pages), use_cache=False)) == ("en",)
    names = {"Zertifikatserneuerung.md": "- [[Lösung]]\n", "Kündigung.md": "- [[Gödel]]\n"}  # no page has any
    assert languages_of(load_vault(make_vault(tmp_path / "names", names), use_cache=False)) == ("de", "en")
