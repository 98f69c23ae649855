#!/usr/bin/env python3
"""Reader benchmark: parse + estimate throughput against a bare ``orjson.loads`` loop, and peak RSS.

For each log it measures, in fresh subprocesses:

* **ceiling** — a bare loop of ``orjson.loads`` over the same lines (one call for a whole-document
  log), in the same process as the next measurement;
* **parse + estimate** — :func:`ctxscope.core.reader.open_log` (detect, decode, adapt, elide long
  text after counting it; sibling sub-agent logs left out so both read the same lines) followed by
  the estimate of every stored message and the estimate-vs-reported check of every call
  (:func:`ctxscope.core.usage_check.check_usage`);
* **peak RSS** — ``ru_maxrss`` of a process that only does parse + estimate, next to the RSS of a
  process that only imports ``ctxscope.core`` (the interpreter's own share).

Timings are the best of ``--repeat`` runs (default 3). The target is parse + estimate within 3×
of the ceiling. Logs: the largest real log in
``../shared/real-logs`` (and the largest JSONL one), and a synthetic Claude Code transcript
generated into /tmp (200 MB by default; never committed)::

    python bench/bench_reader.py                       # real logs + 200 MB synthetic
    python bench/bench_reader.py --synthetic-mb 50     # a smaller synthetic log
    python bench/bench_reader.py --log some.jsonl      # one log of your own
    python bench/bench_reader.py --json                # machine-readable
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import orjson

ROOT = Path(__file__).resolve().parent.parent
SHARED = Path(os.environ.get("CTXSCOPE_SHARED", ROOT.parent / "shared"))
SYNTHETIC = Path("/tmp/ctxscope-bench-synthetic.jsonl")


# -- the measurements (run in a child process) -------------------------------------------------------


def _peak_rss_mb() -> float:
    import resource

    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak / 1024 if sys.platform != "darwin" else peak / (1 << 20)


def _ceiling(path: str) -> float:
    """Seconds for a bare orjson.loads loop over the file's lines (or the whole document)."""
    started = time.perf_counter()
    with open(path, "rb") as handle:
        head = handle.read(1 << 16).lstrip()
        handle.seek(0)
        if head[:1] == b"[" or head.split(b"\n", 1)[0].strip() == b"{":
            orjson.loads(handle.read())
        else:
            loads = orjson.loads
            with contextlib.suppress(orjson.JSONDecodeError):
                for line in handle:
                    loads(line)
    return time.perf_counter() - started


def _parse_and_estimate(path: str) -> dict[str, Any]:
    from ctxscope.core.reader import open_log
    from ctxscope.core.usage_check import check_usage

    started = time.perf_counter()
    session = open_log(path, siblings=False)  # the same lines as the ceiling loop
    parsed = time.perf_counter()
    tokens = sum(m.tokens() for s in session.scopes.values() for m in s.messages)
    check = check_usage(session)
    done = time.perf_counter()
    return {
        "format": session.format,
        "scopes": len(session.scopes),
        "messages": sum(len(s.messages) for s in session.scopes.values()),
        "calls": sum(len(s.requests) for s in session.scopes.values()),
        "lines": session.lines_read,
        "tokens": tokens,
        "calibrated_median": check.calibrated.median if check.calibrated else None,
        "parse_s": parsed - started,
        "estimate_s": done - parsed,
        "total_s": done - started,
    }


def child(mode: str, path: str) -> dict[str, Any]:
    if mode == "imports":
        import ctxscope.core.reader

        return {"rss_mb": _peak_rss_mb(), "module": ctxscope.core.reader.__name__}
    if mode == "throughput":
        import ctxscope.core.reader

        ceiling = _ceiling(path)
        result = _parse_and_estimate(path)
        return {"ceiling_s": ceiling, **result}
    if mode == "memory":
        result = _parse_and_estimate(path)
        return {"rss_mb": _peak_rss_mb(), **result}
    raise SystemExit(f"unknown mode {mode}")


def run_child(mode: str, path: str) -> dict[str, Any]:
    out = subprocess.run(
        [sys.executable, __file__, "--child", mode, path], capture_output=True, text=True, check=True
    )
    result: dict[str, Any] = json.loads(out.stdout.strip().splitlines()[-1])
    return result


# -- the synthetic log -------------------------------------------------------------------------------


_WORD_TEXT = (
    "the context window session agent token compaction summary budget request model tool result file "
    "read write edit search config value error warning test pass fail build deploy user assistant"
)
WORDS = _WORD_TEXT.split()
CODE = [
    "def handle(request, *, timeout=30):",
    "    return {'status': 200, 'items': [item.to_dict() for item in items]}",
    "for (let i = 0; i < rows.length; i++) { total += rows[i].amount; }",
    "SELECT id, name, created_at FROM sessions WHERE budget > 400000 ORDER BY id;",
    '{"id": 12345, "name": "report", "values": [0.125, 3.5, 42.0, -7.25], "ok": true}',
    "  -rw-r--r--  1 user staff  10240 Nov 17 15:30 rollout-2025-11-17.jsonl",
    "Привет, это строка на русском языке для проверки оценки токенов.",
    "这是用于测试分词器估计的中文句子。コンテキストウィンドウの確認。",
]


def _corpus(rng: random.Random, size: int = 1 << 20) -> str:
    parts: list[str] = []
    total = 0
    while total < size:
        if rng.random() < 0.5:
            piece = " ".join(rng.choice(WORDS) for _ in range(rng.randint(5, 30))) + ".\n"
        else:
            piece = "\n".join(rng.choice(CODE) for _ in range(rng.randint(1, 8))) + "\n"
        parts.append(piece)
        total += len(piece)
    return "".join(parts)


def synthesize(path: Path, megabytes: int, seed: int = 7) -> Path:
    """A Claude Code transcript of about ``megabytes`` MB: split responses, tool results of mixed
    sizes (some 100 KB+), hook progress lines, and an auto-compaction every 400 calls."""
    rng = random.Random(seed)
    corpus = _corpus(rng)
    target = megabytes << 20
    session = "00000000-bench-0000-0000-000000000000"
    written = 0
    calls = 0
    context = 20_000

    def text(lo: int, hi: int) -> str:
        size = min(int(rng.paretovariate(1.2) * lo), hi)
        start = rng.randrange(0, len(corpus) - size - 1)
        return corpus[start : start + size]

    def env(kind: str, **fields: Any) -> bytes:
        record = {
            "parentUuid": None,
            "isSidechain": False,
            "userType": "external",
            "cwd": "/w",
            "sessionId": session,
            "version": "2.1.39",
            "type": kind,
            "uuid": f"u{written}",
            "timestamp": "2026-02-12T16:02:29.111Z",
            **fields,
        }
        return orjson.dumps(record) + b"\n"

    with open(path, "wb") as out:
        while written < target:
            lines = [env("user", message={"role": "user", "content": text(100, 2000)})]
            for _ in range(rng.randint(2, 12)):
                calls += 1
                msg_id = f"msg_{calls:08d}"
                usage = {
                    "input_tokens": 3,
                    "cache_creation_input_tokens": 500,
                    "cache_read_input_tokens": context,
                    "output_tokens": 1,
                }
                call_id = f"toolu_{calls:08d}"
                blocks = [
                    {"type": "thinking", "thinking": text(200, 4000), "signature": "sig"},
                    {"type": "text", "text": text(50, 1000)},
                    {
                        "type": "tool_use",
                        "id": call_id,
                        "name": rng.choice(["Read", "Bash", "Grep", "Edit"]),
                        "input": {"command": text(20, 300)},
                    },
                ]
                for block in blocks:
                    message = {
                        "model": "claude-opus-4-6",
                        "id": msg_id,
                        "type": "message",
                        "role": "assistant",
                        "content": [block],
                        "stop_reason": None,
                        "usage": usage,
                    }
                    lines.append(env("assistant", message=message, requestId=f"req_{calls:08d}"))
                result = text(300, 200_000)
                lines.append(
                    env(
                        "progress",
                        data={
                            "type": "hook_progress",
                            "hookEvent": "PostToolUse",
                            "command": "hook.sh " + text(50, 400),
                        },
                    )
                )
                lines.append(
                    env(
                        "user",
                        message={
                            "role": "user",
                            "content": [
                                {
                                    "type": "tool_result",
                                    "tool_use_id": call_id,
                                    "content": result,
                                    "is_error": False,
                                }
                            ],
                        },
                    )
                )
                context += len(result) // 3 + 400
                if calls % 400 == 0:
                    lines.append(
                        env(
                            "system",
                            subtype="compact_boundary",
                            content="Conversation compacted",
                            compactMetadata={"trigger": "auto", "preTokens": context},
                        )
                    )
                    summary = "This session is being continued from a previous conversation. " + text(
                        5000, 15000
                    )
                    lines.append(
                        env("user", message={"role": "user", "content": summary}, isCompactSummary=True)
                    )
                    context = 25_000
            data = b"".join(lines)
            out.write(data)
            written += len(data)
    return path


# -- driver ------------------------------------------------------------------------------------------


def measure(path: Path, label: str, repeat: int = 3) -> dict[str, Any]:
    size_mb = path.stat().st_size / (1 << 20)
    runs = [run_child("throughput", str(path)) for _ in range(max(1, repeat))]
    speed = dict(runs[0])
    for key in ("ceiling_s", "parse_s", "estimate_s", "total_s"):
        speed[key] = min(r[key] for r in runs)  # best of N: the machine may be busy
    memory = run_child("memory", str(path))
    base = run_child("imports", str(path))
    return {
        "log": label,
        "path": str(path),
        "size_mb": round(size_mb, 1),
        "format": speed["format"],
        "lines": speed["lines"],
        "messages": speed["messages"],
        "calls": speed["calls"],
        "ceiling_mb_s": round(size_mb / speed["ceiling_s"], 1),
        "parse_mb_s": round(size_mb / speed["parse_s"], 1),
        "parse_estimate_mb_s": round(size_mb / speed["total_s"], 1),
        "times_ceiling": round(speed["total_s"] / speed["ceiling_s"], 2),
        "parse_times_ceiling": round(speed["parse_s"] / speed["ceiling_s"], 2),
        "peak_rss_mb": round(memory["rss_mb"], 1),
        "import_rss_mb": round(base["rss_mb"], 1),
        "calibrated_median": speed["calibrated_median"],
    }


def largest_real_logs() -> list[tuple[Path, str]]:
    folder = SHARED / "real-logs"
    if not folder.is_dir():
        return []
    files = [p for p in folder.rglob("*") if p.is_file() and p.suffix in (".jsonl", ".json", ".traj")]
    if not files:
        return []
    largest = max(files, key=lambda p: p.stat().st_size)
    picks = [(largest, f"largest real log ({largest.name})")]
    jsonl = [p for p in files if p.suffix == ".jsonl"]
    if jsonl and (biggest_lines := max(jsonl, key=lambda p: p.stat().st_size)) != largest:
        picks.append((biggest_lines, f"largest real JSONL log ({biggest_lines.name})"))
    return picks


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--synthetic-mb", type=int, default=200, help="0 skips the synthetic log")
    parser.add_argument("--synthetic-path", type=Path, default=SYNTHETIC)
    parser.add_argument("--keep", action="store_true", help="keep the synthetic log afterwards")
    parser.add_argument("--log", type=Path, action="append", default=[], help="also measure this log")
    parser.add_argument("--repeat", type=int, default=3, help="timing runs per log (best is kept)")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--child", nargs=2, metavar=("MODE", "PATH"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        print(json.dumps(child(*args.child)))
        return 0

    logs = largest_real_logs() + [(p, p.name) for p in args.log]
    made: Path | None = None
    if args.synthetic_mb:
        started = time.perf_counter()
        made = synthesize(args.synthetic_path, args.synthetic_mb)
        print(
            f"generated {made} ({made.stat().st_size >> 20} MB) in {time.perf_counter() - started:.1f} s",
            file=sys.stderr,
        )
        logs.append((made, f"synthetic Claude Code transcript ({args.synthetic_mb} MB)"))
    try:
        results = [measure(path, label, args.repeat) for path, label in logs]
    finally:
        if made is not None and not args.keep:
            made.unlink(missing_ok=True)
    if args.json:
        print(json.dumps(results, indent=2))
        return 0
    print(
        "| log | MB | format | lines | ceiling MB/s | parse MB/s | parse+estimate MB/s | × ceiling "
        "| peak RSS MB (imports only) |"
    )
    print("|---|---:|---|---:|---:|---:|---:|---:|---:|")
    for r in results:
        print(
            f"| {r['log']} | {r['size_mb']} | {r['format']} | {r['lines']:,} | {r['ceiling_mb_s']} "
            f"| {r['parse_mb_s']} | {r['parse_estimate_mb_s']} | {r['times_ceiling']} "
            f"| {r['peak_rss_mb']} ({r['import_rss_mb']}) |"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
