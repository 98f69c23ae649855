#!/usr/bin/env python3
"""Session-list benchmark: a generated home of 1,000 Claude Code sessions, first and warm runs of
the SQLite-cached index, a grown-log run, and ``ctxscope statusline`` on a 50 MB transcript.

Everything is reported as a ratio to a baseline measured in the same run, and in seconds:

* **first run** (empty cache: every log is read) against *reading every byte* of the home;
* **warm run** (a new index on the cache the first run left; nothing changed) against
  *listing the home and ``os.stat`` of every log* — the least any session list must do; the
  target is under 2 s for the whole list;
* **grown run** (one call appended to 10 logs; only those are read, from their cached offsets)
  against the same stat baseline;
* **status line** (:func:`~ctxscope.core.statusline.read_tail` + ``status_line``, best of 20)
  against reading the transcript once through the index (what a replay-based line would cost);
  and the whole ``ctxscope statusline`` process against a process that only imports
  ``ctxscope.core`` (best of 5 each). The target is 100 ms.

Logs are Claude Code 2.1 transcripts from :func:`bench_reader.synthesize` (sizes cycling over
``--sizes`` MB: 1, 2, 4, 8 by default, 3.7 GB for 1,000 sessions), copied into 50 project
folders under ``--dir`` (default a temporary folder, removed afterwards). Files just written sit
in the page cache, so the first run reads from memory, not disk.

::

    python bench/bench_sessions.py                    # 1,000 sessions, 50 MB transcript
    python bench/bench_sessions.py --sessions 200 --sizes 1 --json
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_reader import synthesize
from ctxscope.core.homes import discover
from ctxscope.core.sessions_index import SessionIndex
from ctxscope.core.statusline import parse_status_input, read_tail, status_line

PROJECTS = 50
TARGET_LIST_S = 2.0
TARGET_STATUS_S = 0.100


def build_home(root: Path, sessions: int, sizes: list[int]) -> tuple[dict[str, str], int]:
    """``sessions`` transcripts under ``root/.claude/projects``; returns the environment and bytes."""
    root.mkdir(parents=True, exist_ok=True)
    sources = {size: synthesize(root / f"source-{size}.jsonl", size, seed=size) for size in sizes}
    projects = root / "claude" / "projects"
    now = time.time()
    total = 0
    for number in range(sessions):
        folder = projects / f"-home-dev-project-{number % PROJECTS:02d}"
        folder.mkdir(parents=True, exist_ok=True)
        target = folder / f"{number:08d}-0000-4000-8000-000000000000.jsonl"
        source = sources[sizes[number % len(sizes)]]
        shutil.copyfile(source, target)
        stamp = now - 3600 - number * 60
        os.utime(target, (stamp, stamp))
        total += target.stat().st_size
    for source in sources.values():
        source.unlink()
    environ = {"HOME": str(root), "CLAUDE_CONFIG_DIR": str(root / "claude"), "CODEX_HOME": str(root / "none")}
    return environ, total


def stat_baseline(environ: dict[str, str]) -> float:
    start = time.perf_counter()
    for top, _dirs, files in os.walk(os.path.join(environ["CLAUDE_CONFIG_DIR"], "projects")):
        for name in files:
            os.stat(os.path.join(top, name))
    return time.perf_counter() - start


def read_baseline(environ: dict[str, str]) -> float:
    start = time.perf_counter()
    for top, _dirs, files in os.walk(os.path.join(environ["CLAUDE_CONFIG_DIR"], "projects")):
        for name in files:
            with open(os.path.join(top, name), "rb") as handle:
                while handle.read(4 << 20):
                    pass
    return time.perf_counter() - start


def run_index(cache: Path, environ: dict[str, str]) -> dict[str, Any]:
    first_row: list[float] = []
    start = time.perf_counter()
    with SessionIndex(str(cache)) as index:
        rows = index.rows(
            discover(environ=environ),
            on_row=lambda row, i, n: None if first_row else first_row.append(time.perf_counter() - start),
        )
        reads = index.reads
    return {
        "seconds": time.perf_counter() - start,
        "first_row_s": first_row[0] if first_row else None,
        "rows": len(rows),
        "files_read": reads,
        "calls": sum(r.calls for r in rows),
    }


def grow(environ: dict[str, str], count: int) -> None:
    logs = sorted(log.path for log in discover(environ=environ))[:count]
    for path in logs:
        with open(path, "rb") as handle:
            handle.seek(-(64 << 10), os.SEEK_END)
            last_call = next(
                line for line in reversed(handle.read().splitlines(keepends=True)) if b'"usage"' in line
            )
        renamed = last_call.replace(b'"id":"msg_', b'"id":"msg_grown_')
        with open(path, "ab") as out:
            out.write(renamed.replace(b'"requestId":"req_', b'"requestId":"req_grown_'))


def best(repeat: int, func: Any) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        func()
        times.append(time.perf_counter() - start)
    return min(times)


def bench_statusline(root: Path, megabytes: int) -> dict[str, Any]:
    transcript = synthesize(root / "transcript.jsonl", megabytes, seed=11)
    # No context_window: the window comes from the model (the transcript's prompts pass 200k,
    # so Opus 4.6's 1M variant).
    stdin = json.dumps({
        "transcript_path": str(transcript),
        "model": {"id": "claude-opus-4-6", "display_name": "Opus"},
    }).encode()
    line = ""

    def once() -> None:
        nonlocal line
        status = parse_status_input(stdin)
        line = status_line(status, read_tail(status.transcript_path))

    tail_s = best(20, once)
    replay_s = best(3, lambda: SessionIndex(":memory:").digest(str(transcript)))
    python = sys.executable
    ctxscope = [python, "-c", "import sys; from ctxscope.tui.cli import main; sys.exit(main())", "statusline"]
    process_s = best(5, lambda: subprocess.run(ctxscope, input=stdin, capture_output=True, check=True))
    import_s = best(5, lambda: subprocess.run([python, "-c", "import ctxscope.core"], check=True))
    output = subprocess.run(ctxscope, input=stdin, capture_output=True, check=True).stdout.decode().strip()
    return {
        "transcript_mb": round(transcript.stat().st_size / 2**20, 1),
        "line": line,
        "process_line": output,
        "tail_s": tail_s,
        "full_read_s": replay_s,
        "tail_vs_full_read": tail_s / replay_s,
        "process_s": process_s,
        "import_core_process_s": import_s,
        "process_vs_import": process_s / import_s,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--sessions", type=int, default=1000)
    parser.add_argument("--sizes", default="1,2,4,8", help="MB per session, cycled")
    parser.add_argument("--transcript-mb", type=int, default=50)
    parser.add_argument("--dir", default=None, help="where to generate (kept); default: a temporary folder")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    sizes = [int(s) for s in args.sizes.split(",")]
    root = Path(args.dir) if args.dir else Path(tempfile.mkdtemp(prefix="ctxscope-bench-sessions-"))
    try:
        environ, total = build_home(root / "home", args.sessions, sizes)
        cache = root / "cache" / "sessions.sqlite3"
        stat_s = stat_baseline(environ)
        read_s = read_baseline(environ)
        first = run_index(cache, environ)
        stat_s = min(stat_s, stat_baseline(environ))
        warm = run_index(cache, environ)
        grow(environ, 10)
        grown = run_index(cache, environ)
        status = bench_statusline(root, args.transcript_mb)
    finally:
        if not args.dir:
            shutil.rmtree(root, ignore_errors=True)
    result = {
        "sessions": args.sessions,
        "home_gb": round(total / 2**30, 2),
        "baseline_stat_s": stat_s,
        "baseline_read_s": read_s,
        "first_run": {**first, "vs_read_every_byte": first["seconds"] / read_s},
        "warm_run": {**warm, "vs_stat": warm["seconds"] / stat_s, "target_s": TARGET_LIST_S},
        "grown_run": {**grown, "vs_stat": grown["seconds"] / stat_s},
        "statusline": {**status, "target_s": TARGET_STATUS_S},
    }
    if args.json:
        print(json.dumps(result, indent=2))
        return 0
    first_ratio = result["first_run"]["vs_read_every_byte"]
    print(f"home: {args.sessions} sessions, {result['home_gb']} GB (Claude Code 2.1 transcripts, synthetic)")
    print(f"baselines: stat every log {stat_s * 1000:.1f} ms; read every byte {read_s:.2f} s")
    print(f"first run: {first['seconds']:.2f} s = {first_ratio:.1f}x reading every byte; "
          f"first row after {first['first_row_s'] * 1000:.0f} ms; {first['files_read']} files read")
    print(f"warm run: {warm['seconds'] * 1000:.0f} ms = {result['warm_run']['vs_stat']:.1f}x the stat "
          f"baseline (target < {TARGET_LIST_S:.0f} s); {warm['files_read']} files read; {warm['rows']} rows")
    print(f"grown run (10 logs grew): {grown['seconds'] * 1000:.0f} ms = "
          f"{result['grown_run']['vs_stat']:.1f}x the stat baseline; {grown['files_read']} files read")
    print(f"statusline on a {status['transcript_mb']} MB transcript: {status['tail_s'] * 1000:.1f} ms = "
          f"{status['tail_vs_full_read']:.4f}x reading it through the index ({status['full_read_s']:.2f} s)")
    print(f"  whole process {status['process_s'] * 1000:.0f} ms = {status['process_vs_import']:.2f}x a "
          f"process importing ctxscope.core ({status['import_core_process_s'] * 1000:.0f} ms)")
    print(f"  line: {status['process_line']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
