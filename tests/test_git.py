"""In a git repository: one commit per change and per undo, only the touched files, history kept."""

from __future__ import annotations

from pathlib import Path

import git
import pytest
from helpers import init_repo, make_vault

from curator.core.change.changes import apply, undo
from curator.core.change.edits import plan_rename
from curator.core.common.errors import EditError
from curator.core.read.loading import load_vault

FILES: dict[str, str | bytes] = {
    "vault/Home.md": "See [[Alpha]].\n",
    "vault/Alpha.md": "# Alpha\n",
    "vault/Other.md": "unrelated\n",
    "README.md": "the repository's own file\n",
}


@pytest.fixture
def repo(tmp_path: Path) -> git.Repo:
    repo: git.Repo = init_repo(make_vault(tmp_path / "repo", FILES))
    return repo


def changed_in(commit: git.Commit) -> set[str]:
    return set(commit.stats.files)


def test_each_change_and_undo_is_one_commit_of_only_its_files(repo: git.Repo) -> None:
    top = Path(repo.working_tree_dir or "")
    vault = top / "vault"
    (top / "README.md").write_text("edited, not staged\n")  # unrelated dirty file
    (vault / "Other.md").write_text("staged, unrelated\n")
    repo.git.add("vault/Other.md")
    initial = repo.head.commit
    entry = apply(vault, plan_rename(load_vault(vault, use_cache=False), "Alpha", "Beta", "Alpha is now Beta"))
    commit = repo.head.commit
    assert commit.hexsha == entry.commit and commit.parents == (initial,)
    assert commit.message.startswith("Alpha is now Beta\n")
    assert changed_in(commit) == {"vault/Alpha.md", "vault/Beta.md", "vault/Home.md"}
    assert repo.git.diff("--cached", "--name-only").splitlines() == ["vault/Other.md"]  # still staged
    assert "README.md" in repo.git.diff("--name-only")  # still dirty, not committed
    undo(vault, entry.id)
    undo_commit = repo.head.commit
    assert undo_commit.parents == (commit,)  # a new commit; history is never rewritten
    assert undo_commit.message.startswith("Undo: Alpha is now Beta")
    assert changed_in(undo_commit) == {"vault/Alpha.md", "vault/Beta.md", "vault/Home.md"}
    assert (vault / "Home.md").read_text() == "See [[Alpha]].\n"


def test_a_long_reason_gets_a_short_subject_naming_the_pages(repo: git.Repo) -> None:
    vault = Path(repo.working_tree_dir or "") / "vault"
    reason = "Rename vault/Alpha.md to vault/Beta.md because " + "the old name said too little. " * 4
    apply(vault, plan_rename(load_vault(vault, use_cache=False), "Alpha", "Beta", reason))
    subject, blank, body = repo.head.commit.message.split("\n", 2)
    assert (subject, blank) == ("Rename Alpha to Beta", "")  # as `git log --oneline` shows it
    assert body.startswith(reason.strip())  # the reason whole below it
    because = "Rename vault/Beta.md to vault/late because of rain.md because\nthe day " + "was wet. " * 8
    apply(vault, plan_rename(load_vault(vault, use_cache=False), "Beta", "late because of rain", because))
    assert repo.head.commit.message.split("\n", 1)[0] == "Rename Beta to late because of rain"


def test_a_folders_readme_goes_by_its_folder_in_a_subject() -> None:
    """A new user's log read "Remember: add to the history of README" for two projects' READMEs."""
    from curator.core.read.git import _subject

    message = "Remember: add to the history of projects/release-watch/README.md " + "because it names it. " * 4
    assert (
        _subject(message, ["projects/release-watch/README.md"])
        == "Remember: add to the history of release-watch/README"
    )
    two = "Merge homelab/ops/release-watch/README.md into homelab/release-watch/README.md because " + "they agree. " * 8
    paths = ["homelab/ops/release-watch/README.md", "homelab/release-watch/README.md"]
    assert _subject(two, paths) == "Merge ops/release-watch/README into homelab/release-watch/README"


def test_a_dirty_file_the_change_touches_refuses_unless_allowed(repo: git.Repo) -> None:
    vault = Path(repo.working_tree_dir or "") / "vault"
    (vault / "Home.md").write_text("See [[Alpha]]. Unsaved thought.\n")
    plan = plan_rename(load_vault(vault, use_cache=False), "Alpha", "Beta")
    with pytest.raises(EditError, match=r"uncommitted changes in Home\.md"):
        apply(vault, plan)
    assert (vault / "Alpha.md").exists()
    entry = apply(vault, plan, allow_dirty=True)
    assert entry.commit and (vault / "Beta.md").exists()


def test_a_vault_in_a_linked_worktree_commits_there(repo: git.Repo, tmp_path: Path) -> None:
    """A linked worktree has a `.git` file, not a folder; its changes are still committed."""
    worktree = tmp_path / "worktree"
    repo.git.worktree("add", "-b", "side", str(worktree))
    assert (worktree / ".git").is_file()
    vault = worktree / "vault"
    entry = apply(vault, plan_rename(load_vault(vault, use_cache=False), "Alpha", "Beta"))
    side = git.Repo(worktree)
    assert entry.commit == side.head.commit.hexsha and not entry.not_committed
    assert changed_in(side.head.commit) == {"vault/Alpha.md", "vault/Beta.md", "vault/Home.md"}
    assert repo.head.commit.hexsha != entry.commit  # the main checkout's branch is untouched


def test_a_vault_outside_any_repository_is_not_committed(tmp_path: Path) -> None:
    vault = make_vault(tmp_path / "plain", {"Home.md": "See [[Alpha]].\n", "Alpha.md": "# Alpha\n"})
    entry = apply(vault, plan_rename(load_vault(vault, use_cache=False), "Alpha", "Beta"))
    assert entry.commit == "" and not entry.not_committed
    assert (vault / "Beta.md").exists()


def test_a_commit_git_refuses_leaves_nothing_staged_for_the_users_next_commit(repo: git.Repo) -> None:
    top = Path(repo.working_tree_dir or "")
    vault = top / "vault"
    (vault / "pic.png").write_bytes(b"\x89PNG a picture whose object the clone lacks")
    repo.git.add("vault/pic.png")
    repo.git.commit("-q", "-m", "a picture")
    blob = repo.git.rev_parse("HEAD:vault/pic.png")
    (Path(repo.git_dir) / "objects" / blob[:2] / blob[2:]).unlink()  # as a partial or damaged clone has it
    entry = apply(vault, plan_rename(load_vault(vault, use_cache=False), "Alpha", "Beta", "Alpha is now Beta"))
    assert not entry.commit and "git commit failed" in entry.not_committed
    assert repo.git.diff("--cached", "--name-only") == ""  # nothing of it waits in the index
    undo(vault, entry.id)
    assert repo.git.diff("--cached", "--name-only") == ""  # nor Beta.md, which the undo took away
    assert not (vault / "Beta.md").exists() and (vault / "Alpha.md").read_text() == "# Alpha\n"
