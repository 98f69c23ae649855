"""The message viewer: one stored message in full (Enter on a message row), scrollable.

Every block is shown literally — text, a tool call with its name and input, a tool result, a
summary — as ``rich.text.Text`` built with ``append`` (never markup), with control characters
made visible (:func:`~ctxscope.tui.widgets.text.clean_block`), so hostile log text neither styles
nor controls the terminal. The text comes from core (:func:`~ctxscope.core.fulltext.whole_message`
reads back what the reader elided by offset); nothing here reads the log.
"""

from __future__ import annotations

from typing import ClassVar, Final

from ctxscope.core.fulltext import WholeMessage
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from ..widgets import text as fmt

VIEW_CHARS: Final = 1_000_000
"""A block longer than this shows its first this many characters (then ``…``)."""

KIND_TITLES: Final = {
    "text": "text",
    "reasoning": "reasoning",
    "tool_call": "tool call",
    "tool_result": "tool result",
    "artifact": "artifact",
    "summary": "summary",
}


def message_text(message: WholeMessage) -> Text:
    """The whole message as inert text: a heading per block, then its characters."""
    out = Text(no_wrap=False, end="")
    out.append(f"{message.role}", "bold")
    out.append(f"  message #{message.index}", "dim")
    if message.line:
        out.append(f"  log line {message.line:,}", "dim")
    out.append("\n")
    if message.missing_chars:
        out.append(f"{message.missing_chars:,} characters could not be read back from the log\n", "yellow")
    if not message.blocks:
        out.append("(no content)\n", "dim")
    for block in message.blocks:
        out.append("\n── ", "dim")
        out.append(KIND_TITLES.get(block.kind, fmt.clean(block.kind, 40)), "bold cyan")
        if block.name:
            out.append(" ")
            out.append(fmt.clean(block.name, 200), "bold")
        if block.call_id:
            out.append("  id ", "dim")
            out.append(fmt.clean(block.call_id, 200), "dim")
        if block.is_error:
            out.append("  error", "bold red")
        if block.whitespace_only:  # nothing to show: say what is there instead of blank lines
            out.append(f"  {len(block.text):,} chars, whitespace only (spaces and line breaks)\n", "dim")
            continue
        out.append(f"  {len(block.text):,} chars\n", "dim")
        out.append(fmt.clean_block(block.text, VIEW_CHARS))
        out.append("\n")
    return out


class MessageScreen(ModalScreen[None]):
    """One message in full; ↑/↓, PgUp/PgDn scroll, Escape closes."""

    DEFAULT_CSS = """
    MessageScreen { align: center middle; }
    #message-box { width: 90%; height: 90%; border: round $accent; background: $surface; padding: 0 1; }
    #message-text { width: 100%; height: auto; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q,enter", "close", "Close", id="close-message"),
    ]

    def __init__(self, message: WholeMessage) -> None:
        super().__init__()
        self.message = message

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="message-box") as box:
            box.border_title = f"Message #{self.message.index} · the whole text, literally"
            box.border_subtitle = "↑↓ PgUp PgDn scroll · esc closes"
            yield Static(message_text(self.message), id="message-text", markup=False)

    def on_mount(self) -> None:
        self.query_one("#message-box", VerticalScroll).focus()

    def action_close(self) -> None:
        self.dismiss(None)
