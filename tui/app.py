"""The dashboard app: one screen of everything core computed about a session, updated live.

Structure (data flows one way):

* :class:`~ctxscope.tui.tailer.Tailer` runs in a worker, reads the log, replays it through the
  pipeline (in threads) and posts :class:`~ctxscope.tui.messages.SnapshotUpdated` (coalesced, at
  most 10 a second) and, on request, :class:`~ctxscope.tui.messages.DetailLoaded`.
* :class:`CtxscopeApp` receives them and hands them to :class:`DashboardScreen`, which holds the
  session, the shown scope, the selected record and its detail and the view state (cursor,
  follow, paused, pane) in reactives.
* Widgets (``tui/widgets``) hold what they show in reactives bound to the screen's
  (``data_bind``), so each repaints only when its own value changes; they only format records,
  post messages back (``RequestPicked``, ``SummaryOpened``, ``MessageOpened``; the screen asks
  for a request's detail with ``DetailWanted``) and never compute token figures.

Tests replace the tailer by posting the same messages (``start_tailer=False``).
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import partial
from pathlib import Path
from typing import ClassVar, Literal

from ctxscope.core.search import SearchResult
from ctxscope.core.snapshot import (
    Lens,
    RequestDetail,
    RequestRecord,
    ScopeSnapshot,
    SessionSnapshot,
    StoredVolume,
)
from rich.text import Text
from textual import events, on, work
from textual._path import CSSPathType
from textual.app import App, ComposeResult
from textual.binding import ActiveBinding, Binding, BindingType
from textual.command import DiscoveryHit, Hit, Hits, Provider
from textual.containers import Container
from textual.reactive import reactive
from textual.screen import Screen
from textual.widgets import Footer, Static

from .messages import (
    DetailLoaded,
    DetailWanted,
    LensChosen,
    MessageOpened,
    Mode,
    RequestPicked,
    SearchDone,
    SearchWanted,
    SnapshotUpdated,
    SummaryOpened,
    TailerFailed,
    TailStatus,
    WholeMessageLoaded,
)
from .safe_text import highlighted, markup_safe, plain
from .screens.search import SearchScreen
from .tailer import SessionSource, SnapshotExport, Tailer, check_source
from .widgets import text as fmt
from .widgets.breakdown import RELEASED_NOTE, BreakdownPanel
from .widgets.error_strip import ErrorStrip
from .widgets.header import StatusHeader, scope_name
from .widgets.messages_view import MessagesHeader, MessagesView
from .widgets.meter import ContextMeter
from .widgets.summaries import SummaryList
from .widgets.timeline import LEGEND, RECORDED_LEGEND, Series, StageLanes, TimelinePlot
from .widgets.titled import TitledContainer, TitledVertical

Pane = Literal["timeline", "messages", "breakdown", "summaries"]
PANES: tuple[Pane, ...] = ("timeline", "messages", "breakdown", "summaries")


@dataclass(frozen=True, slots=True)
class DashboardOptions:
    """What the command line asked for.

    Attributes:
        path: A log file, or a folder whose newest log is followed.
        mode: Live (``watch``) or offline (``open``).
        format: Force a log format by name (None: detect).
        budget: Override the working budget in tokens.
        limit: Override the hard limit in tokens.
        poll: Poll the file instead of relying on inotify.
        redact: Show the shape of log text (kind and size) instead of its content: message
            previews, summary texts, sub-agent labels and skipped lines' reasons.
        lens: The lens shown first (None: recorded).
        window: The agent's context window in tokens (the recorded lens).
        trigger: The agent's auto-compaction trigger in tokens (the recorded lens).
        estimator: The estimator's name (None: by model family).
    """

    path: str
    mode: Mode = Mode.LIVE
    format: str | None = None
    budget: int | None = None
    limit: int | None = None
    poll: bool = False
    redact: bool = False
    lens: Lens | None = None
    window: int | None = None
    trigger: int | None = None
    estimator: str | None = None


class DashboardScreen(Screen[None]):
    """Header, meter, and the timeline / messages / breakdown / summaries panes."""

    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (120, "-wide")]  # noqa: RUF012 - Textual declares an instance attribute
    VERTICAL_BREAKPOINTS = [(0, "-short"), (36, "-tall")]  # noqa: RUF012 - Textual declares an instance attribute

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left", "step(-1)", "Prev", id="request-prev", priority=True,
                tooltip="Select the previous request (turns follow off)"),
        Binding("right", "step(1)", "Next", id="request-next", priority=True,
                tooltip="Select the next request"),
        Binding("home", "first", "First", id="request-first", priority=True, show=False,
                tooltip="Select the first request"),
        Binding("end", "last", "Last", id="request-last", priority=True, show=False,
                tooltip="Select the newest request and follow new ones"),
        Binding("f", "toggle_follow", "Follow", id="follow-tail",
                tooltip="Keep the cursor on the newest request as the log grows"),
        Binding("space,p", "toggle_pause", "Pause", id="pause",
                tooltip="Freeze the screen; the log is still read in the background"),
        Binding("left_square_bracket", "cycle_scope(-1)", "Scope", id="scope-prev", show=False,
                tooltip="Previous scope (main agent or sub-agent)"),
        Binding("right_square_bracket", "cycle_scope(1)", "Scope", id="scope-next", show=False,
                tooltip="Next scope"),
        Binding("S", "pick_scope", "Scopes", id="scope-pick",
                tooltip="Pick a scope: main agent or a sub-agent"),
        Binding("1", "pane('timeline')", "Timeline", id="pane-timeline", show=False),
        Binding("2", "pane('messages')", "Messages", id="pane-messages", show=False),
        Binding("3", "pane('breakdown')", "Breakdown", id="pane-breakdown", show=False),
        Binding("4", "pane('summaries')", "Summaries", id="pane-summaries", show=False),
        Binding("enter", "open_summary", "Summary", id="open-summary", show=False,
                tooltip="Open the summary made at the selected request"),
        Binding("e", "problems", "Skipped", id="problems", show=False,
                tooltip="Skipped lines and file notices (the error strip shows when there are any)"),
        Binding("m", "policy_lab", "Policies", id="policy-lab", show=False,
                tooltip="Run every memory policy over this scope's messages: what each would keep"),
        Binding("slash", "search", "Search", id="search", show=False,
                tooltip="Search this scope's messages (text and tool names)"),
        Binding("n", "next_hit(1)", "Next hit", id="search-next", show=False,
                tooltip="Select the request of the next search hit"),
        Binding("N", "next_hit(-1)", "Previous hit", id="search-prev", show=False,
                tooltip="Select the request of the previous search hit"),
        Binding("l", "toggle_lens", "Lens", id="lens",
                tooltip="Switch between the recorded lens (what the agent sent) and the pipeline "
                "lens (ctxscope's what-if)"),
    ]

    snapshot: reactive[SessionSnapshot | None] = reactive(None, always_update=True, init=False, repaint=False)
    """The session shown (held back while paused)."""
    latest: reactive[SessionSnapshot | None] = reactive(None, always_update=True, init=False, repaint=False)
    """The newest session received (the header shows it while the rest is paused)."""
    status: reactive[TailStatus | None] = reactive(None, init=False, repaint=False)
    """Where the tailer is in the file (the newest, paused or not)."""
    generation: reactive[int] = reactive(0, init=False, repaint=False)
    """Bumped by the tailer whenever the session starts over."""
    scope_id: reactive[str] = reactive("", init=False, repaint=False)
    scope: reactive[ScopeSnapshot | None] = reactive(None, always_update=True, init=False, repaint=False)
    """The scope shown (of :attr:`snapshot`)."""
    cursor: reactive[int] = reactive(-1, init=False, repaint=False)
    """Selected request index in the current scope (-1: none yet)."""
    record: reactive[RequestRecord | None] = reactive(None, init=False, repaint=False)
    """The selected request's record (None: none selected)."""
    detail: reactive[RequestDetail | None] = reactive(None, init=False, repaint=False)
    """The scope's newest request detail: the selected request's, or another's while it loads."""
    placeholder: reactive[str] = reactive("no model call selected", init=False, repaint=False)
    """What the messages list says while it has no detail."""
    volume: reactive[StoredVolume | None] = reactive(None, init=False, repaint=False)
    """What the scope stored when its log records no model call (``codex exec --json``)."""
    failure: reactive[str] = reactive("", init=False, repaint=False)
    """Why the log cannot be read ('' while it can)."""
    follow: reactive[bool] = reactive(True, init=False, repaint=False, bindings=True)
    paused: reactive[bool] = reactive(False, init=False, repaint=False, bindings=True)
    pane: reactive[Pane] = reactive("timeline", init=False, repaint=False)
    # The screen's reactives never repaint the screen itself (that would redraw every widget):
    # each widget bound to one repaints when its own value changes.

    FOOTER_HIDDEN: ClassVar[frozenset[str]] = frozenset()
    """Ids of bindings kept off the footer (they still work; the demo's keys need the room)."""

    def __init__(self, *, redact: bool = False) -> None:
        super().__init__()
        self.redact = redact
        self.search: SearchResult | None = None
        """The last search's hits (core's), stepped through with n / N."""
        self.hit = -1
        self.hit_message = -1
        self._pending: SnapshotUpdated | None = None
        self._pending_detail: DetailLoaded | None = None
        self._detail_asked: tuple[int, str, str, int] | None = None
        """(generation, lens, scope, request) of the detail asked for last: asked once each."""
        self._several_scopes = False
        """Whether the session shown has more than one scope (the scope keys' ``check_action``)."""

    # -- layout ---------------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        # Widgets hold what they show in reactives bound to the screen's (data_bind): a widget
        # refreshes when its own value changes, never because another one did.
        screen = DashboardScreen
        yield StatusHeader(id="status").data_bind(
            screen.scope, screen.status, screen.paused, screen.follow, snapshot=screen.latest
        )
        yield from self.top_widgets()
        with TitledContainer(id="meter-box"):
            yield ContextMeter(id="meter").data_bind(screen.scope, screen.record)
        yield Static(id="pane-tabs")
        with Container(id="panes", classes="-show-timeline"):
            with TitledVertical(id="timeline-pane", classes="pane"):
                series = Series()  # one copy of the per-request figures for both
                yield TimelinePlot(series=series, id="plot")
                yield StageLanes(series=series, id="lanes")
            with TitledVertical(id="breakdown-pane", classes="pane"):
                yield BreakdownPanel(id="breakdown").data_bind(screen.record, screen.detail, screen.volume)
            with TitledVertical(id="messages-pane", classes="pane"):
                yield MessagesHeader(id="messages-header")
                yield MessagesView(id="messages").data_bind(screen.detail, screen.placeholder)
            with TitledVertical(id="summaries-pane", classes="pane"):
                yield SummaryList(id="summaries").data_bind(screen.generation, screen.scope)
        yield ErrorStrip(id="errors").data_bind(screen.snapshot, screen.failure)
        yield Footer()

    @property
    def active_bindings(self) -> dict[str, ActiveBinding]:
        """The bindings in force, with :attr:`FOOTER_HIDDEN` ones marked not to show."""
        bindings = super().active_bindings
        if not self.FOOTER_HIDDEN:
            return bindings
        return {
            key: active._replace(binding=replace(active.binding, show=False))
            if active.binding.id in self.FOOTER_HIDDEN else active
            for key, active in bindings.items()
        }

    def on_resize(self, event: events.Resize) -> None:
        # Narrow terminals: the keys need the whole footer (ctrl+p still opens the palette); the
        # messages pane's keys ("⏎ Whole message") take 90 columns, so the palette key waits for 120.
        self.query_one(Footer).show_command_palette = event.size.width >= 120

    def top_widgets(self) -> ComposeResult:
        """Widgets between the header and the meter (none here; the demo adds its caption bar)."""
        yield from ()

    def on_mount(self) -> None:
        self.query_one("#meter-box", TitledContainer).set_title("Context")
        self.query_one("#timeline-pane", TitledContainer).set_title("Timeline")
        self.query_one("#timeline-pane", TitledContainer).set_subtitle(LEGEND)
        self.query_one("#summaries-pane", TitledContainer).set_title("Summaries")
        self.query_one("#messages-pane", TitledContainer).set_title("Messages")
        self.query_one(StatusHeader).redact = self.redact
        self.query_one(MessagesView).redact = self.redact
        self.query_one(ErrorStrip).redact = self.redact
        self._show_tabs()
        self._show_scope()
        self._title_messages()

    # -- state from the tailer ------------------------------------------------------------------

    @property
    def can_render(self) -> bool:
        """Mounted and not being taken down (``display`` turns false while the app prunes the
        screen on quit, when a snapshot may still be in the queue)."""
        return self.is_mounted and self.display

    def apply_snapshot(self, message: SnapshotUpdated) -> None:
        """Take the newest state (held back while paused; the header still shows it)."""
        self.status = message.status
        self.latest = message.snapshot
        if self.paused:
            self._pending = message
            return
        if message.generation != self.generation:
            self.detail = None
            self._detail_asked = None
        self.generation = message.generation
        with self.app.batch_update():  # one repaint for every widget the snapshot changed
            self.snapshot = message.snapshot

    def watch_snapshot(self, snapshot: SessionSnapshot | None) -> None:
        scopes = snapshot.scopes if snapshot is not None else {}
        if self.scope_id not in scopes:
            self.set_reactive(DashboardScreen.scope_id, next(iter(scopes), ""))
            self.detail = None
        self.scope = scopes.get(self.scope_id)
        if (len(scopes) > 1) != self._several_scopes:
            self._several_scopes = len(scopes) > 1
            self.refresh_bindings()  # the footer shows the scope keys enabled only with several

    def watch_scope(self, scope: ScopeSnapshot | None) -> None:
        count = len(scope.records) if scope is not None else 0
        cursor = self.cursor
        if self.follow or cursor < 0 or cursor >= count:
            cursor = count - 1
        self.set_reactive(DashboardScreen.cursor, cursor)
        if self.can_render:
            self._show_scope()
        self._select()

    def watch_cursor(self) -> None:
        if self.can_render:
            self._show_cursor()
        self._select()

    def _select(self) -> None:
        """The record at the cursor becomes :attr:`record` (its detail is asked for)."""
        scope, cursor = self.scope, self.cursor
        record = scope.records[cursor] if scope is not None and 0 <= cursor < len(scope.records) else None
        self.record = record
        volume = scope.stored_volume if scope is not None and record is None else None
        self.volume = volume if volume is not None and volume.messages else None
        if record is None and self.volume is not None:  # messages stored, no call to show them in
            self.placeholder = f"no model call in this log: {self.volume.messages:,} messages, in no request"
        elif record is None:
            self.placeholder = "no model call selected"
        elif record.detail_released:
            self.placeholder = RELEASED_NOTE
            self.detail = None  # not the one shown: the placeholder says why there is none
        else:
            self.placeholder = "loading…"
        self._ask_detail()

    def watch_record(self) -> None:
        if self.can_render:
            self._title_messages()

    def watch_detail(self) -> None:
        if self.can_render:
            self._title_messages()

    def watch_failure(self, reason: str) -> None:
        if reason:
            self.notify(fmt.clean(reason, 300), title="Cannot read the log", severity="error", markup=False)

    def apply_search(self, message: SearchDone) -> None:
        """Hits of a search (core's): keep them and select the first hit's request."""
        result = message.result
        if message.generation != self.generation or result.scope_id != self.scope_id:
            return
        self.search = result
        self.hit = -1
        found = sum(1 for hit in result.hits if hit.request >= 0)
        more = "+" if result.truncated else ""
        self.notify(f"{found:,}{more} message{'s' if found != 1 else ''} hold the text"
                    + (" · n / N step through them" if found else ""),
                    title="Search", markup=False)
        if found:
            self.action_next_hit(1)

    def action_search(self) -> None:
        scope = self.scope
        if scope is None:
            return
        scope_id = scope.header.scope_id

        def searched(query: str | None) -> None:
            if query:
                self.post_message(SearchWanted(scope_id, query))

        self.app.push_screen(SearchScreen(self.search.query if self.search else ""), searched)

    def action_next_hit(self, delta: int) -> None:
        """Step to the next (or previous) hit: its request becomes the cursor, its row selected."""
        result = self.search
        if result is None or result.scope_id != self.scope_id:
            return
        hits = [hit for hit in result.hits if hit.request >= 0]
        if not hits:
            return
        self.hit = (self.hit + delta) % len(hits)
        hit = hits[self.hit]
        self.hit_message = hit.message
        self.follow = False
        self.cursor = hit.request
        self.query_one(MessagesView).select(hit.message)
        self.notify(f"hit {self.hit + 1} of {len(hits):,}: message #{hit.message} at request #{hit.request}",
                    title="Search", markup=False, timeout=2)

    def apply_detail(self, message: DetailLoaded) -> None:
        """A request's detail: shown when it is of this generation and scope."""
        detail = message.detail
        if message.generation != self.generation or detail is None or message.scope_id != self.scope_id:
            return
        record = self.record
        if record is not None and record.detail_released:
            return  # the placeholder says why the selected request has none
        if self.paused:
            self._pending_detail = message
        else:
            self.detail = detail

    def apply_failure(self, reason: str) -> None:
        self.failure = reason

    # -- what the screen itself draws: titles, tabs and the timeline's cursor -------------------

    def _show_scope(self) -> None:
        """The timeline and the pane titles for a new scope snapshot."""
        scope, cursor = self.scope, self.cursor
        self.query_one(TimelinePlot).show(scope, cursor, self.generation, self.status)
        self.query_one(StageLanes).show(scope, cursor, self.generation)
        count = len(scope.records) if scope else 0
        recorded = scope is None or scope.lens == "recorded"
        lens_name = "recorded" if recorded else "pipeline what-if"
        title = f"Timeline · {lens_name} · {count:,} request{'s' if count != 1 else ''}"
        pane = self.query_one("#timeline-pane", TitledContainer)
        pane.set_subtitle(RECORDED_LEGEND if recorded else LEGEND)
        snapshot = self.snapshot
        if scope is not None and snapshot is not None and len(snapshot.scopes) > 1:
            title += f" · scope {fmt.clean(scope_name(scope, self.redact), 30)}"
        pane.set_title(title)
        self.query_one("#summaries-pane", TitledContainer).set_title("Summaries" + _times_note(snapshot))
        # The breakdown's and the messages' figures (sent, fate) are the lens's: a what-if is named so.
        self.query_one("#breakdown-pane", TitledContainer).set_title(
            "Breakdown" if recorded else "Breakdown · pipeline what-if"
        )
        self._title_messages()
        self._title_meter()

    def _show_cursor(self) -> None:
        scope, cursor = self.scope, self.cursor
        self.query_one(TimelinePlot).show(scope, cursor, self.generation, self.status)
        self.query_one(StageLanes).show(scope, cursor, self.generation)
        self._title_meter()

    def _title_meter(self) -> None:
        scope, cursor = self.scope, self.cursor
        count = len(scope.records) if scope else 0
        title = "Context" if scope is None or scope.lens == "recorded" else "Context · pipeline what-if"
        if 0 <= cursor < count:
            title = f"{title} · request #{cursor} of {count}"
            if not self.follow:
                title += " · follow off (End returns)"
        self.query_one("#meter-box", TitledContainer).set_title(title)

    def _title_messages(self) -> None:
        detail, record = self.detail, self.record
        what_if = " · pipeline what-if" if self.scope is not None and self.scope.lens == "pipeline" else ""
        if detail is None or record is None or record.detail_released:
            self.query_one("#messages-pane", TitledContainer).set_title("Messages" + what_if)
            return
        shown = detail.record.index
        title = f"Messages of request #{shown}{what_if} · {len(detail.messages):,} stored, raw tokens"
        when = detail.record.sent_at
        if when is not None:
            title += f" · sent {when:%Y-%m-%d %H:%M:%S} UTC"
        elif not detail.sent_at or detail.sent_at[-1] is None:  # the rows have no times either
            title += _times_note(self.snapshot)
        if shown != record.index:
            title += f" (loading #{record.index}…)"
        self.query_one("#messages-pane", TitledContainer).set_title(title)

    def _ask_detail(self) -> None:
        """Ask for the selected request's detail, once, after the refresh that shows the record:
        computing it in the worker thread while the screen draws would slow the draw (they share
        the interpreter)."""
        record, scope = self.record, self.scope
        if record is None or scope is None or record.detail_released:
            return
        have = self.detail
        if have is not None and have.record == record:
            return
        wanted = (self.generation, scope.lens, scope.header.scope_id, record.index)
        if wanted == self._detail_asked and (have is None or have.record.index == record.index):
            return
        self._detail_asked = wanted
        self.call_after_refresh(self.post_message, DetailWanted(scope.header.scope_id, record.index))

    def _show_tabs(self) -> None:
        tabs = Text(no_wrap=True, end="")
        for number, name in enumerate(PANES, 1):
            style = "bold reverse" if name == self.pane else "dim"
            tabs.append(f" {number} {name} ", style)
            tabs.append(" ")
        self.query_one("#pane-tabs", Static).update(tabs)

    # -- watchers -------------------------------------------------------------------------------

    def watch_scope_id(self) -> None:
        self.detail = None
        snapshot = self.snapshot
        scope = snapshot.scopes.get(self.scope_id) if snapshot is not None else None
        self.set_reactive(DashboardScreen.cursor, len(scope.records) - 1 if scope and scope.records else -1)
        self.scope = scope

    def watch_follow(self, follow: bool) -> None:
        scope = self.scope
        if follow and scope is not None and scope.records:
            self.cursor = len(scope.records) - 1
        if self.can_render:
            self._title_meter()

    def watch_paused(self, paused: bool) -> None:
        if paused:
            return
        if self._pending is not None:
            pending, self._pending = self._pending, None
            self.apply_snapshot(pending)
        if self._pending_detail is not None:
            detail, self._pending_detail = self._pending_detail, None
            self.apply_detail(detail)

    def watch_pane(self, pane: Pane) -> None:
        panes = self.query_one("#panes")
        for name in PANES:
            panes.set_class(name == pane, f"-show-{name}")
        self._show_tabs()
        if pane == "summaries":
            summaries = self.query_one(SummaryList)
            summaries.point_at(self.cursor)
            summaries.focus()
        elif pane == "messages":
            self.query_one(MessagesView).focus()
        elif pane == "breakdown":
            self.query_one(BreakdownPanel).focus()
        else:  # the timeline: its own key (t, the x axis) shows in the footer
            self.query_one(TimelinePlot).focus()

    # -- actions --------------------------------------------------------------------------------

    def _count(self) -> int:
        scope = self.scope
        return len(scope.records) if scope is not None else 0

    def action_step(self, delta: int) -> None:
        count = self._count()
        if not count:
            return
        target = min(count - 1, max(0, self.cursor + delta))
        self.follow = target == count - 1 and self.follow
        self.cursor = target

    def action_first(self) -> None:
        if self._count():
            self.follow = False
            self.cursor = 0

    def action_last(self) -> None:
        self.follow = True

    def action_toggle_follow(self) -> None:
        self.follow = not self.follow

    def action_toggle_pause(self) -> None:
        self.paused = not self.paused

    def action_cycle_scope(self, delta: int) -> None:
        if self.snapshot is None or not self.snapshot.scopes:
            return
        ids = list(self.snapshot.scopes)
        position = ids.index(self.scope_id) if self.scope_id in ids else 0
        self.scope_id = ids[(position + delta) % len(ids)]

    def action_pick_scope(self) -> None:
        if self.snapshot is None:
            return

        def picked(scope_id: str | None) -> None:
            if scope_id:
                self.scope_id = scope_id

        from .screens.modals import ScopeScreen

        self.app.push_screen(ScopeScreen(self.snapshot, self.scope_id, redact=self.redact), picked)

    def action_pane(self, pane: Pane) -> None:
        self.pane = pane

    def action_open_summary(self) -> None:
        scope = self.scope
        if scope is None or not 0 <= self.cursor < len(scope.records):
            return
        compaction = scope.compaction_at(self.cursor)
        marker = scope.records[self.cursor].summary if not scope.agent_thresholds else None
        if marker is None and compaction is None:
            self.notify(f"No summary or agent compaction at request #{self.cursor}.", timeout=3)
            return
        from .screens.modals import TextScreen, summary_body

        self.app.push_screen(TextScreen(*summary_body(marker, compaction, redact=self.redact)))

    def action_problems(self) -> None:
        from .screens.modals import ProblemsScreen

        self.app.push_screen(ProblemsScreen(self.snapshot, redact=self.redact))

    def action_toggle_lens(self) -> None:
        """Show the other lens (the tailer posts its snapshot at once)."""
        current = self.snapshot.lens if self.snapshot is not None else "recorded"
        lens: Lens = "pipeline" if current == "recorded" else "recorded"
        self.detail = None
        self.post_message(LensChosen(lens))
        self.notify(
            "recorded lens: what the agent sent and did" if lens == "recorded"
            else "pipeline lens: what ctxscope's pipeline would send (a what-if)",
            timeout=3,
        )

    def action_policy_lab(self) -> None:
        """The memory-policy lab over the shown scope (reads the log again in a worker thread)."""
        from ctxscope.core.policies.records import DEFAULT_BUDGET_MESSAGES

        from .screens.policies import PolicyLabRequest, PolicyLabScreen

        app = self.app
        assert isinstance(app, CtxscopeApp)
        path = self.status.path if self.status is not None and self.status.path else app.options.path
        scope_id = self.scope_id or None
        estimator = self.snapshot.estimator if self.snapshot is not None else ""
        request = PolicyLabRequest(
            path, app.options.format, scope_id, budget_messages=DEFAULT_BUDGET_MESSAGES,
            estimator=estimator or None,  # the meter's: the lab's token counts agree with it
        )
        app.push_screen(PolicyLabScreen(request, redact=self.redact))

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "problems":
            return True
        if action in ("cycle_scope", "pick_scope"):
            return (self.snapshot is not None and len(self.snapshot.scopes) > 1) or None
        return True

    # -- messages from widgets ------------------------------------------------------------------

    @on(RequestPicked)
    def _picked(self, event: RequestPicked) -> None:
        if 0 <= event.index < self._count():
            self.follow = event.index == self._count() - 1 and self.follow
            self.cursor = event.index

    @on(SummaryOpened)
    def _opened(self, event: SummaryOpened) -> None:
        from .screens.modals import TextScreen, summary_body

        self.app.push_screen(TextScreen(*summary_body(event.marker, event.compaction, redact=self.redact)))


def _times_note(snapshot: SessionSnapshot | None) -> str:
    """`` · no timestamps in the log`` for a session whose log has none (else '')."""
    if snapshot is None:
        return ""
    if not any(scope.records for scope in snapshot.scopes.values()):
        return ""
    return "" if snapshot.times.known else " · no timestamps in the log"


class DashboardCommands(Provider):
    """Command palette entries: scopes, summaries, panes, follow, pause, help."""

    def _commands(self) -> list[tuple[str, Callable[[], object], str]]:
        app = self.app
        assert isinstance(app, CtxscopeApp)
        screen = app.dashboard
        out: list[tuple[str, Callable[[], object], str]] = [
            ("Toggle follow tail", screen.action_toggle_follow, "Keep the cursor on the newest request"),
            ("Pause or resume updates", screen.action_toggle_pause,
             "Freeze the screen while reading goes on"),
            ("Show skipped lines and file notices", screen.action_problems,
             "Bad lines, truncation, rotation"),
            ("Help: what the numbers mean", app.action_help, "Keys and figures explained"),
        ]
        for pane in PANES:
            out.append((f"Show the {pane} pane", partial(screen.action_pane, pane), ""))
        snapshot = screen.snapshot
        if snapshot is not None:
            for scope_id, each in snapshot.scopes.items():
                name = fmt.clean(scope_name(each, screen.redact), 40)
                out.append(
                    (f"Scope: {name}", partial(setattr, screen, "scope_id", scope_id),
                     fmt.plural(len(each.records), "model call"))
                )
            scope = screen.scope
            if scope is not None:
                for compaction in scope.agent_compactions:
                    out.append(
                        (f"Go to the agent's {compaction.kind} at request #{compaction.request}",
                         partial(screen.post_message, RequestPicked(compaction.request)),
                         f"freed {fmt.tokens(compaction.tokens_freed or 0)}")
                    )
                first_over = scope.totals.first_over_limit if scope.totals.over_limit else None
                if first_over is not None:
                    out.append(
                        ("Go to the first request over the hard limit",
                         partial(screen.post_message, RequestPicked(first_over)), f"request #{first_over}")
                    )
        return out

    async def discover(self) -> Hits:
        for name, command, help_text in self._commands():
            yield DiscoveryHit(plain(name), command, text=name, help=markup_safe(help_text) or None)

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for name, command, help_text in self._commands():
            score = matcher.match(name)
            if score > 0:
                yield Hit(score, highlighted(matcher, name), command, text=name,
                          help=markup_safe(help_text) or None)


class CtxscopeApp(App[None]):
    """``ctxscope watch`` / ``ctxscope open``: the dashboard of one session.

    Args:
        options: What to read and how.
        open_source: Builds the session source (default: core's reader and replay); tests pass
            their own.
        start_tailer: False in tests that inject :class:`SnapshotUpdated` messages themselves.
        export: Given to the tailer: publishes each snapshot (``--otlp-endpoint``, ``--metrics-port``).
    """

    CSS_PATH: ClassVar[CSSPathType | None] = str(Path(__file__).with_name("app.tcss"))
    TITLE = "ctxscope"
    COMMANDS = App.COMMANDS | {DashboardCommands}
    ENABLE_COMMAND_PALETTE = True

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("q", "quit", "Quit", id="quit", tooltip="Leave the dashboard"),
        Binding("question_mark", "help", "Help", id="help", tooltip="Keys and what every number means"),
    ]

    def __init__(
        self,
        options: DashboardOptions,
        *,
        open_source: Callable[[], SessionSource] | None = None,
        start_tailer: bool = True,
        export: SnapshotExport | None = None,
    ) -> None:
        super().__init__()
        self.options = options
        self._export = export
        self._open_source = open_source
        self.start_tailer = start_tailer
        self.tailer: Tailer | None = None
        self.dashboard = self.make_dashboard()

    def make_dashboard(self) -> DashboardScreen:
        """The dashboard screen this app shows (the demo's adds its caption bar)."""
        return DashboardScreen(redact=self.options.redact)

    def get_default_screen(self) -> Screen[None]:
        return self.dashboard

    def on_mount(self) -> None:
        self.sub_title = fmt.clean(str(Path(self.options.path).name), 80)
        if self.start_tailer:
            self.tailer = Tailer(
                self.post_message,
                self._open_source or partial(default_source, self.options),
                self.options.mode,
                force_polling=self.options.poll,
                export=self._export,
            )
            self._run_tailer()

    @work(exclusive=True, group="session-tailer", exit_on_error=False, description="tail the session log")
    async def _run_tailer(self) -> None:
        assert self.tailer is not None
        await self.tailer.run()

    def on_unmount(self) -> None:
        if self.tailer is not None:
            self.tailer.stop()

    def request_detail(self, scope_id: str, index: int) -> None:
        """Ask the tailer for a request's detail (tests override this)."""
        if self.tailer is not None:
            self.tailer.request_detail(scope_id, index)

    @on(DetailWanted)
    def _detail_wanted(self, message: DetailWanted) -> None:
        self.request_detail(message.scope_id, message.index)

    @on(MessageOpened)
    def _message_opened(self, message: MessageOpened) -> None:
        detail = self.dashboard.detail  # the request whose messages the list shows
        if detail is not None:
            self.request_message(detail.record.scope_id, message.index)

    def request_message(self, scope_id: str, index: int) -> None:
        """Ask the tailer for one message in full (tests override this)."""
        if self.tailer is not None:
            self.tailer.request_message(scope_id, index)

    @on(WholeMessageLoaded)
    def _whole_message(self, message: WholeMessageLoaded) -> None:
        if message.message is None or message.generation != self.dashboard.generation:
            return
        from .screens.message_viewer import MessageScreen

        if isinstance(self.screen, MessageScreen):
            self.pop_screen()
        self.push_screen(MessageScreen(message.message))

    @on(SearchWanted)
    def _search_wanted(self, message: SearchWanted) -> None:
        self.request_search(message.scope_id, message.query)

    def request_search(self, scope_id: str, query: str) -> None:
        """Ask the tailer to search a scope in core (tests override this)."""
        if self.tailer is not None:
            self.tailer.request_search(scope_id, query)

    @on(SearchDone)
    def _search_done(self, message: SearchDone) -> None:
        self.dashboard.apply_search(message)

    @on(LensChosen)
    def _lens(self, message: LensChosen) -> None:
        if self.tailer is not None:
            self.tailer.set_lens(message.lens)

    @on(SnapshotUpdated)
    def _snapshot(self, message: SnapshotUpdated) -> None:
        self.dashboard.apply_snapshot(message)

    @on(DetailLoaded)
    def _detail(self, message: DetailLoaded) -> None:
        self.dashboard.apply_detail(message)

    @on(TailerFailed)
    def _failed(self, message: TailerFailed) -> None:
        if self.dashboard.can_render:
            self.dashboard.apply_failure(message.reason)

    HELP_EXTRA = ""
    """Markdown shown at the top of the help screen (the demo's keys)."""

    def action_help(self) -> None:
        from .screens.modals import HelpScreen

        if not isinstance(self.screen, HelpScreen):
            self.push_screen(HelpScreen(self.HELP_EXTRA))


def default_source(options: DashboardOptions) -> SessionSource:
    """Core's reader (or folder follower) and replay for ``options`` (runs in the tailer's thread)."""
    from .tailer import LIVE_KEEP_DETAIL, CoreSource

    return CoreSource(
        options.path,
        format=options.format,
        budget=options.budget,
        limit=options.limit,
        lens=options.lens,
        window=options.window,
        trigger=options.trigger,
        estimator=options.estimator,
        keep_detail=LIVE_KEEP_DETAIL if options.mode is Mode.LIVE else None,
    )


def run_dashboard(
    args: argparse.Namespace,
    *,
    live: bool,
    export: SnapshotExport | None = None,
) -> int:
    """The ``watch`` and ``open`` handlers: check the path, then run the app.

    ``open`` on a folder (a Claude Code project folder, a Codex sessions folder, another agent's
    session home) opens its newest log; ``watch`` follows the folder and switches when a newer log appears.

    Raises:
        UsageError: The path does not exist or cannot be read, the folder holds no log, or the
            format is unknown.
    """
    app = CtxscopeApp(dashboard_options(args, live=live), export=export)
    app.run()
    return app.return_code or 0  # 1 when the app stopped on an internal error


def dashboard_options(args: argparse.Namespace, *, live: bool) -> DashboardOptions:
    """Check the command line's path and flags; the options to run the dashboard with.

    Raises:
        UsageError: See :func:`run_dashboard`.
    """
    from .cli import UsageError, log_path

    path = Path(log_path(args.path, folder=not live))
    options = DashboardOptions(
        path=str(path),
        mode=Mode.LIVE if live else Mode.OFFLINE,
        format=args.format,
        budget=args.budget,
        limit=args.limit,
        poll=getattr(args, "poll", False),
        redact=getattr(args, "redact", False),
        lens=getattr(args, "lens", None),
        window=getattr(args, "window", None),
        trigger=getattr(args, "trigger", None),
        estimator=getattr(args, "estimator", None),
    )
    try:
        check_source(options.path, options.format, live)
    except (OSError, ValueError) as exc:
        raise UsageError(str(exc).splitlines()[0] if str(exc) else type(exc).__name__) from None
    return options
