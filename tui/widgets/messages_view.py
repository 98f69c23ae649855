"""The messages of the selected request, each with when it was first sent and what the pipeline
did to it.

A Line-API widget (``ScrollView`` + ``render_line``): only the visible rows are rendered, and each
rendered row is kept as a :class:`~textual.strip.Strip` in an LRU cache keyed by what it shows
(the message's view and time) and the width, so scrolling through 100,000 messages costs the same
as through 100, and the next request's unchanged rows are not rendered again.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import ClassVar, Final, NamedTuple

from ctxscope.core.snapshot import Fate, MessageView, RequestDetail
from rich.style import Style
from rich.text import Text
from textual.binding import Binding, BindingType
from textual.cache import LRUCache
from textual.geometry import Size
from textual.reactive import reactive
from textual.strip import Strip
from textual.widget import Widget

from ..messages import MessageOpened
from . import text as fmt
from .paging import PagedView

FATE_LABELS: Final = {
    Fate.KEPT: "kept",
    Fate.CLEARED: "cleared",
    Fate.TRIMMED: "trimmed",
    Fate.SUMMARISED: "summarised",
    Fate.DROPPED: "dropped",
}

ROLE_SHORT: Final = {"system": "sys", "user": "user", "assistant": "asst", "tool": "tool"}


class Columns(NamedTuple):
    """Column widths of the list; narrower panes get a compact set."""

    index: int  # type: ignore[assignment]  # a width, named like its column (shadows tuple.index)
    time: int
    role: int
    kind: int
    tokens: int
    fate: int
    compact: bool


WIDE: Final = Columns(7, 9, 10, 18, 15, 12, False)
COMPACT: Final = Columns(6, 6, 5, 12, 6, 12, True)


def columns_for(width: int) -> Columns:
    return COMPACT if width < 90 else WIDE


def fit_kind(kind: str, width: int) -> str:
    """A message's kind in ``width`` characters, keeping tool names: ``text, call Read`` becomes
    ``call Read`` rather than ``text, call R…``; text, reasoning and the like give way first."""
    if len(kind) <= width:
        return kind
    parts = kind.split(", ")
    tools = [p for p in parts if p.startswith(("call ", "result "))]
    for kept in ([p for p in parts if p != "text"], tools):  # then only the tool calls and results
        short = ", ".join(kept)
        if kept and len(short) <= width:
            return short
    short = ", ".join(tools or parts)
    return short[: width - 1] + "…"


def header_text(width: int = 120) -> Text:
    c = columns_for(width)
    out = Text(no_wrap=True, end="")
    out.append("#".rjust(c.index - 1) + " ")
    out.append("time".ljust(c.time))
    out.append("role".ljust(c.role))
    out.append("kind".ljust(c.kind))
    out.append(("sent" if c.compact else "sent/stored").rjust(c.tokens - 1) + " ")
    out.append(" fate".ljust(c.fate))
    out.append("preview")
    return out


class MessagesHeader(Widget):
    """The column titles above :class:`MessagesView` (same widths, adapts to the pane)."""

    DEFAULT_CSS = """
    MessagesHeader {
        height: 1;
    }
    """

    def render(self) -> Text:
        return header_text(self.size.width)


class MessagesView(PagedView, can_focus=True):
    """Virtualised list of the selected request's stored messages: role, kind, tokens, fate, preview."""

    # ←/→/Home/End move the request cursor (dashboard bindings); this list scrolls vertically only.
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("up", "move(-1)", "Previous message", show=False),
        Binding("down", "move(1)", "Next message", show=False),
        Binding("enter", "open_message", "Whole message", tooltip="Open the selected message in full"),
    ]

    DEFAULT_CSS = """
    MessagesView {
        height: 1fr;
        overflow-x: hidden;
    }
    """

    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "messages--index",
        "messages--time",
        "messages--role",
        "messages--kind",
        "messages--tokens",
        "messages--kept",
        "messages--cleared",
        "messages--trimmed",
        "messages--summarised",
        "messages--dropped",
        "messages--preview",
        "messages--empty",
    }

    detail: reactive[RequestDetail | None] = reactive(None, init=False)
    """The newest detail of the scope (another request's while the selected one's loads)."""
    placeholder: reactive[str] = reactive("select a request to see its messages", init=False)
    """Shown while there is no detail (loading, released, no request)."""

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self._messages: Sequence[MessageView] = ()
        self._times: Sequence[datetime | None] = ()
        self.redact = False
        """Show each message's shape (kind and size) instead of its preview (``--redact``)."""
        self.row = 0
        """The selected row (Enter opens its message in full)."""
        self.cache: LRUCache[tuple[MessageView, datetime | None, int, Style], Strip] = LRUCache(1024)
        """Rendered rows by what they show (the message's view, its time), the width and the base
        style (the theme): the next
        request's rows that did not change are served from it. Its ``hits`` and ``misses`` are
        checked in tests."""

    @property
    def row_count(self) -> int:
        return len(self._messages)

    def watch_detail(self, detail: RequestDetail | None) -> None:
        """New rows: keep the scroll position (and the selected row when the list is as long)."""
        messages = detail.messages if detail is not None else ()
        if messages is self._messages:
            return
        self._messages = messages
        self._times = detail.sent_at if detail is not None else ()
        self.row = min(self.row, max(0, len(messages) - 1))
        self.set_virtual_size(Size(self.size.width, len(messages)))

    def action_move(self, delta: int) -> None:
        """Select the previous or next message, scrolling to keep it in view."""
        if self._messages:
            self.select(max(0, min(len(self._messages) - 1, self.row + delta)))

    def select(self, row: int) -> None:
        """Select ``row`` (kept when the list changes: a search hit's row before its request's
        messages arrive), scrolling to keep it in view."""
        self.row = max(0, row)
        if self.row < self.scroll_offset.y:
            self.scroll_to(y=self.row, animate=False)
        elif self.row >= self.scroll_offset.y + self.size.height:
            self.scroll_to(y=self.row - self.size.height + 1, animate=False)
        self.refresh()

    def action_open_message(self) -> None:
        """Ask for the selected message in full (the app reads it through core and shows it)."""
        if 0 <= self.row < len(self._messages) and self._messages[self.row].index >= 0:
            self.post_message(MessageOpened(self._messages[self.row].index))

    def on_resize(self) -> None:
        self.virtual_size = Size(self.size.width, len(self._messages))

    def _style(self, name: str) -> Style:
        return self.get_component_rich_style(f"messages--{name}", partial=True)

    def render_line(self, y: int) -> Strip:
        scroll_x, scroll_y = self.scroll_offset
        row = scroll_y + y
        width = self.scrollable_content_region.width or self.size.width  # the scrollbar's column left out
        base = self.rich_style
        if not self._messages:
            if y == 0:
                text = Text(self.placeholder, style=self._style("empty"), no_wrap=True, end="")
                text.truncate(width, overflow="ellipsis")
                strip = Strip(text.render(self.app.console), text.cell_len)
                return strip.adjust_cell_length(width, base).apply_style(base)
            return Strip.blank(width, base)
        if row >= len(self._messages):
            return Strip.blank(width, base)
        message = self._messages[row]
        when = self._times[row] if row < len(self._times) else None
        key = (message, when, width, base)
        cached = self.cache.get(key)
        if cached is None:
            cached = self._render_row(message, when, width, base)
            self.cache.set(key, cached)
        if row == self.row and self.has_focus:
            cached = cached.apply_style(Style(reverse=True))
        return cached.apply_offsets(scroll_x, row)

    def _render_row(self, message: MessageView, when: datetime | None, width: int, base: Style) -> Strip:
        c = columns_for(width)
        fate_style = self._style(message.fate.value)
        text = Text(no_wrap=True, overflow="ellipsis", end="")
        text.append(f"{message.index}".rjust(c.index - 1) + " ", self._style("index"))
        clock = "" if when is None else when.strftime("%H:%M" if c.compact else "%H:%M:%S")
        text.append(clock.ljust(c.time), self._style("time"))
        role = ROLE_SHORT.get(message.role, message.role) if c.compact else message.role
        text.append(fmt.clean(role, c.role - 1)[: c.role - 1].ljust(c.role), self._style("role"))
        kind = fit_kind(fmt.clean(message.kind, 200), c.kind - 1)
        text.append(kind.ljust(c.kind), self._style("kind"))
        if c.compact:
            figures = fmt.tokens(message.tokens)
        else:
            figures = f"{fmt.tokens(message.tokens)}/{fmt.tokens(message.stored_tokens)}"
        text.append(figures.rjust(c.tokens - 1) + " ", self._style("tokens"))
        fate = FATE_LABELS.get(message.fate, str(message.fate))
        text.append(" " + fate.ljust(c.fate - 1), fate_style)
        if self.redact:
            preview = fmt.shape(message.kind, token_count=message.stored_tokens)
        else:
            preview = fmt.clean(message.preview, max(1, width))
        text.append(preview, self._style("preview"))
        text.truncate(width, overflow="ellipsis")
        strip = Strip(text.render(self.app.console), text.cell_len).adjust_cell_length(width, base)
        return strip.apply_style(base)

    def on_focus(self) -> None:
        self.refresh()

    def on_blur(self) -> None:
        self.refresh()
