#!/usr/bin/env python3
"""``ctxscope report --json`` (the recorded lens) against the bare ``orjson.loads`` loop, same file.

For each synthetic Claude Code log (``bench_reader.synthesize``, in a temporary folder, deleted
afterwards) two whole processes run, alternating, ``--repeat`` rounds (medians kept):

* **ceiling** — a bare ``orjson.loads`` loop over the file's lines (``bench_reader.cpu_ceiling``,
  timed inside its process, as ``bench_open.py`` times it);
* **report** — ``ctxscope report --json FILE``, timed from outside: elapsed seconds, and CPU seconds
  (user + system of the process and of the children it waited for: the counting worker's too).

The figures are report ÷ ceiling, in elapsed and in CPU seconds, and the report's milliseconds per
MB (linear: the same at every size). ctxscope's modules are compiled to bytecode first.

    python bench/bench_report.py                        # 30 and 200 MB, 3 rounds
    python bench/bench_report.py --sizes 1024 --repeat 1 --json
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_reader import cpu_ceiling, each_synthetic, installed_bytecode, report_process


def _run(mode: str, path: Path) -> tuple[float, float]:
    """(seconds, CPU seconds) of one process."""
    if mode == "report":
        return report_process(path)
    out = subprocess.run(
        [sys.executable, __file__, "--child", str(path)], check=True, capture_output=True, text=True
    )
    seconds, cpu = json.loads(out.stdout.strip().splitlines()[-1])
    return float(seconds), float(cpu)


def measure(path: Path, repeat: int) -> dict[str, Any]:
    size_mb = path.stat().st_size / (1 << 20)
    runs: dict[str, list[tuple[float, float]]] = {"ceiling": [], "report": []}
    for _ in range(max(1, repeat)):
        for mode, found in runs.items():  # alternating: a busy spell hits both alike
            found.append(_run(mode, path))

    def median(mode: str, which: int) -> float:
        return statistics.median(r[which] for r in runs[mode])

    ceiling, ceiling_cpu = median("ceiling", 0), median("ceiling", 1)
    report, report_cpu = median("report", 0), median("report", 1)
    return {
        "size_mb": round(size_mb, 1),
        "rounds": len(runs["report"]),
        "ceiling_s": round(ceiling, 3),
        "ceiling_cpu_s": round(ceiling_cpu, 3),
        "report_s": round(report, 3),
        "report_cpu_s": round(report_cpu, 3),
        "report_times_ceiling": round(report / ceiling, 2),
        "report_times_ceiling_cpu": round(report_cpu / ceiling_cpu, 2),
        "report_ms_per_mb": round(1000 * report / size_mb, 2),
        "report_cpu_ms_per_mb": round(1000 * report_cpu / size_mb, 2),
        "load_average": round(os.getloadavg()[0], 1),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[30, 200], help="log sizes in MB")
    parser.add_argument("--repeat", type=int, default=3, help="rounds of the two processes (median kept)")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--child", metavar="PATH", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        print(json.dumps(cpu_ceiling(args.child)))
        return 0
    installed_bytecode()
    rows = [measure(path, args.repeat) for path in each_synthetic(args.sizes, "ctxscope-bench-report-")]
    if args.json:
        print(json.dumps(rows, indent=2))
        return 0
    columns = [
        ("MB", "size_mb"), ("report ÷ loop", "report_times_ceiling"), ("(CPU)", "report_times_ceiling_cpu"),
        ("report ms/MB", "report_ms_per_mb"), ("(CPU)", "report_cpu_ms_per_mb"), ("load", "load_average"),
    ]
    print("| " + " | ".join(title for title, _ in columns) + " |")
    print("|" + "---:|" * len(columns))
    for row in rows:
        print("| " + " | ".join(str(row[key]) for _, key in columns) + " |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
