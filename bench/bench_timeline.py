#!/usr/bin/env python3
"""The timeline's cost per update on a long session, as ratios to baselines in the same process.

A scope of ``--requests`` synthetic request records (60,000 by default: about what a 1 GB Claude
Code log made by ``bench_reader.synthesize`` holds) is fed to the dashboard's timeline (the plot and
the stage lanes, headless, 160×48) the way a log being read feeds it: ``--snapshots`` growing
snapshots (with the share of the log read, as the app passes it), then ``--appends`` snapshots one
request longer each (a live log). Every update is
drawn (the rate limit is off), and for each the time of the replot plus the lines it repainted
is taken. Figures:

* **append / full** — one appended request against a full redraw of the same plot (a resize):
  the plot recomputes only the columns that changed;
* **append / pass** — against one Python pass over the scope's records (``sum`` of their figures):
  below 1 means an update does not walk the requests;
* **read / pass** — a snapshot of the read-through (1/``--snapshots`` of the log each) against the
  same pass (it takes in the new records, so it grows with the batch, not with the session);
* memory — the buckets the series keeps, and their bytes, after ``--requests`` (bounded).

    python bench/bench_timeline.py
    python bench/bench_timeline.py --requests 300000 --json
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import time
from typing import Any

from ctxscope.core.model import ScopeHeader
from ctxscope.core.snapshot import (
    AgentCompaction,
    RequestRecord,
    ScopeSnapshot,
    Stage,
    StageRun,
    Thresholds,
)
from ctxscope.tui.messages import Mode, TailStatus
from ctxscope.tui.widgets.timeline import Series, StageLanes, TimelinePlot
from textual.app import App, ComposeResult

THRESHOLDS = Thresholds(budget=160_000, trigger=167_000, target=120_000, limit=200_000)


def records(count: int) -> list[RequestRecord]:
    """A long session: context grows by a few thousand tokens a call, the agent compacts every
    150 calls, clears old tool results now and then; timestamps 20 s apart."""
    out = []
    context = 20_000
    for i in range(count):
        context = 30_000 if i % 150 == 149 else context + 900 + (i * 7919) % 1_500
        stages = (StageRun(Stage.CLEAR_TOOL_RESULTS, 3, 4_000 + i % 9_000),) if i % 40 == 39 else ()
        seconds = 20 * i
        out.append(RequestRecord(
            scope_id="main", index=i, message_count=2 * i + 3, stored_tokens=context + 40 * i,
            sent_tokens=context, calibrated_tokens=context, reported_tokens=context,
            reported_cached_tokens=None, cached_prefix_tokens=0, stages=stages, summary=None,
            over_limit=False, refused=False, fate_counts={}, by_category={}, by_tool={},
            source="reported",
            timestamp=f"2026-02-{12 + seconds // 86_400:02d}T{seconds // 3600 % 24:02d}:"
                      f"{seconds // 60 % 60:02d}:{seconds % 60:02d}Z",
        ))
    return out


def scope_of(recs: list[RequestRecord], count: int) -> ScopeSnapshot:
    compactions = tuple(
        AgentCompaction(request=i, kind="summary", trigger="auto", tokens_before=None,
                        tokens_after=None, summary_tokens=0, kept_tokens=0, summary_text="")
        for i in range(150, count, 150)
    )
    return ScopeSnapshot(
        header=ScopeHeader("main", session_id="bench"), thresholds=THRESHOLDS,
        records=tuple(recs[:count]), observed=(), stored_messages=0, calibration_factor=1.0,
        lens="recorded", agent_compactions=compactions,
    )


class TimelineApp(App[None]):
    def compose(self) -> ComposeResult:
        series = Series()
        yield TimelinePlot(series=series)
        yield StageLanes(series=series)


async def measure(count: int, snapshots: int, appends: int) -> dict[str, Any]:
    recs = records(count)
    TimelinePlot.REPLOT_INTERVAL = 0.0
    spent = {"s": 0.0}

    def timed(method: Any) -> Any:
        def wrapper(*args: Any) -> Any:
            started = time.perf_counter()
            out = method(*args)
            spent["s"] += time.perf_counter() - started
            return out
        return wrapper

    # The plot's replot (series update, changed columns) and every line it repaints; the lanes.
    TimelinePlot._replot = timed(TimelinePlot._replot)  # type: ignore[method-assign]
    TimelinePlot.render_line = timed(TimelinePlot.render_line)  # type: ignore[method-assign]
    StageLanes.render = timed(StageLanes.render)  # type: ignore[method-assign]
    app = TimelineApp()
    async with app.run_test(size=(160, 48)) as pilot:
        plot, lanes = app.query_one(TimelinePlot), app.query_one(StageLanes)

        async def update(scope: ScopeSnapshot, read: int = 1, size: int = 1) -> float:
            """Show ``scope`` with ``read`` of ``size`` units of the log read (as the app does)."""
            spent["s"] = 0.0
            status = TailStatus(Mode.OFFLINE, bytes_read=read, size=size, done=read >= size)
            plot.show(scope, len(scope.records) - 1, 0, status)
            lanes.show(scope, len(scope.records) - 1)
            await pilot.pause()  # the repaint of what the update refreshed
            return spent["s"]

        read_costs = []
        body = count - appends
        for k in range(1, snapshots + 1):
            read_costs.append(await update(scope_of(recs, body * k // snapshots), k, snapshots))
        read_full = plot.full_redraws
        full_before = plot.full_redraws
        append_costs = [await update(scope_of(recs, n)) for n in range(body + 1, count + 1)]
        rescaled = plot.full_redraws - full_before
        whole = scope_of(recs, count)
        full_costs = []
        for width in (159, 160, 159, 160):  # a resize redraws every column
            spent["s"] = 0.0
            await pilot.resize_terminal(width, 48)
            await pilot.pause()
            full_costs.append(spent["s"])
        started = time.perf_counter()
        for _ in range(5):
            sum(r.context_tokens + r.stored_tokens for r in whole.records)
        one_pass = (time.perf_counter() - started) / 5
        series = plot.series
        memory = sum(column.itemsize * len(column) for column in
                     (series.context, series.stored, series.reported, series.times, *series.freed.values()))
        memory += len(series.marks)
    append = statistics.median(append_costs)
    full = statistics.median(full_costs)
    read = statistics.median(read_costs)
    return {
        "requests": count,
        "snapshots": snapshots,
        "appends": appends,
        "append_ms": round(1000 * append, 3),
        "full_redraw_ms": round(1000 * full, 2),
        "read_snapshot_ms": round(1000 * read, 2),
        "one_pass_ms": round(1000 * one_pass, 2),
        "append_over_full": round(append / full, 3),
        "append_over_pass": round(append / one_pass, 4),
        "read_over_pass": round(read / one_pass, 3),
        "rescales_during_appends": rescaled,
        "full_redraws_while_reading": read_full,
        "buckets": len(series),
        "step": series.step,
        "series_bytes": memory,
        "columns_drawn": plot.columns_drawn,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--requests", type=int, default=60_000)
    parser.add_argument("--snapshots", type=int, default=257, help="growing snapshots while reading")
    parser.add_argument("--appends", type=int, default=200, help="one-request appends afterwards")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    result = asyncio.run(measure(args.requests, args.snapshots, min(args.appends, args.requests - 1)))
    if args.json:
        print(json.dumps(result, indent=2))
        return 0
    print(f"timeline, {result['requests']:,} requests, 160×48 "
          f"({result['buckets']} buckets of {result['step']}, {result['series_bytes'] / 1024:.0f} KB)")
    print(f"  append one request   {result['append_ms']:>9} ms   "
          f"{result['append_over_full']:>7} × a full redraw ({result['full_redraw_ms']} ms), "
          f"{result['append_over_pass']} × one pass over the records ({result['one_pass_ms']} ms)")
    print(f"  read-through update  {result['read_snapshot_ms']:>9} ms   "
          f"{result['read_over_pass']:>7} × one pass over the records")
    print(f"  full redraws while reading: {result['full_redraws_while_reading']} of {result['snapshots']}"
          f" snapshots; during {result['appends']} appends: {result['rescales_during_appends']}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
