"""Every rule's catalogue entry, gathered from the modules that hold the rules, in the order of
the config's `RULE_SEVERITY` (the order of the reference and of SARIF's rule list)."""

from __future__ import annotations

from curator.core.check import duplicate_pages, index_page, links, pages, relations, secrets
from curator.core.common.rules import Rule
from curator.core.state.config import RULE_SEVERITY

_ORDER = {rule: n for n, rule in enumerate(RULE_SEVERITY)}
CATALOGUE: tuple[Rule, ...] = tuple(
    sorted(
        (*pages.RULES, *links.RULES, *index_page.RULES, *relations.RULES, *secrets.RULES, *duplicate_pages.RULES),
        key=lambda rule: _ORDER[rule.id],
    )
)
