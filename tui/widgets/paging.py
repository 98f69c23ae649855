"""A Line-API scroll view whose paging keys jump at once."""

from __future__ import annotations

from typing import ClassVar

from textual.binding import Binding, BindingType
from textual.geometry import Size
from textual.scroll_view import ScrollView
from textual.widget import Widget


class PagedView(ScrollView):
    """PgUp / PgDn / g / G without animation: with 100k rows an animation only delays the rows
    asked for. Subclasses add their own ↑ / ↓ (Textual merges the bindings)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("pageup", "page_up", "Page up", show=False),
        Binding("pagedown", "page_down", "Page down", show=False),
        Binding("g", "scroll_home", "Top", show=False),
        Binding("G", "scroll_end", "Bottom", show=False),
    ]

    def set_virtual_size(self, size: Size) -> None:
        """Set :attr:`virtual_size` without a layout pass when the scrollbars stay as they are.

        Assigning ``virtual_size`` lays the whole screen out again and paints a second frame for
        the scrollbars. When the widget's own region cannot change (it has a size, and each
        scrollbar is shown before and after, or hidden before and after) only the scrollbars'
        window and this widget are refreshed.
        """
        old, viewport = self.virtual_size, self.scrollable_content_region.size
        same_bars = (
            viewport.area > 0
            and (old.height > viewport.height) == (size.height > viewport.height)
            and (old.width > viewport.width) == (size.width > viewport.width)
        )
        if not same_bars or size == old:
            self.virtual_size = size
            return
        self.set_reactive(Widget.virtual_size, size)
        self._scroll_update(size)
        self.refresh()

    def action_page_down(self) -> None:
        self.scroll_page_down(animate=False)

    def action_page_up(self) -> None:
        self.scroll_page_up(animate=False)

    def action_scroll_home(self) -> None:
        self.scroll_home(animate=False)

    def action_scroll_end(self) -> None:
        self.scroll_end(animate=False)
