"""The scorer: runs the policies over a session and grades their selections against an answer key.

The key never reaches the policies: :func:`evaluate` feeds the session to a
:class:`~.runner.PolicyRunner` (which knows nothing of the key), asks it for every policy's
selection at each checkpoint, and only then compares those selections with the key.

Metrics, pooled over the checkpoints (sums of counts, then one ratio):

* ``critical_recall`` — share of the critical facts in force at the checkpoint that the selection
  carries (verbatim or through its summary);
* ``stale_retention`` — share of the stale evidence (superseded facts, echoes of them) it carries;
* ``noise_retention`` — share of the noise (chatter, distractors) it carries;
* ``precision`` — share of what it carries that is a critical fact in force;
* ``query_recall`` — share of the turns each checkpoint's answer needs that it carries;
* ``tokens`` and ``messages`` — mean size of what it sends; ``ms_per_query`` — mean time per call.
"""

from __future__ import annotations

import os
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from .answer_key import AnswerKey, Label
from .records import Budget, PolicyMessage, Selection
from .runner import PolicyRunner

METRIC_NAMES: Final = (
    "critical_recall", "stale_retention", "noise_retention", "precision", "query_recall", "tokens",
    "messages", "ms_per_query",
)


@dataclass(frozen=True, slots=True)
class PolicyMetrics:
    """One policy's grades over all checkpoints.

    Attributes:
        policy: The policy's name.
        critical_recall: Critical facts in force carried / critical facts in force.
        stale_retention: Stale evidence carried / stale evidence.
        noise_retention: Noise carried / noise.
        precision: Critical facts in force carried / everything carried.
        query_recall: Needed turns carried / needed turns (None when no checkpoint names any).
        tokens: Mean tokens sent per query.
        messages: Mean messages sent per query (a summary counts as one).
        ms_per_query: Mean milliseconds per ``select`` call.
        over_budget: True when the policy exceeded the budget at some checkpoint (full history).
    """

    policy: str
    critical_recall: float
    stale_retention: float
    noise_retention: float
    precision: float
    query_recall: float | None
    tokens: float
    messages: float
    ms_per_query: float
    over_budget: bool

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready values, ratios rounded to 4 places."""
        return {
            "critical_recall": round(self.critical_recall, 4),
            "stale_retention": round(self.stale_retention, 4),
            "noise_retention": round(self.noise_retention, 4),
            "precision": round(self.precision, 4),
            "query_recall": None if self.query_recall is None else round(self.query_recall, 4),
            "tokens": round(self.tokens),
            "messages": round(self.messages, 1),
            "ms_per_query": round(self.ms_per_query, 2),
            "over_budget": self.over_budget,
        }


@dataclass(frozen=True, slots=True)
class BenchmarkResult:
    """Grades of every policy on one session, key and budget.

    Attributes:
        policies: Metrics by policy name, in run order.
        budget: The budget the policies ran under.
        turns: Messages in the session.
        checkpoints: Checkpoints evaluated.
        seconds: Wall time of the whole run (feeding, selecting and grading).
        source: Where the session came from.
    """

    policies: dict[str, PolicyMetrics]
    budget: Budget
    turns: int
    checkpoints: int
    seconds: float
    source: str = ""
    extra: dict[str, Any] = field(default_factory=dict)
    """Anything else worth reporting (generator seed, label counts)."""

    def as_json(self) -> dict[str, Any]:
        """The JSON shape of ``ctxscope bench policies --json``."""
        return {
            "policies": {name: m.as_dict() for name, m in self.policies.items()},
            "budget": {"messages": self.budget.messages, "tokens": self.budget.tokens},
            "turns": self.turns,
            "checkpoints": self.checkpoints,
            "seconds": round(self.seconds, 2),
            "source": self.source,
            **self.extra,
        }


@dataclass(slots=True)
class _Tally:
    critical: int = 0
    critical_kept: int = 0
    stale: int = 0
    stale_kept: int = 0
    noise: int = 0
    noise_kept: int = 0
    kept: int = 0
    needs: int = 0
    needs_kept: int = 0
    tokens: int = 0
    messages: int = 0
    seconds: float = 0.0
    queries: int = 0
    over_budget: bool = False

    def add(
        self, selection: Selection, sets: dict[Label, frozenset[int]], needs: Sequence[int], secs: float
    ) -> None:
        kept = selection.kept
        self.critical += len(sets[Label.CRITICAL])
        self.critical_kept += len(kept & sets[Label.CRITICAL])
        self.stale += len(sets[Label.STALE])
        self.stale_kept += len(kept & sets[Label.STALE])
        self.noise += len(sets[Label.NOISE])
        self.noise_kept += len(kept & sets[Label.NOISE])
        self.kept += len(kept)
        self.needs += len(needs)
        self.needs_kept += len(kept & frozenset(needs))
        self.tokens += selection.tokens
        self.messages += selection.message_count
        self.seconds += secs
        self.queries += 1
        self.over_budget = self.over_budget or selection.over_budget

    def metrics(self, name: str) -> PolicyMetrics:
        def ratio(a: int, b: int, empty: float) -> float:
            return a / b if b else empty

        n = max(1, self.queries)
        return PolicyMetrics(
            policy=name,
            critical_recall=ratio(self.critical_kept, self.critical, 1.0),
            stale_retention=ratio(self.stale_kept, self.stale, 0.0),
            noise_retention=ratio(self.noise_kept, self.noise, 0.0),
            precision=ratio(self.critical_kept, self.kept, 0.0),
            query_recall=ratio(self.needs_kept, self.needs, 1.0) if self.needs else None,
            tokens=self.tokens / n,
            messages=self.messages / n,
            ms_per_query=1000.0 * self.seconds / n,
            over_budget=self.over_budget,
        )


def evaluate(
    messages: Sequence[PolicyMessage],
    key: AnswerKey,
    budget: Budget,
    *,
    policies: Sequence[str] | None = None,
    db_path: str | os.PathLike[str] = ":memory:",
    source: str = "",
) -> BenchmarkResult:
    """Run the policies over ``messages`` and grade them at the key's checkpoints.

    Args:
        messages: The session, in turn order (what the policies see).
        key: The answer key (read here only, after the policies have chosen).
        budget: What each policy may send.
        policies: Policy names (default: all).
        db_path: SQLite file for the memory store (the seed scorer's scores are saved there too), or
            ``":memory:"``.
        source: A description of where the session came from.

    Returns:
        The grades.
    """
    started = time.perf_counter()
    runner = PolicyRunner(policies, db_path=db_path, save_scores=os.fspath(db_path) != ":memory:")
    tallies: dict[str, _Tally] = {p.name: _Tally() for p in runner.policies}
    position = 0
    try:
        for checkpoint in key.checkpoints:
            while position < len(messages) and messages[position].turn < checkpoint.turn:
                runner.feed(messages[position])
                position += 1
            selections = runner.select(checkpoint.turn, checkpoint.query, budget)
            sets = key.sets_at(checkpoint.turn)
            for name, timed in selections.items():
                tallies[name].add(timed.selection, sets, checkpoint.needs, timed.seconds)
        runner.feed_many(messages[position:])  # the store then holds the whole session
    finally:
        runner.close()
    return BenchmarkResult(
        policies={name: tally.metrics(name) for name, tally in tallies.items()},
        budget=budget,
        turns=len(messages),
        checkpoints=len(key.checkpoints),
        seconds=time.perf_counter() - started,
        source=source,
    )


def run_generated(
    turns: int,
    seed: int,
    budget: Budget,
    *,
    policies: Sequence[str] | None = None,
    db_path: str | os.PathLike[str] = ":memory:",
    wording: str = "standard",
) -> BenchmarkResult:
    """Generate the synthetic benchmark and grade the policies on it.

    Args:
        turns: Messages in the generated session.
        seed: Generator seed.
        budget: What each policy may send.
        wording: The generator's phrasings: ``standard``, ``heldout`` or ``blind2``.
        policies: Policy names (default: all).
        db_path: SQLite file for the memory store, or ``":memory:"``.

    Returns:
        The grades; ``extra`` names the generator's seed and label counts.
    """
    from .generator import generate, kinds

    started = time.perf_counter()
    bench = generate(turns, seed, wording)
    suffix = "" if wording == "standard" else f", {wording} wording"
    result = evaluate(
        bench.messages, bench.key, budget, policies=policies, db_path=db_path,
        source=f"generated: {turns} turns, seed {seed}{suffix}",
    )
    return BenchmarkResult(
        policies=result.policies,
        budget=budget,
        turns=result.turns,
        checkpoints=result.checkpoints,
        seconds=time.perf_counter() - started,
        source=result.source,
        extra={"generator": {"turns": turns, "seed": seed, "wording": wording, "kinds": kinds(bench.key)}},
    )
