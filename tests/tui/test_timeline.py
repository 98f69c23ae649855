"""The timeline plot as drawn: line labels, compaction marks, the wall-clock axis, 80 columns,
hostile figures, and that a growing log redraws only the columns that changed."""

from __future__ import annotations

import dataclasses

import pytest
from ctxscope.core.snapshot import AgentCompaction, ScopeSnapshot, Thresholds
from ctxscope.tui.widgets.timeline import COLORS, StageLanes, TimelinePlot
from rich.color import Color
from textual.widgets import Footer

from . import fakes
from .conftest import MockApp, detail_shown, until


@pytest.fixture(autouse=True)
def _replot_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """New data is drawn on the snapshot that brings it (no rate-limit timer to wait for)."""
    monkeypatch.setattr(TimelinePlot, "REPLOT_INTERVAL", 0.0)


def lines(plot: TimelinePlot) -> list[str]:
    return [plot.render_line(y).text for y in range(plot.size.height)]


def colour_at(plot: TimelinePlot, y: int, x: int) -> Color | None:
    """The foreground colour of cell ``x`` of line ``y``."""
    at = 0
    for segment in plot.render_line(y):
        if at + len(segment.text) > x:
            return segment.style.color if segment.style else None
        at += len(segment.text)
    return None


def recorded(scope: ScopeSnapshot) -> ScopeSnapshot:
    """The scope in the recorded lens (the agent's stages only)."""
    records = tuple(dataclasses.replace(r, stages=(), summary=None) for r in scope.records)
    return dataclasses.replace(scope, lens="recorded", records=records)


def timed(scope: ScopeSnapshot, seconds: int = 90) -> ScopeSnapshot:
    """Records ``seconds`` apart from 2026-12-01 10:00 UTC."""
    records = tuple(
        dataclasses.replace(r, timestamp=f"2026-12-01T{10 + r.index * seconds // 3600:02d}:"
                                         f"{r.index * seconds // 60 % 60:02d}:00Z")
        for r in scope.records
    )
    return dataclasses.replace(scope, records=records)


def compaction(request: int) -> AgentCompaction:
    return AgentCompaction(request=request, kind="summary", trigger="auto", tokens_before=300_000,
                           tokens_after=90_000, summary_tokens=2_000, kept_tokens=0, summary_text="")


async def test_lines_keep_their_labels_after_the_y_axis_rescales() -> None:
    """80×24: the budget and trigger lines are labelled (on one row, one label); when the data
    passes the top and the axis rescales, they still are (see also test_narrow_layout)."""
    app = MockApp(fakes.session(fakes.scope(1)))
    async with app.run_test(size=(80, 24)) as pilot:
        await detail_shown(pilot)
        plot = app.query_one(TimelinePlot)
        low = Thresholds(budget=90_000, trigger=80_000, target=60_000, limit=1_000_000)
        scope = dataclasses.replace(fakes.scope(40), thresholds=low)
        figures = tuple(dataclasses.replace(r, calibrated_tokens=5_000 * r.index) for r in scope.records)
        app.post_message(fakes.update(fakes.session(dataclasses.replace(scope, records=figures[:20]))))
        await pilot.pause()
        top = plot._top
        assert "budget 90.0k · trigger 80.0k" in "\n".join(lines(plot))  # one row: one label
        app.post_message(fakes.update(fakes.session(dataclasses.replace(scope, records=figures))))
        await pilot.pause()
        assert plot._top > top  # rescaled
        text = "\n".join(lines(plot))
        assert "budget 90.0k" in text and "trigger 80.0k" in text


async def test_agent_compactions_are_marked_at_their_request() -> None:
    """Recorded lens: a cyan dotted line at the request after each agent compaction; the legend
    names it; the agent's auto-compact line carries the recorded lens's name."""
    scope = recorded(dataclasses.replace(fakes.scope(40), agent_compactions=(compaction(25),)))
    app = MockApp(fakes.session(scope))
    async with app.run_test(size=(160, 48)) as pilot:
        await detail_shown(pilot)
        plot = app.query_one(TimelinePlot)
        x = 12 + plot._scale.dot(25) // 2
        cyan = Color.from_rgb(*COLORS["observed"])
        rows = [y for y in range(1, plot.size.height - 1) if colour_at(plot, y, x) == cyan]
        assert len(rows) >= plot.size.height // 2  # a line down the plot, where the data is not
        others = [y for y in range(1, plot.size.height - 1) for col in range(13, plot.size.width)
                  if col != x and colour_at(plot, y, col) == cyan]
        assert not others
        text = "\n".join(lines(plot))
        assert "auto-compact 320k" in text and "budget" not in text  # the window (1M) is above the top
        assert "agent compaction" in str(app.query_one("#timeline-pane").border_subtitle)


async def test_t_switches_the_x_axis_to_wall_clock_time() -> None:
    """t (the plot focused: its key is in the footer) puts UTC times under the plot; again, back."""
    scope = recorded(timed(fakes.scope(60), seconds=120))
    app = MockApp(fakes.session(scope))
    async with app.run_test(size=(160, 48)) as pilot:
        await detail_shown(pilot)
        plot = app.query_one(TimelinePlot)
        assert plot.has_focus
        assert app.screen.active_bindings["t"].binding.description == "Time axis"
        assert app.query_one(Footer).query("FooterKey")  # the footer lists the active keys
        axis = lines(plot)[-1]
        assert "#0" in axis and "x: request number" in lines(plot)[0]
        await pilot.press("t")
        top, axis = lines(plot)[0], lines(plot)[-1]
        assert "x: wall-clock time, UTC, from 2026-12-01 10:00" in top
        assert "10:30" in axis and "11:00" in axis and "#0" not in axis  # 60 calls, 2 minutes apart
        assert app.query_one(StageLanes).series.wall_clock
        await pilot.press("t")
        assert "#0" in lines(plot)[-1]


async def test_wall_clock_asked_of_a_log_without_timestamps_says_so() -> None:
    app = MockApp(fakes.session(recorded(fakes.scope(30))))
    async with app.run_test(size=(120, 40)) as pilot:
        await detail_shown(pilot)
        await pilot.press("t")
        plot = app.query_one(TimelinePlot)
        assert "no timestamps in the log" in lines(plot)[0]
        assert "#0" in lines(plot)[-1]  # still the request axis


@pytest.mark.parametrize(("size", "rows"), [((80, 24), 10), ((160, 48), 17)])
async def test_the_plot_has_a_usable_height(size: tuple[int, int], rows: int) -> None:
    """80×24 (one pane at a time) and 160×48: rows of data, y ticks in tokens, x ticks."""
    app = MockApp(fakes.session(recorded(fakes.scope(40, summary_every=15))))
    async with app.run_test(size=size) as pilot:
        await detail_shown(pilot)
        plot = app.query_one(TimelinePlot)
        drawn = lines(plot)
        assert plot.size.height - 2 >= rows, drawn
        assert all(len(line) == plot.size.width for line in drawn)
        ticks = [line[:12].strip() for line in drawn[1:-1] if line[11] == "┤"]
        assert len(ticks) >= 3 and ticks[-1] == "0┤" and any(t.endswith("k┤") for t in ticks)
        assert drawn[-1].startswith(" " * 11 + "└#0") and "#40" in drawn[-1]


async def test_a_growing_log_redraws_only_the_new_columns() -> None:
    """One more request: the newest columns are recomputed, not the plot; a rescale redraws it."""
    scope = fakes.scope(400)
    app = MockApp(fakes.session(dataclasses.replace(scope, records=scope.records[:280])))
    async with app.run_test(size=(160, 48)) as pilot:
        await detail_shown(pilot)
        plot = app.query_one(TimelinePlot)
        columns = plot.size.width - 12
        full, drawn = plot.full_redraws, plot.columns_drawn
        for count in range(281, 300):
            grown = dataclasses.replace(scope, records=scope.records[:count])
            app.post_message(fakes.update(fakes.session(grown)))
            await pilot.pause()
        assert plot.full_redraws == full
        assert plot.columns_drawn - drawn <= 19 * 3  # a column or two per request
        app.post_message(fakes.update(fakes.session(scope)))  # past the x axis's extent
        await pilot.pause()
        assert plot.full_redraws == full + 1 and plot.columns_drawn - drawn >= columns


@pytest.mark.parametrize("count", [0, 1, 2])
async def test_empty_and_tiny_sessions(count: int) -> None:
    app = MockApp(fakes.session(fakes.scope(count)))
    async with app.run_test(size=(80, 24)) as pilot:
        await detail_shown(pilot)
        drawn = lines(app.query_one(TimelinePlot))
        if count == 0:
            assert "no model call yet" in drawn[0]
        else:
            assert drawn[-1].startswith(" " * 11 + "└#0")


async def test_hostile_figures_draw_within_the_plot() -> None:
    """Token counts of 10**12 (the upstream clamp) and a window of 10**12: labels fit the gutter."""
    huge = Thresholds(budget=10**12, trigger=9 * 10**11, target=5 * 10**11, limit=10**12)
    scope = fakes.scope(30)
    records = tuple(dataclasses.replace(r, calibrated_tokens=10**12 - i, stored_tokens=10**12)
                    for i, r in enumerate(scope.records))
    app = MockApp(fakes.session(dataclasses.replace(scope, records=records, thresholds=huge)))
    async with app.run_test(size=(80, 24)) as pilot:
        await detail_shown(pilot)
        plot = app.query_one(TimelinePlot)
        drawn = lines(plot)
        assert all(len(line) == plot.size.width for line in drawn)
        assert "limit" in "\n".join(drawn)


async def test_what_if_summaries_are_marked_in_the_pipeline_lens() -> None:
    """Pipeline lens: a magenta dotted line where the pipeline would summarise (#15, #30); the
    stored history and the agent's reported figure are drawn beside the request sent."""
    app = MockApp(fakes.session(fakes.scope(40, summary_every=15)))
    async with app.run_test(size=(160, 48)) as pilot:
        await detail_shown(pilot)
        plot = app.query_one(TimelinePlot)
        magenta = Color.from_rgb(*COLORS["summary"])
        marked = {x for y in range(1, plot.size.height - 1) for x in range(12, plot.size.width)
                  if colour_at(plot, y, x) == magenta}
        assert marked == {12 + plot._scale.dot(15) // 2, 12 + plot._scale.dot(30) // 2}
        colours = {colour_at(plot, y, x) for y in range(1, plot.size.height - 1)
                   for x in range(12, plot.size.width)}
        for name in ("sent", "stored", "reported"):
            assert Color.from_rgb(*COLORS[name]) in colours, name


async def test_a_log_read_from_its_start_keeps_its_x_axis() -> None:
    """While a log is read from its start, the x axis spans the requests the unread share of the
    file suggests: it does not rescale (and redraw the whole plot) at every snapshot."""
    from ctxscope.tui.messages import Mode, SnapshotUpdated, TailStatus

    scope = fakes.scope(400)
    app = MockApp()
    async with app.run_test(size=(160, 48)) as pilot:
        plot = app.query_one(TimelinePlot)
        size = 4_000_000
        extents = []
        for count in (40, 80, 120, 160, 200):
            status = TailStatus(Mode.OFFLINE, bytes_read=size * count // 400, size=size, done=False)
            grown = dataclasses.replace(scope, records=scope.records[:count])
            app.post_message(SnapshotUpdated(fakes.session(grown), status, 0))
            await pilot.pause()
            extents.append(plot._scale.extent)
        assert extents == [400] * 5
        assert "#400" in lines(plot)[-1]
        done = TailStatus(Mode.OFFLINE, bytes_read=size, size=size, done=True)
        app.post_message(SnapshotUpdated(fakes.session(scope), done, 0))
        await pilot.pause()
        assert plot._scale.extent == 400  # read through: 400 requests, as projected


async def test_no_auto_compact_line_when_the_agents_trigger_is_unknown() -> None:
    """Recorded lens of an agent whose auto-compaction trigger is unknown (Gemini CLI): the window
    stands in for the trigger, so the plot labels the window only, never ``window = auto-compact``
    (the meter says no trigger is known); a window that is only ctxscope's default is named so,
    as in the meter."""
    low = Thresholds(budget=200_000, trigger=200_000, target=150_000, limit=200_000)
    scope = dataclasses.replace(recorded(fakes.scope(20)), thresholds=low, trigger_known=False)
    app = MockApp(fakes.session(scope))
    async with app.run_test(size=(160, 48)) as pilot:
        await detail_shown(pilot)
        text = "\n".join(lines(app.query_one(TimelinePlot)))
        assert "window 200k" in text
        assert "auto-compact" not in text and "default window" not in text
        unknown = dataclasses.replace(scope, window_known=False)  # ctxscope's default window
        app.post_message(fakes.update(fakes.session(unknown), generation=1))
        await until(pilot, lambda: "default window 200k" in "\n".join(lines(app.query_one(TimelinePlot))))
