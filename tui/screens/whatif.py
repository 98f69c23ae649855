"""The side-by-side what-if view: one session replayed under two configurations.

``ctxscope demo`` (key ``w``) shows, for scenarios that define a comparison, the session under each
configuration — the reference one and a what-if replayed over it (both in the pipeline lens, calibrated
by the recorded lens). Each column has the same figures, taken from the typed summaries core computed
in the worker (:class:`ctxscope.core.analysis.SessionSummary`, what ``ctxscope report --json``
prints), a per-scope table, and the selected scope's timeline with its stage lanes. Nothing here
computes a token figure.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar, Final

from ctxscope.core.analysis import PromptCost, ScopeSummary, SessionSummary, session_tally
from ctxscope.core.pricing import format_dollars
from ctxscope.core.snapshot import SessionSnapshot
from rich.console import Console, ConsoleOptions, RenderResult
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Static

from ..widgets import text as fmt
from ..widgets.header import scope_name
from ..widgets.timeline import StageLanes, TimelinePlot


def headline(
    summary: SessionSummary, selected: str = "", prompt_cost: PromptCost | None = None
) -> list[tuple[str, str, str]]:
    """``(figure, value, style)`` rows of one configuration's summary (its :class:`SessionTally`,
    the selected scope's cached prefix) and its prompts' cost."""
    tally = session_tally(summary)
    rows: list[tuple[str, str, str]] = []
    if tally.sub_agents:
        rows.append(("sub-agents over limit", f"{tally.sub_agents_over_limit} of {tally.sub_agents}",
                     "bold red" if tally.sub_agents_over_limit else "bold green"))
    over, refused = tally.over_limit_requests, tally.refused_requests
    rows.append(("requests over limit", f"{over:,}", "bold red" if over else "green"))
    rows.append(("refused by the guard", f"{refused:,}", "yellow" if refused else "green"))
    rows.append(("largest request", fmt.tokens(tally.largest_request), ""))
    for key, label in (("clear_tool_results", "clearing calls (2)"),
                       ("summarize", "summaries (3)"), ("trim_turns", "turn fitting")):
        runs = tally.stage_runs.get(key, 0)
        if runs or key != "trim_turns":
            rows.append((label, f"{runs:,}", ""))
    chosen = next((r for r in summary.scopes if r.scope_id == selected), None)
    if chosen is not None:
        rows.append((f"cached prefix ({'this scope' if len(summary.scopes) > 1 else 'share'})",
                     f"{chosen.cached_prefix_ratio:.1%}", "bold"))
    if prompt_cost is not None:
        rows.append((f"prompts, est. at {fmt.clean(prompt_cost.model, 24)}",
                     f"≈{format_dollars(prompt_cost.dollars)}", "bold"))
    return rows


SCOPE_COLUMNS: Final = (
    # (key, header, short header), in the order shown
    ("calls", "calls", "calls"),
    ("max sent", "max sent", "max"),
    ("over", "over", "over"),
    ("refused", "refused", "ref"),
    ("clears", "clears", "clr"),
    ("cached", "cached", "cache"),
)
KEPT_FIRST: Final = ("over", "max sent", "cached", "clears", "refused", "calls")
"""Which columns a narrow table keeps, most important first (it drops from the end)."""


class ScopeTable:
    """One row per scope: calls, largest request, requests over the limit, requests the guard
    refused, clearing calls, cached prefix (the headline's figures, per scope).

    Laid out at the width it is given, as toolong and harlequin do: whole headers while they fit,
    then short ones (``max``, ``ref``, ``clr``), then the least important columns left out — never
    a header or a scope's name cut to ``max se…`` / ``review slice…``."""

    def __init__(self, reports: Sequence[ScopeSummary], snapshot: SessionSnapshot, selected: str,
                 redact: bool) -> None:
        self.rows: list[tuple[Text, dict[str, Text]]] = []
        for report in reports:
            scope = snapshot.scopes.get(report.scope_id)
            name = fmt.clean(scope_name(scope, redact) if scope is not None else report.scope_id, 24)
            over, refused = report.over_limit_requests, report.refused_requests
            self.rows.append((Text(("▸ " if report.scope_id == selected else "  ") + name), {
                "calls": Text(f"{report.requests:,}"),
                "max sent": Text(fmt.tokens(report.peak)),
                "over": Text(f"{over:,}", "bold red" if over else ""),
                "refused": Text(f"{refused:,}", "yellow" if refused else ""),
                "clears": Text(f"{report.stage_runs['clear_tool_results']:,}"),
                "cached": Text(f"{report.cached_prefix_ratio:.0%}"),
            }))

    def columns(self, width: int) -> list[tuple[str, str]]:
        """The (key, header) columns that fit ``width`` cells beside the scope names."""
        names = max([len("scope"), *(row[0].cell_len for row in self.rows)])
        for keep in range(len(KEPT_FIRST), 0, -1):  # short headers before fewer columns
            kept = KEPT_FIRST[:keep]
            for short in (False, True):
                chosen = [(key, small if short else whole)
                          for key, whole, small in SCOPE_COLUMNS if key in kept]
                cells = names + sum(  # a cell of padding either side of each column but the edges
                    2 + max([len(header), *(row[1][key].cell_len for row in self.rows)])
                    for key, header in chosen
                )
                if cells <= width:
                    return chosen
        return [("over", "over")]

    def table(self, width: int) -> Table:
        table = Table(box=None, padding=(0, 1), pad_edge=False, show_edge=False, header_style="dim")
        table.add_column("scope", no_wrap=True, overflow="ellipsis")
        columns = self.columns(width)
        for _key, header in columns:
            table.add_column(header, justify="right", no_wrap=True)
        for name, figures in self.rows:
            table.add_row(name, *(figures[key] for key, _header in columns))
        return table

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        yield self.table(options.max_width)


class WhatIfScreen(ModalScreen[None]):
    """Two (or more) configurations of the same session, side by side."""

    DEFAULT_CSS = """
    WhatIfScreen { align: center middle; }
    #whatif-box { width: 100%; height: 100%; border: round $accent; background: $surface; padding: 0 1; }
    #whatif-title { height: auto; }
    #whatif-columns { height: 1fr; }
    .whatif-col { width: 1fr; height: 1fr; padding: 0 1; border-left: vkey $panel-lighten-2; }
    .whatif-col:first-of-type { border-left: none; }
    .whatif-figures { height: auto; }
    .whatif-scopes { height: auto; max-height: 12; }
    .whatif-col TimelinePlot { height: 1fr; min-height: 6; }
    WhatIfScreen.-short .whatif-col StageLanes { display: none; }
    WhatIfScreen.-short .whatif-scopes { max-height: 6; }
    WhatIfScreen.-narrow .whatif-scopes { display: none; }
    """

    VERTICAL_BREAKPOINTS = [(0, "-short"), (36, "-tall")]  # noqa: RUF012 - Textual declares an instance attribute
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (120, "-wide")]  # noqa: RUF012 - Textual declares an instance attribute
    SCOPED_CSS = False

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,w,q", "close", "Close", id="close-whatif"),
        Binding("left_square_bracket", "cycle_scope(-1)", "Scope", id="whatif-scope-prev",
                tooltip="Previous scope"),
        Binding("right_square_bracket", "cycle_scope(1)", "Scope", id="whatif-scope-next",
                tooltip="Next scope"),
    ]

    def __init__(self, labels: Sequence[str], snapshots: Sequence[SessionSnapshot],
                 summaries: Sequence[SessionSummary], scope_id: str, *, redact: bool = False) -> None:
        super().__init__()
        self.labels = tuple(labels)
        self.snapshots: tuple[SessionSnapshot, ...] = tuple(snapshots)
        self.summaries: tuple[SessionSummary, ...] = tuple(summaries)
        self.scope_id = scope_id
        self.redact = redact

    def compose(self) -> ComposeResult:
        with Vertical(id="whatif-box") as box:
            box.border_title = "What if · the same session under two configurations"
            box.border_subtitle = "[ ] scope · esc closes"
            yield Static(id="whatif-title")
            with Horizontal(id="whatif-columns"):
                for k, _label in enumerate(self.labels):
                    with Vertical(classes="whatif-col", id=f"whatif-col-{k}"):
                        yield Static(classes="whatif-figures", id=f"whatif-figures-{k}")
                        yield Static(classes="whatif-scopes", id=f"whatif-scopes-{k}")
                        yield TimelinePlot(id=f"whatif-plot-{k}")
                        yield StageLanes(id=f"whatif-lanes-{k}")

    def on_mount(self) -> None:
        self._show_figures()

    def update(self, snapshots: Sequence[SessionSnapshot], summaries: Sequence[SessionSummary]) -> None:
        """New figures (the session grew)."""
        self.snapshots = tuple(snapshots)
        self.summaries = tuple(summaries)
        self._show_figures()

    def _show_figures(self) -> None:
        title = Text()
        if not self.snapshots:
            title.append("computing… (the what-if replays run as the log is read)", "dim")
            self.query_one("#whatif-title", Static).update(title)
            return
        first = self.snapshots[0]
        if self.scope_id not in first.scopes and first.scopes:
            self.scope_id = next(iter(first.scopes))
        scope = first.scopes.get(self.scope_id)
        title.append("Same log, replayed by ctxscope.core under each configuration. ", "dim")
        if scope is not None:
            title.append("Timelines: scope ", "dim")
            title.append(fmt.clean(scope_name(scope, self.redact), 30), "bold")
        self.query_one("#whatif-title", Static).update(title)
        for k, (label, snapshot, summary) in enumerate(zip(self.labels, self.snapshots, self.summaries,
                                                           strict=False)):
            reports = summary.scopes
            figures = Table(box=None, padding=(0, 1), pad_edge=False, show_header=False, expand=False)
            figures.add_column(no_wrap=True, overflow="ellipsis")
            figures.add_column(justify="right", no_wrap=True, min_width=6)
            for figure, value, style in headline(summary, self.scope_id, summary.prompt_cost):
                figures.add_row(figure, Text(value, style))
            heading = Text(label, "bold reverse" if k == 0 else "bold", no_wrap=True, overflow="ellipsis")
            heading.append(" reference" if k == 0 else " what-if", "dim")
            from rich.console import Group

            self.query_one(f"#whatif-figures-{k}", Static).update(Group(heading, figures))
            self.query_one(f"#whatif-scopes-{k}", Static).update(
                ScopeTable(reports, snapshot, self.scope_id, self.redact)
            )
            shown = snapshot.scopes.get(self.scope_id)
            cursor = len(shown.records) - 1 if shown is not None else -1
            self.query_one(f"#whatif-plot-{k}", TimelinePlot).show(shown, cursor)
            self.query_one(f"#whatif-lanes-{k}", StageLanes).show(shown, cursor)

    def action_cycle_scope(self, delta: int) -> None:
        if not self.snapshots:
            return
        ids = list(self.snapshots[0].scopes)
        if not ids:
            return
        position = ids.index(self.scope_id) if self.scope_id in ids else 0
        self.scope_id = ids[(position + delta) % len(ids)]
        self._show_figures()

    def action_close(self) -> None:
        self.dismiss(None)
