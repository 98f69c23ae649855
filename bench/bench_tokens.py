#!/usr/bin/env python3
"""Token-estimator benchmark: speed per sample, and the accuracy tables of docs/tokens.md.

Speed (default): for every sample in ``../shared/token-truth/samples`` (``$CTXSCOPE_SHARED``
overrides ``../shared``), and ``read_tool_python`` (the Python sample as Claude Code's Read tool
returns a file: every line numbered and joined with ``→``, mostly ASCII with a few other
characters), and every estimator, the best of ``--repeats`` timed runs of
``estimator.count(text)``, reported as MB/s of UTF-8 input and as a ratio to
``text.encode("utf-8")`` timed the same way in the same process (the ceiling: 1.0 means as fast
as encoding). For ASCII text CPython's encode is a plain memory copy, so those ratios are tiny.

Accuracy (``--accuracy``): estimate ÷ target per ``counts.csv`` sample for the ``claude`` profile
(target ``claude_v47``), the ``openai`` profile (target ``o200k``), ``mythex`` and ``chars4``. These
samples are part of the fitting corpus, so the figures are IN-SAMPLE; the held-out figures come
from ``bench/fit_tokens.py cv``.

    .venv/bin/python bench/bench_tokens.py                # speed table
    .venv/bin/python bench/bench_tokens.py --accuracy     # accuracy tables
    .venv/bin/python bench/bench_tokens.py --json         # either, as JSON
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ctxscope.core.tokens import ESTIMATOR_NAMES, get_estimator

ROOT = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("CTXSCOPE_SHARED", ROOT.parent / "shared")).resolve()
TRUTH = SHARED / "token-truth"
PASS = 0.95


def _best(fn: Callable[[], object], repeats: int) -> float:
    """Best wall time of ``repeats`` runs of ``fn`` (seconds), after one warm-up run."""
    fn()
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best


def _samples() -> list[tuple[str, str]]:
    folder = TRUTH / "samples"
    if not folder.is_dir():
        sys.exit(f"no samples at {folder} (set CTXSCOPE_SHARED to the shared folder)")
    samples = [(p.stem, p.read_text(encoding="utf-8")) for p in sorted(folder.glob("*.txt"))]
    code = dict(samples)["python_code"]
    # Mostly ASCII with a few other characters: a file as Claude Code's Read tool returns it.
    read_tool = "".join(f"{n:>6}\u2192{line}\n" for n, line in enumerate(code.splitlines(), 1))
    return [*samples, ("read_tool_python", read_tool)]


def speed(args: argparse.Namespace) -> dict[str, Any]:
    names = list(args.estimators or ESTIMATOR_NAMES)
    rows = []
    for sample, text in _samples():
        size = len(text.encode("utf-8"))
        encode = _best(lambda t=text: t.encode("utf-8"), args.repeats * 5)
        row: dict[str, Any] = {"sample": sample, "utf8_bytes": size, "encode_mb_s": size / encode / 1e6}
        for name in names:
            est = get_estimator(name)
            seconds = _best(lambda e=est, t=text: e.count(t), args.repeats)
            row[name] = {"mb_s": size / seconds / 1e6, "vs_encode": encode / seconds}
        rows.append(row)
    return {"repeats": args.repeats, "estimators": names, "rows": rows}


def print_speed(result: dict[str, Any]) -> None:
    names = result["estimators"]
    print(f"best of {result['repeats']} runs; MB/s of UTF-8 input (ratio to text.encode('utf-8'))\n")
    print("| sample | KB | " + " | ".join(names) + " | encode MB/s |")
    print("|---|---:|" + "---:|" * len(names) + "---:|")
    for row in result["rows"]:
        cells = [f"{row[n]['mb_s']:,.0f} ({row[n]['vs_encode']:.3f})" for n in names]
        print(f"| {row['sample']} | {row['utf8_bytes'] / 1000:,.0f} | " + " | ".join(cells)
              + f" | {row['encode_mb_s']:,.0f} |")


def accuracy(args: argparse.Namespace) -> dict[str, Any]:
    del args
    est = {n: get_estimator(n) for n in ESTIMATOR_NAMES}
    samples = []
    with (TRUTH / "counts.csv").open(encoding="utf-8") as handle:
        for rec in csv.DictReader(handle):
            text = (TRUTH / rec["file"]).read_text(encoding="utf-8")
            v47, o2 = int(rec["claude_v47"]), int(rec["o200k"])
            counts = {n: e.count(text) for n, e in est.items()}
            samples.append({
                "sample": Path(rec["file"]).stem,
                "category": rec["category"],
                "claude/v47": counts["claude"] / v47,
                "openai/o200k": counts["openai"] / o2,
                "mythex/v47": counts["mythex"] / v47,
                "chars4/v47": counts["chars4"] / v47,
                "mythex/o200k": counts["mythex"] / o2,
                "chars4/o200k": counts["chars4"] / o2,
                "estimates": counts,
            })
    return {"samples": samples, "in_sample": True}


def print_accuracy(result: dict[str, Any]) -> None:
    cols = ("claude/v47", "openai/o200k", "mythex/v47", "chars4/v47", "mythex/o200k", "chars4/o200k")
    print("estimate ÷ target per sample (IN-SAMPLE: these samples are in the fitting corpus)\n")
    print("| sample | " + " | ".join(cols) + " |")
    print("|---|" + "---:|" * len(cols))
    for s in result["samples"]:
        print(f"| {s['sample']} | " + " | ".join(f"{s[c]:.2f}" for c in cols) + " |")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--accuracy", action="store_true", help="print the accuracy tables instead")
    parser.add_argument("--json", action="store_true", help="print JSON")
    parser.add_argument("--repeats", type=int, default=7, help="timed runs per measurement (best is kept)")
    parser.add_argument("--estimator", dest="estimators", action="append",
                        help="estimator to time (repeatable; default: the built-ins)")
    args = parser.parse_args(argv)
    if args.accuracy:
        result = accuracy(args)
        if args.json:
            print(json.dumps(result, indent=2))
        else:
            print_accuracy(result)
    else:
        result = speed(args)
        if args.json:
            print(json.dumps(result, indent=2))
        else:
            print_speed(result)
    return 0


if __name__ == "__main__":
    sys.exit(main())
