"""What several test files share: where the vaults are, making a small vault on the spot, and
waiting for the TUI to settle. Fixtures are in conftest.py."""

from __future__ import annotations

import contextlib
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
SAMPLE_VAULT = ROOT / "sample_vault"
SHARED_VAULTS = ROOT.parent / "shared" / "vaults"
FOAM_DOCS = SHARED_VAULTS / "foam-docs"
# Body text long enough not to be a stub (120 characters).
NOT_A_STUB = (
    "Enough words on this page to be more than a stub, which needs a hundred and twenty characters of text, "
    "so here are some more."
)


def make_vault(root: Path, files: dict[str, str | bytes]) -> Path:
    """Write `files` (path -> text or bytes) under `root` and return it."""
    root.mkdir(parents=True, exist_ok=True)
    for name, content in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8")
    return root


async def settle(pilot: Any) -> None:
    """Wait until the app's workers are done and every message is handled. A worker cancelled is
    done: a search the user moved on from is cancelled, and on a loaded machine that can be the
    one still running when the wait starts."""
    from textual.worker import WorkerCancelled

    for _ in range(3):
        for worker in list(pilot.app.workers):
            with contextlib.suppress(WorkerCancelled):
                await worker.wait()
        await pilot.pause()


async def settle_screen(pilot: Any) -> None:
    """Settle, then wait until two screenshots agree: a table measures its columns when the app is idle,
    which on a loaded machine comes after settle returns."""
    await settle(pilot)
    previous = None
    for _ in range(50):
        await pilot.pause(0.05)
        shot = pilot.app.export_screenshot()
        if shot == previous:
            return
        previous = shot


def init_repo(root: Path) -> Any:
    """A git repository at `root` with every file in one first commit (a `git.Repo`)."""
    import git

    repo = git.Repo.init(root)
    with repo.config_writer() as config:
        config.set_value("user", "name", "Test")
        config.set_value("user", "email", "test@example.com")
    repo.git.add("-A")
    repo.git.commit("-m", "initial")
    return repo


def notifications(app: Any, monkeypatch: Any) -> list[str]:
    """Every notification the app shows from now on (the screens' go through the app too)."""
    said: list[str] = []
    shown = app.notify

    def notify(message: str, **kwargs: Any) -> None:
        said.append(message)
        shown(message, **kwargs)

    monkeypatch.setattr(app, "notify", notify)
    return said


def duplicates(root: Path) -> list[Any]:
    """The duplicate rule's pairs of the vault at `root`, read afresh (nothing cached)."""
    from curator.core.meaning.duplicates import find
    from curator.core.read.loading import load_vault
    from curator.core.state.config import load_config

    return find(load_vault(root, load_config(root), use_cache=False))


def saved_after_each_decision(monkeypatch: Any, page: Path) -> None:
    """`remember` decides, then another program appends a line to `page` (an editor's autosave)."""
    import curator.core.curate.remember as remembering

    decide = remembering.remember

    def then_saved(vault: Any, text: str, *args: Any, **kwargs: Any) -> Any:
        proposal = decide(vault, text, *args, **kwargs)
        with page.open("a") as handle:
            handle.write("Autosave.\n")
        return proposal

    monkeypatch.setattr(remembering, "remember", then_saved)
