"""The scorer: runs the policies over a session and grades their selections against an answer key.

The key never reaches the policies: :func:`evaluate` feeds the session to a
:class:`~.runner.PolicyRunner` (which knows nothing of the key), asks it for every policy's
selection at each checkpoint, and only then compares those selections with the key.

Metrics, pooled over the checkpoints (sums of counts, then one ratio):

* ``critical_recall`` — share of the critical facts in force at the checkpoint that the selection
  carries: a turn sent verbatim counts 1; a turn the summary stands for counts the share of its
  words that its summary line (the line starting ``[turn]`` in the summary text actually sent)
  carries — a one-sentence line for a five-sentence turn is not the whole turn
  (:func:`carried_share`);
* ``stale_retention`` — share of the stale evidence (superseded facts, echoes of them) it carries;
* ``noise_retention`` — share of the noise (chatter, distractors) it carries;
* ``precision`` — share of what it carries that is a critical fact in force;
* ``query_recall`` — share of the turns each checkpoint's answer needs that it carries;
* ``tokens`` and ``messages`` — mean size of what it sends; ``ms_per_query`` — mean time per call.

Beside them, the **ceiling** of the session under the budget (:class:`Ceiling`, read from the key
alone): the most critical recall, and query recall, that *any* policy sending whole messages within
the budget could reach — at each checkpoint the most of its critical turns (of the turns its answer
needs) that fit the budget together, each turn costing what the policies' budget charges for it
(the store's estimate: the message's tokens plus the per-message overhead), pooled like the
recall. Every such turn is worth one fact, so taking the cheapest first is optimal: the figure is
the exact maximum, which is below the knapsack's LP bound by less than one fact per checkpoint.
A summary can carry more than its whole messages would; the ceiling does not bound ``summary``.
"""

from __future__ import annotations

import os
import time
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from .answer_key import AnswerKey, Label
from .policies import RECOMMENDED
from .records import Budget, PolicyMessage, Selection
from .runner import PolicyRunner
from .text import words

SEED_SHAPE: Final = "seed-shape"
"""The ``wording`` that asks :func:`run_generated` for :mod:`.seedshape`'s session instead."""

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
        query_recall: Needed turns carried / needed turns (per checkpoint, pooled).

    A measure is None ("–" in tables) when the key has no label it could be computed from: no
    stale rows, no noise rows, no critical rows, no checkpoint that names the turns it needs.
        tokens: Mean tokens sent per query.
        messages: Mean messages sent per query (a summary counts as one).
        ms_per_query: Mean milliseconds per ``select`` call.
        over_budget: True when the policy exceeded the budget at some checkpoint (full history).
    """

    policy: str
    critical_recall: float | None
    stale_retention: float | None
    noise_retention: float | None
    precision: float | None
    query_recall: float | None
    tokens: float
    messages: float
    ms_per_query: float
    over_budget: bool

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready values, ratios rounded to 4 places."""
        return {
            "critical_recall": _round(self.critical_recall),
            "stale_retention": _round(self.stale_retention),
            "noise_retention": _round(self.noise_retention),
            "precision": _round(self.precision),
            "query_recall": _round(self.query_recall),
            "tokens": round(self.tokens),
            "messages": round(self.messages, 1),
            "ms_per_query": round(self.ms_per_query, 2),
            "over_budget": self.over_budget,
        }


def _round(value: float | None) -> float | None:
    return None if value is None else round(value, 4)


def _ratio(kept: float, total: float) -> float | None:
    """``kept / total``, or None when there was nothing to count (no such labels)."""
    return kept / total if total else None


@dataclass(frozen=True, slots=True)
class Ceiling:
    """The most any whole-message policy within the budget could carry (see the module doc).

    Attributes:
        critical_recall: Most critical facts in force that fit ÷ critical facts in force, pooled.
        query_recall: Most needed turns that fit ÷ needed turns, pooled.
    """

    critical_recall: float | None
    query_recall: float | None

    def as_dict(self) -> dict[str, float | None]:
        """JSON-ready values, rounded to 4 places."""
        return {"critical_recall": _round(self.critical_recall), "query_recall": _round(self.query_recall)}


def fits_at_most(costs: Sequence[int], budget: Budget) -> int:
    """How many of these messages, each worth one, a selection within ``budget`` can hold at most.

    With every item worth one, the cheapest first is optimal (exchange argument): the count is
    exact, and the budget's message limit, when there is one, caps it.

    Args:
        costs: Token cost of each message (what the budget charges for it).
        budget: The budget.

    Returns:
        The largest number of them that fits.
    """
    limit = len(costs) if budget.messages is None else min(len(costs), budget.messages)
    if budget.tokens is None:
        return limit
    spent = count = 0
    for cost in sorted(costs):
        if count == limit or spent + cost > budget.tokens:
            break
        spent += cost
        count += 1
    return count


@dataclass(slots=True)
class _CeilingTally:
    critical: int = 0
    critical_fit: int = 0
    needs: int = 0
    needs_fit: int = 0

    def add(
        self, critical: frozenset[int], needs: Sequence[int], cost: Mapping[int, int], budget: Budget
    ) -> None:
        self.critical += len(critical)
        self.critical_fit += fits_at_most([cost[t] for t in critical], budget)
        self.needs += len(needs)
        self.needs_fit += fits_at_most([cost[t] for t in set(needs) if t in cost], budget)

    def ceiling(self) -> Ceiling:
        return Ceiling(_ratio(self.critical_fit, self.critical), _ratio(self.needs_fit, self.needs))


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
    ceiling: Ceiling | None = None
    """The most any whole-message policy within the budget could reach (:class:`Ceiling`)."""
    extra: dict[str, Any] = field(default_factory=dict)
    """Anything else worth reporting (generator seed, label counts)."""

    def as_json(self) -> dict[str, Any]:
        """The JSON shape of ``ctxscope bench policies --json``."""
        return {
            "recommended": RECOMMENDED if RECOMMENDED in self.policies else None,
            "policies": {name: m.as_dict() for name, m in self.policies.items()},
            "ceiling": None if self.ceiling is None else self.ceiling.as_dict(),
            "budget": {"messages": self.budget.messages, "tokens": self.budget.tokens},
            "turns": self.turns,
            "checkpoints": self.checkpoints,
            "seconds": round(self.seconds, 2),
            "source": self.source,
            **self.extra,
        }


def carried_share(selection: Selection, content: Mapping[int, str]) -> dict[int, float]:
    """How much of each carried turn reaches the model, read from what the selection sends.

    A verbatim turn is carried whole (1.0). A turn the summary stands for is credited with the share
    of its words (counted with repeats) that its own summary line carries; a turn with no line in
    the summary text, or an empty turn, gets 0.

    Args:
        selection: What a policy sends.
        content: Each turn's full text (the scorer's copy of the session).

    Returns:
        Turn → share carried, for every turn the selection carries.
    """
    shares = dict.fromkeys(selection.turns, 1.0)
    if not selection.summary_turns:
        return shares
    lines: dict[int, str] = {}
    for line in selection.summary.splitlines():
        if line.startswith("[") and "] " in line:
            head, _, body = line.partition("] ")
            if head[1:].isdigit():
                lines[int(head[1:])] = body
    for turn in selection.summary_turns:
        if turn in shares:
            continue
        full = Counter(words(content.get(turn, "")))
        total = sum(full.values())
        sent = Counter(words(lines.get(turn, "")))
        shares[turn] = sum((full & sent).values()) / total if total else 0.0
    return shares


def _credit(shares: Mapping[int, float], turns: frozenset[int]) -> float:
    return sum(shares.get(t, 0.0) for t in turns)


@dataclass(slots=True)
class _Tally:
    critical: int = 0
    critical_kept: float = 0.0
    stale: int = 0
    stale_kept: float = 0.0
    noise: int = 0
    noise_kept: float = 0.0
    kept: float = 0.0
    needs: int = 0
    needs_kept: float = 0.0
    tokens: int = 0
    messages: int = 0
    seconds: float = 0.0
    queries: int = 0
    over_budget: bool = False

    def add(
        self,
        selection: Selection,
        sets: dict[Label, frozenset[int]],
        needs: Sequence[int],
        secs: float,
        content: Mapping[int, str],
    ) -> None:
        shares = carried_share(selection, content)
        self.critical += len(sets[Label.CRITICAL])
        self.critical_kept += _credit(shares, sets[Label.CRITICAL])
        self.stale += len(sets[Label.STALE])
        self.stale_kept += _credit(shares, sets[Label.STALE])
        self.noise += len(sets[Label.NOISE])
        self.noise_kept += _credit(shares, sets[Label.NOISE])
        self.kept += sum(shares.values())
        self.needs += len(needs)
        self.needs_kept += _credit(shares, frozenset(needs))
        self.tokens += selection.tokens
        self.messages += selection.message_count
        self.seconds += secs
        self.queries += 1
        self.over_budget = self.over_budget or selection.over_budget

    def metrics(self, name: str) -> PolicyMetrics:
        n = max(1, self.queries)
        return PolicyMetrics(
            policy=name,
            critical_recall=_ratio(self.critical_kept, self.critical),
            stale_retention=_ratio(self.stale_kept, self.stale),
            noise_retention=_ratio(self.noise_kept, self.noise),
            precision=_ratio(self.critical_kept, self.kept) if self.critical else None,
            query_recall=_ratio(self.needs_kept, self.needs),
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
    return evaluate_sessions([(messages, key)], budget, policies=policies, db_path=db_path, source=source)


def evaluate_sessions(
    sessions: Sequence[tuple[Sequence[PolicyMessage], AnswerKey]],
    budget: Budget,
    *,
    policies: Sequence[str] | None = None,
    db_path: str | os.PathLike[str] = ":memory:",
    source: str = "",
) -> BenchmarkResult:
    """Grade the policies over several independent sessions, pooling the counts.

    Each session gets fresh policies and a fresh store (nothing carries over between them); the
    grades are pooled over every checkpoint of every session, as for one session.

    Args:
        sessions: ``(messages, key)`` pairs.
        budget: What each policy may send.
        policies: Policy names (default: all).
        db_path: SQLite file for the memory store, or ``":memory:"`` (with several sessions, use
            ``":memory:"``: a file would mix them).
        source: A description of where the sessions came from.

    Returns:
        The pooled grades; ``turns`` and ``checkpoints`` are totals.
    """
    started = time.perf_counter()
    tallies: dict[str, _Tally] = {}
    ceiling = _CeilingTally()
    turns = checkpoints = 0
    for messages, key in sessions:
        _grade_session(messages, key, budget, policies, db_path, tallies, ceiling)
        turns += len(messages)
        checkpoints += len(key.checkpoints)
    return BenchmarkResult(
        policies={name: tally.metrics(name) for name, tally in tallies.items()},
        budget=budget,
        turns=turns,
        checkpoints=checkpoints,
        seconds=time.perf_counter() - started,
        source=source,
        ceiling=ceiling.ceiling(),
    )


def _grade_session(
    messages: Sequence[PolicyMessage],
    key: AnswerKey,
    budget: Budget,
    policies: Sequence[str] | None,
    db_path: str | os.PathLike[str],
    tallies: dict[str, _Tally],
    ceiling: _CeilingTally,
) -> None:
    runner = PolicyRunner(policies, db_path=db_path, save_scores=os.fspath(db_path) != ":memory:")
    for policy in runner.policies:
        tallies.setdefault(policy.name, _Tally())
    content = {m.turn: m.content for m in messages}
    position = 0
    try:
        for checkpoint in key.checkpoints:
            while position < len(messages) and messages[position].turn < checkpoint.turn:
                runner.feed(messages[position])
                position += 1
            selections = runner.select(checkpoint.turn, checkpoint.query, budget)
            sets = key.sets_at(checkpoint.turn)
            sent_before = (t for t in sets[Label.CRITICAL] | set(checkpoint.needs) if t in content)
            cost = {t: runner.store.tokens(t) for t in sent_before if t < checkpoint.turn}
            ceiling.add(sets[Label.CRITICAL], checkpoint.needs, cost, budget)
            for name, timed in selections.items():
                tallies[name].add(timed.selection, sets, checkpoint.needs, timed.seconds, content)
        runner.feed_many(messages[position:])  # the store then holds the whole session
    finally:
        runner.close()


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
        wording: The generator's phrasings: ``standard``, ``heldout`` or ``blind2``; or
            ``seed-shape`` for a session of the seed harness's structure (:mod:`.seedshape`).
        policies: Policy names (default: all).
        db_path: SQLite file for the memory store, or ``":memory:"``.

    Returns:
        The grades; ``extra`` names the generator's seed and label counts.
    """
    from .generator import generate, kinds
    from .seedshape import generate_seed_shape

    started = time.perf_counter()
    bench = generate_seed_shape(turns, seed) if wording == SEED_SHAPE else generate(turns, seed, wording)
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
        ceiling=result.ceiling,
        extra={"generator": {"turns": turns, "seed": seed, "wording": wording, "kinds": kinds(bench.key)}},
    )
