#!/usr/bin/env python3
"""Memory while watching: resident memory over a live log of 300,000 model calls.

A writer appends a generated session log in chunks, as an agent would, and after each chunk the
live view reads what was appended and analyses it, the way ``ctxscope watch`` does (the live
window: :data:`~ctxscope.tui.tailer.LIVE_KEEP_DETAIL` requests keep their detail). Every
``--every`` calls the process's resident memory (``/proc/self/status`` VmRSS, after a full garbage
collection so that the curve shows what is held, not what is waiting to be collected) is printed.
Once the live window has filled the curve should be flat; the slope after ``--settle`` calls is
printed in bytes a request.

Two paths:

* ``core`` — :class:`~ctxscope.core.follow.Follower` and :class:`~ctxscope.core.analysis.Analysis`
  (what the tailer's worker runs), a snapshot after every chunk;
* ``tailer`` — the tailer's own source (:class:`~ctxscope.tui.tailer.CoreSource`): read, snapshot
  and the detail of the newest request after every chunk (the dashboard's widgets are not in it).

Two log formats: ``claude-code`` (a transcript: a user prompt every 20 calls, a tool call and its
result per call, an auto-compaction every 600 calls) and ``ctxscope`` (ctxscope's own format, as
``bench_dashboard.py --only keepup`` writes it: the pipeline's own replay is the recorded lens).
Each run is a fresh subprocess. The log goes to a temporary folder and is deleted.

    python bench/bench_memory.py                                  # 300k calls, core, both formats
    python bench/bench_memory.py --requests 60000 --every 5000 --format claude-code
    python bench/bench_memory.py --path tailer
    python bench/bench_memory.py --trace 20 --requests 40000     # tracemalloc: top growth sites
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import subprocess
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path
from typing import Any, BinaryIO

import orjson

FORMATS = ("claude-code", "ctxscope")
PATHS = ("core", "tailer")
PROSE = (
    "The parser reads each line once and keeps only the byte offset of where it started. "
    "A compaction replaces the older turns with a summary the agent wrote itself. "
    "Tool results are the bulk of what an agent sends; most of them are never read again. "
)


def rss_kb() -> int:
    with open("/proc/self/status", encoding="ascii") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


class ClaudeCodeLog:
    """A Claude Code transcript written call by call (about 1.3 KB a call)."""

    def __init__(self, out: BinaryIO) -> None:
        self.out = out
        self.calls = 0
        self.context = 20_000
        self.line = 0

    def _write(self, kind: str, **fields: Any) -> None:
        self.line += 1
        record = {
            "parentUuid": None, "isSidechain": False, "userType": "external", "cwd": "/w",
            "sessionId": "00000000-mem0-0000-0000-000000000000", "version": "2.1.39", "type": kind,
            "uuid": f"{self.line:08x}-0000-4000-8000-000000000000", "timestamp": "2026-02-12T16:02:29.111Z",
            **fields,
        }
        self.out.write(orjson.dumps(record) + b"\n")

    def call(self) -> None:
        i = self.calls
        self.calls += 1
        if i % 600 == 599:
            self._write("system", subtype="compact_boundary", content="Conversation compacted",
                        compactMetadata={"trigger": "auto", "preTokens": self.context})
            self._write("user", isCompactSummary=True,
                        message={"role": "user", "content": "This session is being continued. " + PROSE})
            self.context = 20_000
        if i % 20 == 0:
            self._write("user", message={"role": "user", "content": f"Step {i}: " + PROSE})
        self.context += 350
        usage = {"input_tokens": 3, "cache_creation_input_tokens": 350,
                 "cache_read_input_tokens": self.context, "output_tokens": 9}
        call_id = f"toolu_{i:020d}"
        message = {
            "model": "claude-opus-4-6", "id": f"msg_{i:020d}", "type": "message", "role": "assistant",
            "content": [
                {"type": "tool_use", "id": call_id, "name": "Read", "input": {"file_path": f"/w/f{i}.py"}}
            ],
            "stop_reason": None, "usage": usage,
        }
        self._write("assistant", message=message, requestId=f"req_{i:020d}")
        result = f"{i:6d}→" + PROSE * 3
        self._write("user", message={"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": call_id, "content": result, "is_error": False}]})


class CtxscopeLog:
    """ctxscope's own format, as ``bench_dashboard.py`` writes it (a tool round and a call)."""

    def __init__(self, path: Path) -> None:
        sys.path.insert(0, str(Path(__file__).resolve().parent))
        from bench_dashboard import append_turn, start_session

        self._append = append_turn
        self.log = start_session(path, 0)
        self.calls = 0

    def call(self) -> None:
        self._append(self.log, self.calls)
        self.calls += 1


def child(fmt: str, path_kind: str, requests: int, every: int, trace: int) -> dict[str, Any]:
    from ctxscope.tui.tailer import LIVE_KEEP_DETAIL

    chunk = max(1, min(every, 1000))
    samples: list[dict[str, int]] = []
    top: list[str] = []
    with tempfile.TemporaryDirectory() as tmp:
        log_path = Path(tmp) / "live.jsonl"
        log_path.touch()
        out = log_path.open("ab") if fmt == "claude-code" else None
        writer: ClaudeCodeLog | CtxscopeLog = ClaudeCodeLog(out) if out is not None else CtxscopeLog(log_path)
        flush = out.flush if out is not None else writer.log.stream.flush  # type: ignore[union-attr]
        for _ in range(chunk):
            writer.call()
        flush()
        if path_kind == "tailer":
            from ctxscope.tui.tailer import CoreSource

            source = CoreSource(str(log_path), keep_detail=LIVE_KEEP_DETAIL)

            def step() -> None:
                while True:
                    progress = source.read(4 << 20)
                    if progress.bytes_read >= progress.size:
                        break
                snapshot = source.snapshot()
                for scope_id, scope in snapshot.scopes.items():
                    if scope.records:
                        source.detail(scope_id, len(scope.records) - 1)
        else:
            from ctxscope.core.analysis import Analysis, AnalysisOptions
            from ctxscope.core.follow import Follower

            follower = Follower(str(log_path), None)
            analysis = Analysis(AnalysisOptions(keep_detail=LIVE_KEEP_DETAIL))

            def step() -> None:
                while True:
                    progress = follower.poll(4 << 20)
                    if follower.session is not None:
                        analysis.update(follower.session)
                    if progress.read is None or progress.read.offset >= progress.read.size:
                        break
                analysis.snapshot()

        step()
        started = time.perf_counter()
        snap_before: tracemalloc.Snapshot | None = None
        while writer.calls < requests:
            for _ in range(chunk):
                writer.call()
            flush()
            step()
            if writer.calls % every == 0 or writer.calls >= requests:
                gc.collect()
                samples.append({"requests": writer.calls, "rss_kb": rss_kb(),
                                "seconds": round(time.perf_counter() - started, 1)})
                print(json.dumps(samples[-1]), file=sys.stderr, flush=True)
                if trace and writer.calls >= requests // 2 and snap_before is None:
                    tracemalloc.start(int(os.environ.get("TRACE_FRAMES", "1")))
                    snap_before = tracemalloc.take_snapshot()
        if snap_before is not None:
            gc.collect()
            diff = tracemalloc.take_snapshot().compare_to(snap_before, "traceback")
            for stat in diff[:trace]:
                frames = " <- ".join(
                    f"{Path(f.filename).parent.name}/{Path(f.filename).name}:{f.lineno}"
                    for f in reversed(stat.traceback[-4:])
                )
                top.append(f"{stat.size_diff / 1024:+9.1f} KiB {stat.count_diff:+8d} blocks  {frames}")
        if out is not None:
            out.close()
        else:
            writer.log.close()  # type: ignore[union-attr]
    return {"format": fmt, "path": path_kind, "samples": samples, "trace": top}


def slope(samples: list[dict[str, int]], settle: int) -> float | None:
    """Bytes a request from the first sample at or after ``settle`` calls to the last."""
    after = [s for s in samples if s["requests"] >= settle]
    if len(after) < 2 or after[-1]["requests"] == after[0]["requests"]:
        return None
    return (after[-1]["rss_kb"] - after[0]["rss_kb"]) * 1024 / (after[-1]["requests"] - after[0]["requests"])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=300_000)
    parser.add_argument("--every", type=int, default=10_000, help="print RSS every this many calls")
    parser.add_argument("--settle", type=int, default=20_000, help="the slope starts here")
    parser.add_argument("--format", choices=FORMATS, action="append")
    parser.add_argument("--path", choices=PATHS, action="append")
    parser.add_argument("--trace", type=int, default=0, help="print the top N tracemalloc growth sites")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--child", nargs=2, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        result = child(args.child[0], args.child[1], args.requests, args.every, args.trace)
        print(json.dumps(result))
        return 0
    results = []
    for fmt in args.format or FORMATS:
        for path_kind in args.path or ("core",):
            command = [sys.executable, __file__, "--child", fmt, path_kind, "--requests", str(args.requests),
                       "--every", str(args.every), "--trace", str(args.trace)]
            done = subprocess.run(command, stdout=subprocess.PIPE, text=True, check=False)
            if done.returncode != 0:
                print(f"{fmt} through {path_kind}: the run failed (exit {done.returncode})", file=sys.stderr)
                continue
            result = json.loads(done.stdout.strip().splitlines()[-1])
            result["bytes_per_request_after_settle"] = slope(result["samples"], args.settle)
            results.append(result)
            if not args.json:
                print(f"\n{fmt} through {path_kind}: requests -> RSS MB")
                for s in result["samples"]:
                    print(f"  {s['requests']:>8,}  {s['rss_kb'] / 1024:7.1f}  ({s['seconds']} s)")
                per = result["bytes_per_request_after_settle"]
                slope_text = "n/a" if per is None else f"{per:.0f} bytes a request"
                print(f"  after {args.settle:,} calls: {slope_text}")
                for line in result["trace"]:
                    print("  " + line)
    if args.json:
        print(json.dumps(results, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
