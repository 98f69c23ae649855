"""Bordered boxes whose titles change with every snapshot, repainting only the border row."""

from __future__ import annotations

from typing import Literal, Self

from rich.text import Text
from textual.containers import Container, Vertical
from textual.geometry import Region


class TitledContainer(Container):
    """A container whose :meth:`set_title` and :meth:`set_subtitle` repaint one border row.

    Setting ``border_title`` repaints the box whole: every line of it and of the widgets inside is
    composed again, though only the top row changed (the panes' titles change with each request).
    A title is set only when it is not the one shown.
    """

    _row: Literal["top", "bottom", ""] = ""
    """The border row the next refresh repaints ('' : the whole box)."""

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self._titles: dict[str, str] = {}

    def set_title(self, title: str) -> None:
        """Show ``title`` on the top border (as a Text: a str title is parsed as markup, and a
        scope name is log text)."""
        if self._titles.get("top") != title:
            self._titles["top"] = title
            self._row = "top"
            try:
                self.border_title = Text(title)
            finally:
                self._row = ""

    def set_subtitle(self, subtitle: str) -> None:
        """Show ``subtitle`` (console markup) on the bottom border."""
        if self._titles.get("bottom") != subtitle:
            self._titles["bottom"] = subtitle
            self._row = "bottom"
            try:
                self.border_subtitle = subtitle
            finally:
                self._row = ""

    def refresh(
        self, *regions: Region, repaint: bool = True, layout: bool = False, recompose: bool = False
    ) -> Self:
        if self._row and not regions and not layout and not recompose:
            # Regions are given in content coordinates: the border rows are outside them.
            offset, outer = self.content_offset, self.outer_size
            y = -offset.y if self._row == "top" else outer.height - 1 - offset.y
            regions = (Region(-offset.x, y, outer.width, 1),)
        return super().refresh(*regions, repaint=repaint, layout=layout, recompose=recompose)


class TitledVertical(TitledContainer, Vertical):
    """A :class:`TitledContainer` laid out as a :class:`~textual.containers.Vertical`."""
