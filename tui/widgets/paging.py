"""A Line-API scroll view whose paging keys jump at once."""

from __future__ import annotations

from typing import ClassVar

from textual.binding import Binding, BindingType
from textual.scroll_view import ScrollView


class PagedView(ScrollView):
    """PgUp / PgDn / g / G without animation: with 100k rows an animation only delays the rows
    asked for. Subclasses add their own ↑ / ↓ (Textual merges the bindings)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("pageup", "page_up", "Page up", show=False),
        Binding("pagedown", "page_down", "Page down", show=False),
        Binding("g", "scroll_home", "Top", show=False),
        Binding("G", "scroll_end", "Bottom", show=False),
    ]

    def action_page_down(self) -> None:
        self.scroll_page_down(animate=False)

    def action_page_up(self) -> None:
        self.scroll_page_up(animate=False)

    def action_scroll_home(self) -> None:
        self.scroll_home(animate=False)

    def action_scroll_end(self) -> None:
        self.scroll_end(animate=False)
