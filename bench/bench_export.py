#!/usr/bin/env python3
"""Export benchmark: append-to-screen latency at 1,000 log events a second, export off vs on.

The dashboard runs headless in this process on a live log (the real tailer, as in
``bench_dashboard.py``'s latency run, whose session and turn writer this reuses). A writer thread
appends ``--rate`` lines a second (tool call, result, model call: three lines a request) for
``--duration`` seconds; for every request appended, the time from its append to the first screen
refresh that shows it is recorded. With export on, the tailer publishes every snapshot through the
OpenTelemetry SDK to both a Prometheus endpoint (scraped by this bench every second) and an OTLP
collector on 127.0.0.1 (a tiny receiver here). Off and on alternate ``--rounds`` times; the
figures are the medians and p95s over every request of each mode.

    python bench/bench_export.py                     # 2 rounds of 10 s per mode
    python bench/bench_export.py --duration 20 --json
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import tempfile
import threading
import time
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_dashboard import append_turn, percentile, start_session


class Receiver(BaseHTTPRequestHandler):
    received = 0

    def do_POST(self) -> None:
        self.rfile.read(int(self.headers.get("Content-Length", 0)))
        Receiver.received += 1
        self.send_response(200)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, format: str, *args: Any) -> None:
        pass


def scrape(port: int) -> None:
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=5) as response:
        response.read()


async def run_once(export: bool, duration: float, rate: int, base: int, collector: str) -> dict[str, Any]:
    from ctxscope.core.telemetry import Identity
    from ctxscope.tui.app import CtxscopeApp, DashboardOptions
    from ctxscope.tui.export import Exporter, ExportOptions
    from ctxscope.tui.messages import Mode, SnapshotUpdated

    exporter = Exporter(ExportOptions(collector, 0, "127.0.0.1", Identity("bench"))) if export else None
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "live.jsonl"
        log = start_session(path, base)
        shown: list[tuple[int, float]] = []
        changed = asyncio.Event()

        class TimedApp(CtxscopeApp):
            def on_snapshot_updated(self, message: SnapshotUpdated) -> None:
                scope = message.snapshot.scopes.get("main")
                count = len(scope.records) if scope else 0

                def painted() -> None:
                    shown.append((count, time.perf_counter()))
                    changed.set()

                self.call_after_refresh(painted)

        app = TimedApp(DashboardOptions(str(path), mode=Mode.LIVE), export=exporter)
        appended: dict[int, float] = {}
        scrapes = 0
        async with app.run_test(size=(160, 48)) as pilot:
            while not shown or shown[-1][0] < base:
                changed.clear()
                await asyncio.wait_for(changed.wait(), 60)
            assert app.tailer is not None
            await asyncio.wait_for(app.tailer.watching.wait(), 30)
            await pilot.pause(0.5)
            stop = threading.Event()

            def writer() -> None:
                interval = 3 / rate  # three lines a request
                n = base
                next_at = time.perf_counter()
                end = next_at + duration
                while not stop.is_set() and time.perf_counter() < end:
                    append_turn(log, n)
                    n += 1
                    appended[n] = time.perf_counter()
                    next_at += interval
                    delay = next_at - time.perf_counter()
                    if delay > 0:
                        time.sleep(delay)

            thread = threading.Thread(target=writer, daemon=True)
            thread.start()
            while thread.is_alive():
                await asyncio.sleep(1.0)
                if exporter is not None and exporter.metrics_port:
                    await asyncio.to_thread(scrape, exporter.metrics_port)
                    scrapes += 1
            last = max(appended)
            deadline = time.perf_counter() + 60
            while shown[-1][0] < last and time.perf_counter() < deadline:
                changed.clear()
                await asyncio.wait_for(changed.wait(), 60)
        log.close()
    latencies = []
    for count, at in appended.items():
        seen = next((when for shown_count, when in shown if shown_count >= count), None)
        if seen is not None:
            latencies.append(seen - at)
    if exporter is not None:
        exporter.close()
    return {
        "latencies": latencies,
        "requests": len(appended),
        "scrapes": scrapes,
        "errors": exporter.errors if exporter else 0,
        "batches": exporter.batches if exporter else 0,
    }


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--duration", type=float, default=10.0, help="seconds of writing per round")
    parser.add_argument("--rate", type=int, default=1000, help="lines appended per second (default 1000)")
    parser.add_argument("--rounds", type=int, default=2, help="off/on pairs (default 2)")
    parser.add_argument("--base", type=int, default=200, help="requests in the log before measuring")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    server = ThreadingHTTPServer(("127.0.0.1", 0), Receiver)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    collector = f"http://127.0.0.1:{server.server_address[1]}"
    modes: dict[str, dict[str, Any]] = {"off": {"latencies": []}, "on": {"latencies": []}}
    for _ in range(args.rounds):
        for mode in ("off", "on"):
            run = asyncio.run(run_once(mode == "on", args.duration, args.rate, args.base, collector))
            modes[mode]["latencies"] += run.pop("latencies")
            for key, value in run.items():
                modes[mode][key] = modes[mode].get(key, 0) + value
    server.shutdown()
    out: dict[str, Any] = {"rate_lines_per_s": args.rate, "seconds_per_round": args.duration,
                           "rounds": args.rounds, "otlp_posts": Receiver.received}
    for mode, figures in modes.items():
        latencies = figures.pop("latencies")
        out[mode] = {
            **figures,
            "shown": len(latencies),
            "median_ms": round(1000 * statistics.median(latencies), 1),
            "p95_ms": round(1000 * percentile(latencies, 0.95), 1),
        }
    out["median_on_vs_off"] = round(out["on"]["median_ms"] / out["off"]["median_ms"], 3)
    out["p95_on_vs_off"] = round(out["on"]["p95_ms"] / out["off"]["p95_ms"], 3)
    if args.json:
        print(json.dumps(out, indent=2))
    else:
        for mode in ("off", "on"):
            f = out[mode]
            line = f"export {mode:3}: {f['requests']:,} requests, median {f['median_ms']} ms"
            line += f", p95 {f['p95_ms']} ms"
            if mode == "on":
                line += f", {f['batches']} batches, {f['scrapes']} scrapes, {f['errors']} errors"
            print(line)
        print(f"on / off: median {out['median_on_vs_off']}, p95 {out['p95_on_vs_off']}; "
              f"{out['otlp_posts']} OTLP posts received")
    return 0


if __name__ == "__main__":
    sys.exit(main())
