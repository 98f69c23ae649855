#!/usr/bin/env python3
"""Start-up benchmark: whole-process times of ctxscope's entry points, as ratios to bare Python.

Each command runs as a fresh subprocess; the rounds alternate between the commands (so a busy
spell of the machine hits them all alike) and the best of ``--repeat`` runs is kept. The baseline
is ``python -c pass`` in the same run, with the same interpreter:

* ``import ctxscope.core`` — target 0.1 s (the package imports its submodules lazily);
* ``ctxscope --help`` — the console script, target 0.15 s (sub-commands import Textual and the
  engine only when they run);
* ``import ctxscope.tui.app`` — the dashboard's modules (Textual included), for reference.

::

    python bench/bench_startup.py               # 15 rounds
    python bench/bench_startup.py --repeat 30 --json
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

CONSOLE_SCRIPT = Path(sys.executable).with_name("ctxscope")

COMMANDS: tuple[tuple[str, list[str], float | None], ...] = (
    ("python -c pass (baseline)", [sys.executable, "-c", "pass"], None),
    ("import ctxscope.core", [sys.executable, "-c", "import ctxscope.core"], 0.1),
    ("ctxscope --help", [str(CONSOLE_SCRIPT), "--help"], 0.15),
    ("import ctxscope.tui.app", [sys.executable, "-c", "import ctxscope.tui.app"], None),
)
"""(label, command, target seconds or None)."""


def run_once(command: list[str]) -> float:
    started = time.perf_counter()
    subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    return time.perf_counter() - started


def measure(repeat: int) -> list[dict[str, object]]:
    """Best-of-``repeat`` seconds per command, rounds alternating between the commands."""
    best = [float("inf")] * len(COMMANDS)
    for _ in range(max(1, repeat)):
        for k, (_, command, _target) in enumerate(COMMANDS):
            best[k] = min(best[k], run_once(command))
    base = best[0]
    return [
        {
            "command": label,
            "seconds": round(seconds, 4),
            "times_bare_python": round(seconds / base, 2),
            "target_seconds": target,
            "meets_target": None if target is None else seconds <= target,
        }
        for (label, _, target), seconds in zip(COMMANDS, best, strict=True)
    ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=15, help="rounds (the best run of each is kept)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    if not CONSOLE_SCRIPT.exists():
        raise SystemExit(f"no console script at {CONSOLE_SCRIPT}: install ctxscope in this environment")
    results = measure(args.repeat)
    if args.json:
        print(json.dumps(results, indent=2))
        return 0
    print(f"best of {args.repeat} runs each, {os.cpu_count()} CPUs, Python {sys.version.split()[0]}")
    print("| command | seconds | × bare python | target |")
    print("|---|---:|---:|---|")
    for r in results:
        target = "" if r["target_seconds"] is None else (
            f"≤ {r['target_seconds']} s: {'met' if r['meets_target'] else 'NOT met'}"
        )
        print(f"| {r['command']} | {r['seconds']:.3f} | {r['times_bare_python']} | {target} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
