"""A screen whose footer shows what matters on it first (the footer drops what does not fit)."""

from __future__ import annotations

from textual.binding import ActiveBinding
from textual.screen import Screen


class FirstThingsFirst(Screen[None]):
    """The footer lists the bindings whose id starts with one of FOOTER_FIRST (in that order)
    before the rest, which Textual lists from the focused widget outwards."""

    FOOTER_FIRST: tuple[str, ...] = ("app.",)

    @property
    def active_bindings(self) -> dict[str, ActiveBinding]:
        bindings = super().active_bindings

        def rank(item: tuple[str, ActiveBinding]) -> int:
            name = item[1].binding.id or ""
            return next(
                (i for i, prefix in enumerate(self.FOOTER_FIRST) if name.startswith(prefix)), len(self.FOOTER_FIRST)
            )

        return dict(sorted(bindings.items(), key=rank))
