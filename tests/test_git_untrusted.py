"""A repository that came with the vault is data: curator commits exactly a change's files, only into
the vault's own repository, never in the middle of a merge or rebase, runs nothing the repository
ships, and its history says so when git put a change back."""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path

import git
import jsonschema
import pytest
from helpers import init_repo, make_vault

from curator.cli import documents
from curator.cli.main import main
from curator.core.change import journal
from curator.core.change.changes import apply, history, reverted_outside, undo
from curator.core.change.edits import plan_rename
from curator.core.change.recovery import recover
from curator.core.read.git import FOREIGN
from curator.core.read.loading import load_vault

BASE: dict[str, str | bytes] = {
    "Home.md": "See [[Alpha]].\n",
    "Alpha.md": "# Alpha\n",
    "README.md": "the repository's own file\n",
}


def vault_repo(tmp_path: Path, extra: dict[str, str | bytes] | None = None) -> tuple[Path, git.Repo]:
    root = make_vault(tmp_path / "vault", {**BASE, **(extra or {})})
    return root, init_repo(root)


def rename(vault: Path, old: str, new: str, allow_dirty: bool = False) -> journal.Entry:
    return apply(vault, plan_rename(load_vault(vault, use_cache=False), old, new), allow_dirty=allow_dirty)


def committed(repo: git.Repo) -> set[str]:
    return set(repo.head.commit.stats.files)


def staged(repo: git.Repo) -> set[str]:
    return set(repo.git.diff("--cached", "--name-only", "--no-renames").splitlines())


@pytest.mark.parametrize(
    ("page", "bystander", "stage_it"),
    [
        ("todo[1]", "todo1.md", False),
        ("notes*", "notes-private.md", False),
        ("notes*", "notes-private.md", True),
        ("draft?", "draft1.md", False),
    ],
)
@pytest.mark.parametrize("renamed", [True, False])
def test_a_page_named_like_a_glob_commits_only_its_own_files(
    tmp_path: Path, page: str, bystander: str, stage_it: bool, renamed: bool
) -> None:
    """The glob-named page is renamed itself, or edited because it links to the renamed page."""
    vault, repo = vault_repo(tmp_path, {f"{page}.md": "See [[Alpha]].\n", bystander: "private\n"})
    (vault / bystander).write_text("private, edited and not for this commit\n")
    if stage_it:
        repo.git.add("--", bystander)
    if renamed:
        entry = rename(vault, page, "Renamed page")
        expected = {f"{page}.md", "Renamed page.md"}
    else:
        entry = rename(vault, "Alpha", "Beta")
        expected = {f"{page}.md", "Alpha.md", "Beta.md", "Home.md"}
    assert entry.commit == repo.head.commit.hexsha
    assert committed(repo) == expected
    assert bystander in repo.git.status("--porcelain")  # still the user's edit, still uncommitted
    assert (bystander in staged(repo)) == stage_it


def merge_conflict(repo: git.Repo, vault: Path) -> None:
    """Leave a merge stopped on a conflict in README.md (not a page)."""
    repo.git.checkout("-b", "side")
    (vault / "README.md").write_text("side\n")
    repo.git.commit("-am", "side")
    repo.git.checkout("-")
    (vault / "README.md").write_text("main\n")
    repo.git.commit("-am", "main")
    with pytest.raises(git.GitCommandError):
        repo.git.merge("side")


def test_during_a_merge_nothing_is_staged_and_the_commit_waits_for_it(tmp_path: Path) -> None:
    vault, repo = vault_repo(tmp_path)
    merge_conflict(repo, vault)
    head = repo.head.commit
    entry = rename(vault, "Alpha", "Beta")
    assert entry.state == "applied" and entry.not_committed == "a merge is in progress"
    assert (vault / "Beta.md").exists() and repo.head.commit == head
    assert staged(repo) == {"README.md"}  # only the user's own merge
    assert recover(vault) == [f"change {entry.id} ({entry.reason}) is still not committed: a merge is in progress"]
    (vault / "README.md").write_text("resolved\n")
    repo.git.add("README.md")
    repo.git.commit("-m", "merged")
    assert committed(repo) == {"README.md"}  # the user's merge commit holds none of curator's files
    assert "is committed now" in recover(vault)[0]
    assert committed(repo) == {"Alpha.md", "Beta.md", "Home.md"}
    assert not repo.git.status("--porcelain")


def test_during_a_rebase_nothing_is_committed_and_after_its_abort_history_and_undo_hold(tmp_path: Path) -> None:
    vault, repo = vault_repo(tmp_path)
    start = repo.active_branch.name
    repo.git.checkout("-b", "topic")
    (vault / "README.md").write_text("topic\n")
    repo.git.commit("-am", "topic")
    repo.git.checkout(start)
    (vault / "README.md").write_text("upstream\n")
    repo.git.commit("-am", "upstream")
    repo.git.checkout("topic")
    with pytest.raises(git.GitCommandError):
        repo.git.rebase(start)
    entry = rename(vault, "Alpha", "Beta")
    assert entry.not_committed == "a rebase is in progress" and not entry.commit
    assert not repo.git.log("--all", "--grep", "Curator-Change", "--format=%H")
    repo.git.rebase("--abort")
    assert repo.active_branch.name == "topic"
    recover(vault)
    [shown] = history(vault)
    assert shown.state == "applied" and not shown.commit  # Beta.md is still there, uncommitted
    assert shown.not_committed == "Alpha.md, Home.md changed since; commit by hand"  # the abort put them back
    undo(vault, entry.id, allow_dirty=True)
    assert sorted(p.name for p in vault.glob("*.md")) == ["Alpha.md", "Home.md", "README.md"]
    assert (vault / "Home.md").read_text() == "See [[Alpha]].\n"
    assert not repo.git.log("--all", "--grep", "Curator-Change", "--format=%H")


def test_a_change_git_put_back_is_shown_as_reverted_and_not_undone(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    vault, repo = vault_repo(tmp_path, {"Gamma.md": "# Gamma\n"})
    kept = rename(vault, "Gamma", "Delta")
    gone = rename(vault, "Alpha", "Beta")
    repo.git.reset("--hard", "HEAD~1")  # takes back the second rename, outside curator
    assert reverted_outside(vault) == {gone.id}
    capsys.readouterr()
    assert main(["history", str(vault)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert any(gone.id in line and "[reverted outside curator]" in line for line in lines)
    assert not any(kept.id in line and "reverted" in line for line in lines)
    assert main(["history", str(vault), "--json"]) == 0
    shown = {c["id"]: c["reverted_outside"] for c in json.loads(capsys.readouterr().out)["changes"]}
    assert shown == {gone.id: True, kept.id: False}
    assert main(["undo", str(vault), gone.id]) == 2
    [err] = capsys.readouterr().err.strip().splitlines()
    assert err.startswith(f"curator: change {gone.id} was reverted outside curator") and "nothing to undo" in err
    undo(vault, kept.id)  # the other change undoes as ever
    assert (vault / "Gamma.md").exists() and not (vault / "Delta.md").exists()


def test_the_history_document_with_a_reverted_change_validates() -> None:
    schema = json.loads(resources.files("curator").joinpath(documents.schema_file(documents.HISTORY)).read_text())
    entry = journal.Entry(id="x", kind="rename", reason="r", time=0.0, state="applied", paths=["a.md"])
    jsonschema.Draft202012Validator(schema).validate(documents.history([entry], {"x"}))


def other_repository(tmp_path: Path) -> git.Repo:
    return init_repo(make_vault(tmp_path / "other", {"mine.md": "the user's other project\n"}))


def test_a_dot_git_file_naming_another_repository_is_never_committed_into(tmp_path: Path) -> None:
    other = other_repository(tmp_path)
    head, index = other.head.commit, other.git.ls_files("-s")
    vault = make_vault(tmp_path / "vault", BASE)
    (vault / ".git").write_text(f"gitdir: {other.git_dir}\n")
    entry = rename(vault, "Alpha", "Beta", allow_dirty=True)
    assert entry.not_committed == FOREIGN and not entry.commit
    assert (vault / "Beta.md").exists()
    assert other.head.commit == head and other.git.ls_files("-s") == index
    assert recover(vault) == [f"change {entry.id} ({entry.reason}) is still not committed: {FOREIGN}"]


def test_a_git_folder_borrowing_another_repositorys_branches_is_never_committed_into(tmp_path: Path) -> None:
    other = other_repository(tmp_path)
    head = other.head.commit
    vault, repo = vault_repo(tmp_path)
    (Path(repo.git_dir) / "commondir").write_text(f"{other.git_dir}\n")  # its refs and objects now the other's
    entry = rename(vault, "Alpha", "Beta", allow_dirty=True)
    assert entry.not_committed == FOREIGN
    assert other.head.commit == head


def test_a_core_worktree_elsewhere_is_never_committed_into(tmp_path: Path) -> None:
    other = other_repository(tmp_path)
    vault, repo = vault_repo(tmp_path)
    with repo.config_writer() as config:
        config.set_value("core", "worktree", str(other.working_tree_dir))
    entry = rename(vault, "Alpha", "Beta", allow_dirty=True)
    assert "core.worktree" in entry.not_committed and not entry.commit


def test_a_submodule_vault_commits_into_its_own_repository(tmp_path: Path) -> None:
    source = init_repo(make_vault(tmp_path / "source", BASE))
    outer = init_repo(make_vault(tmp_path / "outer", {"README.md": "outer\n"}))
    outer.git.execute(["git", "-c", "protocol.file.allow=always", "submodule", "add", source.git_dir, "notes"])
    vault = Path(outer.working_tree_dir or "") / "notes"
    assert (vault / ".git").is_file()
    entry = rename(vault, "Alpha", "Beta")
    assert entry.commit and not entry.not_committed
    assert git.Repo(vault).head.commit.hexsha == entry.commit


HOOK = "#!/bin/sh\ntouch '{marker}'\n"


def test_nothing_the_repository_ships_runs(tmp_path: Path) -> None:
    vault, repo = vault_repo(tmp_path)
    marker = tmp_path / "ran"
    hooks = vault / "hooks"  # shipped with the vault, named by its config
    hooks.mkdir()
    for name in ("post-commit", "post-index-change", "prepare-commit-msg", "pre-commit", "reference-transaction"):
        (hooks / name).write_text(HOOK.format(marker=marker))
        (hooks / name).chmod(0o755)
        (Path(repo.git_dir) / "hooks" / name).write_text(HOOK.format(marker=marker))
        (Path(repo.git_dir) / "hooks" / name).chmod(0o755)
    with repo.config_writer() as config:
        config.set_value("core", "fsmonitor", f"touch '{marker}'; false")
        config.set_value("core", "hooksPath", str(hooks))
    entry = rename(vault, "Alpha", "Beta")
    undo(vault, entry.id)
    assert entry.commit and not marker.exists()


def test_a_signed_history_with_a_signature_program_of_the_repository_runs_nothing(tmp_path: Path) -> None:
    """`git log` of the pages' ages (the `stale` rule, the agent's `recent`) with log.showSignature
    and gpg.program set by the repository: the program never runs."""
    vault, repo = vault_repo(tmp_path)
    marker = tmp_path / "ran"
    signer = tmp_path / "signer.sh"
    signer.write_text(
        f"#!/bin/sh\necho \"$*\" >> '{marker}'\ncat >/dev/null\necho '[GNUPG:] SIG_CREATED ' >&2\n"
        "printf -- '-----BEGIN PGP SIGNATURE-----\\n\\nAAAA\\n-----END PGP SIGNATURE-----\\n'\n"
    )
    signer.chmod(0o755)
    repo.git.execute(["git", "-c", f"gpg.program={signer}", "commit", "--allow-empty", "-q", "-S", "-m", "signed"])
    marker.unlink(missing_ok=True)
    with repo.config_writer() as config:
        config.set_value("log", "showSignature", "true")
        config.set_value("gpg", "program", str(signer))
    assert main(["lint", str(vault), "--no-cache", "--select", "stale"]) in (0, 1)
    from curator.core.read.age import last_edited

    assert last_edited(load_vault(vault, use_cache=False)) and not marker.exists()


def test_a_filter_driver_of_the_repository_neither_runs_nor_is_bypassed(tmp_path: Path) -> None:
    vault, repo = vault_repo(tmp_path, {".gitattributes": "*.md filter=evil\n"})
    marker = tmp_path / "ran"
    with repo.config_writer() as config:
        config.set_value("filter.evil", "clean", f"touch '{marker}'; cat")
        config.set_value("filter.evil", "smudge", f"touch '{marker}'; cat")
        config.set_value("filter.evil", "required", "true")
    (vault / "Home.md").write_text("See [[Alpha]]. \n")  # dirty, so that status would run the clean filter
    entry = rename(vault, "Alpha", "Beta", allow_dirty=True)
    assert entry.not_committed == "Alpha.md goes through a filter driver of the repository; commit by hand"
    assert not marker.exists() and not staged(repo)


class Crash(BaseException):
    """A kill -9: nothing after it runs, no handler sees it."""


def test_a_crash_in_the_git_step_leaves_nothing_staged_after_recovery(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    vault, repo = vault_repo(tmp_path)
    (vault / "README.md").write_text("the user's staged edit\n")
    repo.git.add("README.md")

    def crash(*args: object, **kwargs: object) -> None:
        raise Crash  # after `git add` staged the change, before it was committed

    monkeypatch.setattr(git.cmd.Git, "commit", crash, raising=False)
    with pytest.raises(Crash):
        rename(vault, "Alpha", "Beta")
    assert {"Beta.md", "Home.md"} <= staged(repo)
    monkeypatch.undo()
    [line] = recover(vault)
    assert "rolled back" in line
    assert repo.git.status("--porcelain", "--", "Alpha.md", "Beta.md", "Home.md") == ""
    assert staged(repo) == {"README.md"}  # what the user staged stays staged
    entry = rename(vault, "Alpha", "Beta")  # not refused as "uncommitted"
    assert entry.commit and committed(repo) == {"Alpha.md", "Beta.md", "Home.md"}


def test_a_crash_in_an_undos_git_step_leaves_nothing_staged_after_recovery(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    vault, repo = vault_repo(tmp_path)
    entry = rename(vault, "Alpha", "Beta")

    def crash(*args: object, **kwargs: object) -> None:
        raise Crash

    monkeypatch.setattr(git.cmd.Git, "commit", crash, raising=False)
    with pytest.raises(Crash):
        undo(vault, entry.id)
    monkeypatch.undo()
    recover(vault)
    assert repo.git.status("--porcelain") == ""
    again = undo(vault, entry.id)  # not refused as "uncommitted"
    assert again.undo is not None and again.undo.commit == repo.head.commit.hexsha
