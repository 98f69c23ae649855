#!/usr/bin/env python3
"""Replay benchmark: sessions of 1k, 10k and 100k model calls through the compaction pipeline.

Targets (issue 3): ``time(100k) / time(10k) <= 12`` (replay is linear in the session's length) and
10k calls replayed in under 3 s. Each size runs in a fresh subprocess, which measures:

* **baseline** — a bare ``orjson.loads`` loop over the log's lines (the floor of any reader);
* **read** — :func:`ctxscope.core.reader.open_log` (parse, adapt, count tokens, elide);
* **replay** — :meth:`ctxscope.core.replay.SessionReplay.update` over the whole session, first
  time (the pipeline computes each message's per-block costs, stage-1 forms and summaries);
* **replay warm** — a second, fresh replay of the same session objects (message memos warm; the
  first replay's records freed first);
* **detail** — one :meth:`SessionReplay.detail` of the last request (computed on demand).

The sessions are synthetic but made of real text (standard-library source slices), in ctxscope's
format, with two scopes — a main agent with a user turn every 20 calls and a DOM snapshot every
100, and a sub-agent with one long run of tool calls — at a 30,000-token budget and 60,000-token
limit, so every stage runs many times (clearing, summaries, guard). Logs go to /tmp and are never
committed::

    python bench/bench_replay.py                 # 1k, 10k, 100k
    python bench/bench_replay.py --sizes 1000 10000
    python bench/bench_replay.py --json
"""

from __future__ import annotations

import argparse
import gc
import json
import random
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import orjson

ROOT = Path(__file__).resolve().parent.parent
OUT = Path("/tmp/ctxscope-bench-replay")
SIZES = (1_000, 10_000, 100_000)
LIMIT, BUDGET = 60_000, 30_000


def write_session(path: Path, requests: int, seed: int = 0) -> None:
    """A two-scope ctxscope log with ``requests`` model calls (deterministic for a seed)."""
    import pydoc

    from ctxscope.core.logformat import SessionLogWriter
    from ctxscope.core.model import ArtifactKind, Block, BlockKind, text_block, tool_call, tool_result
    from ctxscope.demo_sessions.text_sources import long_sources

    rng = random.Random(seed)
    corpus = "\n".join(f.read() for f in long_sources(20_000, 60_000)[:40])
    page = str(pydoc._url_handler("get?key=json", "text/html"))  # type: ignore[attr-defined]

    def snippet(low: int, high: int) -> str:
        size = rng.randint(low, high)
        start = rng.randrange(0, len(corpus) - size)
        return corpus[start : start + size]

    calls = 0
    with SessionLogWriter.create(path) as log:
        log.session(scope="main", context_limit=LIMIT, budget=BUDGET, label="main agent")
        log.session(scope="sub", parent="main", context_limit=LIMIT, budget=BUDGET, label="reader")
        log.message("system", "You are a coding agent.", scope="main")
        log.message("user", "Investigate the repository.", scope="main")
        log.message("user", "Read every module and report.", scope="sub")
        for n in range(requests):
            scope = "main" if n % 2 == 0 else "sub"
            if scope == "main" and n % 40 == 0:
                log.message("user", f"Step {n}: {snippet(80, 400)}", scope=scope)
            calls += 1
            call_id = f"c{calls}"
            tool = rng.choice(("Read", "Read", "Grep", "Bash"))
            log.message(
                "assistant",
                [text_block(f"Next I check {snippet(20, 80)}"), tool_call(call_id, tool, '{"path": "x.py"}')],
                scope=scope,
            )
            blocks = [tool_result(call_id, snippet(100, 2_400), name=tool)]
            if scope == "main" and n % 200 == 100:
                blocks.append(Block(BlockKind.ARTIFACT, page, artifact=ArtifactKind.DOM_SNAPSHOT))
            log.message("tool", blocks, scope=scope)
            log.request(scope=scope)


def measure(path: str) -> dict[str, Any]:
    """Run in the child: the timings for one log."""
    from ctxscope.core.reader import open_log
    from ctxscope.core.replay import SessionReplay

    with open(path, "rb") as handle:
        lines = handle.read().splitlines()
    started = time.perf_counter()
    for line in lines:
        orjson.loads(line)
    baseline = time.perf_counter() - started
    started = time.perf_counter()
    session = open_log(path)
    read = time.perf_counter() - started
    started = time.perf_counter()
    replay = SessionReplay()
    records = replay.update(session)
    cold = time.perf_counter() - started
    started = time.perf_counter()
    last = records[-1]
    replay.detail(last.scope_id, last.index)
    detail = time.perf_counter() - started
    stages: dict[str, int] = {}
    for record in records:
        for run in record.stages:
            stages[run.stage.value] = stages.get(run.stage.value, 0) + 1
    over_limit = sum(r.over_limit for r in records)
    refused = sum(r.refused for r in records)
    del replay, records, last
    gc.collect()
    started = time.perf_counter()
    SessionReplay().update(session)
    warm = time.perf_counter() - started
    messages, requests = session.totals()
    return {
        "requests": requests,
        "messages": messages,
        "log_mb": round(Path(path).stat().st_size / 1e6, 1),
        "baseline_s": round(baseline, 3),
        "read_s": round(read, 3),
        "replay_s": round(cold, 3),
        "replay_warm_s": round(warm, 3),
        "detail_s": round(detail, 4),
        "replay_vs_baseline": round(cold / baseline, 2) if baseline else None,
        "us_per_request": round(cold / requests * 1e6, 1),
        "stage_runs": stages,
        "over_limit": over_limit,
        "refused": refused,
    }


def run(sizes: list[int]) -> dict[str, Any]:
    OUT.mkdir(parents=True, exist_ok=True)
    rows = []
    for size in sizes:
        path = OUT / f"replay-{size}.jsonl"
        if not path.exists():
            write_session(path, size)
        out = subprocess.run(
            [sys.executable, __file__, "--child", str(path)], check=True, capture_output=True, text=True
        )
        rows.append(json.loads(out.stdout))
    by_size = {row["requests"]: row for row in rows}
    result: dict[str, Any] = {"rows": rows}
    if 10_000 in by_size and 100_000 in by_size:
        result["scaling_100k_over_10k"] = round(by_size[100_000]["replay_s"] / by_size[10_000]["replay_s"], 2)
        result["scaling_ok"] = result["scaling_100k_over_10k"] <= 12
    if 10_000 in by_size:
        result["ten_k_under_3s"] = by_size[10_000]["replay_s"] < 3
    return result


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--sizes", type=int, nargs="+", default=list(SIZES))
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(measure(args.child)))
        return 0
    result = run(args.sizes)
    if args.json:
        print(json.dumps(result, indent=2))
        return 0
    print(
        f"{'calls':>8} {'msgs':>8} {'log MB':>7} {'orjson s':>9} {'read s':>7} {'replay s':>9} "
        f"{'warm s':>7} {'×orjson':>8} {'µs/call':>8} {'detail s':>9}"
    )
    for row in result["rows"]:
        print(
            f"{row['requests']:>8,} {row['messages']:>8,} {row['log_mb']:>7} {row['baseline_s']:>9} "
            f"{row['read_s']:>7} {row['replay_s']:>9} {row['replay_warm_s']:>7} "
            f"{row['replay_vs_baseline']:>8} {row['us_per_request']:>8} {row['detail_s']:>9}"
        )
    for key in ("scaling_100k_over_10k", "scaling_ok", "ten_k_under_3s"):
        if key in result:
            print(f"{key}: {result[key]}")
    print("stage runs at the largest size:", result["rows"][-1]["stage_runs"])
    return 0


if __name__ == "__main__":
    sys.exit(main())
