#!/usr/bin/env python3
"""Memory-policy benchmark: the dataset × policy table in docs/policies.md, from one command.

Datasets (token budgets by default; each run is every policy on the same messages):

* ctxscope's generator, fourteen wordings (``standard``, ``heldout``, ``blind2``, ``blind3``,
  ``blind4``, ``blind5``, ``blind6``, ``blind7``, ``blind8``, ``blind9``, ``blind10``, ``blind11``,
  ``blind12``, ``blind13``), 10,000 turns,
  seed 7;
* ``seed-shape``: a session of the seed harness's structure (:mod:`ctxscope.core.policies.seedshape`);
* LoCoMo (long two-person conversations with question evidence), when ``--locomo`` points at its
  ``locomo10.json``: the ``dev`` part and the ``heldout`` part (bench/convert_locomo.py says which
  conversations), converted to the ``--dataset`` format and graded with one checkpoint per question.

    python bench/bench_policies.py --locomo PATH/locomo10.json          # the tables (about 3 minutes)
    python bench/bench_policies.py --generated-budgets 16000 --locomo-budgets ""   # one quick run
    python bench/bench_policies.py --speed          # the recommended policy's cost per checkpoint

Sets used while building the recommended policy: ``standard``, ``heldout``, ``blind2``,
``blind3``, ``blind4``, ``blind5``, ``blind6``, ``blind7``, ``blind8``, ``blind9``, ``blind10``,
``blind11``, ``blind12`` and ``blind13`` (their failures studied turn by turn; ``blind6`` and
``blind7`` from branch ``policies7``, ``blind8`` from branch ``policies9``, ``blind9`` from branch
``policies10``, ``blind10`` from branch ``policies11``, ``blind11`` from branch ``policies12``,
``blind12`` from branch ``policies13``, ``blind13`` from branch ``policies14``, each after its runs
as a held-out set), ``seed-shape`` and LoCoMo ``dev``. Held out (run to report): LoCoMo
``heldout``, ``blind14`` and ``blind15`` (each frozen before any policy ran on it; run by the lead
to report), left out of the default parts and ``--wordings`` so that no routine run touches them.

Prints Markdown tables (cells ``critical recall / stale retention``, and per-question recall; the
last column, ``ceiling †``, the most critical recall, or per-question recall, that any policy sending
whole messages within the budget could reach, from the answer key) and
writes every result as JSON (default ``bench/results/policies.json``, git-ignored). To re-pin the
tests after a change that moves the figures (the token estimator, say), run the command above on
the merged tree and copy from its tables: the ``focus`` cells at 16,000 tokens of every generated
wording into ``PINNED_16K`` (tests/core/test_policies_benchmark.py; stale retention to four
places, from ``bench/results/policies.json``), ``standard`` at 8,000 tokens into
``test_recommended_policy_at_8k_tokens_on_standard``, the ``seed-shape`` 8,000-token recalls of
``focus``, ``importance-seed`` and ``sliding-window`` into ``test_seed_shape_session_beside_the_seed_scorer``,
and the LoCoMo ``heldout`` cells (4,000 and 8,000 tokens) into ``test_heldout_figures``
(tests/core/test_policies_locomo.py); then the tables into docs/policies.md.

``--speed`` measures what one checkpoint costs the recommended policy as the history grows: the
generated session (``--turns``) is asked one question every ``--speed-every`` turns; each row is the
mean ``select`` time of ``focus`` and of two same-run baselines over the checkpoints in one quarter
of the session: ``sliding-window`` (reads the newest messages only; well under a millisecond, so its
ratio is noisy) and ``importance-seed`` (scores every message: a cost that grows with the history),
and the ratios.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

from ctxscope.core.policies import (
    POLICY_NAMES,
    RECOMMENDED,
    BenchmarkResult,
    Budget,
    PolicyRunner,
    evaluate_sessions,
    generate,
    load_labels,
    load_session,
    run_generated,
)

ROOT = Path(__file__).resolve().parent
sys.path.insert(0, str(ROOT))
from convert_locomo import PARTS, convert  # noqa: E402

GENERATED = (
    "standard", "heldout", "blind2", "blind3", "blind4", "blind5", "blind6", "blind7", "blind8", "blind9",
    "blind10", "blind11", "blind12", "blind13", "seed-shape",
)

def _cell(value: float | None) -> str:
    return "–" if value is None else f"{value:.3f}"


def _row(dataset: str, result: BenchmarkResult, measure: str) -> str:
    budget = f"{result.budget.tokens:,} tok" if result.budget.tokens else result.budget.label()
    cells = []
    for name in [n for n in POLICY_NAMES if n in result.policies]:
        m = result.policies[name]
        if measure == "state":
            text = f"{_cell(m.critical_recall)} / {_cell(m.stale_retention)}"
        else:
            text = _cell(m.query_recall)
        cells.append(f"**{text}**" if name == RECOMMENDED else text)
    ceiling = result.ceiling
    if ceiling is not None:
        cells.append(_cell(ceiling.critical_recall if measure == "state" else ceiling.query_recall))
    return f"| {dataset} | {budget} | " + " | ".join(cells) + " |"


def _header(shown: list[str] | None) -> list[str]:
    names = [f"{n} *" if n == "full-history" else n for n in POLICY_NAMES if shown is None or n in shown]
    names.append("ceiling †")
    return ["| dataset | budget | " + " | ".join(names) + " |", "|---|---|" + "---|" * len(names)]


def _locomo_sessions(path: Path, part: str, workdir: Path) -> list[tuple[list, object]]:
    """Convert one part through the ``--dataset`` files, as the CLI would read them."""
    sessions = []
    for sample in json.loads(path.read_bytes()):
        if sample["sample_id"] not in PARTS[part]:
            continue
        rows, labels = convert(sample)
        session_file = workdir / f"{sample['sample_id']}.session.jsonl"
        labels_file = workdir / f"{sample['sample_id']}.labels.jsonl"
        session_file.write_text("".join(json.dumps(r) + "\n" for r in rows))
        labels_file.write_text("".join(json.dumps(r) + "\n" for r in labels))
        messages = load_session(session_file)
        sessions.append((messages, load_labels(labels_file, messages)))
    return sessions


def _speed(turns: int, seed: int, every: int, tokens: int) -> int:
    """Print the recommended policy's mean checkpoint time per quarter of the session, beside the
    sliding window's in the same run."""
    bench = generate(turns, seed)
    query = bench.key.checkpoints[-1].query
    budget = Budget(messages=None, tokens=tokens)
    baselines = ("sliding-window", "importance-seed")
    runner = PolicyRunner([RECOMMENDED, *baselines])
    quarters: dict[int, list[tuple[float, ...]]] = {}
    started = time.perf_counter()
    try:
        for position, message in enumerate(bench.messages, start=1):
            runner.feed(message)
            if position % every == 0:
                timed = runner.select(message.turn + 1, query, budget)
                quarter = min(3, 4 * (position - 1) // len(bench.messages))
                quarters.setdefault(quarter, []).append(
                    tuple(timed[name].seconds for name in (RECOMMENDED, *baselines))
                )
    finally:
        runner.close()
    print(f"{RECOMMENDED} checkpoint cost, {turns} generated turns, a question every {every} turns, "
          f"{tokens:,}-token budget\n")
    print(f"| history (turns) | checkpoints | {RECOMMENDED} ms | sliding-window ms | importance-seed ms "
          f"| {RECOMMENDED} ÷ sliding-window | {RECOMMENDED} ÷ importance-seed |")
    print("|---|---|---|---|---|---|---|")
    for quarter in sorted(quarters):
        rows = quarters[quarter]
        ours, window, seed_ms = (1000 * sum(r[i] for r in rows) / len(rows) for i in range(3))
        span = f"{quarter * turns // 4 + 1:,}–{(quarter + 1) * turns // 4:,}"
        print(f"| {span} | {len(rows)} | {ours:.1f} | {window:.2f} | {seed_ms:.1f} | {ours / window:.0f} "
              f"| {ours / seed_ms:.2f} |")
    print(f"\n{time.perf_counter() - started:.0f} s")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--turns", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--generated-budgets", default="4000,8000,16000", help="token budgets")
    parser.add_argument("--wordings", default=",".join(GENERATED))
    parser.add_argument("--locomo", type=Path, default=None, help="LoCoMo's data/locomo10.json")
    parser.add_argument("--locomo-budgets", default="2000,4000,8000", help="token budgets")
    parser.add_argument("--locomo-parts", default="dev,heldout")
    parser.add_argument("--policies", default="", help="comma-separated policy names (default: all)")
    parser.add_argument("--out", type=Path, default=ROOT / "results" / "policies.json")
    parser.add_argument("--speed", action="store_true", help="time the recommended policy's checkpoints")
    parser.add_argument("--speed-every", type=int, default=250, help="turns between --speed checkpoints")
    parser.add_argument("--speed-budget", type=int, default=16_000, help="--speed's token budget")
    args = parser.parse_args(argv)
    if args.speed:
        return _speed(args.turns, args.seed, args.speed_every, args.speed_budget)
    names = [n for n in args.policies.split(",") if n] or None

    started = time.perf_counter()
    runs: list[tuple[str, BenchmarkResult]] = []
    for wording in [w for w in args.wordings.split(",") if w]:
        for tokens in [int(t) for t in args.generated_budgets.split(",") if t]:
            budget = Budget(messages=None, tokens=tokens)
            result = run_generated(args.turns, args.seed, budget, wording=wording, policies=names)
            runs.append((wording, result))
            print(f"{wording} {tokens}: {result.seconds:.1f} s", file=sys.stderr, flush=True)
    if args.locomo is not None:
        with tempfile.TemporaryDirectory() as tmp:
            for part in [p for p in args.locomo_parts.split(",") if p]:
                sessions = _locomo_sessions(args.locomo, part, Path(tmp))
                for tokens in [int(t) for t in args.locomo_budgets.split(",") if t]:
                    budget = Budget(messages=None, tokens=tokens)
                    result = evaluate_sessions(sessions, budget, policies=names, source=f"LoCoMo {part}")
                    runs.append((f"LoCoMo {part}", result))
                    print(f"LoCoMo {part} {tokens}: {result.seconds:.1f} s", file=sys.stderr, flush=True)
    total = time.perf_counter() - started
    print("Critical recall / stale retention (LoCoMo: evidence recall over all its questions / –)\n")
    print("\n".join(_header(names) + [_row(d, r, "state") for d, r in runs]))
    print("\nPer-question recall (the evidence of the question being asked that the policy sends)\n")
    print("\n".join(_header(names) + [_row(d, r, "query") for d, r in runs]))
    print(f"\n{len(runs)} runs, {total:.0f} s")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    payload = {
        "recommended": RECOMMENDED,
        "runs": [dict(r.as_json(), dataset=d) for d, r in runs],
    }
    args.out.write_text(json.dumps(payload | {"seconds": round(total, 1)}, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
