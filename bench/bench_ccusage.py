#!/usr/bin/env python3
"""``ctxscope report --json`` against ccusage on the same Claude Code log, whole processes.

A synthetic Claude Code transcript (``bench_reader.synthesize``, 200 MB by default) is written into
a temporary ``CLAUDE_CONFIG_DIR`` (``projects/bench/``), so that ``ccusage daily --json --offline``
reads it and nothing else; ``ctxscope report --json`` (the recorded lens) reads the same file. The
two alternate for ``--repeat`` rounds; the medians of elapsed and of CPU seconds (user + system of
the process and of the processes it waited for: ccusage's launcher runs its native build as one) are
compared, ctxscope ÷ ccusage.

ccusage is not a dependency: give its executable with ``--ccusage`` (several may be given, e.g. the
JavaScript and the native build), or put ``ccusage`` on the PATH. Without one the benchmark says so
and exits 0. On this machine::

    npm install ccusage@20.0.24          # the native build (its @ccusage/ccusage-linux-x64 is fetched)
    python bench/bench_ccusage.py --ccusage node_modules/.bin/ccusage
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_open import _ctxscope
from bench_reader import installed_bytecode, synthesize


def run(command: list[str], env: dict[str, str]) -> tuple[float, float]:
    """(elapsed, CPU seconds) of one whole process."""
    started = time.perf_counter()
    child = subprocess.Popen(command, stdout=subprocess.DEVNULL, env=env)
    _, status, usage = os.wait4(child.pid, 0)
    if status:
        raise SystemExit(f"{command[0]} failed (status {status})")
    return time.perf_counter() - started, usage.ru_utime + usage.ru_stime


def version(ccusage: str) -> str:
    out = subprocess.run([ccusage, "--version"], capture_output=True, text=True, check=False)
    return out.stdout.strip().removeprefix("ccusage ") or "unknown"


def measure(ccusages: list[str], megabytes: int, repeat: int) -> list[dict[str, Any]]:
    with tempfile.TemporaryDirectory(prefix="ctxscope-bench-ccusage-") as folder:
        projects = Path(folder) / "projects" / "bench"
        projects.mkdir(parents=True)
        log = synthesize(projects / f"synthetic-{megabytes}mb.jsonl", megabytes)
        env = dict(os.environ, CLAUDE_CONFIG_DIR=folder)
        commands = {"ctxscope report --json": [_ctxscope(), "report", "--json", str(log)]}
        for path in ccusages:
            label = f"ccusage {version(path)} daily --json --offline"
            commands[label] = [path, "daily", "--json", "--offline"]
        runs: dict[str, list[tuple[float, float]]] = {label: [] for label in commands}
        for _ in range(max(1, repeat)):
            for label, command in commands.items():  # alternating: a busy spell hits both alike
                runs[label].append(run(command, env))
    report = runs["ctxscope report --json"]
    report_s, report_cpu = statistics.median(r[0] for r in report), statistics.median(r[1] for r in report)
    rows = []
    for label, timings in runs.items():
        seconds, cpu = statistics.median(r[0] for r in timings), statistics.median(r[1] for r in timings)
        rows.append({
            "command": label,
            "seconds": round(seconds, 2),
            "cpu_s": round(cpu, 2),
            "report_times_this": round(report_s / seconds, 2),
            "report_times_this_cpu": round(report_cpu / cpu, 2),
        })
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--ccusage", action="append", default=[], help="a ccusage executable (repeatable)")
    parser.add_argument("--mb", type=int, default=200, help="size of the synthetic log")
    parser.add_argument("--repeat", type=int, default=3, help="rounds (the median is kept)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    ccusages = list(args.ccusage)
    if not ccusages and (found := shutil.which("ccusage")):
        ccusages = [found]
    if not ccusages:
        print("bench_ccusage: no ccusage found (npm install ccusage; then --ccusage PATH); skipped")
        return 0
    installed_bytecode()
    rows = measure(ccusages, args.mb, args.repeat)
    if args.json:
        print(json.dumps(rows, indent=2))
        return 0
    print(f"{args.mb} MB synthetic Claude Code log, median of {args.repeat} alternating rounds, "
          f"load average {os.getloadavg()[0]:.1f}")
    print("| command | seconds | CPU s | report ÷ this (elapsed) | report ÷ this (CPU) |")
    print("|---|---:|---:|---:|---:|")
    for r in rows:
        print(f"| {r['command']} | {r['seconds']} | {r['cpu_s']} | {r['report_times_this']} "
              f"| {r['report_times_this_cpu']} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
