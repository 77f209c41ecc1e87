"""The duplicate rule on pages kept twice by how a vault is kept: backup folders, a folder's order."""

from __future__ import annotations

from pathlib import Path

from helpers import make_vault

from curator.core.curate.dream import dream
from curator.core.curate.suggestions import Suggestion
from curator.core.meaning.duplicates import Duplicate, find, kept_of
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


def the_merge(root: Path) -> Suggestion:
    """The one merge the dream proposes."""
    (merge,) = [s for s in dream(load_vault(root, use_cache=False)).proposed if s.kind == "merge"]
    return merge


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


def test_a_backups_older_copy_is_merged_into_its_page_carrying_what_only_it_says(tmp_path: Path) -> None:
    from curator.core.change.changes import undo
    from curator.core.curate.dream import accept

    gone = "The old plan also paged Sam at night.\n"  # what the page dropped since, or lost
    root = make_vault(
        tmp_path / "v",
        {
            "MEMORY.md": "---\nowner: ops\n---\n# Memory\n\n" + "\n\n".join((MEMORY + LATER, NOTES, RELEASES)) + "\n",
            "backups/2026-02-04/MEMORY.md": (
                "---\nowner: ops\nstale: yes\n---\n# Memory\n\n" + "\n\n".join((MEMORY, NOTES, RELEASES, gone))
            ),
            "Index.md": "See [[backups/2026-02-04/MEMORY|the old memory]] and [[MEMORY]].\n",
        },
    )
    before = {p: (root / p).read_bytes() for p in ("MEMORY.md", "backups/2026-02-04/MEMORY.md", "Index.md")}
    merge = the_merge(root)
    assert merge.pages == ["backups/2026-02-04/MEMORY.md", "MEMORY.md"]
    assert "backup folder (what only the copy says is carried, under a heading" in merge.reason
    _, entry = accept(load_vault(root, use_cache=False), merge.id)
    assert not (root / "backups/2026-02-04/MEMORY.md").exists()
    kept = (root / "MEMORY.md").read_text()
    assert "## From backups/2026-02-04/MEMORY\n" in kept and "paged Sam" in kept  # nothing only the copy said is lost
    assert "[[MEMORY|the old memory]]" in (root / "Index.md").read_text()
    undo(root, entry.id)
    assert {p: (root / p).read_bytes() for p in before} == before


def test_entries_of_a_dated_or_numbered_series_alike_word_for_word_are_not_reported_in_one_folder_or_two(
    tmp_path: Path,
) -> None:
    root = make_vault(
        tmp_path / "v",
        {
            "drafts/linkedin-run-control-2026-06-19.md": "# Run control\n\n" + MEMORY,
            "content/bank/2026-06-15/linkedin-run-control-2026-06-21.md": "# Run control\n\n" + MEMORY,
            "summaries/20260331-summary.md": "# Summary\n\n" + NOTES,  # a day nothing changed: two entries
            "summaries/20260402-summary.md": "# Summary\n\n" + NOTES,
            "trivy/4-2-0.md": RELEASES,  # two releases of one note, alike by design
            "trivy/4-2-1.md": RELEASES,
        },
    )
    assert found(root) == []  # a post refiled under another date is one too, but so look two days' notes


def test_topic_folders_named_like_backups_hold_no_copies(tmp_path: Path) -> None:
    restic = "# Restic\n\n" + BACKUP_HOWTO + " Restic encrypts each snapshot and prunes by policy.\n"
    root = make_vault(
        tmp_path / "v",
        {
            "Tools/restic.md": "# Restic\n\n" + BACKUP_HOWTO + "\n",  # the tool's page
            "Backup/restic.md": restic,  # notes about backing up, beside others of their own
            "Backup/borg.md": "# Borg\n\n" + RELEASES,
            "Backup/3-2-1 rule.md": "# 3-2-1\n\n" + NOTES,
            "Versicherungen/Hausrat.md": "# Hausrat\n\n" + MEMORY,  # insurance, not a backup
            "Hausrat.md": "# Hausrat\n\n" + MEMORY + LATER,
            "snapshots/v1.0/guide.md": "# Guide\n\n" + NOTES + " Version one.",  # docs kept per version
            "guide.md": "# Guide\n\n" + NOTES + " Version two.",
        },
    )
    assert [(d.page, d.other) for d in found(root) if "backup" in d.kinds] == []


def test_an_archive_folder_of_copies_is_a_backup_and_one_of_moved_notes_is_not(tmp_path: Path) -> None:
    plan = (  # a project template's unfilled text, left as it is in four projects
        "Goal: state the outcome in one sentence. Scope: list what is in and what is out. Milestones: "
        "name each with its date and owner. Risks: name each with what would tell us it is happening."
    )
    root = make_vault(
        tmp_path / "v",
        {
            "paperclip/docs/deploy.md": "# Deploy\n\n" + MEMORY,
            "paperclip/CONTRIBUTING.md": "# Contributing\n\n" + RELEASES,  # every project has one: here copied
            "paperclip/plans/2026-02-16-modules.md": "# Modules\n\n" + NOTES,  # a dated plan, copied whole
            "_archive/paperclip/docs/deploy.md": "# Deploy\n\n" + MEMORY,
            "_archive/paperclip/CONTRIBUTING.md": "# Contributing\n\n" + RELEASES,
            "_archive/paperclip/plans/2026-02-16-modules.md": "# Modules\n\n" + NOTES,
            "Archive/restic.md": "# Restic\n\n" + BACKUP_HOWTO,  # notes moved out of the way, no copies
            "Archive/calls.md": "# Calls\n\n" + NOTES + " Kept from the old team.",
            "Projects/calls.md": "# Calls\n\n" + "Calls are logged by the support rota. " * 8,
            # kept on purpose: an old version, last year's letter from one template, an unfilled plan
            "docs/install.md": "# Install\n\n" + MEMORY + LATER,
            "docs/archive/1.0/install.md": "# Install\n\n" + MEMORY + " This applies to release 1.0 only.",
            "Briefe/Kündigung.md": "# Kündigung\n\n" + RELEASES + " Telekom, Vertrag 4711.",
            "Archiv/2019/Briefe/Kündigung.md": "# Kündigung\n\n" + RELEASES + " Fitnessstudio, Vertrag 17.",
            "notes/Index.md": "```dataview\nLIST FROM this.file.folder\n```\n",  # a folder note: its own folder's
            "_archive/notes/Index.md": "```dataview\nLIST FROM this.file.folder\n```\n",
            "projects/beta/plan.md": "# Plan\n\n" + plan,
            "projects/gamma/plan.md": "# Plan\n\n" + plan,  # four unfilled: a template's
            "projects/delta/plan.md": "# Plan\n\n" + plan,
            "archived-projects/alpha/plan.md": "# Plan\n\n" + plan,
        },
    )
    assert sorted((d.page, d.other) for d in found(root)) == [
        ("_archive/paperclip/CONTRIBUTING.md", "paperclip/CONTRIBUTING.md"),
        ("_archive/paperclip/docs/deploy.md", "paperclip/docs/deploy.md"),
        ("_archive/paperclip/plans/2026-02-16-modules.md", "paperclip/plans/2026-02-16-modules.md"),
    ]


def test_a_backup_with_a_date_folder_finds_its_page_among_pages_of_one_file_name(tmp_path: Path) -> None:
    root = make_vault(
        tmp_path / "v",
        {
            "notes/README.md": "# Notes\n\n" + NOTES,
            "projects/README.md": "# Projects\n\n" + RELEASES,
            "backups/2026-02-01/notes/README.md": "# Notes\n\n" + NOTES,
            "backups/2026-02-01/projects/README.md": "# Projects\n\n" + RELEASES,
        },
    )
    assert {(d.page, d.other) for d in found(root)} == {
        ("backups/2026-02-01/notes/README.md", "notes/README.md"),
        ("backups/2026-02-01/projects/README.md", "projects/README.md"),
    }


def test_a_number_that_is_part_of_a_name_is_no_place_in_an_order(tmp_path: Path) -> None:
    root = make_vault(
        tmp_path / "v",
        {
            "Movies/12 Angry Men.md": "A jury of twelve men deliberates.",
            "Movies/Angry Men.md": "A documentary about anger.",
            "Lists/10 Things.md": "Ten things to pack.",
            "Lists/Things.md": "Things to buy.",
            "Web/404-Not-Found.md": "The status code for a missing page.",
            "Web/Not Found.md": "What the server says when nothing matches.",
        },
    )
    assert found(root) == []


def test_a_backup_more_pages_link_to_is_still_merged_into_its_page(tmp_path: Path) -> None:

    files = {
        "memory/deploy.md": "# Deploy\n\n" + MEMORY + LATER,
        "backup-20260201/memory/deploy.md": "# Deploy\n\n" + MEMORY,
    }
    files |= {f"log/{n}.md": f"Yesterday: [[backup-20260201/memory/deploy]] ({n})." for n in range(3)}
    root = make_vault(tmp_path / "v", files)
    merge = the_merge(root)
    assert merge.pages == ["backup-20260201/memory/deploy.md", "memory/deploy.md"]


def test_the_dream_says_how_much_waits_beyond_its_limit(tmp_path: Path) -> None:

    files = {f"{name}.md": f"# {name}\n\n{text}" for name, text in (("a", MEMORY), ("b", NOTES), ("c", RELEASES))}
    files |= {f"backups/{name}": text for name, text in files.items()}
    result = dream(load_vault(make_vault(tmp_path / "v", files), use_cache=False), limit=2)
    assert len(result.proposed) == 1
    assert result.notes == ["up to 2 more renames and merges wait beyond 2 pages: dream --limit N"]


def test_a_backups_page_is_the_copy_of_the_page_it_is_byte_for_byte_before_one_at_its_old_path(tmp_path: Path) -> None:
    root = make_vault(
        tmp_path / "v",
        {
            "current/plan.md": "# Plan\n\n" + MEMORY,  # the page moved here
            "archive/plan.md": "# Plan\n\n" + MEMORY[:200] + NOTES,  # a new page took its old path
            "backup/archive/plan.md": "# Plan\n\n" + MEMORY,
            "memory.old/calls.md": "# Calls\n\n" + NOTES,
            "memory/calls.md": "# Calls\n\n" + NOTES,
        },
    )
    backups = {(d.page, d.other) for d in found(root) if "backup" in d.kinds}
    assert backups == {("backup/archive/plan.md", "current/plan.md"), ("memory.old/calls.md", "memory/calls.md")}


def test_a_symbolic_link_in_a_backup_folder_is_the_page_itself(tmp_path: Path) -> None:
    root = make_vault(tmp_path / "v", {"notes/service.md": "# Service\n\n" + MEMORY})
    for n in range(3):
        (root / f"snap{n}-backup/notes").mkdir(parents=True)
        (root / f"snap{n}-backup/notes/service.md").symlink_to(root / "notes/service.md")
    assert found(root) == []


def test_of_two_copies_the_one_whose_folder_bears_a_date_is_merged_away(tmp_path: Path) -> None:
    root = make_vault(
        tmp_path / "v",
        {"memory/tasks.md": "# Tasks\n\n" + MEMORY, "memory_2026-02-07/tasks.md": "# Tasks\n\n" + MEMORY},
    )
    assert [(d.page, d.other) for d in found(root)] == [("memory_2026-02-07/tasks.md", "memory/tasks.md")]


def test_a_copy_byte_for_byte_says_so_though_four_copies_make_its_text_a_templates(tmp_path: Path) -> None:
    files = {"MEMORY.md": "# Memory\n\n" + MEMORY}
    files |= {f"backup-2026020{n}/MEMORY.md": "# Memory\n\n" + MEMORY for n in range(1, 4)}
    duplicates = found(make_vault(tmp_path / "v", files))
    assert len(duplicates) == 3
    assert all("the same text" in d.evidence for d in duplicates)


def test_a_tree_copied_elsewhere_and_edited_since_keeps_its_unchanged_pages_twice(tmp_path: Path) -> None:
    texts = {
        "SKILL.md": MEMORY,
        "agents/content.md": NOTES,
        "agents/outreach.md": RELEASES,
        "agents/qualifier.md": BACKUP_HOWTO,
        "agents/list-builder.md": MEMORY[::-1],
        "agents/researcher.md": NOTES[::-1],
        "workflows/new-campaign.md": RELEASES[::-1],
    }
    files = {f"projects/lead-gen/v2/{path}": f"# {path}\n\n{text}" for path, text in texts.items()}
    files |= {f"agents/v2/{path}": f"# {path}\n\n{text}" for path, text in texts.items()}
    files["agents/v2/SKILL.md"] = "# Skill\n\nThe copy's own instructions: " + BACKUP_HOWTO[::-1]
    files["agents/v2/agents/researcher.md"] = "# Researcher\n\n" + LATER * 3
    copies = {(d.page, d.other) for d in found(make_vault(tmp_path / "v", files))}
    unchanged = [path for path in texts if path not in ("SKILL.md", "agents/researcher.md")]
    assert copies == {(f"agents/v2/{path}", f"projects/lead-gen/v2/{path}") for path in unchanged}


def test_a_note_of_ones_own_in_a_topic_folder_is_no_backup_of_the_page_it_quotes(tmp_path: Path) -> None:
    tool = "# Restic\n\n" + BACKUP_HOWTO + "\n"
    root = make_vault(
        tmp_path / "v",
        {
            "Tools/restic.md": tool,
            "Backup Strategy/restic.md": tool + "\n" + MEMORY + "\n\n" + NOTES + "\n",  # my setup, quoting it
            "Old English/Beowulf.md": "# Beowulf\n\n" + RELEASES + " Hwaet.",
            "Beowulf.md": "# Beowulf\n\n" + RELEASES + " The film.",
            "Marketing/Copy/Homepage.md": "# Homepage\n\n" + LATER + LATER,
            "Homepage.md": "# Homepage\n\n" + LATER + LATER + " Draft two.",
        },
    )
    assert [d for d in found(root) if "backup" in d.kinds] == []


def test_a_backup_that_holds_more_than_its_page_is_no_copy_to_drop(tmp_path: Path) -> None:
    paragraphs = [MEMORY, NOTES, RELEASES, BACKUP_HOWTO]
    root = make_vault(
        tmp_path / "v",
        {
            "MEMORY.md": "# Memory\n\n" + MEMORY + "\n",  # cut down to one of its four paragraphs
            "memory.bak/MEMORY.md": "# Memory\n\n" + "\n\n".join(paragraphs) + "\n",
        },
    )
    (duplicate,) = found(root)
    assert "backup" not in duplicate.kinds
    assert "memory.bak/MEMORY.md holds 100% of the text of MEMORY.md" in duplicate.evidence


def test_days_and_teams_entries_named_by_their_date_alone_are_not_filed_twice(tmp_path: Path) -> None:
    day = "# Notes\n\n" + MEMORY
    standup = "# Standup\n\n" + NOTES
    root = make_vault(
        tmp_path / "v",
        {
            "2026-01/2026-01-31.md": day,
            "2026-02/2026-02-01.md": day,
            "alpha/standups/2026-03-02.md": standup,
            "beta/standups/2026-03-02.md": standup,
        },
    )
    assert found(root) == []


def test_a_generic_heading_on_both_pages_is_no_proof_of_a_place_in_an_order(tmp_path: Path) -> None:
    root = make_vault(
        tmp_path / "v",
        {"Songs/99_Luftballons.md": "# Lyrics\n\nHast du etwas Zeit für mich", "Songs/Luftballons.md": "# Lyrics\n\nA"},
    )
    assert found(root) == []


def test_the_vaults_own_files_copied_into_a_folder_are_kept_twice(tmp_path: Path) -> None:
    texts = {"SOUL.md": MEMORY, "TOOLS.md": NOTES, "USER.md": RELEASES, "AGENTS.md": BACKUP_HOWTO}
    files = {name: f"# {name}\n\n{text}" for name, text in texts.items()}
    files |= {f"shared/{name}": f"# {name}\n\n{text}" for name, text in texts.items()}
    files["shared/AGENTS.md"] = "# AGENTS.md\n\n" + LATER * 2  # rewritten since: its own page now
    files["notes.md"] = "# Notes\n\n" + " ".join(reversed(LATER.split()))
    copies = {(d.page, d.other) for d in found(make_vault(tmp_path / "v", files))}
    assert {frozenset(pair) for pair in copies} == {
        frozenset((name, f"shared/{name}")) for name in texts if name != "AGENTS.md"
    }


def test_a_backups_copy_that_says_much_the_page_no_longer_does_is_merged_as_any_page(tmp_path: Path) -> None:
    from curator.core.curate.dream import plan_for

    root = make_vault(
        tmp_path / "v",
        {
            "MEMORY.md": "# Memory\n\n" + MEMORY + "\n\n" + NOTES + "\n",  # cut down since
            "backup-0204/MEMORY.md": "# Memory\n\n" + MEMORY + "\n\n" + NOTES + "\n\n" + RELEASES + "\n",
        },
    )
    merge = the_merge(root)
    assert merge.pages == ["backup-0204/MEMORY.md", "MEMORY.md"]
    assert "(what only the copy says is carried, under a heading" in merge.reason
    plan = plan_for(load_vault(root, use_cache=False), merge)
    assert "second Tuesday" in next(c.after for c in plan.changes if c.path == "MEMORY.md").decode()


def test_a_page_in_a_folder_named_a_backup_is_never_the_one_kept(tmp_path: Path) -> None:

    files = {
        "memory/oncall.md": "# Oncall\n\n" + MEMORY,
        "memory.bak/oncall.md": "# Oncall\n\n" + MEMORY,  # one copy beside the folder's own notes
        "memory.bak/README.md": "# Restore\n\n" + NOTES,
        "memory.bak/restore.md": "# How\n\n" + RELEASES,
    }
    files |= {f"log/{n}.md": f"See [[memory.bak/oncall]] ({n})." for n in range(3)}
    root = make_vault(tmp_path / "v", files)
    merge = the_merge(root)
    assert merge.pages == ["memory.bak/oncall.md", "memory/oncall.md"]


def test_a_project_named_backup_is_no_backup_of_its_sibling_built_from_one_template(tmp_path: Path) -> None:
    template = "## Owner\n\nThe owning team answers pages for it.\n\n## Status\n\nActive. Reviewed every quarter.\n"
    files = {
        f"Projects/{name}/{page}.md": f"# {name} {page}\n\n{template}"
        for name in ("Backup Service", "Billing Service")
        for page in ("status", "owners", "runbook")
    }
    assert [d for d in found(make_vault(tmp_path / "v", files)) if "backup" in d.kinds] == []


def test_daily_entries_of_two_months_folders_are_no_entry_filed_twice(tmp_path: Path) -> None:
    root = make_vault(
        tmp_path / "v",
        {
            "2024-01/2024-01-31 Daily.md": "# Daily\n\n" + MEMORY,
            "2024-02/2024-02-01 Daily.md": "# Daily\n\n" + MEMORY,
        },
    )
    assert found(root) == []


def test_a_folder_of_pages_about_backing_up_is_no_backup_of_the_restore_pages_beside_it(tmp_path: Path) -> None:
    creds = "Set the access key and the secret in the environment before you run the tool. " + NOTES
    files = {
        f"docs/{what}/{provider}.md": f"# {provider}\n\n{creds}\n\n```sh\ntool {what} --to {provider}\n```\n"
        for what in ("backup", "restore")
        for provider in ("s3", "azure", "gcs")
    }
    assert [d for d in found(make_vault(tmp_path / "v", files)) if "backup" in d.kinds] == []


def test_a_backup_finds_its_page_by_its_whole_path_and_keeps_a_year_that_is_part_of_it(tmp_path: Path) -> None:
    root = make_vault(
        tmp_path / "v",
        {
            "finance/budget.md": "# Budget\n\n" + MEMORY + " This year: 120k.",
            "finance/2024/budget.md": "# Budget\n\n" + MEMORY + " In 2024: 100k.",
            "backup/finance/2024/budget.md": "# Budget\n\n" + MEMORY + " In 2024: 100k.",
            "backups/Apollo/status.md": "Status: red. " + NOTES,  # Apollo is gone from the vault
            "Zeus/status.md": "Status: green. " + NOTES,
        },
    )
    backups = {(d.page, d.other) for d in found(root) if "backup" in d.kinds}
    assert backups == {("backup/finance/2024/budget.md", "finance/2024/budget.md")}


def test_the_top_folders_own_files_pair_with_a_folders_only_where_they_are_copies(tmp_path: Path) -> None:
    texts = {"TOOLS.md": NOTES, "USER.md": RELEASES, "AGENTS.md": BACKUP_HOWTO, "HEARTBEAT.md": LATER * 2}
    files = {name: f"# {name}\n\n{text}" for name, text in texts.items()}
    files |= {f"agents/coder/{name}": f"# {name}\n\n{text}" for name, text in texts.items()}
    files["SOUL.md"] = "# Soul\n\nI am Mira, the household assistant. " + MEMORY
    files["agents/coder/SOUL.md"] = "# Soul\n\nI am Forge, an engineer. " + MEMORY[::-1]
    pairs = {frozenset((d.page, d.other)) for d in found(make_vault(tmp_path / "v", files))}
    assert frozenset(("SOUL.md", "agents/coder/SOUL.md")) not in pairs


def test_two_clients_handbooks_at_two_depths_are_no_tree_copied(tmp_path: Path) -> None:
    names = ("intro", "setup", "billing", "support", "escalation", "offboarding")
    files = {f"clients/acme/handbook/{name}.md": f"# {name}\n\n{MEMORY}" for name in names}
    files |= {f"clients/enterprise/globex/handbook/{name}.md": f"# {name}\n\n{MEMORY}" for name in names[:3]}
    files |= {f"clients/enterprise/globex/handbook/{name}.md": f"# {name}\n\n{NOTES}" for name in names[3:]}
    files["clients/acme/handbook/contacts.md"] = "# Contacts\n\nAlice at ACME, 555-0101. " + RELEASES
    files["clients/enterprise/globex/handbook/contacts.md"] = "# Contacts\n\nBob at Globex. " + BACKUP_HOWTO
    pairs = {frozenset((d.page, d.other)) for d in found(make_vault(tmp_path / "v", files))}
    assert not any("contacts" in page for pair in pairs for page in pair)


def test_a_backup_that_holds_code_the_page_lacks_is_merged_carrying_it(tmp_path: Path) -> None:
    from curator.core.curate.dream import plan_for

    restore = "\n\n```sh\nrestic restore latest --target /srv\n```\n"
    root = make_vault(
        tmp_path / "v",
        {"ops/restore.md": "# Restore\n\n" + MEMORY, "ops/backup/restore.md": "# Restore\n\n" + MEMORY + restore},
    )
    merge = the_merge(root)
    assert merge.pages == ["ops/backup/restore.md", "ops/restore.md"]
    plan = plan_for(load_vault(root, use_cache=False), merge)
    assert "restic restore latest" in next(c.after for c in plan.changes if c.path == "ops/restore.md").decode()


def test_a_backup_pairs_only_with_the_page_at_its_whole_path_or_the_folder_it_is_named_for(tmp_path: Path) -> None:
    root = make_vault(
        tmp_path / "v",
        {
            "backup-0207/memory/projects.md": "# Projects\n\n" + MEMORY,  # the main agent's, deleted since
            "agents/coder/memory/projects.md": "# Projects\n\n" + MEMORY + LATER,
            "memory.bak/calls.md": "# Calls\n\n" + NOTES,  # `cp -r memory memory.bak`
            "memory/calls.md": "# Calls\n\n" + NOTES + " Follow-ups close within a week.",
            "notes/calls.md": "# Calls\n\n" + RELEASES,
        },
    )
    backups = {(d.page, d.other) for d in found(root) if "backup" in d.kinds}
    assert backups == {("memory.bak/calls.md", "memory/calls.md")}


def test_a_live_page_held_in_a_page_of_a_backup_named_folder_is_the_one_kept(tmp_path: Path) -> None:

    files = {
        "notes/plan.md": "# Plan\n\n" + MEMORY,
        "notes.bak/plan.md": "# Plan\n\n" + MEMORY + "\n\n" + NOTES,  # holds the page and more
        "notes.bak/other.md": "# Other\n\n" + RELEASES,
        "notes.bak/more.md": "# More\n\n" + BACKUP_HOWTO,
    }
    files |= {f"log/{n}.md": f"See [[notes.bak/plan]] ({n})." for n in range(3)}
    root = make_vault(tmp_path / "v", files)
    merge = the_merge(root)
    assert merge.pages == ["notes.bak/plan.md", "notes/plan.md"]


def test_a_page_copied_down_a_level_is_kept_twice_though_most_same_named_pages_differ(tmp_path: Path) -> None:
    own = {"USER.md": RELEASES, "IDENTITY.md": LATER, "HEARTBEAT.md": BACKUP_HOWTO, "MEMORY.md": NOTES}
    files = {name: f"# {name}\n\n{text}" for name, text in own.items()}
    for folder, order in (("workspace", reversed), ("workspace/governance", sorted)):
        files |= {f"{folder}/{name}": f"# {name}\n\n{' '.join(order(text.split()))}" for name, text in own.items()}
        files[f"{folder}/SOUL.md"] = "# Soul\n\n" + MEMORY  # the bootstrap file, byte for byte
    files["SOUL.md"] = "# Soul\n\n" + MEMORY
    tools = (
        "Deploys go through the release script on the build host; it tags the commit, pushes the image "
        "and waits for the health check before it moves traffic over."
    )
    files["TOOLS.md"] = "# Tools\n\n" + tools + "\n\n## Later\n\nThe old cron host is gone since March."
    files["workspace/TOOLS.md"] = "# Tools\n\n" + tools  # the same, one section short
    ideas = "Ideas for the garden: a rain barrel under the shed's gutter and a bed of herbs by the kitchen door."
    files["IDEAS.md"] = "# Ideas\n\n" + ideas
    files["workspace/IDEAS.md"] = "# Ideas\n\n" + ideas + "\n\nThis workspace's own: the compost heap moves."
    vault = load_vault(make_vault(tmp_path / "v", files), use_cache=False)
    duplicates = find(vault)
    pairs = {frozenset((d.page, d.other)) for d in duplicates}
    soul = next(d for d in duplicates if {d.page, d.other} == {"SOUL.md", "workspace/SOUL.md"})
    assert kept_of(vault, soul, 0, 0)[0] == "SOUL.md"  # the copy down there goes, the one the runtime reads stays
    assert frozenset(("IDEAS.md", "workspace/IDEAS.md")) not in pairs  # extended down there: that folder's own
    assert {
        frozenset(("SOUL.md", "workspace/SOUL.md")),
        frozenset(("SOUL.md", "workspace/governance/SOUL.md")),
        frozenset(("workspace/SOUL.md", "workspace/governance/SOUL.md")),
        frozenset(("TOOLS.md", "workspace/TOOLS.md")),
    } <= pairs
    assert not any("USER.md" in path or "MEMORY.md" in path for pair in pairs for path in pair)


def test_a_stock_file_in_one_of_several_agents_folders_side_by_side_is_that_agents_own(tmp_path: Path) -> None:
    files = {"AGENTS.md": "# Agents\n\n" + MEMORY + "\n\n## Ours\n\n" + NOTES}
    files |= {f"{name}.md": f"# {name}\n\n{LATER}" for name in ("SOUL", "USER", "TOOLS")}
    for agent in ("pixel", "scout"):
        files[f"agents/{agent}/AGENTS.md"] = "# Agents\n\n" + MEMORY  # the stock file each agent loads
        files |= {f"agents/{agent}/{name}.md": f"# {name}\n\n{agent} {RELEASES}" for name in ("SOUL", "USER", "TOOLS")}
    pairs = {frozenset((d.page, d.other)) for d in found(make_vault(tmp_path / "v", files))}
    assert not any("AGENTS.md" in pair for pair in pairs), pairs


def test_a_course_copied_under_folders_that_hold_numbers_is_kept_twice(tmp_path: Path) -> None:
    lessons = {"01 Routing.md": MEMORY, "02 Switching.md": NOTES, "03 Subnets.md": RELEASES, "04 NAT.md": LATER}
    files = {f"Master 1/S1/Resaux/{name}": f"# {name}\n\n{text}" for name, text in lessons.items()}
    files |= {f"SWE/Backend/01 - Networking/Resaux/{name}": f"# {name}\n\n{text}" for name, text in lessons.items()}
    files |= {f"Master 1/S1/Resaux/Quiz/{n}.md": f"Question {n}: {BACKUP_HOWTO}" for n in range(1, 4)}
    files |= {f"SWE/Backend/01 - Networking/Resaux/Quiz/{n}.md": f"Question {n}: {BACKUP_HOWTO}" for n in range(1, 4)}
    pairs = {frozenset((d.page, d.other)) for d in found(make_vault(tmp_path / "v", files))}
    assert frozenset(("Master 1/S1/Resaux/01 Routing.md", "SWE/Backend/01 - Networking/Resaux/01 Routing.md")) in pairs


def test_a_page_named_by_a_number_alone_names_nothing(tmp_path: Path) -> None:
    files = {"Questions/1.md": "# Exam analysis\n\n" + MEMORY, "Questions/Quiz/1.md": ""}
    assert found(make_vault(tmp_path / "v", files)) == []


def test_two_entries_of_a_numbered_series_built_from_one_template_are_no_copy(tmp_path: Path) -> None:
    lessons = {"planning.md": MEMORY, "reading.md": NOTES, "exercises.md": RELEASES, "notes.md": LATER}
    files = {}
    for term, week in (("Autumn", "Week 1"), ("Spring", "Week 2")):
        files |= {f"{term}/{week}/{name}": f"# {name}\n\n{text}" for name, text in lessons.items()}
    files["Clients/Acme1.md"] = "# Acme1\n\n" + BACKUP_HOWTO
    files["Clients/FY24/Acme1.md"] = "# Acme1\n\n" + " ".join(reversed(BACKUP_HOWTO.split()))
    files |= {"Quiz/#1.md": "# #1\n\n" + MEMORY[::-1], "#1.md": "# #1\n\n" + NOTES[::-1]}
    assert found(make_vault(tmp_path / "v", files)) == []


def test_of_one_text_in_two_folders_the_one_higher_up_stays_though_the_other_has_a_link(tmp_path: Path) -> None:
    files = {"SOUL.md": "# Soul\n\n" + MEMORY, "agent/SOUL.md": "# Soul\n\n" + MEMORY, "log.md": "See [[agent/SOUL]]."}
    vault = load_vault(make_vault(tmp_path / "v", files), use_cache=False)
    (pair,) = find(vault)
    assert kept_of(vault, pair, 0, 1)[0] == kept_of(vault, pair, 1, 0)[0] == "SOUL.md"


def test_the_dream_proposes_no_merge_of_a_page_in_a_repository_of_its_own(tmp_path: Path) -> None:
    files = {"SOUL.md": "# Soul\n\n" + MEMORY, "skills/core/SOUL.md": "# Soul\n\n" + MEMORY}
    root = make_vault(tmp_path / "v", files)
    assert [s.pages for s in dream(load_vault(root, use_cache=False)).proposed if s.kind == "merge"]
    (root / "skills/core/.git").write_text("gitdir: ../../.git/modules/skills/core\n")  # a submodule
    assert [s for s in dream(load_vault(root, use_cache=False)).proposed if s.kind == "merge"] == []


def test_a_packages_readme_that_the_top_one_extends_is_the_packages_own(tmp_path: Path) -> None:
    files = {
        "README.md": "# Core\n\n" + MEMORY + "\n\n## Developing\n\n" + NOTES,
        "packages/core/README.md": "# Core\n\n" + MEMORY,  # what the package registry shows
    }
    for name, text in (("CHANGELOG.md", RELEASES), ("SECURITY.md", LATER), ("CONTRIBUTING.md", BACKUP_HOWTO)):
        files[name] = f"# {name}\n\n{text}"
        files[f"packages/core/{name}"] = f"# {name}\n\n{' '.join(reversed(text.split()))}"
    pairs = {frozenset((d.page, d.other)) for d in found(make_vault(tmp_path / "v", files))}
    assert frozenset(("README.md", "packages/core/README.md")) not in pairs
