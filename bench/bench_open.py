#!/usr/bin/env python3
"""``ctxscope open`` against ``ctxscope report --json`` and the bare ``orjson.loads`` loop, same file.

For each synthetic Claude Code log (``bench_reader.synthesize``, in a temporary folder, deleted
afterwards) three whole processes run, alternating, ``--repeat`` rounds (the median is kept):

* **ceiling** — a bare ``orjson.loads`` loop over the file's lines (``bench_reader._ceiling``);
* **report** — ``ctxscope report --json FILE`` (the recorded lens);
* **open** — the dashboard headless (``App.run_test``, 160×48) on the file in offline mode; the child
  reports the time to the first screen that shows a request, the time until the last snapshot
  (``done``) is on screen, how often the timeline was replotted (and how many of those redrew it
  whole) and the seconds spent replotting and drawing its lines.

With ``--no-open`` only the first two run (report ÷ ceiling, the report's milliseconds per MB).

Figures are ratios to the same run's baselines (open / report, report / ceiling) and seconds per MB,
so a busy machine moves numerator and denominator alike; each ratio is given in elapsed seconds and
in CPU seconds (user + system of the process: for ``open`` until the last snapshot is on screen),
which a machine shared with other work disturbs far less. ctxscope's modules are compiled to
bytecode first (:func:`bench_reader.installed_bytecode`), as an installed ctxscope has them.

    python bench/bench_open.py                  # 30 and 200 MB, 3 rounds
    python bench/bench_open.py --sizes 30 --repeat 1 --json
    python bench/bench_open.py --sizes 200 1024 --repeat 3 --no-open
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

PROCESS_START = time.perf_counter()
"""The child's clock starts before it imports ctxscope (as ``report``'s whole process does)."""

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_reader import cpu_ceiling, each_synthetic, installed_bytecode, report_process  # noqa: E402


async def _open_headless(path: str) -> dict[str, Any]:
    """Run the dashboard on ``path`` offline; time the first full screen and the end of reading
    (from the child's start, imports included)."""
    from ctxscope.tui.app import CtxscopeApp, DashboardOptions, DashboardScreen
    from ctxscope.tui.messages import Mode
    from ctxscope.tui.widgets.timeline import TimelinePlot

    spent = {"replot_s": 0.0, "render_s": 0.0}
    marks: dict[str, float] = {}
    replot, render, apply = TimelinePlot._replot, TimelinePlot.render_line, DashboardScreen.apply_snapshot

    def timed_replot(self: TimelinePlot) -> None:
        t = time.perf_counter()
        replot(self)
        spent["replot_s"] += time.perf_counter() - t

    def timed_render(self: TimelinePlot, y: int) -> Any:
        t = time.perf_counter()
        out = render(self, y)
        spent["render_s"] += time.perf_counter() - t
        return out

    def marked_apply(self: DashboardScreen, message: Any) -> None:
        apply(self, message)
        # The mark is taken after the next screen refresh: the snapshot is painted by then.
        if message.snapshot.scopes and "first" not in marks:
            marks["first"] = 0.0
            self.app.call_after_refresh(lambda: marks.__setitem__("first", time.perf_counter()))
        if message.status.done and "done" not in marks:
            marks["done"] = 0.0

            def done() -> None:
                marks["done"] = time.perf_counter()
                marks["done_cpu"] = time.process_time()

            self.app.call_after_refresh(done)

    TimelinePlot._replot = timed_replot  # type: ignore[method-assign]
    TimelinePlot.render_line = timed_render  # type: ignore[method-assign]
    DashboardScreen.apply_snapshot = marked_apply  # type: ignore[method-assign]
    started = PROCESS_START
    app = CtxscopeApp(DashboardOptions(path, mode=Mode.OFFLINE))
    async with app.run_test(size=(160, 48)):
        while not marks.get("done"):
            await asyncio.sleep(0.01)
        plot = app.dashboard.query_one(TimelinePlot)
        replots, full_redraws = plot.replots, plot.full_redraws
        snapshots = app.tailer.snapshots_posted if app.tailer else 0
    return {
        "first_screen_s": marks["first"] - started,
        "open_s": marks["done"] - started,
        "open_cpu_s": marks["done_cpu"],
        "replots": replots,
        "full_redraws": full_redraws,
        "snapshots": snapshots,
        **spent,
    }


def _child(mode: str, path: str) -> dict[str, Any]:
    if mode == "ceiling":
        seconds, cpu = cpu_ceiling(path)
        return {"seconds": seconds, "cpu_s": cpu}
    return asyncio.run(_open_headless(path))


def _run(mode: str, path: Path) -> dict[str, Any]:
    started = time.perf_counter()
    if mode == "report":
        seconds, cpu = report_process(path)
        return {"seconds": seconds, "cpu_s": cpu}
    out = subprocess.run(
        [sys.executable, __file__, "--child", mode, str(path)], check=True, capture_output=True, text=True
    )
    result: dict[str, Any] = json.loads(out.stdout.strip().splitlines()[-1])
    result["process_s"] = time.perf_counter() - started
    return result


def measure(path: Path, repeat: int, with_open: bool = True) -> dict[str, Any]:
    size_mb = path.stat().st_size / (1 << 20)
    runs: dict[str, list[dict[str, Any]]] = {"ceiling": [], "report": []}
    if with_open:
        runs["open"] = []
    for _ in range(max(1, repeat)):
        for mode in runs:  # alternating: a busy spell hits every mode alike
            runs[mode].append(_run(mode, path))

    def median(mode: str, key: str) -> float:
        return statistics.median(r[key] for r in runs[mode])

    ceiling, ceiling_cpu = median("ceiling", "seconds"), median("ceiling", "cpu_s")
    report, report_cpu = median("report", "seconds"), median("report", "cpu_s")
    row: dict[str, Any] = {
        "size_mb": round(size_mb, 1),
        "rounds": len(runs["report"]),
        "ceiling_s": round(ceiling, 2),
        "report_s": round(report, 2),
        "ceiling_cpu_s": round(ceiling_cpu, 2),
        "report_cpu_s": round(report_cpu, 2),
        "report_times_ceiling": round(report / ceiling, 2),
        "report_times_ceiling_cpu": round(report_cpu / ceiling_cpu, 2),
        "report_ms_per_mb": round(1000 * report / size_mb, 1),
        "report_cpu_ms_per_mb": round(1000 * report_cpu / size_mb, 1),
        "load_average": round(os.getloadavg()[0], 1),
    }
    if not with_open:
        return row
    opened, opened_cpu = median("open", "open_s"), median("open", "open_cpu_s")
    typical = sorted(runs["open"], key=lambda r: r["open_s"])[len(runs["open"]) // 2]
    return {
        **row,
        "open_s": round(opened, 2),
        "open_cpu_s": round(opened_cpu, 2),
        "first_screen_s": round(median("open", "first_screen_s"), 2),
        "open_times_report": round(opened / report, 2),
        "open_times_report_cpu": round(opened_cpu / report_cpu, 2),
        "open_ms_per_mb": round(1000 * opened / size_mb, 1),
        "open_cpu_ms_per_mb": round(1000 * opened_cpu / size_mb, 1),
        "replots": typical["replots"],
        "full_redraws": typical["full_redraws"],
        "snapshots": typical["snapshots"],
        "timeline_s": round(typical["replot_s"] + typical["render_s"], 2),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[30, 200], help="log sizes in MB")
    parser.add_argument("--repeat", type=int, default=3, help="rounds of the three modes (median kept)")
    parser.add_argument("--no-open", action="store_true", help="only the loop and the report")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--child", nargs=2, metavar=("MODE", "PATH"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        print(json.dumps(_child(*args.child)))
        return 0
    installed_bytecode()
    rows = [
        measure(path, args.repeat, with_open=not args.no_open)
        for path in each_synthetic(args.sizes, "ctxscope-bench-open-")
    ]
    if args.json:
        print(json.dumps(rows, indent=2))
        return 0
    if args.no_open:
        print(f"{'MB':>6} {'report/ceiling':>14} {'(CPU)':>6} {'report ms/MB':>12} {'(CPU)':>6} {'load':>5}")
        for r in rows:
            print(f"{r['size_mb']:>6} {r['report_times_ceiling']:>14} {r['report_times_ceiling_cpu']:>6} "
                  f"{r['report_ms_per_mb']:>12} {r['report_cpu_ms_per_mb']:>6} {r['load_average']:>5}")
        return 0
    print(f"{'MB':>6} {'open/report':>11} {'(CPU)':>6} {'report/ceiling':>14} {'(CPU)':>6} "
          f"{'first screen':>12} {'open ms/MB':>10} {'(CPU)':>6} {'report ms/MB':>12} {'replots':>7} "
          f"{'full':>4} {'timeline s':>10} {'load':>5}")
    for r in rows:
        print(f"{r['size_mb']:>6} {r['open_times_report']:>11} {r['open_times_report_cpu']:>6} "
              f"{r['report_times_ceiling']:>14} {r['report_times_ceiling_cpu']:>6} "
              f"{r['first_screen_s']:>11}s {r['open_ms_per_mb']:>10} {r['open_cpu_ms_per_mb']:>6} "
              f"{r['report_ms_per_mb']:>12} {r['replots']:>7} "
              f"{r['full_redraws']:>4} {r['timeline_s']:>10} {r['load_average']:>5}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
