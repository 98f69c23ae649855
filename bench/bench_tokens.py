#!/usr/bin/env python3
"""Token-estimator benchmark: speed per sample, and the accuracy tables of docs/tokens.md.

Speed (default): for every sample in ``../shared/token-truth/samples`` (``$CTXSCOPE_SHARED``
overrides ``../shared``) and every estimator, the best of ``--repeats`` timed runs of
``estimator.count(text)``, reported as MB/s of UTF-8 input and as a ratio to
``text.encode("utf-8")`` timed the same way in the same process (the ceiling: 1.0 means as fast
as encoding). For ASCII text CPython's encode is a plain memory copy, so those ratios are tiny.

Accuracy (``--accuracy``): estimate ÷ target per sample for the ``claude`` profile (target
``claude_v47``), the ``openai`` profile (target ``o200k``), ``mythex`` and ``chars4`` (against both
Claude columns), then pass rates (share of texts with estimate ÷ target >= 0.95) and medians over
the UDHR languages and the code files. Claude targets there are the recorded counts minus 7 tokens
of message overhead (the README's figure; the ``-11`` and ``raw`` columns show the other readings);
OpenAI targets are exact ``o200k_base`` counts from the optional exact backend.

    .venv/bin/python bench/bench_tokens.py                # speed table
    .venv/bin/python bench/bench_tokens.py --accuracy     # accuracy tables
    .venv/bin/python bench/bench_tokens.py --json         # either, as JSON
"""

from __future__ import annotations

import argparse
import csv
import gzip
import json
import os
import statistics
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
    return [(p.stem, p.read_text(encoding="utf-8")) for p in sorted(folder.glob("*.txt"))]


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


def _o200k() -> Callable[[str], int]:
    from ctxscope.core.exact import exact_available, load_encoding

    if not exact_available():
        sys.exit("--accuracy needs the exact backend for o200k targets: pip install 'ctxscope[exact]'")
    return load_encoding("o200k_base")


def _rates(ratios: list[float]) -> dict[str, float]:
    return {
        "n": len(ratios),
        "pass": sum(r >= PASS for r in ratios) / len(ratios),
        "median": statistics.median(ratios),
        "min": min(ratios),
    }


def accuracy(args: argparse.Namespace) -> dict[str, Any]:
    o200k = _o200k()
    est = {n: get_estimator(n) for n in ESTIMATOR_NAMES}
    samples = []
    with (TRUTH / "counts.csv").open(encoding="utf-8") as handle:
        for rec in csv.DictReader(handle):
            text = (TRUTH / rec["file"]).read_text(encoding="utf-8")
            v47, v3, o2 = int(rec["claude_v47"]), int(rec["claude_v3"]), int(rec["o200k"])
            counts = {n: e.count(text) for n, e in est.items()}
            samples.append({
                "sample": Path(rec["file"]).stem,
                "category": rec["category"],
                "claude/v47": counts["claude"] / v47,
                "openai/o200k": counts["openai"] / o2,
                "mythex/v47": counts["mythex"] / v47,
                "chars4/v47": counts["chars4"] / v47,
                "mythex/v3": counts["mythex"] / v3,
                "chars4/v3": counts["chars4"] / v3,
                "estimates": counts,
            })
    groups: dict[str, Any] = {}
    for name, group in (("udhr-train.jsonl.gz", "udhr"), ("code-train.jsonl.gz", "code")):
        ratios: dict[str, list[float]] = {k: [] for k in (
            "claude/v47-7", "claude/v47-11", "claude/v47raw", "openai/o200k", "mythex/v47-7", "chars4/v47-7")}
        with gzip.open(TRUTH / name, "rt", encoding="utf-8") as handle:
            for line in handle:
                rec = json.loads(line)
                text, raw = rec["text"], rec["claude_tokens"]["claude-opus-4-7"]
                claude = est["claude"].count(text)
                ratios["claude/v47-7"].append(claude / (raw - 7))
                ratios["claude/v47-11"].append(claude / max(1, raw - 11))
                ratios["claude/v47raw"].append(claude / raw)
                ratios["openai/o200k"].append(est["openai"].count(text) / max(1, o200k(text)))
                ratios["mythex/v47-7"].append(est["mythex"].count(text) / (raw - 7))
                ratios["chars4/v47-7"].append(est["chars4"].count(text) / (raw - 7))
        groups[group] = {k: _rates(v) for k, v in ratios.items()}
    prose = [s for s in samples if "prose" in s["category"] or "mixed" in s["category"]]
    medians = {k: statistics.median(s[k] for s in prose)
               for k in ("claude/v47", "openai/o200k", "mythex/v47", "chars4/v47")}
    return {"samples": samples, "groups": groups, "prose_sample_median": medians}


def print_accuracy(result: dict[str, Any]) -> None:
    cols = ("claude/v47", "openai/o200k", "mythex/v47", "chars4/v47", "mythex/v3", "chars4/v3")
    print("estimate ÷ target per sample (>= 0.95 required for the profiles)\n")
    print("| sample | " + " | ".join(cols) + " |")
    print("|---|" + "---:|" * len(cols))
    for s in result["samples"]:
        print(f"| {s['sample']} | " + " | ".join(f"{s[c]:.2f}" for c in cols) + " |")
    med = result["prose_sample_median"]
    print("| *prose median* | " + " | ".join(f"{med[c]:.2f}" if c in med else "" for c in cols) + " |")
    for group, table in result["groups"].items():
        print(f"\n{group}: share with estimate ÷ target >= {PASS}, median, min\n")
        print("| estimator/target | n | pass | median | min |")
        print("|---|---:|---:|---:|---:|")
        for key, r in table.items():
            print(f"| {key} | {r['n']} | {r['pass']:.1%} | {r['median']:.2f} | {r['min']:.2f} |")


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
