"""Property: any renames and merges, undone in any order (a refused undo waits its turn), give back
the original tree byte for byte; and after each rename no link that resolved before is dead."""

from __future__ import annotations

from pathlib import Path

from edit_helpers import folders, resolving, tree, undo_all_in_any_order
from helpers import make_vault
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from curator.core.change.changes import apply, undo
from curator.core.change.edits import plan_rename
from curator.core.change.merging import plan_merge
from curator.core.common.errors import EditError
from curator.core.read.loading import load_vault

NAMES = ["Alpha", "Beta", "Gamma note", "Delta", "Zoë", "Epsilon", "alpha"]
FOLDERS = ["", "a", "a/b", "c"]


@st.composite
def vaults(draw: st.DrawFn) -> dict[str, str]:
    count = draw(st.integers(3, 6))
    paths = draw(
        st.lists(
            st.tuples(st.sampled_from(FOLDERS), st.sampled_from(NAMES)),
            min_size=count,
            max_size=count,
            unique_by=lambda t: t[1].casefold(),
        )
    )
    files = [f"{folder}/{name}.md".lstrip("/") for folder, name in paths]
    result = {}
    for path in files:
        lines = [f"# {Path(path).stem}", "", "Some text about it.", ""]
        for _ in range(draw(st.integers(0, 4))):
            target = draw(st.sampled_from(files))
            stem = target[:-3]
            title = Path(target).stem
            folder = str(Path(path).parent).replace(".", "")
            rel = Path(target).relative_to(folder).as_posix() if folder and target.startswith(folder + "/") else None
            forms = [f"[[{title}]]", f"[[{title}|label]]", f"[[{title}#{title}]]", f"[[{stem}]]", f"![[{title}]]"]
            forms.append(f"[m](/{stem.replace(' ', '%20')}.md)")
            if rel:
                forms.append(f"[r]({rel.replace(' ', '%20')})")
            lines.append("See " + draw(st.sampled_from(forms)) + ".")
            lines.append("")
        result[path] = "\n".join(lines)
    return result


OPS = st.lists(
    st.one_of(
        st.tuples(
            st.just("rename"), st.integers(0, 9), st.sampled_from(["Renamed", "Other name", "x/Moved", "a/Alpha 2"])
        ),
        st.tuples(st.just("merge"), st.integers(0, 9), st.integers(0, 9)),
    ),
    min_size=1,
    max_size=4,
)


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow]
)
@given(files=vaults(), ops=OPS, order_seed=st.integers(0, 1000))
def test_undo_everything_in_any_order_restores_the_tree(tmp_path_factory, files, ops, order_seed) -> None:  # type: ignore[no-untyped-def]
    root = make_vault(tmp_path_factory.mktemp("v"), dict(files))
    original, original_folders = tree(root), folders(root)
    applied = []
    for op in ops:
        vault = load_vault(root, use_cache=False)
        pages = sorted(vault.pages)
        try:
            if op[0] == "rename":
                before = resolving(root)
                plan = plan_rename(vault, pages[op[1] % len(pages)], op[2])
            else:
                source, into = pages[op[1] % len(pages)], pages[op[2] % len(pages)]
                before = None
                plan = plan_merge(vault, source, into)
        except EditError:
            continue
        applied.append(apply(root, plan).id)
        if before is not None:
            moved = plan.moved
            after = resolving(root)
            still = set(after.values())
            for (_source, _n), target in before.items():
                assert moved.get(target, target) in still, (target, plan.notes)
    undo_all_in_any_order(root, applied, order_seed)
    assert tree(root) == original
    assert folders(root) == original_folders


@st.composite
def shared_line_vaults(draw: st.DrawFn) -> dict[str, str]:
    """Pages whose lines each hold several links, to the same or to different pages."""
    names = draw(st.lists(st.sampled_from(NAMES[:6]), min_size=3, max_size=6, unique=True))
    result = {}
    for name in names:
        lines = [f"# {name}", ""]
        for _ in range(draw(st.integers(1, 3))):
            targets = draw(st.lists(st.sampled_from(names), min_size=2, max_size=4))
            forms = [draw(st.sampled_from([f"[[{t}]]", f"[[{t}|label]]", f"[[{t}#{t}]]"])) for t in targets]
            lines.append("See " + ", ".join(forms) + " and the rest.")
        result[f"{name}.md"] = "\n".join(lines) + "\n"
    return result


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow]
)
@given(files=shared_line_vaults(), picks=st.lists(st.integers(0, 5), min_size=2, max_size=4), order=st.randoms())
def test_renames_of_links_that_share_lines_undo_in_every_order(tmp_path_factory, files, picks, order) -> None:  # type: ignore[no-untyped-def]
    root = make_vault(tmp_path_factory.mktemp("v"), dict(files))
    original = tree(root)
    pages = sorted(files)
    applied = []
    for n, pick in enumerate(dict.fromkeys(p % len(pages) for p in picks)):  # each page renamed once
        plan = plan_rename(load_vault(root, use_cache=False), pages[pick], f"Renamed {n}")
        applied.append(apply(root, plan).id)
    order.shuffle(applied)
    for change in applied:  # every undo goes through, whatever the order: no waiting its turn
        undo(root, change)
    assert tree(root) == original
