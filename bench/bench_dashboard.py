#!/usr/bin/env python3
"""Dashboard benchmark: append-to-screen latency, idle CPU, and keeping up with 1,000 events a second.

Three measurements, all with the real tailer (watchfiles doorbell, byte offsets, core replay):

* **latency** — the app runs headless in this process on a live log; one tool round (three lines:
  a call, its result, the model call) is appended at a time, at random intervals, and the time from
  the append to the first screen refresh that shows the new request is recorded (median, p95).
* **idle CPU** — the real ``ctxscope watch`` runs in a tmux pane on a log nobody writes to; its
  process CPU time (``/proc/PID/stat`` utime + stime) over an idle period, as a share of one core.
* **keep-up** — a writer appends 1,000 lines a second for ``--duration`` seconds while the real
  ``ctxscope watch`` runs in tmux; every second the bench reads, from the pane, the last request
  the dashboard shows and, from ``/proc``, its resident memory. Lag (requests written but not yet
  shown) and memory must not grow without bound; afterwards, how long it takes to catch up.

    python bench/bench_dashboard.py                    # all three (keep-up runs 60 s)
    python bench/bench_dashboard.py --only latency --samples 100
    python bench/bench_dashboard.py --only keepup --duration 20 --json
    python bench/bench_dashboard.py --load 2           # with two CPU-bound processes beside it
    python bench/bench_dashboard.py --only latency --without-timeline   # the timeline's share
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from pathlib import Path
from typing import Any

from ctxscope.core.logformat import SessionLogWriter
from ctxscope.core.model import text_block, tool_call, tool_result

ROOT = Path(__file__).resolve().parents[1]
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


# -- a session to append to ---------------------------------------------------------------------------


def _texts() -> list[str]:
    stdlib = Path(json.__file__).resolve().parents[1]
    names = ("textwrap.py", "shlex.py", "glob.py", "fnmatch.py", "string.py", "heapq.py", "calendar.py")
    return [(stdlib / n).read_text(encoding="utf-8") for n in names if (stdlib / n).exists()]


TEXTS = _texts()


def start_session(path: Path, turns: int, *, limit: int = 200_000, budget: int = 120_000) -> SessionLogWriter:
    log = SessionLogWriter.create(path)
    log.session(session_id="bench", model="claude-opus-4-6", context_limit=limit, budget=budget)
    log.message("system", "You are a careful coding agent.")
    log.message("user", "Read every file and summarise it.")
    for i in range(turns):
        append_turn(log, i)
    return log


def append_turn(log: SessionLogWriter, i: int, size: int = 1_500) -> None:
    """Three lines: a tool call, its result (real source text), the model call."""
    text = TEXTS[i % len(TEXTS)]
    start = (i * 7919) % max(1, len(text) - size)
    call = f"c{i}"
    log.message("assistant", [text_block(f"Step {i}."), tool_call(call, "Read", f'{{"path": "f{i}.py"}}')])
    log.message("tool", [tool_result(call, text[start : start + size], name="Read")])
    log.request(model="claude-opus-4-6")


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


# -- latency ------------------------------------------------------------------------------------------


def without_timeline() -> None:
    """Leave the timeline and its stage lanes out of the screen (to measure their share)."""
    from ctxscope.tui.widgets.timeline import StageLanes, TimelinePlot
    from rich.text import Text

    for widget in (TimelinePlot, StageLanes):
        widget.show = lambda self, *args, **kwargs: None  # type: ignore[method-assign]
        widget.render = lambda self: Text("")  # type: ignore[method-assign, assignment]


async def measure_latency(samples: int, base_turns: int) -> dict[str, Any]:
    from ctxscope.tui.app import CtxscopeApp, DashboardOptions
    from ctxscope.tui.messages import Mode, SnapshotUpdated

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "live.jsonl"
        log = start_session(path, base_turns)
        shown: dict[int, float] = {}
        changed = asyncio.Event()

        class TimedApp(CtxscopeApp):
            def on_snapshot_updated(self, message: SnapshotUpdated) -> None:
                scope = message.snapshot.scopes.get("main")
                count = len(scope.records) if scope else 0

                def painted() -> None:
                    shown.setdefault(count, time.perf_counter())
                    changed.set()

                self.call_after_refresh(painted)

        app = TimedApp(DashboardOptions(str(path), mode=Mode.LIVE))
        latencies: list[float] = []
        async with app.run_test(size=(160, 48)) as pilot:
            async def wait_for(count: int) -> float:
                while count not in shown:
                    changed.clear()
                    await asyncio.wait_for(changed.wait(), 30)
                return shown[count]

            await wait_for(base_turns)
            assert app.tailer is not None
            await asyncio.wait_for(app.tailer.watching.wait(), 30)
            await pilot.pause(0.5)
            rng = random.Random(7)
            cpu, ui_cpu = time.process_time(), time.thread_time()  # the app runs in this thread
            for n in range(samples):
                await asyncio.sleep(rng.uniform(0.15, 0.4))
                target = base_turns + n + 1
                start = time.perf_counter()
                append_turn(log, target - 1)
                latencies.append(await wait_for(target) - start)
            await pilot.pause(0.3)  # the last request's detail
            cpu, ui_cpu = time.process_time() - cpu, time.thread_time() - ui_cpu
        log.close()
    return {
        "samples": len(latencies),
        "base_requests": base_turns,
        "median_ms": round(1000 * statistics.median(latencies), 1),
        "p95_ms": round(1000 * percentile(latencies, 0.95), 1),
        "max_ms": round(1000 * max(latencies), 1),
        "cpu_ms_per_append": round(1000 * cpu / len(latencies), 1),
        "ui_thread_cpu_ms_per_append": round(1000 * ui_cpu / len(latencies), 1),
    }


# -- a real process in tmux ---------------------------------------------------------------------------


class Pane:
    """``ctxscope watch`` running in a private tmux server."""

    def __init__(self, path: Path, width: int = 160, height: int = 48) -> None:
        tmux = shutil.which("tmux")
        if tmux is None:
            raise SystemExit("needs tmux (apt-get install tmux)")
        self.tmux = tmux
        self.socket = str(Path(tempfile.gettempdir()) / f"ctxscope-bench-{uuid.uuid4().hex[:8]}.sock")
        self.name = "bench"
        script = Path(sys.executable).with_name("ctxscope")
        command = [str(script)] if script.exists() else [sys.executable, "-m", "ctxscope.tui.cli"]
        shell = "exec env -u COLUMNS -u LINES TERM=xterm-256color LANG=C.UTF-8 " + " ".join(
            f"'{part}'" for part in [*command, "watch", str(path)]
        )
        self.run("new-session", "-d", "-s", self.name, "-x", str(width), "-y", str(height), shell)
        self.pid = int(self.run("display", "-p", "-t", self.name, "#{pane_pid}").strip())

    def run(self, *args: str) -> str:
        return subprocess.run([self.tmux, "-S", self.socket, *args], capture_output=True, text=True,
                              timeout=20).stdout

    def screen(self) -> str:
        return self.run("capture-pane", "-p", "-t", self.name)

    def shown_request(self) -> int:
        """The number of requests the dashboard shows (from ``request #N of M``), -1 if none yet."""
        found = re.search(r"request #\d+ of (\d+)", self.screen())
        return int(found.group(1)) if found else -1

    def wait_for_requests(self, count: int, timeout: float = 60) -> float:
        start = time.monotonic()
        while self.shown_request() < count:
            if time.monotonic() - start > timeout:
                raise SystemExit(f"the dashboard never showed {count} requests:\n{self.screen()}")
            time.sleep(0.05)
        return time.monotonic() - start

    def cpu_seconds(self) -> float:
        fields = Path(f"/proc/{self.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS

    def rss_mb(self) -> float:
        for line in Path(f"/proc/{self.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
        return 0.0

    def close(self) -> None:
        subprocess.run([self.tmux, "-S", self.socket, "kill-server"], capture_output=True, timeout=20)


def measure_idle_cpu(seconds: float, base_turns: int) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "idle.jsonl"
        start_session(path, base_turns).close()
        pane = Pane(path)
        try:
            pane.wait_for_requests(base_turns)
            time.sleep(2.0)  # let start-up work settle
            before, wall = pane.cpu_seconds(), time.monotonic()
            time.sleep(seconds)
            used, elapsed = pane.cpu_seconds() - before, time.monotonic() - wall
            rss = pane.rss_mb()
        finally:
            pane.close()
    return {
        "idle_seconds": round(elapsed, 1),
        "cpu_seconds": round(used, 3),
        "cpu_percent_of_one_core": round(100 * used / elapsed, 2),
        "rss_mb": round(rss, 1),
    }


def measure_keepup(duration: float, rate: int, base_turns: int) -> dict[str, Any]:
    lines_per_turn = 3
    turns_per_second = rate / lines_per_turn
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "busy.jsonl"
        log = start_session(path, base_turns)
        pane = Pane(path)
        written = base_turns
        stop = threading.Event()

        def writer() -> None:
            nonlocal written
            started = time.monotonic()
            while not stop.is_set():
                due = base_turns + int((time.monotonic() - started) * turns_per_second)
                while written < due:
                    append_turn(log, written)
                    written += 1
                time.sleep(0.01)

        samples: list[dict[str, float]] = []
        try:
            pane.wait_for_requests(base_turns)
            rss_start = pane.rss_mb()
            thread = threading.Thread(target=writer, daemon=True)
            begin = time.monotonic()
            thread.start()
            while (elapsed := time.monotonic() - begin) < duration:
                time.sleep(1.0)
                shown = pane.shown_request()
                samples.append({"t": round(elapsed, 1), "written": written, "shown": shown,
                                "lag_requests": written - shown, "rss_mb": round(pane.rss_mb(), 1)})
            stop.set()
            thread.join()
            total = written
            catch_up = pane.wait_for_requests(total, timeout=300)
            rss_end = pane.rss_mb()
            cpu = pane.cpu_seconds()
        finally:
            stop.set()
            pane.close()
            log.close()
    third = max(1, len(samples) // 3)
    first_lag = statistics.mean(s["lag_requests"] for s in samples[:third])
    last_lag = statistics.mean(s["lag_requests"] for s in samples[-third:])
    # Memory: the live view keeps the newest requests' detail, so RSS climbs while that window
    # fills (the first third) and should then stay nearly flat; report the slope after it.
    settled = samples[third - 1]
    grown = samples[-1]["rss_mb"] - settled["rss_mb"]
    requests_since = max(1, samples[-1]["written"] - settled["written"])
    return {
        "lines_per_second": rate,
        "seconds": duration,
        "requests_written": total - base_turns,
        "lag_requests_first_third": round(first_lag, 1),
        "lag_requests_last_third": round(last_lag, 1),
        "lag_lines_last_third": round(last_lag * lines_per_turn, 1),
        "catch_up_after_stop_s": round(catch_up, 2),
        "rss_mb_start": round(rss_start, 1),
        "rss_mb_after_first_third": settled["rss_mb"],
        "rss_mb_end": round(rss_end, 1),
        "rss_kb_per_request_after_first_third": round(grown * 1024 / requests_since, 2),
        "cpu_seconds_total": round(cpu, 1),
        "samples": samples,
    }


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--only", choices=("latency", "idle", "keepup"), action="append")
    parser.add_argument("--samples", type=int, default=60, help="latency samples (default 60)")
    parser.add_argument("--idle", type=float, default=10.0, help="idle period in seconds (default 10)")
    parser.add_argument("--duration", type=float, default=60.0, help="keep-up run in seconds (default 60)")
    parser.add_argument("--rate", type=int, default=1000, help="lines appended per second (default 1000)")
    parser.add_argument("--base", type=int, default=200, help="requests in the log before measuring")
    parser.add_argument("--json", action="store_true")
    parser.add_argument(
        "--without-timeline", action="store_true",
        help="latency with the timeline and its lanes left out of the screen (their share)",
    )
    parser.add_argument(
        "--load", type=int, default=0, help="CPU-bound processes run beside the measurement (killed after)"
    )
    args = parser.parse_args()
    load = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(args.load)]
    try:
        return _run(args)
    finally:
        for process in load:
            process.kill()
            process.wait()


def _run(args: argparse.Namespace) -> int:
    only = set(args.only or ("latency", "idle", "keepup"))
    results: dict[str, Any] = {"load": args.load}
    if args.without_timeline:
        without_timeline()
        results["without_timeline"] = True
    if "latency" in only:
        results["latency"] = asyncio.run(measure_latency(args.samples, args.base))
        if not args.json:
            print("append-to-screen latency:", results["latency"], flush=True)
    if "idle" in only:
        results["idle"] = measure_idle_cpu(args.idle, args.base)
        if not args.json:
            print("idle CPU:", results["idle"], flush=True)
    if "keepup" in only:
        results["keepup"] = measure_keepup(args.duration, args.rate, args.base)
        if not args.json:
            summary = {k: v for k, v in results["keepup"].items() if k != "samples"}
            print("keep-up:", summary, flush=True)
            for sample in results["keepup"]["samples"][:: max(1, len(results["keepup"]["samples"]) // 10)]:
                print("   ", sample)
    if args.json:
        print(json.dumps(results, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
