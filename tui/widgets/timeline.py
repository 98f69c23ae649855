"""The compaction timeline: stored and sent tokens per request, and which stage ran where.

:class:`TimelinePlot` is a plotext chart (one figure per widget, replotted only when the data or the
cursor changed) of the stored history and the request sent at every model call, with the budget,
trigger and hard-limit lines, a line at every summary marker and every compaction the agent itself
reported, and the cursor. :class:`StageLanes` sits beneath it: one lane per pipeline stage, one
column per request (or per bucket of requests when there are more requests than columns), shaded by
how much the stage freed; its last line spells out the selected request.
"""

from __future__ import annotations

import itertools
import math
import time
from array import array
from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar, Final, cast

from ctxscope.core.snapshot import RequestRecord, ScopeSnapshot, Stage
from rich.text import Text
from textual.timer import Timer
from textual.widget import Widget
from textual_plotext import PlotextPlot

from . import text as fmt

STAGE_LABELS: Final = {
    Stage.ARTIFACTS: "1 artifacts",
    Stage.CLEAR_TOOL_RESULTS: "2 clear",
    Stage.SUMMARIZE: "3 summarise",
    Stage.TRIM_TURNS: "3 fit turns",
    Stage.GUARD: "4 guard",
}
"""Lane labels, in lane order. Turn fitting is stage 3's fallback (and all ``legacy`` does); its
lane shows only in scopes where it ran."""

ALWAYS_SHOWN: Final = (Stage.ARTIFACTS, Stage.CLEAR_TOOL_RESULTS, Stage.SUMMARIZE, Stage.GUARD)

AGENT_LANES: Final = {
    Stage.CLEAR_TOOL_RESULTS: "2 agent clr",
    Stage.SUMMARIZE: "3 agent sum",
}
"""The recorded lens's lanes: what the agent did (its microcompact clears old tool results, the
analogue of stage 2; its summary compaction is stage 3)."""

AGENT_ACTIONS: Final = {
    Stage.CLEAR_TOOL_RESULTS: "agent cleared old tool results",
    Stage.SUMMARIZE: "agent summary",
}
"""What the caption calls each of the agent's actions."""


def stage_label(stage: Stage) -> str:
    return STAGE_LABELS.get(stage, str(stage))


def stage_name(stage: Stage) -> str:
    """The label without its number (``clear``, ``fit turns``)."""
    label = stage_label(stage)
    return label.split(" ", 1)[1] if label[:1].isdigit() else label
LANE_LABEL_WIDTH: Final = 12

RGB = tuple[int, int, int]
COLORS: Final[dict[str, RGB]] = {
    "stored": (100, 149, 237),
    "sent": (80, 200, 120),
    "reported": (230, 230, 230),
    "trigger": (255, 200, 0),
    "budget": (255, 140, 0),
    "limit": (230, 60, 60),
    "summary": (218, 112, 214),
    "observed": (0, 206, 209),
    "cursor": (255, 255, 255),
}
"""Series and line colours; the legend in the pane's subtitle uses the same ones."""


def _hex(name: str) -> str:
    r, g, b = COLORS[name]
    return f"#{r:02x}{g:02x}{b:02x}"


LEGEND: Final = (
    f"[{_hex('stored')}]━ stored (raw)[/] [{_hex('sent')}]━ what-if sent (calibrated)[/] "
    f"[{_hex('reported')}]• agent reported[/] "
    f"[{_hex('summary')}]│ what-if summary[/] [{_hex('observed')}]│ agent compaction[/] [b]│ cursor[/]"
)
"""Legend markup for the timeline pane's border subtitle in the pipeline lens (fixed text)."""

RECORDED_LINES: Final = {"limit": "window", "trigger": "auto-compact"}
"""What the recorded lens calls the timeline's lines."""

RECORDED_LEGEND: Final = (
    f"[{_hex('sent')}]━ context (reported, else estimated)[/] [{_hex('reported')}]• reported[/] "
    f"[{_hex('observed')}]│ agent compaction[/] [b]│ cursor[/]"
)
"""Legend markup in the recorded lens (fixed text, no log content)."""
SHADES: Final = "▁▂▃▄▅▆▇█"


@dataclass(frozen=True, slots=True)
class Buckets:
    """Requests grouped into at most ``columns`` consecutive runs of ``step`` requests."""

    count: int
    step: int

    @classmethod
    def fit(cls, count: int, columns: int) -> Buckets:
        return cls(count, max(1, math.ceil(count / max(1, columns))))

    def __len__(self) -> int:
        return math.ceil(self.count / self.step) if self.count else 0

    def span(self, bucket: int) -> range:
        return range(bucket * self.step, min(self.count, (bucket + 1) * self.step))

    def of(self, index: int) -> int:
        return index // self.step


def column_of(index: int, count: int, columns: int) -> int:
    """The column request ``index`` of ``count`` falls in when the x axis spans ``columns`` cells.

    Matches the plot's x axis (``xlim(0, count - 1)``), so the lanes line up under the plot:
    ``index × (columns − 1) / (count − 1)`` rounded half up, in integers.
    """
    if count <= 1 or columns <= 1:
        return 0
    return min(columns - 1, (2 * index * (columns - 1) + count - 1) // (2 * (count - 1)))


def column_starts(count: int, columns: int) -> list[int]:
    """First request of every column (``columns + 1`` entries; the last is ``count``).

    The inverse of :func:`column_of`: column ``c`` holds requests ``starts[c]:starts[c + 1]``.
    """
    if count <= 1 or columns <= 1:
        return [0] + [count] * columns
    starts = [0]
    for c in range(1, columns):
        # smallest i with 2i(C-1) + (n-1) >= 2c(n-1)
        need = (2 * c - 1) * (count - 1)
        starts.append(min(count, max(0, -(-need // (2 * (columns - 1))))))
    starts.append(count)
    return starts


def column_spans(count: int, columns: int) -> list[tuple[int, int]]:
    """The requests under each column, ``[(lo, hi), …]``; never empty.

    With more columns than requests, a column between two requests shows the nearer one, so the
    lanes read as continuous bars under the plot's lines.
    """
    if count <= 0:
        return []
    starts = column_starts(count, columns)
    spans = []
    for c, (lo, hi) in enumerate(itertools.pairwise(starts)):
        if hi <= lo:
            nearest = 0
            if columns > 1:
                nearest = min(count - 1, (2 * c * (count - 1) + columns - 1) // (2 * (columns - 1)))
            lo, hi = nearest, nearest + 1
        spans.append((lo, hi))
    return spans


def _same(record: RequestRecord, seen: RequestRecord | None) -> bool:
    """``record`` is the request ``seen`` was (a live view rebuilds its older records from figures,
    so identity is not enough)."""
    return record is seen or (
        seen is not None
        and record.index == seen.index
        and record.stored_tokens == seen.stored_tokens
        and record.calibrated_tokens == seen.calibrated_tokens
    )


class Series:
    """Per-request figures of one scope, kept in flat lists and extended as records are appended.

    Rendering takes maxima over slices of these arrays (``max`` runs in C), so a replot of 100,000
    requests does not loop over record objects in Python; 8 bytes a figure keeps a long live
    session's timeline small. A different scope, or records that are
    not an extension of the ones seen (a new session after truncation), start the lists over.
    """

    def __init__(self) -> None:
        self.key: tuple[str, int] = ("", 0)
        self._last: RequestRecord | None = None
        self.stored = array("q")
        self.sent = array("q")
        self.reported = array("q")
        """Reported prompt tokens, -1 where the log has none."""
        self.freed: dict[Stage, array[int]] = {stage: array("q") for stage in Stage}
        """Tokens each stage freed per request, -1 where it did not run."""
        self.summaries: list[int] = []
        """Requests at which a summary was made."""

    def __len__(self) -> int:
        return len(self.sent)

    def update(self, scope: ScopeSnapshot, generation: int = 0) -> None:
        records = scope.records
        key = (scope.header.scope_id, generation)
        n = len(self.sent)
        if key != self.key or len(records) < n or (n and not _same(records[n - 1], self._last)):
            self.__init__()  # type: ignore[misc]
            self.key = key
            n = 0
        for record in records[n:]:
            self.stored.append(record.stored_tokens)
            self.sent.append(record.context_tokens)
            self.reported.append(-1 if record.reported_tokens is None else record.reported_tokens)
            ran = {stage: -1 for stage in Stage}
            for run in record.stages:
                ran[run.stage] = max(ran[run.stage], run.tokens_freed)
            for stage, value in ran.items():
                self.freed[stage].append(value)
            if record.summary is not None and not record.source:  # a what-if summary
                self.summaries.append(record.index)
        if records:
            self._last = records[-1]


def nice_ticks(top: float, count: int = 4) -> list[int]:
    """Round tick values from 0 to about ``top``."""
    if top <= 0:
        return [0]
    raw = top / count
    magnitude = 10 ** math.floor(math.log10(raw))
    step = next(m * magnitude for m in (1, 2, 2.5, 5, 10) if m * magnitude >= raw)
    return [int(i * step) for i in range(int(top // step) + 1)]


class TimelinePlot(PlotextPlot):
    """Stored and sent tokens per request with budget, trigger and limit lines and markers.

    A moved cursor replots at once; new data replots at most ``REPLOT_INTERVAL`` apart, and at
    least ``COST_SHARE`` times the last build's cost apart (a plotext build and the decoding of its
    output cost tens to hundreds of milliseconds on a large screen, and a live log may bring ten
    snapshots a second): the timeline takes at most a fifth of the screen's time for new data.
    """

    DEFAULT_CSS = """
    TimelinePlot {
        height: 1fr;
        min-height: 6;
    }
    """

    REPLOT_INTERVAL: ClassVar[float] = 0.25
    COST_SHARE: ClassVar[float] = 5.0

    def __init__(
        self, *, series: Series | None = None, id: str | None = None, classes: str | None = None
    ) -> None:
        super().__init__(id=id, classes=classes)
        self._scope: ScopeSnapshot | None = None
        self._cursor = -1
        self._generation = 0
        self._key: tuple[object, ...] = ()
        self._last_replot = 0.0
        self._pending: Timer | None = None
        self.series = series if series is not None else Series()
        """The per-request figures (the dashboard shares one with the stage lanes)."""
        self._rendered: Text | None = None
        self._render_key: tuple[object, ...] = ()
        self._build_cost = 0.0
        """Seconds the last plotext build took (:meth:`render`)."""
        self.replots = 0
        """How many times the figure was rebuilt (tests check the plot is not rebuilt needlessly)."""

    def show(self, scope: ScopeSnapshot | None, cursor: int, generation: int = 0) -> None:
        """Plot ``scope`` with the cursor at request ``cursor`` (replots only when something changed)."""
        data_changed = scope is not self._scope
        self._scope, self._cursor, self._generation = scope, cursor, generation
        interval = max(self.REPLOT_INTERVAL, self.COST_SHARE * self._build_cost)
        wait = interval - (time.monotonic() - self._last_replot)
        # New data (a live log, with the cursor following it) waits for the interval; a cursor
        # the user moved over the same data replots at once.
        if data_changed and wait > 0:
            if self._pending is None:
                self._pending = self.set_timer(wait, self._deferred)
            return
        self._replot()

    def _deferred(self) -> None:
        self._pending = None
        self._replot()

    def render(self) -> Text:
        """The plot; built by plotext only after a replot, a resize or a theme change."""
        key = (self.replots, self.size, self.app.theme, self.theme)
        if key != self._render_key or self._rendered is None:
            started = time.monotonic()
            rendered = super().render()
            self._build_cost = time.monotonic() - started
            assert isinstance(rendered, Text)
            self._rendered, self._render_key = rendered, key
        return self._rendered

    def on_resize(self) -> None:
        self._replot()

    def _replot(self) -> None:
        scope = self._scope
        width = self.size.width
        key: tuple[object, ...] = (
            id(scope),
            len(scope.records) if scope else 0,
            len(scope.agent_compactions) if scope else 0,
            self._cursor,
            width,
            self.size.height,
        )
        if key == self._key:
            return
        self._key = key
        self._last_replot = time.monotonic()
        self.replots += 1
        plt = self.plt
        plt.clear_figure()
        if scope is None or not scope.records:
            plt.title("no model call yet")
            self.refresh()
            return
        series = self.series
        series.update(scope, self._generation)
        count = len(series)
        buckets = Buckets.fit(count, max(10, (width - LANE_LABEL_WIDTH - 1) * 2))
        xs: list[int] = []
        stored: list[int] = []
        sent: list[int] = []
        reported: list[int] = []
        reported_xs: list[int] = []
        for b in range(len(buckets)):
            span = buckets.span(b)
            lo, hi = span.start, span.stop
            xs.append(lo)
            stored.append(max(series.stored[lo:hi]))
            sent.append(max(series.sent[lo:hi]))
            most = max(series.reported[lo:hi])
            if most >= 0:
                reported_xs.append(lo)
                reported.append(most)
        t = scope.thresholds
        data_top = max(max(sent), max(reported, default=0), t.trigger)
        if scope.lens == "pipeline":
            data_top = max(data_top, min(max(stored), t.limit))
        top = min(t.limit, data_top) * 1.1 if t.limit else data_top * 1.1
        last = max(1, count - 1)
        rows = max(1, self.size.height - 4)
        labelled: list[float] = []
        lines: tuple[tuple[str, int], ...] = (
            ("budget", t.budget), ("limit", t.limit), ("trigger", t.trigger)
        )
        if scope.agent_thresholds:  # the agent's window and auto-compaction trigger
            lines = (("limit", t.limit), ("trigger", t.trigger))
        for name, value in lines:
            if 0 < value <= top:
                plt.hline(value, COLORS[name])
                # Label a line only when it is at least a row away from a labelled one; the budget
                # (what the pipeline works to) first, so a rescale that brings the limit close
                # on a short plot never leaves it unlabelled.
                if all(abs(value - other) / top * rows >= 1 for other in labelled):
                    words = RECORDED_LINES.get(name, name) if scope.agent_thresholds else name
                    plt.text(words, last, value, color=COLORS[name], alignment="right")
                    labelled.append(value)
        for index in series.summaries:
            plt.vline(index, COLORS["summary"])
        for compaction in scope.agent_compactions:
            plt.vline(compaction.request, COLORS["observed"])
        if scope.lens == "pipeline":  # the stored history is a raw estimate: another unit
            plt.plot(xs, stored, color=COLORS["stored"])
        plt.plot(xs, sent, color=COLORS["sent"])
        if reported:
            plt.scatter(reported_xs, reported, color=COLORS["reported"], marker="•")
        if 0 <= self._cursor < count:
            plt.vline(self._cursor, COLORS["cursor"])
        plt.xlim(0, last)
        plt.ylim(0, top)
        ticks = nice_ticks(top, max(2, (self.size.height - 4) // 3))
        labels = [fmt.tokens(v) for v in ticks]
        # Pad the tick labels so the plot area starts where the stage lanes start: columns align.
        plt.yticks(cast("list[float]", ticks), [label.rjust(LANE_LABEL_WIDTH - 1) for label in labels])
        xticks = sorted({0, last // 2, last})
        plt.xticks(cast("list[float]", xticks), [f"#{x}" for x in xticks])
        self.refresh()


class StageLanes(Widget):
    """One lane per stage across the requests, shaded by tokens freed; the selected request spelled out."""

    DEFAULT_CSS = """
    StageLanes {
        height: 5;
    }
    """

    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "lanes--label",
        "lanes--idle",
        "lanes--cursor",
        "lanes--artifacts",
        "lanes--clear_tool_results",
        "lanes--summarize",
        "lanes--guard",
        "lanes--trim_turns",
        "lanes--caption",
    }

    def __init__(
        self, *, series: Series | None = None, id: str | None = None, classes: str | None = None
    ) -> None:
        super().__init__(id=id, classes=classes)
        self._scope: ScopeSnapshot | None = None
        self._cursor = -1
        self._generation = 0
        self.series = series if series is not None else Series()

    def show(self, scope: ScopeSnapshot | None, cursor: int, generation: int = 0) -> None:
        if scope is self._scope and cursor == self._cursor:
            return
        self._scope, self._cursor, self._generation = scope, cursor, generation
        if scope is not None and scope.records:
            self.series.update(scope, generation)
            self._fit_height(len(self.lanes_for(self.series, scope.agent_thresholds)) + 1)
        self.refresh()

    def _style(self, name: str) -> str:
        return str(self.get_component_rich_style(f"lanes--{name}", partial=True))

    def render(self) -> Text:
        scope = self._scope
        width = self.size.width
        if scope is None or not scope.records:
            return Text("stage lanes appear with the first model call", style="dim")
        series = self.series
        series.update(scope, self._generation)
        count = len(series)
        columns = max(1, width - LANE_LABEL_WIDTH - 1)
        spans = column_spans(count, columns)
        recorded = scope.agent_thresholds
        stages = self.lanes_for(series, recorded)
        lines = [self._lane(stage, series.freed[stage], spans, recorded) for stage in stages]
        lines.append(self._caption(scope.records, width, recorded))
        return Text("\n").join(lines)

    @staticmethod
    def lanes_for(series: Series, recorded: bool = False) -> list[Stage]:
        """The four stages, plus turn fitting (and any other stage) where it ran in this scope; in
        the recorded lens the agent's two (:data:`AGENT_LANES`)."""
        if recorded:
            return list(AGENT_LANES)
        return [
            stage for stage in (*STAGE_LABELS, *(s for s in Stage if s not in STAGE_LABELS))
            if stage in ALWAYS_SHOWN or any(v >= 0 for v in series.freed.get(stage, ()))
        ]

    def _fit_height(self, lines: int) -> None:
        if self.styles.height is None or self.styles.height.value != lines:
            self.styles.height = lines

    def _lane(
        self, stage: Stage, freed: Sequence[int], spans: list[tuple[int, int]], recorded: bool = False
    ) -> Text:
        out = Text(no_wrap=True, end="")
        label = AGENT_LANES[stage] if recorded else stage_label(stage)
        out.append(label[: LANE_LABEL_WIDTH - 1].ljust(LANE_LABEL_WIDTH), self._style("label"))
        per_column = [max(freed[lo:hi]) for lo, hi in spans]
        peak = max((v for v in per_column if v > 0), default=0)
        ran = self._style(stage.value)
        idle = self._style("idle")
        cursor_style = self._style("cursor")
        cursor = self._cursor
        for (lo, hi), value in zip(spans, per_column, strict=True):
            if value < 0:
                char, style = "·", idle
            elif value == 0 or peak <= 0:
                char, style = "▁", ran
            else:
                char = SHADES[min(len(SHADES) - 1, max(0, math.ceil(value / peak * len(SHADES)) - 1))]
                style = ran
            if lo <= cursor < hi:
                style = f"{style} {cursor_style}"
            out.append(char, style)
        return out

    def _caption(self, records: Sequence[RequestRecord], width: int, recorded: bool) -> Text:
        out = Text(no_wrap=True, overflow="ellipsis", end="")
        if not 0 <= self._cursor < len(records):
            return out
        record = records[self._cursor]
        out.append(f"#{record.index} ", self._style("caption"))
        if not record.stages:
            idle = (
                "the agent did not compact here" if recorded
                else "fit as it was: no stage ran" if record.source
                else "what-if: fit as it was, no stage ran"
            )
            out.append(idle, "dim")
        for i, run in enumerate(record.stages):
            if i:
                out.append(" · ", "dim")
            name = AGENT_ACTIONS[run.stage] if recorded else stage_name(run.stage)
            out.append(name, self._style(run.stage.value))
            out.append(f" −{fmt.tokens(run.tokens_freed)}")
            if run.items:
                out.append(f" ({run.items} item{'s' if run.items != 1 else ''})", "dim")
        if record.summary is not None:
            words = "  ◆ summary (Enter)" if record.source else "  ◆ what-if summary"
            out.append(words, self._style("summarize"))
        return out
