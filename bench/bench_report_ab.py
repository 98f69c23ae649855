#!/usr/bin/env python3
"""``ctxscope report --json`` of this checkout against another tree of ctxscope (before/after).

The other tree is a plain export of a commit (``git archive COMMIT | tar -x -C DIR``); it is run
with this checkout's interpreter and dependencies, its ``core/``, ``tui/`` and ``demo_sessions/``
linked under ``DIR/build/ctxscope`` and put first on ``PYTHONPATH`` (ahead of the editable
install). Whole ``python -m ctxscope.tui.cli report --json FILE`` processes alternate, base then
this tree then the other way round, ``--repeat`` rounds; the medians of elapsed and CPU seconds
(user + system, children included) are printed with their ratio and the load average. Both
trees are compiled to bytecode first, as an installed ctxscope is. Logs: the smallest of
``../shared/real-logs`` (start-up and imports are most of it), every real log summed, and a
``bench_reader.synthesize`` log of ``--megabytes`` (in a temporary folder, deleted afterwards).

    git archive 6b9c2d1 | (mkdir -p /tmp/base && tar -x -C /tmp/base)
    nice python bench/bench_report_ab.py --base /tmp/base --repeat 5
"""

from __future__ import annotations

import argparse
import compileall
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench_reader import ROOT, SHARED, synthesize

PACKAGES = ("core", "tui", "demo_sessions")


def linked(base: Path) -> Path:
    """``base/build`` holding ``ctxscope/{core,tui,demo_sessions}`` linked to the base tree."""
    build = base / "build"
    (build / "ctxscope").mkdir(parents=True, exist_ok=True)
    for name in PACKAGES:
        link = build / "ctxscope" / name
        if not link.is_symlink():
            link.symlink_to(base / name)
    return build


def report(path: Path, pythonpath: str | None) -> tuple[float, float]:
    """(seconds, CPU seconds) of one whole report process."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    if pythonpath:
        env["PYTHONPATH"] = pythonpath
    started = time.perf_counter()
    command = [sys.executable, "-m", "ctxscope.tui.cli", "report", "--json", str(path)]
    child = subprocess.Popen(command, stdout=subprocess.DEVNULL, env=env, cwd=tempfile.gettempdir())
    _, status, usage = os.wait4(child.pid, 0)
    if status:
        raise SystemExit(f"report failed on {path} (status {status})")
    return time.perf_counter() - started, usage.ru_utime + usage.ru_stime


def compare(name: str, paths: list[Path], rounds: int, trees: dict[str, str | None]) -> None:
    seconds: dict[str, list[float]] = {tree: [] for tree in trees}
    cpu: dict[str, list[float]] = {tree: [] for tree in trees}
    loads = []
    for round_ in range(rounds):
        order = list(trees) if round_ % 2 == 0 else list(reversed(trees))
        for tree in order:
            runs = [report(path, trees[tree]) for path in paths]
            seconds[tree].append(sum(r[0] for r in runs))
            cpu[tree].append(sum(r[1] for r in runs))
        loads.append(os.getloadavg()[0])
    print(f"{name}: {rounds} rounds, load average {min(loads):.2f}–{max(loads):.2f}")
    for tree in trees:
        print(f"  {tree:5s} elapsed {statistics.median(seconds[tree]):.3f} s   "
              f"CPU {statistics.median(cpu[tree]):.3f} s")
    ratio = statistics.median(cpu["this"]) / statistics.median(cpu["base"])
    elapsed = statistics.median(seconds["this"]) / statistics.median(seconds["base"])
    print(f"  this ÷ base: CPU {ratio:.3f}, elapsed {elapsed:.3f}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--base", type=Path, required=True, help="an exported tree of the base commit")
    parser.add_argument("--repeat", type=int, default=5, help="rounds (the smallest log runs twice as many)")
    parser.add_argument("--megabytes", type=int, default=30, help="size of the synthetic log")
    args = parser.parse_args()
    base = args.base.resolve()
    for tree in (base, ROOT):
        for name in ("core", "tui"):
            compileall.compile_dir(str(tree / name), quiet=1)
    trees: dict[str, str | None] = {"base": str(linked(base)), "this": None}
    real = sorted(
        p for p in (SHARED / "real-logs").rglob("*")
        if p.is_file() and p.name not in ("FORMATS.md", "SOURCES.json")
    )
    if real:
        smallest = min(real, key=lambda p: p.stat().st_size)
        compare(f"smallest real log ({smallest.name}, {smallest.stat().st_size:,} B)", [smallest],
                2 * args.repeat, trees)
        compare(f"every real log ({len(real)}), summed", real, args.repeat, trees)
    with tempfile.TemporaryDirectory(prefix="ctxscope-bench-ab") as folder:
        path = synthesize(Path(folder) / "synthetic.jsonl", args.megabytes)
        compare(f"synthesize {args.megabytes} MB", [path], args.repeat, trees)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
