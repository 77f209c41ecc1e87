"""The duplicate rule on one page saved again at times of one day, on a backup folder named for the
folder it copies by its first words, on near-copies under two names, and on the copies a file
manager makes ("X 1", "X 2", a folder "X 1" beside "X")."""

from __future__ import annotations

from pathlib import Path

from helpers import duplicates, make_vault

from curator.core.meaning.page_names import saved_at

SNAPSHOT = (
    "- The user asked to stop using the Brave search key; Tavily is the default search now and its key "
    "is in TOOLS.md.\n- The staging wallet holds 0.005 ETH and ten thousand test dollars; the fund "
    "contract was deployed on Tuesday with forty per cent in one stock and thirty in two others.\n"
    "- Next: move part of the second position into the third before Friday's close, then report.\n"
)
CHAPTER = (
    "The platform lay three miles off the coast, rusting in the grey water, when the first boat came "
    "out from Bremerhaven. Nobody on board had seen it up close; the photographs had made it look "
    "smaller. The skipper circled it twice before he let anyone climb the ladder, and when they did, "
    "the wind took the first hat and the second, and the third man held his with both hands."
)
CUT = " He laughed at that later, in the long winter, when there was nothing to laugh at."
TABLE = (
    "| Field | Type | Key | Default |\n| --- | --- | --- | --- |\n| entry | int | PRI | 0 |\n"
    "| path | int | | 0 |\n| mount | int | | 0 |\n| stand | tinyint | | 0 |\n| emote | int | | 0 |\n\n"
    "The entry field names the creature the row applies to. The path field holds the waypoint path "
    "the creature follows when it has pathed movement. The mount field is the model of the mount "
    "that makes the creature appear mounted, and overrides the display the unit would show. The "
    "stand field is the state the creature stands in: standing, sitting on the ground, on a chair, "
    "asleep, kneeling or dead. The emote field is the emote the creature plays while it stands."
)


def test_the_time_in_a_name_is_read_as_the_time_of_one_day() -> None:
    assert saved_at("2026-03-11T04-20-00Z") == ("2026-03-11#", "04-20-00Z")
    assert saved_at("2026-02-23 22:03:32") == ("2026-02-23#", "22:03:32")
    assert saved_at("llm-eval-1772867429470") == ("llm-eval-2026-03-07#", "1772867429470")  # milliseconds
    assert saved_at("invoice-2026-03-11-0001") is None  # four digits number records as often as they time them
    assert saved_at("isbn-1593275846") is None  # ten digits: an ISBN as often as seconds
    assert saved_at("tribunal-2026-03-07T03-52-45-191Z-gap3") == ("tribunal-2026-03-07#-gap3", "03-52-45-191Z")
    assert saved_at("2026-03-11") is None  # a day's note: no time
    assert saved_at("release-4-2-1") is None


def test_one_snapshot_saved_at_several_times_of_a_day_is_one_page(tmp_path: Path) -> None:
    times = ("04-20-00Z", "04-50-00Z", "05-20-00Z")
    root = make_vault(
        tmp_path / "v",
        {
            **{f"memory/2026-03-11T{time}.md": SNAPSHOT for time in times},
            "memory/2026-03-11T06-20-00Z.md": "- Pinged the platform channel about the expiring key.\n" * 6,
            "memory/2026-03-12T04-20-00Z.md": SNAPSHOT,  # the next day: another day's entry, however alike
        },
    )
    saves = {(d.page, d.other): d for d in duplicates(root)}
    latest = "memory/2026-03-11T05-20-00Z.md"
    assert set(saves) == {("memory/2026-03-11T04-20-00Z.md", latest), ("memory/2026-03-11T04-50-00Z.md", latest)}
    first = saves["memory/2026-03-11T04-20-00Z.md", latest]
    assert first.evidence == ("the same text", "saved again 2026-03-11")
    assert first.fix == "merge"


def test_saves_of_a_day_that_say_little_or_say_other_things_are_no_copies(tmp_path: Path) -> None:
    root = make_vault(
        tmp_path / "v",
        {
            "log/heartbeat-2026-03-11T04-20.md": "All checks green.\n",  # a log line: too little to be a page
            "log/heartbeat-2026-03-11T04-50.md": "All checks green.\n",
            "log/report-2026-03-11T08-00.md": SNAPSHOT,
            "log/report-2026-03-11T09-00.md": CHAPTER,
        },
    )
    assert duplicates(root) == []


def test_a_backup_folder_named_by_its_first_words_stands_for_that_folder(tmp_path: Path) -> None:
    chapters = {
        f"book/chapters/kapitel-0{n}.md": f"# Kapitel {n}\n\n{CHAPTER.replace('first', f'{n}th')}" for n in (1, 2)
    }
    root = make_vault(
        tmp_path / "v",
        {
            **chapters,
            # the chapters as they were before shortening: each holds its chapter and more
            **{
                path.replace("chapters/", "chapters-backup-pre-kuerzen/"): text + CUT for path, text in chapters.items()
            },
        },
    )
    assert {(d.page, d.other) for d in duplicates(root)} == {
        ("book/chapters-backup-pre-kuerzen/kapitel-01.md", "book/chapters/kapitel-01.md"),
        ("book/chapters-backup-pre-kuerzen/kapitel-02.md", "book/chapters/kapitel-02.md"),
    }


def test_near_copies_under_two_names_are_siblings_and_under_one_name_one_page(tmp_path: Path) -> None:
    extra = (
        " The creature_addon and creature_template_addon tables define different things: one row per "
        "spawn here, one per template there, and a spawn's row wins over its template's."
    )
    own = " Its entry is the creature template entry, so every spawn of that template gets these values."
    pages = {"world/creature_template_addon.md": TABLE + own, "world/creature_addon.md": TABLE + extra}
    assert duplicates(make_vault(tmp_path / "siblings", pages)) == []  # two tables of mirrored columns: 86 % alike
    pages = {"world/creature_addon.md": TABLE + own, "notes/creature_addon.md": TABLE + extra}
    (duplicate,) = duplicates(make_vault(tmp_path / "one", pages))  # one page kept in two folders, both edited
    assert duplicate.kinds == ("contained",)
    assert "holds 86% of the text" in duplicate.evidence[0]
    pages = {"skills/addon/SKILL.md": TABLE + own, "skills/addon-template/SKILL.md": TABLE + extra}
    assert duplicates(make_vault(tmp_path / "skills", pages)) == []  # two skills' own files, the folders name them


def test_four_copies_of_a_page_in_a_folder_are_each_merged_into_it(tmp_path: Path) -> None:
    names = ("Living off the land", "Living off the land 1", "Living off the land 2", "Living off the land 3")
    root = make_vault(tmp_path / "v", {f"ops/{name}.md": CHAPTER * 3 for name in names})
    # four copies of one text would otherwise read as a template's, and "1" / "2" as a numbered series
    assert {(d.page, d.other) for d in duplicates(root)} == {
        (f"ops/{name}.md", "ops/Living off the land.md") for name in names[1:]
    }
    stubs = {f"Book/{name.replace('Living off the land', 'Chapter')}.md": CHAPTER for name in names}
    assert duplicates(make_vault(tmp_path / "stubs", stubs)) == []  # a template's unfilled pages of a series


def test_a_folder_copied_beside_itself_by_a_file_manager_is_kept_twice(tmp_path: Path) -> None:
    texts = {name: f"# {name}\n\n{CHAPTER.replace('first', name) * 3}" for name in ("AES", "RC4", "XOR")}
    pages = {f"Malware/Payload encryption/{name}.md": text for name, text in texts.items()}
    pages |= {f"Malware/Payload encryption 1/{name}.md": text for name, text in texts.items()}
    assert {(d.page, d.other) for d in duplicates(make_vault(tmp_path / "copy", pages))} == {
        (f"Malware/Payload encryption 1/{name}.md", f"Malware/Payload encryption/{name}.md") for name in texts
    }
    siblings = {path.replace("Payload encryption 1", "Payload obfuscation"): text for path, text in pages.items()}
    assert duplicates(make_vault(tmp_path / "siblings", siblings)) == []  # two topics' folders of one layout


def test_a_projects_card_and_the_unpacked_projects_readme_are_two_pages(tmp_path: Path) -> None:
    root = make_vault(
        tmp_path / "v",
        {
            "projects/mission-control/README.md": "# Mission Control\n\nStatus: paused since March.\n",
            "projects/mission-control/mission-control/README.md": '<h1 align="center">Autensa</h1>\n\n' + CHAPTER,
        },
    )
    assert duplicates(root) == []  # one title only because the inner folder repeats the outer's name


def test_numbered_pages_of_one_prose_but_other_headings_code_or_fields_are_no_copies(tmp_path: Path) -> None:
    names = ("Untitled", "Untitled 1", "Untitled 2", "Untitled 3")
    meetings = {f"{name}.md": f"# 1:1 with {person}\n\n{CHAPTER}" for name, person in zip(names, "ABCD", strict=True)}
    assert duplicates(make_vault(tmp_path / "meetings", meetings)) == []  # four meetings, not one kept four times
    bosses = {f"Level {n}.md" if n else "Level.md": f"---\nboss: {b}\n---\n{CHAPTER}" for n, b in enumerate("ABCD")}
    assert duplicates(make_vault(tmp_path / "levels", bosses)) == []


def test_two_readmes_are_not_one_page_by_their_folders_name_alone(tmp_path: Path) -> None:
    root = make_vault(
        tmp_path / "v",
        {"api/README.md": "Status: paused since March.\n", "api/api/README.md": "## Usage\n\nRun make.\n"},
    )
    assert duplicates(root) == []


def test_a_folder_beside_another_with_a_number_holds_copies_only_byte_for_byte(tmp_path: Path) -> None:
    prose = f"# Loops\n\n{CHAPTER}\n\n"
    root = make_vault(
        tmp_path / "v",
        {
            **{f"Python/{n}.md": prose + "```python\nprint x\n```\n" for n in ("loops", "lists", "maps")},
            **{f"Python 3/{n}.md": prose + "```python\nprint(x)\n```\n" for n in ("loops", "lists", "maps")},
        },
    )
    assert duplicates(root) == []  # `Python 3/` may be the other version: its programs differ
