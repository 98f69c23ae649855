"""Pipeline configuration and how it resolves against a scope's header.

A :class:`PipelineConfig` holds every knob of the compaction pipeline. Limits resolve in three
layers, each overriding the one before: the config's defaults, the scope header's
``context_limit`` and ``working_budget`` (what the agent said it runs with), and explicit values
set on the config (``hard_limit``, ``budget``, ``tier_limit``; what a user asked for on the command
line). :meth:`PipelineConfig.thresholds` does the resolution and returns the four lines of the
context meter.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final, Literal

from ..model import ScopeHeader
from ..snapshot import Thresholds
from ..tokens import DEFAULT_ESTIMATOR

Strategy = Literal["pipeline", "legacy"]
STRATEGIES: Final[tuple[Strategy, ...]] = ("pipeline", "legacy")

DEFAULT_HARD_LIMIT: Final = 200_000
"""The hard limit used when neither the config nor the scope header gives one."""

DEFAULT_BUDGET_FRACTION: Final = 0.8
"""The working budget, as a fraction of the hard limit, when nothing else gives one."""


@dataclass(frozen=True, slots=True)
class PipelineConfig:
    """Every setting of the compaction pipeline.

    Attributes:
        strategy: ``pipeline`` (the four stages) or ``legacy`` (trim only at the start of a user
            message: first message, a note and the newest complete turns; kept for comparison).
        hard_limit: The model's hard limit; overrides the scope header when set.
        tier_limit: The limit a higher tier unlocks for this run; overrides everything else.
        budget: The working budget; overrides the scope header when set.
        default_hard_limit: Hard limit when neither the config nor the header gives one.
        default_budget_fraction: Budget as a fraction of the limit when nothing gives one.
        trigger_fraction: Compaction starts when the calibrated request exceeds this fraction of
            the budget.
        trigger_tokens: Absolute trigger in tokens (overrides ``trigger_fraction``).
        target_fraction: Compaction works down to this fraction of the budget (hysteresis: the
            target sits below the trigger so the next calls do not refill straight away).
        target_tokens: Absolute target in tokens (overrides ``target_fraction``).
        clear_batch: Stage 2 clears the oldest tool results this many at a time.
        keep_fraction: The newest tool results that fit in this fraction of the budget are never
            cleared (always at least one).
        min_clear_gain: A tool result is cleared only if that saves at least this many tokens over
            the note that replaces it.
        excluded_tools: Tools whose results are never cleared.
        min_recent_turns: Recent units (a user message, or a tool call with its result) that
            trimming never removes; when even they do not fit the hard limit the request is refused.
        summarise: Run stage 3; when false (or the summariser fails) turn fitting is used instead.
        summariser: The summariser; None means the deterministic extractive default.
        summary_max_tokens: Cap on a summary's size.
        summary_keep_fraction: After a summary, the recent history kept verbatim is at most this
            fraction of the budget (a token budget, never fewer than ``min_recent_turns`` units), so
            the request has room to grow before the next (lossy) summary.
        estimator: Name of the token estimator (see :func:`ctxscope.core.tokens.get_estimator`).
        dom_keep_actionable: The newest DOM snapshots reduced to their actionable parts; older
            ones keep a one-line trace.
        screenshot_keep: The newest screenshots kept (under ``screenshot_token_cap``); older ones
            are dropped to a one-line trace.
        screenshot_token_cap: Hard per-image token cap for kept screenshots and images.
        dom_max_items: At most this many controls are listed per reduced DOM snapshot.
    """

    strategy: Strategy = "pipeline"
    hard_limit: int | None = None
    tier_limit: int | None = None
    budget: int | None = None
    default_hard_limit: int = DEFAULT_HARD_LIMIT
    default_budget_fraction: float = DEFAULT_BUDGET_FRACTION
    trigger_fraction: float = 1.0
    trigger_tokens: int | None = None
    target_fraction: float = 0.9
    target_tokens: int | None = None
    clear_batch: int = 4
    keep_fraction: float = 0.25
    min_clear_gain: int = 100
    excluded_tools: frozenset[str] = frozenset()
    min_recent_turns: int = 2
    summarise: bool = True
    summariser: Callable[[Any], str] | None = None
    summary_max_tokens: int = 2000
    summary_keep_fraction: float = 0.5
    estimator: str = DEFAULT_ESTIMATOR
    dom_keep_actionable: int = 2
    screenshot_keep: int = 1
    screenshot_token_cap: int = 800
    dom_max_items: int = 150

    def __post_init__(self) -> None:
        if self.strategy not in STRATEGIES:
            raise ValueError(f"strategy must be one of {', '.join(STRATEGIES)}, not {self.strategy!r}")
        for name in ("clear_batch", "min_recent_turns"):
            if getattr(self, name) < 1:
                raise ValueError(f"{name} must be at least 1")
        for name in ("hard_limit", "tier_limit", "budget", "trigger_tokens", "target_tokens"):
            value = getattr(self, name)
            if value is not None and value < 1:
                raise ValueError(f"{name} must be a positive number of tokens")
        if not 0 < self.trigger_fraction <= 1 or not 0 < self.target_fraction <= 1:
            raise ValueError("trigger_fraction and target_fraction must be in (0, 1]")
        if not 0 < self.keep_fraction <= 1 or not 0 < self.summary_keep_fraction <= 1:
            raise ValueError("keep_fraction and summary_keep_fraction must be in (0, 1]")

    def replace(self, **changes: object) -> PipelineConfig:
        """A copy with some fields changed (``None`` values are ignored, so CLI flags pass through)."""
        kept = {key: value for key, value in changes.items() if value is not None}
        return dataclasses.replace(self, **kept)  # type: ignore[arg-type]

    def limit_for(self, header: ScopeHeader | None) -> int:
        """The hard limit in force: tier limit, else explicit limit, else header, else default."""
        if self.tier_limit is not None:
            return self.tier_limit
        if self.hard_limit is not None:
            return self.hard_limit
        if header is not None and header.context_limit:
            return header.context_limit
        return self.default_hard_limit

    def thresholds(self, header: ScopeHeader | None = None) -> Thresholds:
        """Budget, trigger, target and hard limit for a scope (all in tokens)."""
        limit = self.limit_for(header)
        budget = self.budget
        if budget is None and header is not None and header.working_budget:
            budget = header.working_budget
        if budget is None:
            budget = max(1, int(limit * self.default_budget_fraction))
        budget = min(budget, limit)
        trigger = self.trigger_tokens or max(1, round(budget * self.trigger_fraction))
        trigger = min(trigger, limit)
        target = self.target_tokens or max(1, round(budget * self.target_fraction))
        return Thresholds(budget=budget, trigger=trigger, target=min(target, trigger), limit=limit)
