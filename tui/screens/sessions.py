"""The session browser: every agent session at a glance, and the dashboard of any one of them.

:class:`SessionsScreen` shows one row a session (rows come from core's
:class:`~ctxscope.core.sessions_index.SessionIndex` through the feed; nothing here computes a
figure). Typing filters, ``ctrl+s`` / ``ctrl+r`` (or a click on a column header) sort, Enter
opens the session.

:class:`SessionsApp` is the dashboard app with the browser as its first screen: Enter pushes the
dashboard screen on the chosen session with the same tailer and source ``ctxscope watch`` (a live
session) or ``ctxscope open`` (a finished one) use, and Escape stops that tailer and comes back.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from datetime import UTC, datetime
from functools import partial
from pathlib import Path, PurePath
from typing import ClassVar

from ctxscope.core.pricing import format_dollars
from ctxscope.core.sessions_index import SORT_KEYS, SessionIndex, SessionRow, matches, sort_rows
from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.message import Message
from textual.screen import Screen
from textual.timer import Timer
from textual.widgets import DataTable, Footer, Input, Static

from ..app import CtxscopeApp, DashboardOptions, DashboardScreen, default_source
from ..messages import Mode
from ..sessions_feed import SessionRowsUpdated, SessionsFeed
from ..tailer import Tailer, check_source
from ..widgets import text as fmt

PROJECT_CHARS = 26
MODEL_CHARS = 18

COLUMNS: tuple[tuple[str, str, int], ...] = (
    ("live", " ", 1),
    ("agent", "agent", 11),
    ("project", "project", PROJECT_CHARS),
    ("model", "model", MODEL_CHARS),
    ("started", "started", 11),
    ("last", "last", 7),
    ("calls", "calls", 6),
    ("context", "context", 9),
    ("peak", "peak", 6),
    ("window", "window", 6),
    ("compactions", "cmp", 3),
    ("subagents", "sub", 3),
    ("cost", "cost≈", 8),
)
"""(key, header, width) of every column; the keys that are in :data:`SORT_KEYS` sort."""

TUI = Path(__file__).parents[1]

SORTABLE: tuple[str, ...] = tuple(key for key, _, _ in COLUMNS if key in SORT_KEYS)


def _ago(seconds: float) -> str:
    seconds = max(0.0, seconds)
    for size, unit in ((86_400, "d"), (3_600, "h"), (60, "m")):
        if seconds >= size:
            return f"{int(seconds // size)}{unit} ago"
    return "now"


def _started(stamp: str) -> str:
    try:
        moment = datetime.fromisoformat(stamp.replace("Z", "+00:00"))
    except ValueError:
        return fmt.clean(stamp, 11)
    if moment.tzinfo is not None:
        moment = moment.astimezone(UTC)
    return moment.strftime("%m-%d %H:%M")


def _tail(value: str, limit: int) -> str:
    value = fmt.clean(value, 4 * limit)
    return value if len(value) <= limit else "…" + value[-(limit - 1) :]


def cells(row: SessionRow, now: float) -> tuple[Text, ...]:
    """The row's cells, every one a :class:`Text` (log text is never read as markup)."""
    window = row.window
    share = f" {fmt.percent(row.context, window)}" if row.context is not None and window else ""
    context = f"{fmt.tokens(row.context)}{share}" if row.context is not None else "—"
    cost = format_dollars(row.cost) if row.cost is not None else "—"
    chats = f" ×{row.chats}" if row.chats else ""  # chat sessions in one log (Aider): no sub-agents
    agent, room = row.agent or row.format, 11 - len(chats)
    agent = fmt.clean(agent, room if len(agent) <= room else room - 1) + chats
    values = {
        "live": Text("●", style="bold green") if row.live else Text(""),
        "agent": fmt.literal(agent, limit=11),
        "project": Text(_tail(row.project or "?", PROJECT_CHARS)),
        "model": fmt.literal(row.model or "?", limit=MODEL_CHARS),
        "started": Text(_started(row.started) if row.started else "—"),
        "last": Text(_ago(now - row.last_activity)),
        "calls": Text(fmt.count(row.calls), justify="right"),
        "context": Text(context, justify="right"),
        "peak": Text(fmt.tokens(row.peak) if row.peak is not None else "—", justify="right"),
        "window": Text(fmt.tokens(window) if window else "—", justify="right"),
        "compactions": Text(str(row.compactions) if row.compactions else "", justify="right"),
        "subagents": Text(str(row.subagents) if row.subagents else "", justify="right"),
        "cost": Text(cost + ("+" if row.unpriced and row.cost is not None else ""), justify="right"),
    }
    if row.problem:
        values["model"] = Text("unreadable", style="bold red")
    return tuple(values[key] for key, _, _ in COLUMNS)


class SessionOpened(Message):
    """The user chose a session to open."""

    def __init__(self, row: SessionRow) -> None:
        super().__init__()
        self.row = row


class SessionsScreen(Screen[None]):
    """The list of sessions: a filter line, the table, and a status line."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "open", "Open", id="open-session", priority=True,
                tooltip="Open the dashboard on the selected session"),
        Binding("up", "move(-1)", "Up", show=False, priority=True),
        Binding("down", "move(1)", "Down", show=False, priority=True),
        Binding("pageup", "move(-20)", "Page up", show=False, priority=True),
        Binding("pagedown", "move(20)", "Page down", show=False, priority=True),
        Binding("ctrl+s", "next_sort", "Sort", id="sort-next", tooltip="Sort by the next column"),
        Binding("ctrl+r", "reverse_sort", "Reverse", id="sort-reverse", tooltip="Reverse the order"),
        Binding("escape", "clear_filter", "Clear", id="clear-filter", show=False),
        Binding("ctrl+q", "app.quit", "Quit", id="quit-browser"),
    ]

    def __init__(self, clock: Callable[[], float] = time.time) -> None:
        super().__init__()
        self.clock = clock
        self.rows: dict[str, SessionRow] = {}
        self.shown: list[str] = []
        """Paths of the rows in the table, in order."""
        self.sort_key = "last"
        self.descending = True
        self.done = 0
        self.total = 0
        self.finished = False
        self.reorder_seconds = 1.0
        """Rows that only moved are moved at most this often."""
        self._reorder: Timer | None = None

    def compose(self) -> ComposeResult:
        yield Static(id="sessions-status")
        yield Input(placeholder="type to filter: project, model, agent, session id…", id="sessions-filter")
        table: DataTable[Text] = DataTable(id="sessions-table", cursor_type="row", zebra_stripes=True)
        for key, label, width in COLUMNS:
            table.add_column(label, key=key, width=width)
        yield table
        yield Footer()

    def on_mount(self) -> None:
        self.query_one(Input).focus()
        self._render_status()

    @property
    def table(self) -> DataTable[Text]:
        return self.query_one("#sessions-table", DataTable)

    @property
    def needle(self) -> str:
        return self.query_one(Input).value

    # -- rows in --------------------------------------------------------------------------------

    def apply_rows(self, message: SessionRowsUpdated) -> None:
        for row in message.rows:
            self.rows[row.path] = row
        for path in message.removed:
            self.rows.pop(path, None)
        self.done, self.total, self.finished = message.done, message.total, message.finished
        self._render_rows(None if message.removed else {row.path for row in message.rows})
        self._render_status()

    def _ordered(self) -> list[str]:
        visible = (row for row in self.rows.values() if matches(row, self.needle))
        return [row.path for row in sort_rows(visible, self.sort_key, self.descending)]

    def _render_rows(self, changed: set[str] | None = None) -> None:
        """Update the table: changed cells in place when the order stands, else rebuild it.

        Rows that only moved (a live session became the newest) are updated in place at once and
        moved at most every :attr:`reorder_seconds`: rebuilding a table of a thousand rows on
        every write of a busy log would take the UI thread's time.
        """
        order = self._ordered()
        table = self.table
        now = self.clock()
        if changed is not None and set(order) == set(self.shown):
            for path in changed & set(order):
                for (key, _, _), cell in zip(COLUMNS, cells(self.rows[path], now), strict=True):
                    table.update_cell(path, key, cell)
            if order != self.shown and self._reorder is None:
                self._reorder = self.set_timer(self.reorder_seconds, self._reordered)
            return
        if self._reorder is not None:
            self._reorder.stop()
            self._reorder = None
        selected = self.shown[table.cursor_row] if 0 <= table.cursor_row < len(self.shown) else None
        with self.app.batch_update():
            table.clear()
            for path in order:
                table.add_row(*cells(self.rows[path], now), key=path)
        self.shown = order
        if selected in order:
            table.move_cursor(row=order.index(selected), animate=False)
        self._render_status()

    def _reordered(self) -> None:
        self._reorder = None
        self._render_rows()

    def _render_status(self) -> None:
        live = sum(row.live for row in self.rows.values())
        parts = [f"{fmt.count(len(self.rows))} sessions", f"{live} live"]
        if len(self.shown) != len(self.rows):
            parts.append(f"{fmt.count(len(self.shown))} shown")
        if not self.finished:
            reading = f"reading {fmt.count(self.done)}/{fmt.count(self.total)}…"
            parts.append(reading if self.total else "looking…")
        arrow = "↓" if self.descending else "↑"
        parts.append(f"sorted by {self.sort_key} {arrow}")
        parts.append("cost ≈ list prices (estimate)")
        self.query_one("#sessions-status", Static).update(Text(" · ".join(parts)))

    # -- actions --------------------------------------------------------------------------------

    @on(Input.Changed, "#sessions-filter")
    def _filtered(self) -> None:
        self._render_rows()

    @on(DataTable.HeaderSelected)
    def _header(self, event: DataTable.HeaderSelected) -> None:
        key = str(event.column_key.value)
        if key in SORTABLE:
            self.descending = not self.descending if key == self.sort_key else True
            self.sort_key = key
            self._render_rows()

    @on(DataTable.RowSelected)
    def _row_selected(self) -> None:
        self.action_open()

    def action_move(self, delta: int) -> None:
        table = self.table
        if self.shown:
            table.move_cursor(row=max(0, min(len(self.shown) - 1, table.cursor_row + delta)), animate=False)

    def action_next_sort(self) -> None:
        position = SORTABLE.index(self.sort_key) if self.sort_key in SORTABLE else -1
        self.sort_key = SORTABLE[(position + 1) % len(SORTABLE)]
        self.descending = True
        self._render_rows()

    def action_reverse_sort(self) -> None:
        self.descending = not self.descending
        self._render_rows()

    def action_clear_filter(self) -> None:
        self.query_one(Input).value = ""

    def action_open(self) -> None:
        row = self.selected
        if row is not None:
            self.post_message(SessionOpened(row))

    @property
    def selected(self) -> SessionRow | None:
        index = self.table.cursor_row
        return self.rows[self.shown[index]] if 0 <= index < len(self.shown) else None


class SessionsApp(CtxscopeApp):
    """The dashboard app, opened on the session browser (``ctxscope`` / ``ctxscope sessions``).

    Args:
        folders: Folders (or logs) to list besides the agents' homes.
        homes: Also list the agents' homes.
        cache: The cache database (default: the user's cache directory).
        environ: Where the homes are resolved (tests pass a generated home).
        clock: Seconds since the epoch now (live markers and "last" column).
        start_feed: Run the feed (tests that post rows themselves pass False).
        force_polling: Poll instead of relying on inotify.
        export: Rows carry what ``sessions --export`` publishes (``SessionIndex(export=True)``).
    """

    CSS_PATH: ClassVar[list[str | PurePath]] = [TUI / "app.tcss", TUI / "sessions.tcss"]
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "back", "Sessions", id="back-to-sessions", tooltip="Back to the session list"),
    ]

    def __init__(
        self,
        folders: Sequence[str] = (),
        *,
        homes: bool = True,
        cache: str | None = None,
        environ: Mapping[str, str] | None = None,
        clock: Callable[[], float] = time.time,
        start_feed: bool = True,
        force_polling: bool = False,
        export: bool = False,
    ) -> None:
        super().__init__(DashboardOptions(path=""), start_tailer=False)
        self.browser = SessionsScreen(clock)
        self.feed = SessionsFeed(
            self.post_message,
            folders,
            homes=homes,
            open_index=partial(SessionIndex, cache, clock=clock, export=export),
            environ=environ,
            force_polling=force_polling,
        )
        self.start_feed = start_feed
        self._opened = 0
        """Counts sessions opened; a closed session's tailer's late messages are dropped by it."""

    def get_default_screen(self) -> Screen[None]:
        return self.browser

    def on_mount(self) -> None:
        self.sub_title = "sessions"
        if self.start_feed:
            self._run_feed()

    @work(exclusive=True, group="sessions-feed", exit_on_error=False, description="list the sessions")
    async def _run_feed(self) -> None:
        await self.feed.run()

    def on_unmount(self) -> None:
        self.feed.stop()
        super().on_unmount()

    @on(SessionRowsUpdated)
    def _rows(self, message: SessionRowsUpdated) -> None:
        self.browser.apply_rows(message)

    @on(SessionOpened)
    def _open(self, message: SessionOpened) -> None:
        self.open_session(message.row)

    def open_session(self, row: SessionRow) -> None:
        """Push the dashboard on a session: followed live when it is being written, else read once."""
        mode = Mode.LIVE if row.live else Mode.OFFLINE
        try:
            check_source(row.path, None, row.live)
        except (OSError, ValueError) as exc:
            self.notify(fmt.clean(str(exc).splitlines()[0] if str(exc) else type(exc).__name__, 200),
                        severity="error", markup=False)
            return
        self.options = DashboardOptions(path=row.path, mode=mode)
        self._opened += 1
        self.dashboard = DashboardScreen(redact=self.options.redact)
        post = partial(self._post_for, self._opened)
        self.tailer = Tailer(post, partial(default_source, self.options), mode)
        self.sub_title = fmt.clean(Path(row.path).name, 80)
        self.push_screen(self.dashboard)
        self._run_tailer()

    def _post_for(self, opened: int, message: Message) -> None:
        if opened == self._opened:
            self.post_message(message)

    async def action_back(self) -> None:
        if self.screen is not self.dashboard:
            return
        if self.tailer is not None:
            self.tailer.stop()
            self.tailer = None
        self._opened += 1
        self.sub_title = "sessions"
        self.pop_screen()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "back":
            return self.screen is self.dashboard
        return True
