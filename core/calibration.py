"""Calibrating raw token estimates against what the provider reported for the same run.

A character-based estimate drifts from the real tokenizer on dense content (JSON, CSV, code, long
numeric columns). Every model call returns the prompt tokens the provider really counted, so a run
can learn how far off its estimator is and correct the next estimate. :class:`Calibrator` does that.

The rule (also in ``docs/tokens.md``):

* each observation is the ratio ``reported / estimate`` of one model call whose estimate and
  report are both positive; observations outside ``[MIN_RATIO, MAX_RATIO]`` are ignored as
  mismatched pairs (a report for a different request, a truncated log);
* the factor is the **median** of the last :data:`WINDOW` ratios, so a single outlier moves it by
  at most one rank, never by its size;
* until :data:`WARMUP` observations exist the median is shrunk halfway towards 1.0, so the first
  call of a run cannot swing it on its own;
* the factor is clamped to ``[MIN_FACTOR, MAX_FACTOR]``.

A calibrator made with ``prior_tokens=N`` (for observations of very different sizes, such as the
increments between consecutive calls that :mod:`ctxscope.core.usage_check` calibrates) weighs the
warm-up by evidence instead of by count: the median is shrunk towards 1.0 by ``N / (N + E)``,
where ``E`` is the estimate tokens the observations so far cover. A prior worth ``N`` tokens:
with ``N`` = 1,000 a first observation of 1,000 tokens moves the factor halfway (as the default
rule does), one of 50 tokens (where a message's framing and rounding dominate the ratio) barely
at all, and one of 5,000 tokens most of the way. After the warm-up both rules take the plain
median, so a single outlier moves the factor by at most one rank.
"""

from __future__ import annotations

import math
from bisect import insort
from collections import deque
from typing import Final

__all__ = [
    "DIVERGENCE_TOLERANCE",
    "MAX_FACTOR",
    "MAX_RATIO",
    "MIN_FACTOR",
    "MIN_RATIO",
    "PRIOR_TOKENS",
    "WARMUP",
    "WINDOW",
    "AnchoredCalibration",
    "Calibrator",
    "diverges",
]

#: How many recent ratios the median is taken over.
WINDOW: Final = 16
#: Observations needed before the median is used unshrunk.
WARMUP: Final = 3
#: The factor never leaves this range.
MIN_FACTOR: Final = 0.5
MAX_FACTOR: Final = 3.0
#: Ratios outside this range are treated as mismatched pairs and ignored.
MIN_RATIO: Final = 0.2
MAX_RATIO: Final = 5.0
#: Relative gap between two figures above which they are flagged as diverging.
DIVERGENCE_TOLERANCE: Final = 0.10

PRIOR_TOKENS: Final = 600
"""The increment calibrator's warm-up prior, in estimated tokens: about one typical increment
between two calls (the median over the real logs of ``../shared/real-logs`` is 648), so the prior
weighs as much as one typical observation."""


class Calibrator:
    """Learns a correction factor for raw estimates from (estimate, reported) pairs of one run.

    Example:
        >>> cal = Calibrator()
        >>> for estimate, reported in [(1000, 1200), (2000, 2500), (3000, 3500)]:
        ...     cal.observe(estimate, reported)
        >>> round(cal.factor, 3)
        1.2
        >>> cal.calibrate(10_000)
        12000
    """

    def __init__(self, window: int = WINDOW, *, prior_tokens: int | None = None) -> None:
        """Create an empty calibrator.

        Args:
            window: How many recent ratios the median is taken over.
            prior_tokens: Weigh the warm-up by evidence: shrink the median towards 1.0 by
                ``prior_tokens / (prior_tokens + estimate tokens observed)`` (see the module
                docstring). None shrinks it halfway, whatever the observations' size.
        """
        if window < 1:
            raise ValueError("window must be at least 1")
        if prior_tokens is not None and prior_tokens < 0:
            raise ValueError("prior_tokens must not be negative")
        self._ratios: deque[float] = deque(maxlen=window)
        self._ordered: list[float] = []
        """:attr:`_ratios` sorted (kept so by :meth:`observe`, for the median)."""
        self._evidence: deque[int] = deque(maxlen=window)
        """The estimate of each kept ratio."""
        self._prior_tokens = prior_tokens
        self._seen = 0
        self._last: tuple[int, int] | None = None
        self._factor: float | None = None
        """:attr:`factor`, until the next observation."""

    def observe(self, estimate: int, reported: int) -> None:
        """Record one model call: the raw estimate of its prompt and the tokens the provider reported.

        Pairs with a non-positive side, or whose ratio is outside ``[MIN_RATIO, MAX_RATIO]``,
        are ignored.

        Args:
            estimate: The raw estimate of the request that was sent.
            reported: The prompt tokens the provider reported for it.
        """
        if estimate <= 0 or reported <= 0:
            return
        self._last = (estimate, reported)
        ratio = reported / estimate
        if not MIN_RATIO <= ratio <= MAX_RATIO:
            return
        ratios = self._ratios
        if len(ratios) == ratios.maxlen:
            self._ordered.remove(ratios[0])  # the ratio the append below drops
        ratios.append(ratio)
        insort(self._ordered, ratio)
        self._evidence.append(estimate)
        self._seen += 1
        self._factor = None

    @property
    def observations(self) -> int:
        """How many pairs have been used (ignored pairs excluded)."""
        return self._seen

    @property
    def last_reported(self) -> int | None:
        """The most recent reported figure passed to :meth:`observe`."""
        return None if self._last is None else self._last[1]

    @property
    def factor(self) -> float:
        """The correction factor: 1.0 with no observations; see the module docstring for the rule."""
        if self._factor is not None:
            return self._factor
        if not self._ratios:
            return 1.0
        ordered = self._ordered
        half = len(ordered) // 2
        middle = ordered[half] if len(ordered) % 2 else (ordered[half - 1] + ordered[half]) / 2
        if len(self._ratios) < WARMUP:
            if self._prior_tokens is None:
                middle = 1.0 + (middle - 1.0) / 2
            else:
                evidence = sum(self._evidence)
                middle = 1.0 + (middle - 1.0) * evidence / (evidence + self._prior_tokens)
        self._factor = min(MAX_FACTOR, max(MIN_FACTOR, middle))
        return self._factor

    def calibrate(self, estimate: int) -> int:
        """The estimate corrected by :attr:`factor`, rounded up.

        Args:
            estimate: A raw estimate.

        Returns:
            The calibrated estimate (0 for a non-positive estimate).
        """
        if estimate <= 0:
            return 0
        return math.ceil(estimate * self.factor - 1e-9)


def diverges(a: int, b: int, tolerance: float = DIVERGENCE_TOLERANCE) -> bool:
    """Whether two token figures differ by more than ``tolerance`` of the larger one.

    Args:
        a: One figure.
        b: The other.
        tolerance: Allowed relative gap.

    Returns:
        ``True`` when they diverge.
    """
    top = max(abs(a), abs(b))
    return top > 0 and abs(a - b) > tolerance * top


class AnchoredCalibration:
    """ctxscope's one calibration method: a call's prompt from the figures reported before it.

    Used for every calibrated figure ctxscope shows (meter, timeline, ``report`` and its JSON);
    ``docs/tokens.md`` gives the measurement that chose it. A request is the part the log does not
    carry (system prompt, tool definitions: a constant no multiplicative factor fits) plus what the
    estimator sees, with its bias. So, for a call whose context is ``estimate`` raw tokens:

    * within one live context (same ``segment``, not shrunk), the figure is the last reported
      prompt plus the calibrated estimate of what was added since; a :class:`Calibrator` with an
      evidence-weighted warm-up (:data:`PRIOR_TOKENS`) learns ``reported added ÷ estimate added``
      over consecutive reported calls;
    * after the live context restarted (a compaction) or shrank, it is the scope's *unseen
      prefix* (the first reported prompt minus its estimate) plus the estimate calibrated by the
      median ``(reported − unseen) ÷ estimate`` of the reported calls (:attr:`whole`);
    * before any reported call it is the raw estimate.

    Until an increment was observed, increments are calibrated with :attr:`whole`'s factor.

    One instance per scope. Call :meth:`figure` before :meth:`observe` for the same call: the
    figure never uses the call's own report.
    """

    def __init__(self, prior_tokens: int = PRIOR_TOKENS, *, unseen: int | None = None) -> None:
        """Args:
        prior_tokens: The increment calibrator's warm-up prior.
        unseen: The unseen prefix when it is known (0 for logs that carry the whole request,
            such as ctxscope's own); None measures it at the first reported call.
        """
        self.increments = Calibrator(prior_tokens=prior_tokens)
        """Learns ``reported added ÷ estimate added`` within one live context."""
        self.whole = Calibrator()
        """Learns ``(reported − unseen) ÷ estimate`` of whole calls: the estimator's bias on what
        the log shows."""
        self.unseen: int | None = unseen
        """Reported minus estimated tokens of the first reported call (None before it)."""
        self._measure_unseen = unseen is None
        self._anchor: tuple[object, int, int] | None = None
        """(segment, estimate, reported) of the last reported call."""

    def anchored(self, segment: object, estimate: int) -> bool:
        """Whether a call at ``segment`` of ``estimate`` tokens continues the last reported call."""
        anchor = self._anchor
        return anchor is not None and anchor[0] == segment and estimate >= anchor[1]

    def figure(self, segment: object, estimate: int) -> int:
        """The calibrated figure of a call, from earlier reported calls only.

        Args:
            segment: Identifies the live context (a compaction starts a new one).
            estimate: The raw estimate of the call's context.
        """
        anchor = self._anchor
        if anchor is not None and anchor[0] == segment and estimate >= anchor[1]:
            step = self.increments if self.increments.observations else self.whole
            return anchor[2] + step.calibrate(estimate - anchor[1])
        if self.unseen is None or (anchor is None and not self.whole.observations):
            return estimate
        return self.unseen + self.whole.calibrate(estimate)

    @property
    def factor(self) -> float:
        """The estimator's bias on what the log shows (``whole``'s factor)."""
        return self.whole.factor

    def observe(self, segment: object, estimate: int, reported: int) -> None:
        """Learn from a call the provider reported (``reported`` prompt tokens)."""
        if reported <= 0:
            return
        anchor = self._anchor
        if self.unseen is None or (self._measure_unseen and anchor is None):
            self.unseen = max(0, reported - estimate)
        else:
            self.whole.observe(estimate, reported - self.unseen)
            if anchor is not None and anchor[0] == segment and anchor[1] <= estimate and anchor[2] < reported:
                self.increments.observe(estimate - anchor[1], reported - anchor[2])
        self._anchor = (segment, estimate, reported)
