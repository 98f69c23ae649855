"""Estimate against reported: how close ctxscope's token estimate gets to the provider's count.

For every model call whose provider usage the log carries, :func:`check_usage` compares the
estimate of the call's *live context* with the prompt tokens the provider reported:

* the **raw** estimate is the sum of the estimator's counts over the stored messages the call was
  made over, from the start of its live context (after an observed compaction: the system
  messages, the summary and what came after; see
  :meth:`~ctxscope.core.session.Scope.context_messages`);
* the **calibrated** estimate is what an agent could have known before the call: the figures
  the provider reported for the *previous* calls of the same scope (never the call itself). A
  request is the part the log does not carry (the system prompt and tool definitions: about
  20 K tokens for Claude Code) plus the stored messages; the first is a constant no
  multiplicative factor fits, the second is what the estimator sees, with its bias. So:

  - within one live context, the calibrated figure is the previous call's reported prompt plus
    the calibrated estimate of what was added since; the
    :class:`~ctxscope.core.tokens.Calibrator` learns ``reported added ÷ estimate added`` over
    consecutive calls of the scope (the median of the last 16 ratios). Increments differ in size
    by orders of magnitude (a 30-token reply, a 20,000-token file), and a small one says little
    about the estimator's bias (a message's framing and rounding weigh as much as its text), so
    the warm-up weighs them by evidence: until three increments are known the factor is drawn
    towards 1.0 by a prior worth :data:`~ctxscope.core.calibration.PRIOR_TOKENS` estimated
    tokens, about one typical increment (a first increment of 600 tokens moves it halfway, one of
    2,400 four fifths of the
    way, one of 60 a tenth);
  - when the live context restarted (an observed compaction) or shrank, it is the scope's
    *unseen prefix* (the first call's reported prompt minus its estimate) plus the calibrated
    estimate of the whole live context;
  - the first call of a scope has nothing to calibrate on: its calibrated figure is the raw one,
    and it is left out of the calibrated statistics.

A ratio is ``estimate ÷ reported``: below 1 the estimate under-counts (a request could overflow),
above 1 it over-counts. Per scope the records give the median ratio and the worst one (the
farthest from 1). The raw ratio of a real log is low on small contexts because of the unseen
prefix.

The records are frozen; ``ctxscope report`` renders them.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Final

from .calibration import DIVERGENCE_TOLERANCE, AnchoredCalibration
from .model import Category, ModelRequest, fast_frozen_init
from .retention import HeldInts
from .session import Scope, Session
from .tokens import Estimator, get_estimator

DIVERGENCE: Final = DIVERGENCE_TOLERANCE
"""A ratio further than this from 1 is flagged as a divergence (the dashboard's tolerance)."""


@dataclass(frozen=True, slots=True)
class CallCheck:
    """One call's estimate against its reported prompt.

    Attributes:
        scope_id: The scope that made the call.
        request_index: The call's index among its scope's requests.
        line: Log line of the call.
        model: The model called.
        reported: Prompt tokens the provider reported (cached part included).
        estimate: Raw estimate of the call's live context.
        calibrated: The estimate calibrated on the scope's previous calls (equal to ``estimate``
            for the first call of a scope).
        calibrated_on: How many previous calls the calibrator had observed.
        context_start: Index of the first message of the live context.
        message_count: Messages the call was made over.
        anchored: The calibrated figure is the previous call's reported prompt plus the
            calibrated estimate of what was added since (else: the calibrated whole estimate).
    """

    scope_id: str
    request_index: int
    line: int
    model: str
    reported: int
    estimate: int
    calibrated: int
    calibrated_on: int
    context_start: int
    message_count: int
    anchored: bool = False

    @property
    def raw_ratio(self) -> float:
        return self.estimate / self.reported

    @property
    def calibrated_ratio(self) -> float:
        return self.calibrated / self.reported

    @property
    def diverges(self) -> bool:
        """The calibrated estimate is more than :data:`DIVERGENCE` away from the reported figure."""
        return abs(self.calibrated_ratio - 1) > DIVERGENCE


fast_frozen_init(CallCheck)


@dataclass(frozen=True, slots=True)
class RatioStats:
    """Median and worst of a set of ``estimate ÷ reported`` ratios.

    Attributes:
        calls: How many ratios.
        median: The median ratio.
        worst: The ratio farthest from 1 (in log terms, so 0.5 and 2.0 are equally far).
        within_5pct: Share of the calls within 5 % of the reported figure.
    """

    calls: int
    median: float
    worst: float
    within_5pct: float


def ratio_stats(ratios: Iterable[float]) -> RatioStats | None:
    values = [r for r in ratios if r > 0]
    if not values:
        return None
    # The ratio farthest from 1 in log terms is the smallest or the largest (the first of the
    # two in order when they are equally far).
    low, high = min(values), max(values)
    far_low, far_high = abs(math.log(low)), abs(math.log(high))
    if far_low == far_high:
        worst = low if values.index(low) < values.index(high) else high
    else:
        worst = low if far_low > far_high else high
    within = sum(1 for r in values if abs(r - 1) <= 0.05) / len(values)
    return RatioStats(len(values), statistics.median(values), worst, within)


@dataclass(frozen=True, slots=True)
class ScopeCheck:
    """The calls of one scope that carry provider usage.

    Attributes:
        scope_id: The scope.
        label: The scope's label.
        calls: Every checked call, in order.
        raw: Ratio statistics of the raw estimates.
        calibrated: Ratio statistics of the calibrated estimates, over the calls that had a
            previous call to calibrate on (None when there is only one call).
        unseen_prefix: Tokens the first call reported beyond its estimate: what the log does not
            carry (the system prompt and tool definitions of most agent logs). The calibrated
            estimate adds it to every later call before calibrating.
    """

    scope_id: str
    label: str
    calls: tuple[CallCheck, ...]
    raw: RatioStats | None
    calibrated: RatioStats | None
    unseen_prefix: int = 0


@dataclass(frozen=True, slots=True)
class UsageCheck:
    """Estimate against reported over a whole session.

    Attributes:
        estimator: The estimator's name.
        scopes: One record per scope with at least one checked call.
        raw: Ratio statistics over every checked call of the session.
        calibrated: Calibrated ratio statistics over every call that had a previous call.
    """

    estimator: str
    scopes: tuple[ScopeCheck, ...]
    raw: RatioStats | None
    calibrated: RatioStats | None

    @property
    def calls(self) -> int:
        return sum(len(s.calls) for s in self.scopes)


_CATEGORIES: Final = tuple(Category)
_CATEGORY_COLUMN: Final = {cat: k for k, cat in enumerate(_CATEGORIES)}
"""Each category's column in :attr:`ContextSums.by_category` (built in :data:`_CATEGORIES`' order)."""


class ContextSums:
    """Prefix sums of a scope's message estimates: a live context's estimate in O(1) per call,
    overall and per category (see :meth:`categories`).

    Each sum is :class:`~ctxscope.core.retention.HeldInts` (8 bytes a message): a live view
    releases the sums before the newest request's context start (:meth:`release`), so they stay as
    long as the live context.
    """

    def __init__(self, scope: Scope, estimator: Estimator, *, per_category: bool = True) -> None:
        self.scope = scope
        self.estimator = estimator
        self.per_category = per_category
        """Keep the per-category sums (:meth:`categories`); without them only the totals are
        kept, which is all :meth:`request` reads."""
        self.prefix = HeldInts("q", [0])
        """Tokens of the first *i* messages."""
        self.system_prefix = HeldInts("q", [0])
        """Tokens of the system messages among the first *i* messages."""
        self.by_category: dict[Category, HeldInts] = (
            {cat: HeldInts("q", [0]) for cat in _CATEGORIES} if per_category else {}
        )
        """Tokens of the first *i* messages per category."""
        self.system_count = HeldInts("q", [0])
        """System messages among the first *i* messages."""
        self._columns = tuple((cat, sums.raw) for cat, sums in self.by_category.items())
        """Each category's :attr:`~ctxscope.core.retention.HeldInts.raw` array (the same array
        for the sums' life)."""

    def release(self, floor: int) -> None:
        """Forget the sums before ``floor`` (no later request's context starts before it; the sums
        of no message, at 0, stay)."""
        for sums in (self.prefix, self.system_prefix, self.system_count, *self.by_category.values()):
            sums.release(floor, keep_first=1)

    def _extend(self, end: int) -> None:
        done = len(self.prefix) - 1
        if done >= end:
            return
        prefix = self.prefix.raw
        system = self.system_prefix.raw
        counts = self.system_count.raw
        columns = [column for _, column in self._columns]
        estimator = self.estimator
        total, system_total, system_n = prefix[-1], system[-1], counts[-1]
        running = [column[-1] for column in columns]
        # One row of running per-category totals a message, transposed into the columns at the
        # end (C speed): a message adds to one category, yet every column gains a value.
        rows: list[tuple[int, ...]] = []
        totals: list[int] = []
        systems: list[int] = []
        system_counts: list[int] = []
        for message in self.scope.messages[done:end]:
            tokens = message.tokens(estimator)
            total += tokens
            totals.append(total)
            if message.role == "system":
                system_total += tokens
                system_n += 1
            systems.append(system_total)
            system_counts.append(system_n)
            if columns:  # without the per-category sums a message's category is not looked at
                running[_CATEGORY_COLUMN[message.category()]] += tokens
                rows.append(tuple(running))
        prefix.extend(totals)
        system.extend(systems)
        counts.extend(system_counts)
        if rows:
            for column, values in zip(columns, zip(*rows, strict=True), strict=True):
                column.extend(values)

    def prepare(self, end: int) -> None:
        """Sum the messages up to ``end`` now (in one pass, for a batch of requests whose
        contexts end there at the latest; the messages before a request are never amended)."""
        self._extend(end)

    def tokens(self, start: int, end: int) -> int:
        """Estimated tokens of messages ``start`` to ``end`` (exclusive)."""
        self._extend(end)
        return self.prefix[end] - self.prefix[start]

    def _dropped(self, request: ModelRequest, start: int) -> list[tuple[int, int]]:
        """The parts of ``[start, message_count)`` a rollback took out before the request."""
        out = []
        for dropped in self.scope.dropped_ranges(request.index):
            lo, hi = max(dropped.start, start), min(dropped.stop, request.message_count)
            if lo < hi:
                out.append((lo, hi))
        return out

    def request(self, request: ModelRequest) -> tuple[int, int]:
        """(context start, estimate) of a request's live context (see :meth:`Scope.context_messages`:
        after the last compaction, without what rollbacks took out)."""
        start = min(self.scope.context_start(request.index), request.message_count)
        self._extend(request.message_count)
        estimate = self.system_prefix[start] + self.tokens(start, request.message_count)
        for lo, hi in self._dropped(request, start):
            estimate -= self.prefix[hi] - self.prefix[lo]
        return start, estimate

    def categories(self, request: ModelRequest, start: int) -> dict[Category, int]:
        """Tokens per category of a request's live context from ``start`` (counted as
        :meth:`request` counts it).

        Raises:
            ValueError: The sums were made without ``per_category``.
        """
        if not self.per_category:
            raise ValueError("these sums keep no per-category figures")
        end = request.message_count
        self._extend(end)
        offset = self.system_prefix.offset  # every sum is released to the same floor
        if start >= offset:  # the common case: read the arrays directly
            lo, hi = start - offset, end - offset
            out = {cat: column[hi] - column[lo] for cat, column in self._columns}
            out[Category.SYSTEM] += self.system_prefix.raw[lo]
        else:
            out = {cat: column[end] - column[start] for cat, column in self.by_category.items()}
            out[Category.SYSTEM] += self.system_prefix[start]
        for lo, hi in self._dropped(request, start):
            for cat, column in self.by_category.items():
                out[cat] -= column[hi] - column[lo]
        return {cat: tokens for cat, tokens in out.items() if tokens}


def check_scope(scope: Scope, estimator: Estimator) -> ScopeCheck | None:
    """Check every call of one scope that carries usage (None when none does).

    The calibrated figure of a call is :class:`~ctxscope.core.calibration.AnchoredCalibration`'s,
    from the scope's earlier reported calls only (see the module docs).
    """
    sums = ContextSums(scope, estimator, per_category=False)
    calibration = AnchoredCalibration()
    calls: list[CallCheck] = []
    for request in scope.requests:
        usage = request.usage
        if usage is None or usage.prompt_tokens <= 0:
            continue
        reported = usage.prompt_tokens
        start, estimate = sums.request(request)
        anchored = calibration.anchored(start, estimate)
        calibrated = calibration.figure(start, estimate)
        calls.append(
            CallCheck(
                scope.scope_id,
                request.index,
                request.line,
                request.model,
                reported,
                estimate,
                calibrated,
                len(calls),
                start,
                request.message_count,
                anchored,
            )
        )
        calibration.observe(start, estimate, reported)
    if not calls:
        return None
    return ScopeCheck(
        scope.scope_id,
        scope.header.label,
        tuple(calls),
        ratio_stats(c.raw_ratio for c in calls),
        ratio_stats(c.calibrated_ratio for c in calls if c.calibrated_on),
        calibration.unseen or 0,
    )


def check_usage(session: Session, estimator: Estimator | str | None = None) -> UsageCheck:
    """Compare the estimate of every call with provider usage against the reported prompt tokens.

    Args:
        session: A session read from a log.
        estimator: An estimator or its name; None uses the session's (or the default) estimator.
    """
    if isinstance(estimator, str):
        est = get_estimator(estimator)
    else:
        est = estimator or session.estimator or get_estimator()
    scopes = [
        check
        for scope in session.scopes.values()
        if (check := check_scope(scope, est)) is not None
    ]
    every = [c for s in scopes for c in s.calls]
    return UsageCheck(
        est.name,
        tuple(scopes),
        ratio_stats(c.raw_ratio for c in every),
        ratio_stats(c.calibrated_ratio for c in every if c.calibrated_on),
    )
