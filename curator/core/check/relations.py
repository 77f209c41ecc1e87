"""The rule about typed edges of the frontmatter that go round: `relation-cycle` (a dead typed
edge is `relation-dead`, found with the dead links in links.py)."""

from __future__ import annotations

from collections.abc import Iterator

from curator.core.check.hits import Hit
from curator.core.common.rules import Rule
from curator.core.read.vault import Vault

RULES = (
    Rule(
        "relation-cycle",
        "A page broader than itself (or part of itself) through a chain of pages.",
        "One finding per cycle.",
    ),
)


def rule_relation_cycles(vault: Vault) -> Iterator[Hit]:
    """A page broader than itself (or part of itself) through a chain of typed edges."""
    from curator.core.read.relations import Relations

    if vault.config.severity("relation-cycle") is None or not any(rl.link.key for rl in vault.links):
        return
    for kind, cycle in Relations.of(vault).cycles():
        chain = " → ".join(vault.pages[p].title for p in [*cycle, cycle[0]])
        message = f"{kind} cycle: {chain} (a page {kind.replace('_', ' ')} itself through {len(cycle)} pages)"
        key = f"{kind}:{'|'.join(sorted(cycle))}"
        yield Hit("relation-cycle", cycle[0], message, key, data={"kind": kind, "pages": cycle})
