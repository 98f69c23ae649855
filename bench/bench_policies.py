#!/usr/bin/env python3
"""Memory-policy benchmark sweep: the tables in docs/policies.md, reproducible from one command.

Runs every policy on the generated session for each (wording, seed, budget) asked for, prints a
Markdown table per run and writes all results as JSON (default ``bench/results/policies.json``,
which is git-ignored).

    python bench/bench_policies.py                      # 10,000 turns, seed 7, 600 msgs, all three wordings
    python bench/bench_policies.py --seeds 7,1,2,3 --budgets 600,300 --token-budgets 20000
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from ctxscope.core.policies import BenchmarkResult, Budget, run_generated

ROOT = Path(__file__).resolve().parent


def markdown(result: BenchmarkResult) -> str:
    """One result as a Markdown table."""
    lines = [
        f"**{result.source}, budget {result.budget.label()}** ({result.checkpoints} checkpoints, "
        f"{result.seconds:.1f} s)",
        "",
        "| policy | critical recall | stale retention | noise retention | precision | query recall "
        "| tokens | msgs | ms/query |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for name, m in result.policies.items():
        query = "–" if m.query_recall is None else f"{m.query_recall:.3f}"
        star = " *" if m.over_budget else ""
        lines.append(
            f"| {name}{star} | {m.critical_recall:.3f} | {m.stale_retention:.3f} | {m.noise_retention:.3f} "
            f"| {m.precision:.3f} | {query} | {m.tokens:,.0f} | {m.messages:,.0f} | {m.ms_per_query:.1f} |"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--turns", type=int, default=10_000)
    parser.add_argument("--seeds", default="7", help="comma-separated generator seeds")
    parser.add_argument("--budgets", default="600", help="comma-separated message budgets")
    parser.add_argument("--token-budgets", default="", help="comma-separated token budgets")
    parser.add_argument("--wordings", default="standard,heldout,blind2")
    parser.add_argument("--out", type=Path, default=ROOT / "results" / "policies.json")
    args = parser.parse_args(argv)

    budgets = [Budget(int(b)) for b in args.budgets.split(",") if b]
    budgets += [Budget(messages=None, tokens=int(t)) for t in args.token_budgets.split(",") if t]
    started = time.perf_counter()
    runs = []
    for wording in [w for w in args.wordings.split(",") if w]:
        for seed in [int(s) for s in args.seeds.split(",") if s]:
            for budget in budgets:
                result = run_generated(args.turns, seed, budget, wording=wording)
                print(markdown(result), end="\n\n", flush=True)
                runs.append(result.as_json())
    total = time.perf_counter() - started
    print(f"total {total:.1f} s for {len(runs)} runs")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps({"runs": runs, "seconds": round(total, 2)}, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
