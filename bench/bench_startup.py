#!/usr/bin/env python3
"""Start-up benchmark: whole-process times of ctxscope's entry points, as ratios to bare Python.

Each command runs as a fresh subprocess; the rounds alternate between the commands (so a busy
spell of the machine hits them all alike) and the best of ``--repeat`` runs is kept. The baseline
is ``python -c pass`` in the same run, with the same interpreter:

* ``import ctxscope.core`` — target 0.1 s (the package imports its submodules lazily);
* ``ctxscope --help`` — the console script, target 0.15 s (sub-commands import Textual and the
  engine only when they run);
* ``ctxscope statusline`` — the console script as Claude Code runs it after every message: its
  status-line JSON on stdin, naming the largest Claude Code transcript of ``../shared/real-logs``
  (a small generated one when that folder is absent), target 0.15 s;
* ``import ctxscope.tui.app`` — the dashboard's modules (Textual included), for reference.

ctxscope's modules are compiled to bytecode first (``bench_reader.installed_bytecode``), as an
installed ctxscope has them: run with ``PYTHONDONTWRITEBYTECODE`` set, an editable install would
otherwise compile every module from source at each start.

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
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_reader import SHARED, installed_bytecode

CONSOLE_SCRIPT = Path(sys.executable).with_name("ctxscope")

COMMANDS: tuple[tuple[str, list[str], float | None], ...] = (
    ("python -c pass (baseline)", [sys.executable, "-c", "pass"], None),
    ("import ctxscope.core", [sys.executable, "-c", "import ctxscope.core"], 0.1),
    ("ctxscope --help", [str(CONSOLE_SCRIPT), "--help"], 0.15),
    ("ctxscope statusline", [str(CONSOLE_SCRIPT), "statusline"], 0.15),
    ("import ctxscope.tui.app", [sys.executable, "-c", "import ctxscope.tui.app"], None),
)
"""(label, command, target seconds or None)."""

STATUS_MODEL: dict[str, object] = {"id": "claude-opus-4-6", "display_name": "Opus 4.6"}


def status_input(folder: Path) -> bytes:
    """Claude Code's status-line JSON naming a transcript: the largest real one, else a small one
    written into ``folder``."""
    real = sorted((SHARED / "real-logs" / "claude-code").rglob("*.jsonl"), key=lambda p: p.stat().st_size)
    if real:
        transcript = real[-1]
    else:
        transcript = folder / "transcript.jsonl"
        line = {
            "type": "assistant", "sessionId": "s", "uuid": "u", "parentUuid": None,
            "message": {"id": "m", "model": "claude-opus-4-6", "role": "assistant", "content": [],
                        "usage": {"input_tokens": 3, "cache_read_input_tokens": 20_000, "output_tokens": 5}},
        }
        transcript.write_text(json.dumps(line) + "\n")
    return json.dumps({"transcript_path": str(transcript), "model": STATUS_MODEL}).encode()


def run_once(command: list[str], stdin: bytes) -> float:
    started = time.perf_counter()
    subprocess.run(command, input=stdin, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    return time.perf_counter() - started


def measure(repeat: int) -> list[dict[str, object]]:
    """Best-of-``repeat`` seconds per command, rounds alternating between the commands."""
    installed_bytecode()
    best = [float("inf")] * len(COMMANDS)
    with tempfile.TemporaryDirectory(prefix="ctxscope-bench-startup-") as folder:
        stdin = status_input(Path(folder))
        for _ in range(max(1, repeat)):
            for k, (_, command, _target) in enumerate(COMMANDS):
                best[k] = min(best[k], run_once(command, stdin))
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
