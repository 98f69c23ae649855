"""The search prompt (``/``): one line of input; Enter searches, Escape cancels."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Static


class SearchScreen(ModalScreen[str | None]):
    """Asks for a query; dismisses with it (None when cancelled or empty)."""

    DEFAULT_CSS = """
    SearchScreen { align: center top; }
    #search-box { width: 70%; height: auto; border: round $accent; background: $surface; padding: 0 1; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel", id="cancel-search")]

    def __init__(self, previous: str = "") -> None:
        super().__init__()
        self.previous = previous

    def compose(self) -> ComposeResult:
        with Vertical(id="search-box") as box:
            box.border_title = "Search this scope's messages (text and tool names)"
            yield Input(self.previous, placeholder="words to find…", id="search-input")
            yield Static("Enter searches · n / N step through the hits · Esc cancels", markup=False)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self.dismiss(event.value if event.value.strip() else None)

    def action_cancel(self) -> None:
        self.dismiss(None)
