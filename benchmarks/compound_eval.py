"""How well German compounds are split: curator's splitter (against the glossary, and with a
vault's own words) against the `compound-split` package (CharSplit, n-gram statistics).

    python -m benchmarks.compound_eval [--vault DIR]

The compounds and their parts were written for this benchmark (words of teams' operations
notes, and words that are no compound). Prints, for each splitter, the share split at the right
place (the right head, the last part) and the share left whole that should be. `--vault DIR`
(default: the German tldr pages) gives the vault whose words (five letters or more, seen twice)
the second splitter also splits against. `compound-split` is GPL-3.0 and not a dependency: it
is measured only when installed (`pip install compound-split`).
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from pathlib import Path

from curator.core.read.resolve import fold
from curator.core.read.words import Analyser, split_compound, vocabulary_of

CASES = """
Zertifikatserneuerung Zertifikat|Erneuerung
Datenbankverbindungen Datenbank|Verbindungen
Bestelldatenbank Bestell|Datenbank
Zahlungsdienst Zahlung|Dienst
Rufbereitschaft Ruf|Bereitschaft
Wartungsfenster Wartung|Fenster
Speicherlimit Speicher|Limit
Lastverteiler Last|Verteiler
Fehlermeldung Fehler|Meldung
Sicherheitslücke Sicherheit|Lücke
Netzwerkausfall Netzwerk|Ausfall
Kundendatenbank Kunden|Datenbank
Rechenzentrum Rechen|Zentrum
Benutzerkonto Benutzer|Konto
Passwortrichtlinie Passwort|Richtlinie
Schlüsselverwaltung Schlüssel|Verwaltung
Zugriffsrechte Zugriff|Rechte
Verfügbarkeitszone Verfügbarkeit|Zone
Antwortzeit Antwort|Zeit
Abrechnungslauf Abrechnung|Lauf
Rechnungsexport Rechnung|Export
Speicherplatz Speicher|Platz
Festplattenfehler Festplatten|Fehler
Konfigurationsdatei Konfiguration|Datei
Protokolldatei Protokoll|Datei
Sicherungskopie Sicherung|Kopie
Wiederherstellungstest Wiederherstellung|Test
Verbindungsabbruch Verbindung|Abbruch
Bereitstellungspipeline Bereitstellung|Pipeline
Schnittstellenbeschreibung Schnittstellen|Beschreibung
Kartenzahlung Karten|Zahlung
Arbeitsspeicher Arbeit|Speicher
Betriebssystem Betrieb|System
Softwareverteilung Software|Verteilung
Teamkalender Team|Kalender
Dateisystem Datei|System
Verzeichnisbaum Verzeichnis|Baum
Befehlszeile Befehl|Zeile
Gateway Gateway
Verantwortung Verantwortung
Erneuerung Erneuerung
Handshake Handshake
Verbindung Verbindung
Zertifikat Zertifikat
"""


def _cases() -> list[tuple[str, list[str]]]:
    return [(line.split()[0], line.split()[1].split("|")) for line in CASES.strip().splitlines()]


def _score(name: str, split: Callable[[str], list[str]]) -> None:
    cases = _cases()
    heads = whole = compounds = simple = 0
    started = time.perf_counter()
    wrong = []
    for word, parts in cases:
        got = split(word)
        if len(parts) > 1:
            compounds += 1
            ok = len(got) > 1 and fold(got[-1]) == fold(parts[-1])
            heads += ok
        else:
            simple += 1
            ok = len(got) == 1
            whole += ok
        if not ok:
            wrong.append(f"{word}->{'|'.join(got)}")
    seconds = time.perf_counter() - started
    print(
        f"{name:<34} right head {heads}/{compounds} ({heads / compounds:.0%}), left whole {whole}/{simple}, "
        f"{seconds * 1000 / len(cases):.2f} ms a word"
    )
    print(f"{'':<34} wrong: {', '.join(wrong) or 'none'}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    default = Path(__file__).resolve().parent.parent.parent / "shared" / "vaults" / "tldr-pages" / "pages.de"
    parser.add_argument("--vault", type=Path, default=default)
    args = parser.parse_args()
    glossary_only = Analyser()
    _score("glossary", lambda w: split_compound(fold(w), glossary_only.known))
    texts = [p.read_text(encoding="utf-8", errors="replace") for p in sorted(args.vault.rglob("*.md"))]
    vocabulary = vocabulary_of(texts)
    with_vault = Analyser(vocabulary=vocabulary)
    _score(f"glossary + vault ({len(vocabulary)} words)", lambda w: split_compound(fold(w), with_vault.known))
    try:
        from compound_split import char_split  # type: ignore[import-not-found]
    except ImportError:
        print("compound-split: not installed")
        return

    def charsplit(word: str) -> list[str]:
        found = char_split.split_compound(word)
        return [found[0][1], found[0][2]] if found and found[0][0] > 0 else [word]

    _score("compound-split (CharSplit)", charsplit)


if __name__ == "__main__":
    main()
