"""The duplicate rule on pages kept twice by how a vault is kept: backup folders, a folder's order."""

from __future__ import annotations

from pathlib import Path

from helpers import make_vault

from curator.core.meaning.duplicates import Duplicate, find
from curator.core.read.loading import load_vault
from curator.core.state.config import load_config

MEMORY = (
    "The deploy key for the staging cluster lives in the team vault under infra/staging and rotates "
    "every ninety days. The agent opens a ticket a week before it expires and pings the platform "
    "channel. Builds on the main branch publish images tagged with the commit and the date, and the "
    "nightly job prunes images older than thirty days from the registry."
)
LATER = (
    " Since March the staging cluster runs two node pools, one of spot machines for the test runners "
    "and one of reserved machines for the databases, so a spot reclaim never takes a database down."
)
NOTES = (
    "Customer calls are summarised in the shared notebook within a day. Each summary names the "
    "account, the people on the call, what they asked for and who follows up, and links the ticket "
    "that tracks the follow-up so nothing asked for on a call is lost between teams."
)
RELEASES = (
    "Releases leave the main branch every second Tuesday. The release captain freezes the branch at "
    "noon, runs the smoke suite against the candidate and writes the notes from the merged pull "
    "requests' labels; a failed smoke test moves the release to Thursday rather than patching it."
)
BACKUP_HOWTO = (
    "Virtual machines are backed up every night with a script that pauses each guest, copies its "
    "disk image to the storage box and resumes it; the last seven copies are kept and a weekly one "
    "is kept for three months."
)


def found(root: Path) -> list[Duplicate]:
    return find(load_vault(root, load_config(root), use_cache=False))


def test_each_page_in_a_backup_folder_is_a_copy_of_the_page_it_backs_up(tmp_path: Path) -> None:
    root = make_vault(
        tmp_path / "v",
        {
            "MEMORY.md": "# Memory\n\n" + MEMORY + LATER,
            "memory/calls.md": "# Calls\n\n" + NOTES,
            "backup-20260207-082400/MEMORY.md": "# Memory\n\n" + MEMORY + LATER,
            "backup-20260205-130136/MEMORY.md": "# Memory\n\n" + MEMORY,  # as the page was
            "backup-20260205-130136/memory/calls.md": "# Calls\n\n" + NOTES,
            "COMPLETE_SUCCESS_BACKUP_20260204/critical-docs/calls.md": "# Calls\n\n" + NOTES,
        },
    )
    duplicates = {(d.page, d.other): d for d in found(root)}
    assert set(duplicates) == {
        ("backup-20260207-082400/MEMORY.md", "MEMORY.md"),
        ("backup-20260205-130136/MEMORY.md", "MEMORY.md"),
        ("backup-20260205-130136/memory/calls.md", "memory/calls.md"),
        ("COMPLETE_SUCCESS_BACKUP_20260204/critical-docs/calls.md", "memory/calls.md"),
    }  # each copy to the page it backs up, not one backup to another: merged, they are one page
    older = duplicates["backup-20260205-130136/MEMORY.md", "MEMORY.md"]
    assert older.fix == "merge"
    assert "backup-20260205-130136/MEMORY.md is a copy kept in the backup folder backup-20260205-130136/" in (
        older.evidence
    )


def test_a_backup_page_that_says_something_else_and_notes_about_backups_are_no_copies(tmp_path: Path) -> None:
    root = make_vault(
        tmp_path / "v",
        {
            "memory/2026-02-04.md": "# 2026-02-04\n\n" + NOTES,
            "backups/memory/2026-02-04.md": "# 2026-02-04\n\n" + MEMORY,  # the day's log rewritten since
            "kvm/backup.md": "# KVM backup\n\n" + BACKUP_HOWTO,
            "kvm/backup/kvm backup.md": "# KVM backup\n\nSee [[backup]]. " + MEMORY,
            "README.md": "# Readme\n\n" + LATER,
            "old-backup/docs/README.md": "# Readme\n\n" + RELEASES,  # the one README, since rewritten
        },
    )
    assert found(root) == []


def test_a_page_given_a_place_in_its_folders_order_beside_the_old_one_is_one_page(tmp_path: Path) -> None:
    form = "# Testprotokoll\n\n| Test | Erwartet | Ergebnis |\n|---|---|---|\n| | | |\n"
    root = make_vault(
        tmp_path / "v",
        {
            "Projektvorlagen/05_Testprotokoll.md": form,
            "Projektvorlagen/Testprotokoll.md": form.replace("Ergebnis", "Ist"),
            "Projektvorlagen/04_Entwicklungsprotokoll.md": "# Entwicklungsprotokoll\n\n| Datum | Was |\n",
            "Kurs/01_Intro.md": "# Intro\n\nWoche eins.",
            "Kurs/02_Intro.md": "# Intro\n\nWoche zwei.",  # two places of one series, kept on purpose
            "Math/1-Metric.md": "# 1-Metric\n\nThe taxicab distance.",
            "Math/Metric.md": "# Metric\n\nA distance function.",
        },
    )
    (duplicate,) = found(root)
    assert {duplicate.page, duplicate.other} == {
        "Projektvorlagen/05_Testprotokoll.md",
        "Projektvorlagen/Testprotokoll.md",
    }
    assert "same title 'testprotokoll'" in duplicate.evidence


def test_a_backups_older_copy_is_merged_into_its_page_without_carrying_what_the_page_dropped(tmp_path: Path) -> None:
    from curator.core.change.changes import undo
    from curator.core.curate.dream import accept, dream, plan_for

    stale = "## Old plan\n\nThe agent still deploys with the shell script from January and pages Dana at night.\n"
    root = make_vault(
        tmp_path / "v",
        {
            "MEMORY.md": "---\nowner: ops\n---\n# Memory\n\n" + MEMORY + LATER + "\n",
            "backups/2026-02-04/MEMORY.md": "---\nowner: ops\nstale: yes\n---\n# Memory\n\n" + MEMORY + "\n\n" + stale,
            "Index.md": "See [[backups/2026-02-04/MEMORY|the old memory]] and [[MEMORY]].\n",
        },
    )
    before = {p: (root / p).read_bytes() for p in ("MEMORY.md", "backups/2026-02-04/MEMORY.md", "Index.md")}
    (merge,) = [s for s in dream(load_vault(root, use_cache=False)).proposed if s.kind == "merge"]
    assert merge.pages == ["backups/2026-02-04/MEMORY.md", "MEMORY.md"]
    assert "backup folder" in merge.reason
    plan = plan_for(load_vault(root, use_cache=False), merge)
    assert any("not carried over: 3 blocks that MEMORY.md no longer has" in note for note in plan.notes), plan.notes
    _, entry = accept(load_vault(root, use_cache=False), merge.id)
    assert not (root / "backups/2026-02-04/MEMORY.md").exists()
    assert (root / "MEMORY.md").read_bytes() == before["MEMORY.md"]  # nothing of the page as it was came back
    assert "[[MEMORY|the old memory]]" in (root / "Index.md").read_text()
    undo(root, entry.id)
    assert {p: (root / p).read_bytes() for p in before} == before
