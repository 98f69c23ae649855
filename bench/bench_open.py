#!/usr/bin/env python3
"""``ctxscope open`` against ``ctxscope report --json`` and the bare ``orjson.loads`` loop, same file.

For each synthetic Claude Code log (``bench_reader.synthesize``, in a temporary folder, deleted
afterwards) three whole processes run, alternating, best of ``--repeat``:

* **ceiling** — a bare ``orjson.loads`` loop over the file's lines (``bench_reader._ceiling``);
* **report** — ``ctxscope report --json FILE`` (the recorded lens);
* **open** — the dashboard headless (``App.run_test``, 160×48) on the file in offline mode; the child
  reports the time to the first screen that shows a request, the time until the last snapshot
  (``done``) is on screen, how often the timeline was replotted (and how many of those redrew it
  whole) and the seconds spent replotting and drawing its lines.

Figures are ratios to the same run's baselines (open / report, report / ceiling) and seconds per MB,
so a busy machine moves numerator and denominator alike.

    python bench/bench_open.py                  # 30 and 200 MB
    python bench/bench_open.py --sizes 30 --repeat 1 --json
"""

from __future__ import annotations

import argparse
import asyncio
import json
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

PROCESS_START = time.perf_counter()
"""The child's clock starts before it imports ctxscope (as ``report``'s whole process does)."""

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_reader import _ceiling, synthesize  # noqa: E402


def _ctxscope() -> str:
    found = Path(sys.executable).with_name("ctxscope")
    return str(found) if found.exists() else shutil.which("ctxscope") or "ctxscope"


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
            self.app.call_after_refresh(lambda: marks.__setitem__("done", time.perf_counter()))

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
        "replots": replots,
        "full_redraws": full_redraws,
        "snapshots": snapshots,
        **spent,
    }


def _child(mode: str, path: str) -> dict[str, Any]:
    if mode == "ceiling":
        return {"seconds": _ceiling(path)}
    return asyncio.run(_open_headless(path))


def _run(mode: str, path: Path) -> dict[str, Any]:
    started = time.perf_counter()
    if mode == "report":
        subprocess.run([_ctxscope(), "report", "--json", str(path)], check=True, stdout=subprocess.DEVNULL)
        return {"seconds": time.perf_counter() - started}
    out = subprocess.run(
        [sys.executable, __file__, "--child", mode, str(path)], check=True, capture_output=True, text=True
    )
    result: dict[str, Any] = json.loads(out.stdout.strip().splitlines()[-1])
    result["process_s"] = time.perf_counter() - started
    return result


def measure(path: Path, repeat: int) -> dict[str, Any]:
    size_mb = path.stat().st_size / (1 << 20)
    runs: dict[str, list[dict[str, Any]]] = {"ceiling": [], "report": [], "open": []}
    for _ in range(max(1, repeat)):
        for mode in runs:  # alternating: a busy spell hits every mode alike
            runs[mode].append(_run(mode, path))
    ceiling = min(r["seconds"] for r in runs["ceiling"])
    report = min(r["seconds"] for r in runs["report"])
    best_open = min(runs["open"], key=lambda r: r["open_s"])
    return {
        "size_mb": round(size_mb, 1),
        "ceiling_s": round(ceiling, 2),
        "report_s": round(report, 2),
        "open_s": round(best_open["open_s"], 2),
        "first_screen_s": round(best_open["first_screen_s"], 2),
        "open_times_report": round(best_open["open_s"] / report, 2),
        "report_times_ceiling": round(report / ceiling, 2),
        "open_ms_per_mb": round(1000 * best_open["open_s"] / size_mb, 1),
        "report_ms_per_mb": round(1000 * report / size_mb, 1),
        "replots": best_open["replots"],
        "full_redraws": best_open["full_redraws"],
        "snapshots": best_open["snapshots"],
        "timeline_s": round(best_open["replot_s"] + best_open["render_s"], 2),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[30, 200], help="log sizes in MB")
    parser.add_argument("--repeat", type=int, default=2, help="runs per mode (best is kept)")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--child", nargs=2, metavar=("MODE", "PATH"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        print(json.dumps(_child(*args.child)))
        return 0
    rows = []
    with tempfile.TemporaryDirectory(prefix="ctxscope-bench-open-") as folder:
        for size in args.sizes:
            path = synthesize(Path(folder) / f"synthetic-{size}mb.jsonl", size)
            rows.append(measure(path, args.repeat))
            path.unlink()
    if args.json:
        print(json.dumps(rows, indent=2))
        return 0
    print(f"{'MB':>6} {'open/report':>11} {'report/ceiling':>14} {'first screen':>12} "
          f"{'open ms/MB':>10} {'report ms/MB':>12} {'replots':>7} {'full':>4} {'timeline s':>10}")
    for r in rows:
        print(f"{r['size_mb']:>6} {r['open_times_report']:>11} {r['report_times_ceiling']:>14} "
              f"{r['first_screen_s']:>11}s {r['open_ms_per_mb']:>10} {r['report_ms_per_mb']:>12} "
              f"{r['replots']:>7} {r['full_redraws']:>4} {r['timeline_s']:>10}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
