"""What a change repaints: a titled box its border row, a growing scroll view no layout pass."""

from __future__ import annotations

from typing import Self

from ctxscope.tui.widgets.paging import PagedView
from ctxscope.tui.widgets.titled import TitledVertical
from textual.app import App, ComposeResult
from textual.geometry import Region, Size
from textual.widget import Widget


class Recorder(Widget):
    """Records every refresh that reaches Textual (its regions and whether it lays out)."""

    refreshes: list[tuple[tuple[Region, ...], bool]]

    def refresh(
        self, *regions: Region, repaint: bool = True, layout: bool = False, recompose: bool = False
    ) -> Self:
        if not hasattr(self, "refreshes"):
            self.refreshes = []
        self.refreshes.append((regions, layout))
        return super().refresh(*regions, repaint=repaint, layout=layout, recompose=recompose)


class Box(TitledVertical, Recorder):
    DEFAULT_CSS = "Box { border: round white; height: 10; }"


class Rows(PagedView, Recorder):
    DEFAULT_CSS = "Rows { height: 5; }"


class Screenful(App[None]):
    def compose(self) -> ComposeResult:
        with Box(id="box"):
            yield Rows(id="rows")


async def test_a_new_title_repaints_the_border_row_once() -> None:
    app = Screenful()
    async with app.run_test(size=(40, 12)) as pilot:
        box = app.query_one(Box)
        await pilot.pause()
        box.refreshes.clear()
        box.set_title("request #1")
        box.set_title("request #1")  # the same title again: nothing to repaint
        box.set_subtitle("legend")
        assert len(box.refreshes) == 2
        (top,), _ = box.refreshes[0]
        (bottom,), _ = box.refreshes[1]
        offset, outer = box.content_offset, box.outer_size
        assert top.translate(offset) == Region(0, 0, outer.width, 1)
        assert bottom.translate(offset) == Region(0, outer.height - 1, outer.width, 1)
        assert not any(layout for _, layout in box.refreshes)
        await pilot.pause()
        assert str(box.border_title) == "request #1"


async def test_a_growing_scroll_view_needs_no_layout_while_its_scrollbar_stays() -> None:
    app = Screenful()
    async with app.run_test(size=(40, 12)) as pilot:
        rows = app.query_one(Rows)
        await pilot.pause()
        rows.set_virtual_size(Size(30, 3))  # fits: no scrollbar yet
        await pilot.pause()
        rows.refreshes.clear()
        rows.set_virtual_size(Size(30, 50))  # now it scrolls: the scrollbar appears, a layout
        assert any(layout for _, layout in rows.refreshes)
        await pilot.pause()
        rows.refreshes.clear()
        rows.set_virtual_size(Size(30, 53))  # grows, the scrollbar stays: a repaint only
        assert rows.refreshes and not any(layout for _, layout in rows.refreshes)
        assert rows.virtual_size == Size(30, 53)
        await pilot.pause()
        rows.scroll_end(animate=False)
        await pilot.pause()
        assert rows.scroll_offset.y == rows.max_scroll_y == 53 - rows.scrollable_content_region.height
