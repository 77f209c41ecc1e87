"""What a vault someone else packed can hold, as found by attacking curator: nested YAML, escape
sequences in names and text, quadratic markup, a shipped `.curator/.gitignore`, FIFOs git reads,
pages that are links into `.git/`."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from urllib.parse import quote

import pytest
from helpers import init_repo, make_vault

from curator.cli.output import printable
from curator.core.read.loading import load_vault
from curator.core.state.statefiles import GITIGNORE


def cli(*args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "curator", *args], capture_output=True, text=True, timeout=timeout, check=False
    )


@pytest.mark.parametrize("command", [["rename", "deep", "deeper"], ["merge", "b", "deep"]])
def test_frontmatter_nested_a_thousand_deep_is_one_line(tmp_path: Path, command: list[str]) -> None:
    root = make_vault(
        tmp_path / "v", {"deep.md": "---\nk: " + "[" * 1000 + "]" * 1000 + "\n---\nbody\n", "b.md": "# B\n"}
    )
    done = cli(command[0], str(root), *command[1:])
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert done.stderr.strip() == "curator: deep.md: frontmatter is nested too deeply to edit; fix it first"


def test_escape_sequences_from_the_vault_never_reach_the_terminal(tmp_path: Path) -> None:
    root = make_vault(tmp_path / "v", {"a.md": "# A\n"})
    (root / "n\x1b]0;PWNED\x07.md").write_text("# B\n")
    done = cli("lint", str(root), "--no-cache")
    assert done.returncode in (0, 1) and "\x1b]" not in done.stdout + done.stderr
    assert "n\\x1b]0;PWNED\\x07.md" in done.stdout


def test_printable_keeps_newlines_tabs_and_curators_own_colours() -> None:
    assert printable("a\tb\n\x1b[31merror\x1b[0m") == "a\tb\n\x1b[31merror\x1b[0m"
    assert printable("x\x1b]52;c;cHduZWQ=\x07y\x9bz\x7f") == "x\\x1b]52;c;cHduZWQ=\\x07y\\x9bz\\x7f"


@pytest.mark.parametrize("text", ["<" * 200_000, "<!--" * 50_000], ids=["angles", "comment-openers"])
def test_a_run_of_angle_brackets_does_not_hang_the_lint(tmp_path: Path, text: str) -> None:
    root = make_vault(tmp_path / "v", {"a.md": "# A\n", "b.md": text})
    done = cli("lint", str(root), "--no-cache", "--select", "stub", timeout=60)  # read once per `<`: hours
    assert done.returncode in (0, 1) and "Traceback" not in done.stderr


def test_a_shipped_state_gitignore_is_replaced_by_curators_own(tmp_path: Path) -> None:
    root = make_vault(tmp_path / "v", {"a.md": "see [[b]]\n", "b.md": "# B\n", ".curator/.gitignore": "# shipped\n"})
    repo = init_repo(root)
    done = cli("rename", str(root), "b", "b2")
    assert done.returncode == 0, done.stderr
    assert (root / ".curator" / ".gitignore").read_bytes() == GITIGNORE
    untracked = repo.git.status("--porcelain", "--untracked-files=all").splitlines()
    assert not [line for line in untracked if line.startswith("??")]  # no journal, cache or lock to commit


@pytest.mark.parametrize("where", [".gitignore", ".gitattributes"])
def test_a_fifo_git_would_read_refuses_the_change_in_one_line(tmp_path: Path, where: str) -> None:
    root = make_vault(tmp_path / "v", {"a.md": "see [[b]]\n", "b.md": "# B\n"})
    init_repo(root)
    os.mkfifo(root / where)
    done = cli("rename", str(root), "b", "b2", timeout=60)  # a hang fails here, not forever
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert f"{where} is not a regular file" in done.stderr
    assert (root / "b.md").exists() and not (root / "b2.md").exists()


def test_a_page_that_links_into_dot_git_is_not_read(tmp_path: Path) -> None:
    root = make_vault(tmp_path / "v", {"a.md": "see [[cfg]]\n"})
    repo = init_repo(root)
    with repo.config_writer() as config:
        config.set_value('remote "origin"', "url", "https://internal.example/secret.git")
    (root / "cfg.md").symlink_to(".git/config")
    vault = load_vault(root, use_cache=False)
    assert "cfg.md" not in vault.pages
    done = cli("search", str(root), "internal", "--json")
    assert "secret.git" not in done.stdout


def _swapped(root: Path, what: str, outside: Path) -> None:
    """Swap, after the vault was read, a page or its folder for a link out of the vault or a FIFO."""
    if what == "folder-link":
        (root / "notes").rename(root / "notes-old")
        (root / "notes").symlink_to(outside, target_is_directory=True)
    elif what == "page-link":
        (root / "notes/a.md").unlink()
        (root / "notes/a.md").symlink_to(outside / "a.md")
    else:
        (root / "notes/a.md").unlink()
        os.mkfifo(root / "notes/a.md")


@pytest.mark.parametrize("what", ["folder-link", "page-link", "fifo"])
def test_a_page_swapped_after_the_load_is_not_read_through(tmp_path: Path, what: str) -> None:
    """Vault.text_of reads a page again by its path: what was swapped in since cannot lead it out
    of the vault nor block it."""
    import threading

    from curator.core.read.vault import Vault

    outside = make_vault(tmp_path / "outside", {"a.md": "# A\n\nSECRET from outside\n"})
    root = make_vault(tmp_path / "v", {"notes/a.md": "# A\n\nthe vault's own\n", "b.md": "see [[a]]\n"})
    vault = load_vault(root, use_cache=False)
    assert "the vault's own" in vault.text_of("notes/a.md")
    _swapped(root, what, outside)
    answer: list[object] = []

    def read(vault: Vault = vault) -> None:
        try:
            answer.append(vault.text_of("notes/a.md"))
        except OSError as exc:
            answer.append(exc)

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    reader.join(20)
    if reader.is_alive():  # blocked on the FIFO: give it a writer so the test ends
        with open(root / "notes/a.md", "w") as fifo:
            fifo.write("")
        reader.join(5)
    (error,) = answer
    assert isinstance(error, OSError) and "not read" in str(error) and "notes/a.md" in str(error)


def test_a_page_swapped_for_a_fifo_before_it_is_read_does_not_block_the_load(tmp_path: Path) -> None:
    from curator.core.read.reading import read_page
    from curator.core.read.scan import FileEntry

    root = make_vault(tmp_path / "v", {})
    os.mkfifo(root / "a.md")  # the scan saw a page of 40 bytes here
    reader = subprocess.Popen(  # in a child process, so a block ends with it instead of hanging pytest
        [
            sys.executable,
            "-c",
            "import sys; from curator.core.read.reading import read_page; "
            "from curator.core.read.scan import FileEntry; "
            "print(read_page(sys.argv[1] + '/', FileEntry('a.md', 40, 0), 1 << 20).size)",
            str(root),
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        out, _ = reader.communicate(timeout=20)
    except subprocess.TimeoutExpired:
        reader.kill()
        pytest.fail("reading a FIFO in place of a page blocked")
    assert reader.returncode == 0 and out.strip() == "40"
    assert read_page(str(root) + "/", FileEntry("a.md", 40, 0), 1 << 20).body_chars == 0


def test_a_search_state_folder_that_is_a_link_is_one_line_and_no_traceback(tmp_path: Path) -> None:
    root = make_vault(tmp_path / "v", {"a.md": "# A\n\nPgBouncer pools connections.\n"})
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (root / ".curator").mkdir(exist_ok=True)
    (root / ".curator" / "search").symlink_to(elsewhere)
    done = subprocess.run(
        [sys.executable, "-m", "curator", "search", str(root), "pgbouncer"], capture_output=True, text=True
    )
    assert done.returncode == 2
    assert "Traceback" not in done.stderr and len(done.stderr.strip().splitlines()) == 1, done.stderr
    assert not list(elsewhere.iterdir())


@pytest.mark.parametrize("command", [["search", "pgbouncer"], ["remember", "PgBouncer now pools 200 connections."]])
def test_a_file_where_the_search_folder_goes_is_named_in_one_line(tmp_path: Path, command: list[str]) -> None:
    root = make_vault(tmp_path / "v", {"a.md": "# PgBouncer\n\nPgBouncer pools connections.\n"})
    (root / ".curator").mkdir()
    (root / ".curator" / "search").write_text("x")
    done = cli(command[0], str(root), *command[1:], timeout=120)
    assert done.returncode == 2
    assert done.stderr.strip().endswith(
        "search is not a folder; curator keeps its state there: remove it and run again"
    )
    assert (root / ".curator" / "search").read_text() == "x"  # not curator's: left for the user to remove


@pytest.mark.parametrize(
    ("data", "said"),
    [
        ("# Backup server\n\nThe backup server runs restic nightly.\n".encode("utf-16"), "UTF-16 text"),
        (b"# Backup server\n\nThe backup server runs restic nightly.\x00\x00\n", "binary data"),
    ],
    ids=["utf-16", "nul-bytes"],
)
def test_a_page_curator_cannot_write_back_as_it_is_is_named_and_left_unchanged(
    tmp_path: Path, data: bytes, said: str
) -> None:
    root = make_vault(tmp_path / "v", {"kafka.md": "# Kafka\n\nThree brokers.\n"})
    (root / "backup-server.md").write_bytes(data)
    done = cli("remember", str(root), "The backup server also keeps 12 monthly snapshots on the NAS.", "--apply")
    assert done.returncode == 0 and not done.stderr
    assert done.stdout.startswith("MERGE-INTO: Merge into backup-server.md by hand") and said in done.stdout
    assert "applied" not in done.stdout and (root / "backup-server.md").read_bytes() == data


def test_a_page_ending_lines_in_cr_alone_is_refused_at_apply_in_one_line(tmp_path: Path) -> None:
    """Read as text, it is found; written back, every line would change."""
    root = make_vault(tmp_path / "v", {"kafka.md": "# Kafka\n\nThree brokers.\n"})
    data = b"# Backup server\r\rThe backup server runs restic nightly.\r\r**Status:** active\r"
    (root / "backup-server.md").write_bytes(data)
    done = cli("remember", str(root), "The backup server also keeps 12 monthly snapshots on the NAS.", "--apply")
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert done.stderr.count("\n") == 1 and "CR alone" in done.stderr and "backup-server.md" in done.stderr
    assert (root / "backup-server.md").read_bytes() == data


def test_a_temporary_file_a_killed_writer_left_in_the_state_folder_goes_with_the_next_change(tmp_path: Path) -> None:
    root = make_vault(tmp_path / "v", {"a.md": "see [[b]]\n", "b.md": "# B\n"})
    (root / ".curator" / "journal").mkdir(parents=True)
    stale = root / ".curator" / "journal" / ".0badc0de.12345678.curator-tmp"
    fresh = root / ".curator" / ".0badc0de.87654321.curator-tmp"  # a live writer's, this minute
    alike = root / ".curator" / "notes.curator-tmp"  # not a name curator gives
    for path in (stale, fresh, alike):
        path.write_bytes(b"half")
    hour_ago = os.stat(stale).st_mtime - 3601
    os.utime(stale, (hour_ago, hour_ago))
    os.utime(alike, (hour_ago, hour_ago))
    done = cli("rename", str(root), "b", "b2")
    assert done.returncode == 0, done.stderr
    assert not stale.exists() and fresh.exists() and alike.exists()


def test_a_line_separator_inside_a_line_moves_no_edit_of_the_index(tmp_path: Path) -> None:
    """An attacker's: U+2028 is a line end to `str.splitlines` but not to the parser, so the drop of
    one page's index line removed the line above it, and a new entry went inside the frontmatter."""
    from curator.core.change.edits import plan_drop
    from curator.core.curate.remember import remember

    index = "# Memory\u2028(kept by the agent)\n\n- [[Mail]]\n- [[PR 412 merged]]\n"
    pages = {"MEMORY.md": index, "Mail.md": "# Mail\n\nPostfix.\n", "PR 412 merged.md": "# PR 412 merged\n\nDone.\n"}
    root = make_vault(tmp_path / "v", pages)
    plan = plan_drop(load_vault(root), "PR 412 merged")
    kept = next(c.after for c in plan.changes if c.path == "MEMORY.md")
    assert kept == "# Memory\u2028(kept by the agent)\n\n- [[Mail]]\n".encode()
    fenced = '---\ndescription: "x\u2028\u2028\u2028"\n---\n- [[Mail]]\n'
    (root / "MEMORY.md").write_text(fenced, encoding="utf-8")
    proposal = remember(load_vault(root), "Grafana dashboards live on host metrics01 behind nginx.")
    entry = next(c.after for c in proposal.plan.changes if c.path == "MEMORY.md") if proposal.plan else None
    assert entry is not None and entry.decode().startswith(fenced + "- [[")


@pytest.mark.parametrize(
    ("data", "command"),
    [
        (b"# Memory\r\r- [[Mail]]\r- [[Old Name]]\n", ["remember", "Grafana dashboards live on metrics01.", "--apply"]),
        (b"# Mail\r\rThe SMTP server is smtp.gmail.com.\rSee [[Other]].\r", ["rename", "Mail", "Mailserver"]),
    ],
    ids=["one-lf-among-crs", "renamed"],
)
def test_a_page_with_lines_ending_in_cr_alone_is_neither_rewritten_nor_moved(
    tmp_path: Path, data: bytes, command: list[str]
) -> None:
    name = "MEMORY.md" if data.startswith(b"# Memory") else "Mail.md"
    root = make_vault(tmp_path / "v", {"Other.md": "# Other\n\nSee [[Mail]].\n", "Mail.md": "# Mail\n\nx\n"})
    (root / name).write_bytes(data)
    done = cli(command[0], str(root), *command[1:])
    assert done.returncode == 2 and "CR alone" in done.stderr and "Traceback" not in done.stderr
    assert (root / name).read_bytes() == data


def test_an_index_that_is_no_utf8_text_is_no_list(tmp_path: Path) -> None:
    """An attacker's: a UTF-16 MEMORY.md reported index drift for every page, and its fix failed."""
    root = make_vault(tmp_path / "v", {"Mail.md": "# Mail\n\nx\n", "Grafana.md": "# Grafana\n\ny\n"})
    (root / "MEMORY.md").write_bytes("# Memory\n\n- [[Mail]]\n".encode("utf-16"))
    done = cli("lint", str(root), "--no-cache", "--select", "index-drift")
    assert done.returncode == 0 and "index-drift" not in done.stdout


def test_an_index_line_keeps_the_files_line_ends_and_its_links_form(tmp_path: Path) -> None:
    """An attacker's: a CRLF index without a final newline got a bare LF; `[Mail](Mail)` got `.md`."""
    from curator.core.curate.remember import remember

    root = make_vault(tmp_path / "v", {"Mail.md": "# Mail\n\nPostfix.\n"})
    (root / "MEMORY.md").write_bytes(b"# Memory\r\n\r\n- [Mail](Mail)")
    proposal = remember(load_vault(root), "Grafana dashboards live on host metrics01 behind nginx.")
    after = next(c.after for c in proposal.plan.changes if c.path == "MEMORY.md") if proposal.plan else b""
    target = quote((proposal.page or "").removesuffix(".md"))
    assert after == f"# Memory\r\n\r\n- [Mail](Mail)\r\n- [{proposal.title}]({target})\r\n".encode()


def test_a_nul_past_the_first_bytes_is_refused_and_a_stray_cr_is_not(tmp_path: Path) -> None:
    """An attacker's: a NUL after 8 KiB was merged into; a CR inside a code block, or a Windows
    file converted twice (CR CR LF), was refused as a file of lines ending in CR alone."""
    body = "# Backup server\n\nThe backup server runs restic nightly.\n\n"
    root = make_vault(tmp_path / "v", {"o.md": "# O\n\nx\n"})
    (root / "backup-server.md").write_bytes((body + "x" * 9000 + "\x00\n").encode())
    text = "The backup server also keeps 12 monthly snapshots on the NAS."
    done = cli("remember", str(root), text, "--apply")
    assert done.returncode == 2 and "NUL" in done.stderr
    for data in ((body + "```\nline\rcarriage\n```\n").encode(), body.replace("\n", "\r\r\n").encode()):
        (root / "backup-server.md").write_bytes(data)
        done = cli("remember", str(root), text, "--apply")
        assert done.returncode == 0, done.stderr
        assert (root / "backup-server.md").read_bytes().startswith(data.rstrip(b"\r\n"))


def test_an_index_line_goes_on_a_numbered_list_and_before_closing_prose(tmp_path: Path) -> None:
    """An attacker's: a numbered index got `- ` and a line glued under "Last updated ..."."""
    from curator.core.curate.remember import remember

    root = make_vault(tmp_path / "v", {"notes/Mail.md": "# Mail\n\nPostfix.\n", "notes/Loki.md": "# Loki\n\nLogs.\n"})
    index = "# Memory\n\n1. [[Mail]]\n2. [[Loki]]\n\nLast updated 2026-01-01.\n"
    (root / "MEMORY.md").write_text(index, encoding="utf-8")
    proposal = remember(load_vault(root), "Grafana dashboards live on host metrics01 behind nginx.")
    after = next(c.after for c in proposal.plan.changes if c.path == "MEMORY.md") if proposal.plan else b""
    assert after.decode() == index.replace("2. [[Loki]]\n", f"2. [[Loki]]\n3. [[{proposal.title}]]\n")


def test_a_page_that_is_a_symbolic_link_hands_a_memory_to_the_file_it_names(tmp_path: Path) -> None:
    """A new user's agent workspace: `CLAUDE.md -> docs/agent.md` took the memory, which no apply
    could write (curator changes no link); the file itself takes it, and as the agent's instructions
    it waits for a person."""
    from curator.core.curate.remember import remember

    page = (
        "# Agent notes\n\nThe deploy uses GitHub Actions. Builds run on ubuntu-latest.\nThe staging host is stage-01.\n"
    )
    root = make_vault(tmp_path / "v", {"docs/agent.md": page, "kafka.md": "# Kafka\n\nThree brokers.\n"})
    (root / "CLAUDE.md").symlink_to("docs/agent.md")
    proposal = remember(load_vault(root), "The staging host stage-01 also runs the nightly smoke tests.")
    assert proposal.plan is not None and [change.path for change in proposal.plan.changes] == ["docs/agent.md"]
    assert proposal.review and "docs/agent.md (CLAUDE.md) is an agent's instructions" in proposal.reason
    from curator.core.change.changes import apply

    apply(root, proposal.plan)
    assert (root / "CLAUDE.md").is_symlink() and "nightly smoke tests" in (root / "docs" / "agent.md").read_text()


def test_a_link_to_no_page_or_from_a_hidden_instructions_file_writes_nothing_unreviewed(tmp_path: Path) -> None:
    """An attacker's: `AGENTS.md -> docs/agent.txt` queued a merge no apply could write, and a link
    `.github/copilot-instructions.md -> ../docs/agent.md` let an agent's memory into those
    instructions unreviewed."""
    from curator.core.curate.remember import remember

    page = "# Agent notes\n\nThe deploy uses GitHub Actions. The staging host is stage-01.\n"
    root = make_vault(tmp_path / "v", {"docs/agent.md": page, "kafka.md": "# Kafka\n\nThree brokers.\n"})
    (root / "docs" / "agent.txt").write_text(page)
    (root / "AGENTS.md").symlink_to("docs/agent.txt")
    (root / ".github").mkdir()
    (root / ".github" / "copilot-instructions.md").symlink_to("../docs/agent.md")
    text = "The staging host stage-01 also runs the nightly smoke tests."
    proposal = remember(load_vault(root), text)
    assert (proposal.decision, proposal.page, proposal.plan) == ("merge-into", "AGENTS.md", None)
    assert "by hand" in proposal.reason and "a link to docs/agent.txt" in proposal.reason
    (root / "AGENTS.md").unlink()
    proposal = remember(load_vault(root), text)
    assert proposal.page == "docs/agent.md" and proposal.review, proposal.reason
    assert "docs/agent.md (.github/copilot-instructions.md) is an agent's instructions" in proposal.reason
