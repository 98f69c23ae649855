"""The recorded lens: what the agent really sent and did, request by request.

For every model call of a scope, :class:`RecordedLens` makes a
:class:`~ctxscope.core.snapshot.RequestRecord` whose figure (:attr:`RequestRecord.context_tokens`)
is

* the prompt tokens the provider reported, when the call has usage (``source == "reported"``);
* otherwise a reconstruction (``source == "estimate"``): the estimate of the live context — what
  the agent held since its last compaction (the summary, what it carried over or re-attached and
  everything after, plus its system messages) — calibrated by
  :class:`~ctxscope.core.calibration.AnchoredCalibration` on the scope's earlier reported calls.

``calibrated_tokens`` is always that calibrated estimate (also where the call was reported, so
the meter can say how close the estimate came); ``sent_tokens`` is the raw estimate of the live
context and ``stored_tokens`` the raw estimate of everything stored. ``unseen_tokens`` is the part
of the figure the log never shows (the system prompt and tool definitions the agent sends with
every call): the scope's unseen prefix, measured at its first reported call.

The agent's own compactions (:class:`~ctxscope.core.model.ObservedCompaction`) become
:class:`~ctxscope.core.snapshot.AgentCompaction` records placed on the first request after them,
and show on that request as stage runs (a summary as stage 3 with its summary marker, Claude
Code's microcompact — its clearing of old tool results — as stage 2).

For ctxscope's own logs the agent ran ctxscope's pipeline, so what it sent is the pipeline's
request: :class:`RecordedLens` is then fed the recorded pipeline replay's records
(:meth:`RecordedLens.take_pipeline`) and only recalibrates them; the two lenses coincide.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Final

from .calibration import AnchoredCalibration
from .model import Category, ObservedCompaction
from .pricing import cost_of
from .records import RecordLog
from .session import Scope
from .snapshot import (
    SOURCE_ESTIMATE,
    SOURCE_REPORTED,
    AgentCompaction,
    Fate,
    RequestRecord,
    Stage,
    StageRun,
    SummaryMarker,
    Thresholds,
)
from .tokens import Estimator
from .usage_check import ContextSums

SUMMARY_KIND: Final = "summary"
MICROCOMPACT_KIND: Final = "microcompact"

_EMPTY_TOOLS: Final[dict[str, int]] = {}
_NO_FATES: Final[dict[Fate, int]] = {}
_NO_CATEGORIES: Final[dict[Category, int]] = {}


def _fates(messages: int, summarised: int) -> dict[Fate, int]:
    """A recorded request's messages per fate: what the agent's last summary folded, and the rest."""
    if not summarised:
        return {Fate.KEPT: messages}
    return {Fate.KEPT: messages - summarised, Fate.SUMMARISED: summarised}


def compaction_kind(compaction: ObservedCompaction) -> str:
    """``summary`` for a compaction that replaced the history, ``microcompact`` for clearing."""
    return SUMMARY_KIND if compaction.stage == "summarize" else MICROCOMPACT_KIND


class RecordedScope:
    """One scope's recorded lens, built incrementally (see the module docs).

    Args:
        scope: The scope.
        estimator: The estimator of the raw figures.
        whole_request: The log carries the whole request (ctxscope's own logs): nothing is unseen.
        breakdowns: Make each record's breakdowns (tokens per category, messages per fate);
            without them a record's figures are the same and its breakdowns are empty, as a
            released record's are (``detail_released``): what ``ctxscope report`` asks for, as it
            prints none of them.
    """

    def __init__(
        self,
        scope: Scope,
        estimator: Estimator,
        *,
        whole_request: bool = False,
        breakdowns: bool = True,
    ) -> None:
        self.scope_id = scope.scope_id
        self.sums = ContextSums(scope, estimator, per_category=breakdowns)
        self.breakdowns = breakdowns
        self.estimator = estimator
        self.calibration = AnchoredCalibration(unseen=0 if whole_request else None)
        self.records = RecordLog(scope.scope_id)
        self.compactions: list[AgentCompaction] = []
        self._placed = 0
        """Observed compactions of the scope already placed on a request."""
        self._segment: object = 0
        """The live context of ctxscope-format logs (a pipeline compaction starts a new one)."""
        self.last_reported: int | None = None
        self.largest_reported = 0

    # -- other agents' logs ---------------------------------------------------------------------

    def advance(self, scope: Scope) -> list[RequestRecord]:
        """Records for the requests appended since the last call."""
        self.sums.scope = scope
        new: list[RequestRecord] = []
        breakdowns = self.breakdowns
        pending = scope.requests[len(self.records):]
        if pending:
            self.sums.prepare(max(request.message_count for request in pending))
        for request in pending:
            runs, marker = self._place_compactions(scope, request.index, request.message_count)
            start, estimate = self.sums.request(request)
            usage = request.usage
            reported = usage.prompt_tokens if usage is not None and usage.prompt_tokens > 0 else None
            calibrated = self.calibration.figure(start, estimate)
            if reported is not None:
                self.calibration.observe(start, estimate, reported)
                self.last_reported = reported
                self.largest_reported = max(self.largest_reported, reported)
            context = reported if reported is not None else calibrated
            unseen = min(context, self.calibration.unseen or 0)
            mc = request.message_count
            cost = cost_of(usage, request.model) if usage is not None else None
            summarised = max(0, start - self._system_before(start))
            record = RequestRecord(
                scope_id=self.scope_id,
                index=request.index,
                message_count=mc,
                stored_tokens=self.sums.tokens(0, mc),
                sent_tokens=estimate,
                calibrated_tokens=calibrated,
                reported_tokens=reported,
                reported_cached_tokens=usage.cached_prompt_tokens if reported is not None and usage else None,
                cached_prefix_tokens=usage.cached_prompt_tokens if reported is not None and usage else 0,
                stages=runs,
                summary=marker,
                over_limit=False,
                refused=request.error is not None and request.error.kind.value == "context_length",
                fate_counts=_fates(mc, summarised) if breakdowns else _NO_FATES,
                by_category=self.sums.categories(request, start) if breakdowns else _NO_CATEGORIES,
                by_tool=_EMPTY_TOOLS,
                model=request.model,
                error=request.error.kind.value if request.error is not None else "",
                calibration_factor=context / estimate if estimate > 0 else 1.0,
                source=SOURCE_REPORTED if reported is not None else SOURCE_ESTIMATE,
                unseen_tokens=unseen,
                cost=cost,
                recorded_cost=request.recorded_cost,
                priced=usage is None or cost is not None,
                timestamp=request.timestamp,
                detail_released=not breakdowns,
            )
            self.records.append(record)
            new.append(record)
        return new

    def _system_before(self, start: int) -> int:
        """System messages before ``start`` (they stay in the live context)."""
        return self.sums.system_count[start]

    def _place_compactions(
        self, scope: Scope, request: int, message_count: int
    ) -> tuple[tuple[StageRun, ...], SummaryMarker | None]:
        """Place the observed compactions made before ``request`` on it: its stage runs and marker."""
        runs: list[StageRun] = []
        marker: SummaryMarker | None = None
        observed = scope.compactions
        while self._placed < len(observed) and _before(observed[self._placed], request, message_count):
            compaction = observed[self._placed]
            self._placed += 1
            placed = self._agent_compaction(scope, compaction, request, message_count)
            self.compactions.append(placed)
            freed = placed.tokens_freed or 0
            before = placed.tokens_before or 0
            after = placed.tokens_after if placed.tokens_after is not None else before - freed
            if placed.kind == SUMMARY_KIND:
                summarised = compaction.message_count - self._summarised_from()
                runs.append(StageRun(Stage.SUMMARIZE, max(0, summarised), max(0, freed), before, after))
                marker = SummaryMarker(
                    request_index=request,
                    tokens_before=before,
                    tokens_after=after,
                    tokens_freed=max(0, freed),
                    tokens_summarised=max(0, before - placed.kept_tokens - (self.calibration.unseen or 0)),
                    summary_tokens=placed.summary_tokens,
                    recent_kept_tokens=placed.kept_tokens,
                    recent_kept_messages=self._kept_messages(scope, compaction, message_count),
                    summary_text=placed.summary_text,
                )
            else:
                runs.append(StageRun(Stage.CLEAR_TOOL_RESULTS, 0, max(0, freed), before, after))
        return tuple(runs), marker

    def _summarised_from(self) -> int:
        """Where the history the last summary folded starts (the previous summary point)."""
        summaries = [c for c in self.sums.scope.compactions[: self._placed - 1] if c.stage == "summarize"]
        return summaries[-1].message_count if summaries else 0

    def _agent_compaction(
        self, scope: Scope, compaction: ObservedCompaction, request: int, message_count: int
    ) -> AgentCompaction:
        messages = scope.messages
        estimator = self.estimator
        summary_tokens = 0
        if compaction.summary_index is not None and compaction.summary_index < len(messages):
            summary_tokens = messages[compaction.summary_index].tokens(estimator)
        kept_tokens = sum(messages[i].tokens(estimator) for i in compaction.kept_indices if i < len(messages))
        if not summary_tokens and compaction.summary:
            summary_tokens = self.estimator.count(compaction.summary)
        before = compaction.tokens_before if compaction.tokens_before is not None else self.last_reported
        return AgentCompaction(
            request=request,
            kind=compaction_kind(compaction),
            trigger=compaction.trigger,
            tokens_before=before,
            tokens_after=compaction.tokens_after,
            summary_tokens=summary_tokens,
            kept_tokens=kept_tokens,
            summary_text=compaction.summary,
            line=compaction.line,
        )

    @staticmethod
    def _kept_messages(scope: Scope, compaction: ObservedCompaction, message_count: int) -> int:
        return len(compaction.kept_indices)

    def refresh_compactions(self, scope: Scope) -> None:
        """Take in what the session filled in later (``tokens_after`` from the next reported call)."""
        observed = scope.compactions
        for i, placed in enumerate(self.compactions):
            if i < len(observed) and placed.tokens_after is None and observed[i].tokens_after is not None:
                self.compactions[i] = dataclasses.replace(placed, tokens_after=observed[i].tokens_after)

    # -- ctxscope's own logs --------------------------------------------------------------------

    def prior_factor(self) -> float:
        """The calibration's factor on the estimate so far (the estimator's bias on what the log
        shows): what an agent knows before the next call. The pipeline replay of ctxscope's own
        logs runs with it."""
        return self.calibration.factor

    def take_pipeline(self, records: Sequence[RequestRecord]) -> None:
        """Recalibrate records of the recorded pipeline replay (ctxscope's own logs)."""
        for record in records:
            if any(run.tokens_freed > 0 and run.stage is not Stage.ARTIFACTS for run in record.stages):
                self._segment = record.index
            estimate = record.sent_tokens
            calibrated = record.calibrated_tokens if record.refused else self.calibration.figure(
                self._segment, estimate
            )
            reported = record.reported_tokens if record.reported_tokens else None
            if reported is not None and not record.refused:
                self.calibration.observe(self._segment, estimate, reported)
            context = reported if reported is not None else calibrated
            self.records.append(
                dataclasses.replace(
                    record,
                    calibrated_tokens=calibrated,
                    calibration_factor=context / estimate if estimate > 0 else 1.0,
                    source=SOURCE_REPORTED if reported is not None else SOURCE_ESTIMATE,
                )
            )

    def keep_detail_from(self, request: int) -> None:
        """Keep the breakdowns of the records from ``request`` on only (a live view's window), and
        the estimate sums only from the newest request's live context on."""
        self.records.release(request)
        if len(self.records):
            self.sums.release(self.sums.scope.context_start(len(self.records) - 1))


def _before(compaction: ObservedCompaction, request: int, message_count: int) -> bool:
    """Whether ``compaction`` came before the scope's request ``request`` (made over
    ``message_count`` messages)."""
    if compaction.request_index >= 0:
        return compaction.request_index <= request
    return compaction.message_count < message_count


def recorded_thresholds(window: int, trigger: int) -> Thresholds:
    """The recorded lens's lines: the agent's trigger (also its working budget) and the window."""
    trigger = min(trigger, window)
    return Thresholds(budget=trigger, trigger=trigger, target=trigger, limit=window)


__all__ = [
    "MICROCOMPACT_KIND",
    "SUMMARY_KIND",
    "RecordedScope",
    "compaction_kind",
    "recorded_thresholds",
]
