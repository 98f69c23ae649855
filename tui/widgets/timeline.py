"""The compaction timeline: the context per request, and which stage ran where.

:class:`TimelinePlot` draws the figures of a :class:`Series` (core's per-bucket
:class:`~ctxscope.core.timeline_series.TimelineSeries`) itself, with braille dots (two across and
four down a cell): the context line of every model call (and in the pipeline lens the stored
history and the agent's reported figure), the budget / trigger / limit lines with their labels,
a line at every compaction the agent reported and every summary ctxscope's pipeline would make,
the cursor's column, token ticks on the y axis and request or wall-clock ticks on the x axis
(``t`` switches). It is a Line API widget: it keeps the figure of every dot and the glyph of every
cell, and when the log grows it recomputes only the columns whose buckets changed and repaints
only those (the axes' rounded-up extents keep the rest still); a rescale redraws it whole.
:class:`StageLanes` sits beneath it on the same x axis: one lane per pipeline stage, shaded by how
much the stage freed; its last line spells out the selected request.
"""

from __future__ import annotations

import bisect
import math
import time
from collections.abc import Iterable, Sequence
from datetime import UTC, datetime
from typing import ClassVar, Final

from ctxscope.core.snapshot import RequestRecord, ScopeSnapshot, Stage
from ctxscope.core.timeline_series import MARK_COMPACTION, NONE, Revision, TimelineSeries
from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual.binding import Binding, BindingType
from textual.geometry import Region
from textual.strip import Strip
from textual.timer import Timer
from textual.widget import Widget

from ..messages import TailStatus
from . import text as fmt
from .timeline_axes import (
    TOP_STEPS,
    XScale,
    bucket_dots,
    nice_ceiling,
    nice_ticks,
    request_ticks,
    time_ticks,
    x_scale,
)

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


SHADES: Final = "▁▂▃▄▅▆▇█"

def stage_label(stage: Stage) -> str:
    return STAGE_LABELS.get(stage, str(stage))


def stage_name(stage: Stage) -> str:
    """The label without its number (``clear``, ``fit turns``)."""
    label = stage_label(stage)
    return label.split(" ", 1)[1] if label[:1].isdigit() else label


LANE_LABEL_WIDTH: Final = 12
"""Cells left of the plot (the y axis's labels) and of the lanes (their names): columns align."""

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
    "cursor": (70, 70, 110),
    "pointer": (255, 255, 255),
}
"""Series and line colours (``cursor`` is the background of the selected request's points,
``pointer`` its ▲ on the x axis); the legend in the pane's subtitle uses the same ones."""


def _hex(name: str) -> str:
    r, g, b = COLORS[name]
    return f"#{r:02x}{g:02x}{b:02x}"


def _style(name: str, bold: bool = False) -> Style:
    return Style(color=_hex(name), bold=bold)


LEGEND: Final = (
    f"[{_hex('stored')}]━ stored[/] [{_hex('sent')}]━ what-if sent (calibrated)[/] "
    f"[{_hex('reported')}]• agent reported[/] "
    f"[{_hex('summary')}]┊ what-if summary[/] [{_hex('observed')}]┊ agent compaction[/] "
    f"[b]▲[/] cursor"
)
"""Legend markup for the timeline pane's border subtitle in the pipeline lens (fixed text)."""

RECORDED_LINES: Final = {"limit": "window", "trigger": "auto-compact"}
"""What the recorded lens calls the timeline's lines."""

RECORDED_LEGEND: Final = (
    f"[{_hex('sent')}]━ context (reported, else estimated)[/] "
    f"[{_hex('observed')}]┊ agent compaction[/] [b]▲[/] cursor"
)
"""Legend markup in the recorded lens (fixed text, no log content)."""


class Series(TimelineSeries):
    """The per-bucket figures the plot and the lanes beneath it share, and their x axis's kind.

    Attributes:
        wall_clock: The x axis is wall-clock time (``t`` on the plot switches; False: the request
            number). A log without timestamps keeps the request axis and the plot says so.
    """

    def __init__(self) -> None:
        super().__init__()
        self.wall_clock = False
        self.expected = 0
        """Requests the scope will have once its log is read through, as far as the share of the
        file read so far tells (0: no more are known to come)."""
        self._expected_key = self.key
        self._dots: tuple[XScale, Revision, list[int]] | None = None

    def scale(self, dots: int) -> XScale:
        return x_scale(self, dots, self.wall_clock, self.expected)

    def expect(self, status: TailStatus | None) -> None:
        """While a log is read from its start, expect as many requests again as the unread share
        of the file suggests (the x axis then spans them and rescales rarely)."""
        if status is None or status.done or not 0 < status.bytes_read < status.size:
            self.expected = 0
            return
        projected = self.count * status.size // status.bytes_read
        if projected > self.expected or self._expected_key != self.key:  # it only grows while
            self.expected = projected  # one log is read, so the axis does not jitter
            self._expected_key = self.key

    def dots(self, scale: XScale) -> list[int]:
        """:func:`~.timeline_axes.bucket_dots` for ``scale``, shared by the plot and the lanes and
        recomputed only from the first bucket that changed."""
        cached = self._dots
        if cached is not None and cached[0] == scale:
            low = self.changed_since(cached[1])
            if low >= len(self):
                return cached[2]
            if low > 0 and not scale.wall_clock:
                dots = cached[2][:low]
                step, dot = self.step, scale.dot
                dots.extend(dot(b * step) for b in range(low, len(self)))
                self._dots = (scale, self.revision, dots)
                return dots
        dots = bucket_dots(self, scale)
        self._dots = (scale, self.revision, dots)
        return dots


_BRAILLE: Final = ((0x40, 0x04, 0x02, 0x01), (0x80, 0x20, 0x10, 0x08))
"""Braille dot bits by column (left, right) and row from the bottom of the cell."""
_GLYPHS: Final = (" ", *(chr(0x2800 + bits) for bits in range(1, 256)))
"""The cell of each braille dot pattern (no dot: a space)."""
_EMPTY: Final = -1

LAYERS: Final = ("sent", "stored", "reported")
"""Data series, the first drawn on top: each cell takes the colour of the first with a dot in it."""
_MARK: Final = len(LAYERS)
_LINE: Final = len(LAYERS) + 1
_NOTHING: Final = len(LAYERS) + 2
"""Ranks below the data series: a compaction mark, then a threshold line, then nothing."""


class _Layer:
    """One series' figure and height (in dots) at every dot across the plot."""

    __slots__ = ("connected", "heights", "values")

    def __init__(self, dots: int, connected: bool) -> None:
        self.values = [_EMPTY] * dots
        """The largest figure of the buckets on each dot (-1: none)."""
        self.heights = [_EMPTY] * dots
        """The dot row drawn at each dot, with gaps between figures filled (-1: nothing)."""
        self.connected = connected
        """A line (gaps between points filled); else separate points."""


class TimelinePlot(Widget, can_focus=True):
    """The context per request with budget, trigger and limit lines, compaction marks and the cursor.

    New data is drawn at most every ``REPLOT_INTERVAL`` seconds (a live log may bring ten
    snapshots a second), and only the columns it changed; a moved cursor is drawn at once.
    """

    DEFAULT_CSS = """
    TimelinePlot {
        height: 1fr;
        min-height: 6;
    }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("t", "toggle_axis", "Time axis", id="timeline-axis",
                tooltip="Timeline x axis: request number or wall-clock time (UTC)"),
    ]

    REPLOT_INTERVAL: ClassVar[float] = 0.25

    def __init__(
        self, *, series: Series | None = None, id: str | None = None, classes: str | None = None
    ) -> None:
        super().__init__(id=id, classes=classes)
        self._scope: ScopeSnapshot | None = None
        self._cursor = -1
        self._generation = 0
        self._last_replot = 0.0
        self._pending: Timer | None = None
        self._status: TailStatus | None = None
        self.series = series if series is not None else Series()
        """The per-bucket figures (the dashboard shares one with the stage lanes)."""
        self._frame: tuple[object, ...] = ()
        """What a full redraw depends on: size, axes' scales, lens, thresholds."""
        self._seen = (0, 0)
        """The series' revision last drawn."""
        self._scale = XScale(False, 0, 1, 2)
        self._top = 1
        self._rows = 1
        self._layers: dict[str, _Layer] = {}
        self._marks: list[int] = []
        self._lines: list[tuple[int, str]] = []
        """Threshold lines: dot row and colour name."""
        self._labels: dict[int, tuple[str, str]] = {}
        """Right-aligned text by data row (the lines' labels) and its colour name."""
        self._gutter: list[str] = []
        """The y axis's part of every data row."""
        self._chars: list[list[str]] = []
        """The glyph of every data cell, by row and column."""
        self._colours: list[list[str]] = []
        """The colour name of every data cell ('' for none)."""
        self._strips: list[Strip | None] = []
        """Each line as last drawn (None: to draw)."""
        self._changed: dict[int, int] = {}
        """Lines whose cells this replot changed, and the first column changed."""
        self._palette: dict[tuple[str, bool], Style] = {}
        """Styles by colour name and cursor, on the widget's own style (reset when that changes)."""
        self._cursor_column = -1
        self._data_end = 0
        """Cell columns up to the newest data's (drawn; the rest hold only the lines)."""
        self.title = ""
        """The plot's first line: what the x axis is (and why not wall-clock, when asked)."""
        self.replots = 0
        """How many times new data or a new cursor was drawn (tests check it is not done needlessly)."""
        self.full_redraws = 0
        """How many of those redrew every column (a resize, a rescale, another scope)."""
        self.columns_drawn = 0
        """Cell columns recomputed, over all replots."""

    # -- what to show ---------------------------------------------------------------------------

    def show(
        self, scope: ScopeSnapshot | None, cursor: int, generation: int = 0, status: TailStatus | None = None
    ) -> None:
        """Plot ``scope`` with the cursor at request ``cursor`` (draws only what changed); ``status``
        says how much of the log is read (the x axis makes room for the rest)."""
        data_changed = scope is not self._scope
        self._status = status
        self._scope, self._cursor, self._generation = scope, cursor, generation
        wait = self.REPLOT_INTERVAL - (time.monotonic() - self._last_replot)
        # New data (a live log, with the cursor following it) waits for the interval; a cursor
        # the user moved over the same data is drawn at once.
        if data_changed and wait > 0:
            if self._pending is None:
                self._pending = self.set_timer(wait, self._deferred)
            return
        self._replot()

    def _deferred(self) -> None:
        self._pending = None
        self._replot()

    def on_resize(self) -> None:
        self._replot()

    def notify_style_update(self) -> None:
        super().notify_style_update()
        self._palette = {}  # the background may have changed
        self._strips = [None] * len(self._strips)

    def action_toggle_axis(self) -> None:
        """Switch the x axis between the request number and wall-clock time (the lanes follow)."""
        self.series.wall_clock = not self.series.wall_clock
        self._replot()

    def _refresh_lanes(self) -> None:
        """The lanes sharing this plot's series follow a new x axis (a rescale, a resize, ``t``)."""
        for lanes in self.screen.query(StageLanes):
            if lanes.series is self.series:
                lanes.refresh()

    # -- drawing --------------------------------------------------------------------------------

    def _replot(self) -> None:
        scope = self._scope
        width, height = self.size
        if width <= LANE_LABEL_WIDTH or height <= 0:
            return
        self._last_replot = time.monotonic()
        series = self.series
        if scope is None or not scope.records:
            self._frame = ()
            self._chars, self._colours = [], []
            self._strips = [None] * height
            self.title = "no model call yet"
            self.replots += 1
            self.refresh()
            return
        series.update(scope, self._generation)
        series.expect(self._status)
        columns = width - LANE_LABEL_WIDTH
        rows = max(1, height - 2)
        scale = series.scale(2 * columns)
        top = _y_top(scope, series)
        frame = (width, height, scale, series.wall_clock, top, scope.lens, scope.agent_thresholds,
                 scope.thresholds, series.key)
        dots = series.dots(scale)
        cursor_at = cursor_column(series, self._cursor, dots, scale)
        if frame != self._frame:
            if scale != self._scale:
                self._refresh_lanes()
            self._frame, self._scale, self._top, self._rows = frame, scale, top, rows
            self._start_frame(scope, columns, rows)
            first_dot = 0
            self.full_redraws += 1
        else:
            low = series.changed_since(self._seen)
            if low >= len(series) and cursor_at == self._cursor_column:
                self._seen = series.revision
                return
            first_dot = dots[low] if low < len(dots) else 2 * columns
        self._seen = series.revision
        self.replots += 1
        first_column = self._draw_from(first_dot, dots, columns) if first_dot < 2 * columns else columns
        changed = [c for c in (self._cursor_column, cursor_at) if 0 <= c < columns]
        self._cursor_column = cursor_at
        if first_column == 0:
            self._strips = [None] * height
            self._changed = {}
            self.refresh()
            return
        # The cursor's cells (its column's data points) and its mark on the x axis.
        for column in changed:
            for row in range(rows):
                if self._colours[row][column] in LAYERS:
                    self._touch(row + 1, column)
            self._touch(rows + 1, column)
        # Only the lines whose cells changed are drawn again, from the first changed column on.
        for y in self._changed:
            self._strips[y] = None
        self.refresh(*(Region(LANE_LABEL_WIDTH + column, y, columns - column, 1)
                       for y, column in self._changed.items()))
        self._changed = {}

    def _touch(self, y: int, column: int) -> None:
        """Line ``y`` changed from cell column ``column`` on."""
        self._changed[y] = min(self._changed.get(y, column), column)

    def _start_frame(self, scope: ScopeSnapshot, columns: int, rows: int) -> None:
        """Everything a full redraw sets: layers, lines and their labels, the y axis, the title."""
        dots = 2 * columns
        pipeline = scope.lens == "pipeline"
        self._layers = {"sent": _Layer(dots, True)}
        if pipeline:  # the stored history (in the request's unit) and the reported prompt (it
            self._layers["stored"] = _Layer(dots, True)  # belongs to the agent's own request)
            self._layers["reported"] = _Layer(dots, False)
        self._marks = [0] * dots
        self._chars = [[" "] * columns for _ in range(rows)]
        self._colours = [[""] * columns for _ in range(rows)]
        self._strips = [None] * (rows + 2)
        t = scope.thresholds
        lines: tuple[tuple[str, int], ...] = (
            ("budget", t.budget), ("limit", t.limit), ("trigger", t.trigger)
        )
        if scope.agent_thresholds:  # the agent's window and auto-compaction trigger
            # No trigger known for the agent: the window only stands in for it (no line of its own).
            lines = (("limit", t.limit),) + ((("trigger", t.trigger),) if scope.trigger_known else ())
        self._lines = []
        by_row: dict[int, list[tuple[str, int]]] = {}
        for name, value in lines:
            if 0 < value <= self._top:
                height = self._height(value)
                self._lines.append((height, name))
                words = RECORDED_LINES.get(name, name) if scope.agent_thresholds else name
                if words == "window" and not scope.window_known:  # ctxscope's default, as the meter says
                    words = "default window"
                by_row.setdefault(rows - 1 - height // 4, []).append((words, value))
        # Every line is labelled, whatever the scale: lines that fall on one row share a label.
        self._labels = {}
        for row, named in by_row.items():
            parts: list[str] = []
            for value in dict.fromkeys(v for _, v in named):
                names = " = ".join(words for words, v in named if v == value)
                parts.append(f"{names} {fmt.tokens(value)}")
            first = next(name for name, value in lines if value == named[0][1])
            self._labels[row] = (f" {' · '.join(parts)} "[-columns:], f"{first}!")  # ! bold
        self._gutter = self._y_axis(rows)
        self.title = self._title(scope)

    def _title(self, scope: ScopeSnapshot) -> str:
        series = self.series
        if series.wall_clock and not series.timed:
            return "no timestamps in the log: x is the request number"
        if self._scale.wall_clock:
            try:
                start = datetime.fromtimestamp(self._scale.origin, UTC)
            except (OverflowError, OSError, ValueError):
                return "x: wall-clock time (UTC)"
            return f"x: wall-clock time, UTC, from {start:%Y-%m-%d %H:%M}"
        return "x: request number (t: wall-clock time)"

    def _y_axis(self, rows: int) -> list[str]:
        """The gutter of every data row: a token tick label where a tick falls."""
        labels: dict[int, str] = {}
        for value in nice_ticks(self._top, max(2, rows // 3)):
            row = rows - 1 - self._height(value) // 4
            labels.setdefault(row, fmt.tokens(value))
        return [
            labels[row].rjust(LANE_LABEL_WIDTH - 1)[-(LANE_LABEL_WIDTH - 1):] + "┤"
            if row in labels else " " * (LANE_LABEL_WIDTH - 1) + "│"
            for row in range(rows)
        ]

    def _height(self, value: int) -> int:
        """The dot row of ``value`` (0 at the bottom), clamped to the plot."""
        top_dot = 4 * self._rows - 1
        return min(top_dot, max(0, (2 * value * top_dot + self._top) // (2 * self._top)))

    def _draw_from(self, first_dot: int, dots: list[int], columns: int) -> int:
        """Recompute every dot from ``first_dot`` on and the cells they touch; returns the first
        cell column that changed."""
        series = self.series
        first_bucket = bisect.bisect_left(dots, first_dot)
        figures = {"sent": series.context, "stored": series.stored, "reported": series.reported}
        start = first_dot
        for name, layer in self._layers.items():
            values = layer.values
            for d in range(first_dot, len(values)):
                values[d] = _EMPTY
            figure = figures[name]
            for b in range(first_bucket, len(dots)):
                value = figure[b]
                d = dots[b]
                if value > values[d]:
                    values[d] = value
            start = min(start, self._heights(layer, first_dot))
        marks = self._marks
        for d in range(first_dot, len(marks)):
            marks[d] = 0
        for b in range(first_bucket, len(dots)):
            marks[dots[b]] |= series.marks[b]
        first_column = start // 2
        # Past the newest data nothing changed (the data only grows rightwards between redraws).
        data_end = min(columns, (dots[-1] // 2 + 1) if dots else 0)
        end = columns if first_dot == 0 else max(data_end, self._data_end)
        self._data_end = data_end
        for column in range(first_column, end):
            self._draw_column(column, first_dot == 0)
        self.columns_drawn += max(0, end - first_column)
        return first_column

    def _heights(self, layer: _Layer, first_dot: int) -> int:
        """Heights from the last point before ``first_dot`` on; returns the first dot changed."""
        values, heights = layer.values, layer.heights
        previous = first_dot - 1
        while previous >= 0 and values[previous] == _EMPTY:
            previous -= 1
        start = previous + 1 if layer.connected else first_dot
        for d in range(start, len(heights)):
            heights[d] = _EMPTY
        last = previous
        hold = self._scale.wall_clock  # idle time: the context stays where it was
        for d in range(first_dot, len(values)):
            value = values[d]
            if value == _EMPTY:
                continue
            height = self._height(value)
            heights[d] = height
            if layer.connected and last >= 0:
                before = heights[last]
                for gap in range(last + 1, d):
                    heights[gap] = before if hold else before + (height - before) * (gap - last) // (d - last)
            last = d
        return max(0, start)

    def _draw_column(self, column: int, full: bool) -> None:
        """The glyphs and colours of one cell column, from its two dots: each cell takes the colour
        of the first data series with a dot in it, else of a compaction mark, else of a line."""
        rows = self._rows
        bits = [0] * rows
        rank = [_NOTHING] * rows
        colours = [""] * rows
        for priority, name in enumerate(LAYERS):
            layer = self._layers.get(name)
            if layer is None:
                continue
            heights = layer.heights
            for side in (0, 1):
                d = 2 * column + side
                height = heights[d]
                if height == _EMPTY:
                    continue
                low = high = height
                if layer.connected and d > 0 and heights[d - 1] != _EMPTY:
                    before = heights[d - 1]  # join the previous dot: a steep drop stays one line
                    if before > height:
                        high = before - 1
                    elif before < height:
                        low = before + 1
                for h in range(low, high + 1):
                    row = rows - 1 - h // 4
                    bits[row] |= _BRAILLE[side][h % 4]
                    if priority < rank[row]:
                        rank[row], colours[row] = priority, name
        for side in (0, 1):
            mark = self._marks[2 * column + side]
            if not mark:
                continue
            colour = "observed" if mark & MARK_COMPACTION else "summary"
            dotted = _BRAILLE[side][1] | _BRAILLE[side][3]  # a dotted line, drawn where no data is
            for row in range(rows):
                if rank[row] >= _MARK:
                    bits[row] |= dotted
                    rank[row], colours[row] = _MARK, colour
        for height, name in self._lines:
            row = rows - 1 - height // 4
            bits[row] |= _BRAILLE[0][height % 4] | _BRAILLE[1][height % 4]
            if rank[row] > _LINE:
                rank[row], colours[row] = _LINE, name
        chars, colour_cells = self._chars, self._colours
        if full:  # every line is drawn again anyway
            for row in range(rows):
                chars[row][column] = _GLYPHS[bits[row]]
                colour_cells[row][column] = colours[row]
            return
        for row in range(rows):
            char = _GLYPHS[bits[row]]
            if chars[row][column] != char or colour_cells[row][column] != colours[row]:
                chars[row][column] = char
                colour_cells[row][column] = colours[row]
                self._touch(row + 1, column)

    # -- Line API -------------------------------------------------------------------------------

    def render_line(self, y: int) -> Strip:
        width = self.size.width
        if y >= len(self._strips):
            return Strip.blank(width, self._paint(""))
        strip = self._strips[y]
        if strip is None:  # (re)built whole: cheaper than splicing a changed tail into it
            # At the width the cells were drawn for: a resize not handled yet (on_resize redraws)
            # must not shift the labels against the cells.
            drawn = self._frame[0] if self._frame and isinstance(self._frame[0], int) else width
            strip = Strip(list(self._line(y, drawn)))
            if strip.cell_length != width:  # the title, an empty plot, or a pending resize
                strip = strip.crop_extend(0, width, self._paint(""))
            self._strips[y] = strip
        return strip

    def _paint(self, colour: str, cursor: bool = False) -> Style:
        """The style of a colour name ('' for none, a trailing ! for bold, ``#dim`` for the axes)
        on the widget's own."""
        style = self._palette.get((colour, cursor))
        if style is None:
            name = colour.rstrip("!")
            if colour == "#dim":  # the axes and the title
                style = self.rich_style + Style(dim=True)
            else:
                style = self.rich_style + (_style(name, bold=colour.endswith("!")) if name else Style())
            if cursor:
                style += Style(bgcolor=_hex("cursor"))
            self._palette[(colour, cursor)] = style
        return style

    def _line(self, y: int, width: int) -> Iterable[Segment]:
        dim = self._paint("#dim")
        rows = len(self._chars)
        columns = width - LANE_LABEL_WIDTH
        if y == 0:  # the title
            yield Segment(" " * LANE_LABEL_WIDTH, self._paint(""))
            yield Segment(self.title[:max(0, columns)], dim if rows else dim + Style(italic=True))
            return
        if not rows:
            return
        row = y - 1
        if row >= rows:  # the x axis
            yield Segment(" " * (LANE_LABEL_WIDTH - 1) + "└", dim)
            yield from self._x_axis(columns, dim)
            return
        yield Segment(self._gutter[row], dim)
        yield from self._row(row, width)

    def _row(self, row: int, width: int) -> list[Segment]:
        """The segments of data row ``row`` (runs of one style)."""
        columns = width - LANE_LABEL_WIDTH
        chars, colours = self._chars[row], self._colours[row]
        label = self._labels.get(row)
        label_start = columns - len(label[0]) if label else columns
        cursor = self._cursor_column
        out: list[Segment] = []
        run_start, run_key = 0, ("", False)
        for column in range(columns + 1):
            if column == columns:
                key = ("#end", False)
            elif column >= label_start and label is not None:  # a line's label: never the cursor's
                key = (label[1], False)
            else:  # the cursor marks the data points of its column
                colour = colours[column]
                key = (colour, column == cursor and colour in LAYERS)
            if key != run_key:
                if column > run_start:
                    text = "".join(
                        label[0][c - label_start] if label is not None and c >= label_start else chars[c]
                        for c in range(run_start, column)
                    )
                    out.append(Segment(text, self._paint(*run_key)))
                run_start, run_key = column, key
        return out

    def _x_axis(self, columns: int, style: Style) -> Iterable[Segment]:
        """The axis line with its ticks' labels, and ▲ under the cursor (or its label cell
        reversed)."""
        line = ["─"] * columns
        ticks = (time_ticks if self._scale.wall_clock else request_ticks)(self._scale, 12)
        free = 0
        for dot, label in ticks:
            start = min(dot // 2, columns - len(label))
            if start < free or start < 0:
                continue
            line[start:start + len(label)] = label
            free = start + len(label) + 1
        cursor = self._cursor_column
        if not 0 <= cursor < columns:
            yield Segment("".join(line), style)
            return
        yield Segment("".join(line[:cursor]), style)
        if line[cursor] == "─":
            yield Segment("▲", self._paint("pointer!"))
        else:  # on a tick's label: the label's cell stands out instead
            yield Segment(line[cursor], self._paint("pointer!") + Style(reverse=True))
        yield Segment("".join(line[cursor + 1:]), style)


def _y_top(scope: ScopeSnapshot, series: TimelineSeries) -> int:
    """The y axis's top: the data and the lines in view, with headroom, rounded up (so the scale
    changes only when the data passes it)."""
    t = scope.thresholds
    data_top = max(max(series.context, default=0), max(series.reported, default=0), t.trigger)
    if scope.lens == "pipeline":
        data_top = max(data_top, min(max(series.stored, default=0), t.limit or data_top))
    top = min(t.limit, data_top) * 1.1 if t.limit else data_top * 1.1
    return nice_ceiling(max(1.0, top), TOP_STEPS)


def cursor_column(series: TimelineSeries, cursor: int, dots: list[int], scale: XScale) -> int:
    """The cell column of request ``cursor`` (-1 when the series has no such request)."""
    if not 0 <= cursor < series.count:
        return -1
    if not scale.wall_clock:
        return scale.dot(cursor) // 2
    bucket = series.bucket_of(cursor)
    return dots[bucket] // 2 if bucket < len(dots) else -1


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
        self._styles: dict[str, Style] = {}
        """Component styles by name (reset when the styles change)."""

    def show(self, scope: ScopeSnapshot | None, cursor: int, generation: int = 0) -> None:
        if scope is self._scope and cursor == self._cursor:
            return
        self._scope, self._cursor, self._generation = scope, cursor, generation
        if scope is not None and scope.records:
            self.series.update(scope, generation)
            self._fit_height(len(self.lanes_for(self.series, scope.agent_thresholds)) + 1)
        self.refresh()

    def _style(self, name: str) -> Style:
        style = self._styles.get(name)
        if style is None:
            style = self._styles[name] = self.get_component_rich_style(f"lanes--{name}", partial=True)
        return style

    def notify_style_update(self) -> None:
        super().notify_style_update()
        self._styles = {}

    def render(self) -> Text:
        scope = self._scope
        width = self.size.width
        if scope is None or not scope.records:
            return Text("stage lanes appear with the first model call", style="dim")
        series = self.series
        series.update(scope, self._generation)
        columns = max(1, width - LANE_LABEL_WIDTH)
        scale = series.scale(2 * columns)
        dots = series.dots(scale)
        placed = [d // 2 for d in dots]
        cursor = cursor_column(series, self._cursor, dots, scale)
        recorded = scope.agent_thresholds
        lines = [
            self._lane(stage, series, placed, columns, cursor, scale.wall_clock, recorded)
            for stage in self.lanes_for(series, recorded)
        ]
        lines.append(self._caption(scope.records, width, recorded))
        return Text("\n").join(lines)

    @staticmethod
    def lanes_for(series: TimelineSeries, recorded: bool = False) -> list[Stage]:
        """The four stages, plus turn fitting (and any other stage) where it ran in this scope; in
        the recorded lens the agent's two (:data:`AGENT_LANES`)."""
        if recorded:
            return list(AGENT_LANES)
        return [
            stage for stage in (*STAGE_LABELS, *(s for s in Stage if s not in STAGE_LABELS))
            if stage in ALWAYS_SHOWN or max(series.freed[stage], default=NONE) >= 0
        ]

    def _fit_height(self, lines: int) -> None:
        if self.styles.height is None or self.styles.height.value != lines:
            self.styles.height = lines

    def _lane(
        self, stage: Stage, series: TimelineSeries, placed: list[int], columns: int, cursor: int,
        wall_clock: bool, recorded: bool,
    ) -> Text:
        out = Text(no_wrap=True, end="")
        label = AGENT_LANES[stage] if recorded else stage_label(stage)
        out.append(label[: LANE_LABEL_WIDTH - 1].ljust(LANE_LABEL_WIDTH), self._style("label"))
        per_column = [_NO_REQUEST] * columns
        for value, column in zip(series.freed[stage], placed, strict=True):
            if value > per_column[column]:
                per_column[column] = value
        if not wall_clock:  # few requests over many columns: a column shows the request before it
            last = placed[-1] if placed else -1
            for column in range(1, last):
                if per_column[column] == _NO_REQUEST:
                    per_column[column] = per_column[column - 1]
        peak = series.peak_freed[stage]
        ran = self._style(stage.value)
        idle = self._style("idle")
        cursor_style = self._style("cursor")
        run: list[str] = []
        run_style = Style.null()
        for column, value in enumerate(per_column):
            if value == _NO_REQUEST:
                char, style = " ", Style.null()
            elif value < 0:
                char, style = "·", idle
            elif value == 0 or peak <= 0:
                char, style = "▁", ran
            else:
                char = SHADES[min(len(SHADES) - 1, max(0, math.ceil(value / peak * len(SHADES)) - 1))]
                style = ran
            if column == cursor:
                style = style + cursor_style
            if style is not run_style and run:
                out.append("".join(run), run_style)
                run = []
            run_style = style
            run.append(char)
        out.append("".join(run), run_style)
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
            name = AGENT_ACTIONS.get(run.stage, stage_name(run.stage)) if recorded else stage_name(run.stage)
            out.append(name, self._style(run.stage.value))
            out.append(f" −{fmt.tokens(run.tokens_freed)}")
            if run.items:
                out.append(f" ({run.items} item{'s' if run.items != 1 else ''})", "dim")
        if record.summary is not None:
            words = "  ◆ summary (Enter)" if record.source else "  ◆ what-if summary"
            out.append(words, self._style("summarize"))
        return out


_NO_REQUEST: Final = -2
"""A lane column no request falls in (below :data:`~ctxscope.core.timeline_series.NONE`)."""
