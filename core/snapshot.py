"""Snapshot records: what replaying a session through the pipeline computed, ready to render.

These frozen records are the contract between ``ctxscope.core`` (which computes them) and the
dashboard and ``ctxscope report`` (which only render them). Data flows one way: log bytes → reader
→ session model → pipeline replay → these records → widgets.
"""

from __future__ import annotations

import bisect
import enum
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Final, overload

from .calibration import DIVERGENCE_TOLERANCE
from .lenses import LENSES as LENSES  # re-exported: snapshots are taken through a lens
from .lenses import Lens as Lens
from .model import Category, ErrorKind, ObservedCompaction, ObservedError, ScopeHeader, Usage
from .session import Problem, Session
from .timing import SessionTimes, parse_time
from .tokens import ScriptBreakdown

SOURCE_REPORTED: Final = "reported"
"""A recorded-lens figure the provider reported for the call."""
SOURCE_ESTIMATE: Final = "estimate"
"""A recorded-lens figure reconstructed from the log (the call has no usage)."""
NOT_IN_LOG: Final = "not in the log"
"""The breakdown row for what a reported figure holds but the log never shows."""


class Stage(enum.StrEnum):
    """The pipeline's stages, cheapest and least lossy first."""

    ARTIFACTS = "artifacts"
    """Stage 1: trim heavy artifacts (DOM snapshots, screenshots); runs before every call."""
    CLEAR_TOOL_RESULTS = "clear_tool_results"
    """Stage 2: replace the content of the oldest tool results with a note, in batches."""
    SUMMARIZE = "summarize"
    """Stage 3: summarise the older turns when still over budget; always leaves a marker."""
    GUARD = "guard"
    """Stage 4: the hard-limit guard; trims the oldest so the request always fits."""
    TRIM_TURNS = "trim_turns"
    """Turn fitting: the first message, a note and the newest complete user turns (or tool rounds
    inside one long turn) that fit. Stage 3's fallback when summarisation is off or fails, and the
    only stage of the ``legacy`` strategy."""


class Fate(enum.StrEnum):
    """What the pipeline did to a stored message in one request."""

    KEPT = "kept"
    CLEARED = "cleared"
    """Its tool-result content was replaced by the clearing note (stage 2)."""
    TRIMMED = "trimmed"
    """Its artifact was reduced (stage 1)."""
    SUMMARISED = "summarised"
    """It was folded into a summary (stage 3)."""
    DROPPED = "dropped"
    """It was left out to fit (turn fitting, legacy trimming or the guard)."""


@dataclass(frozen=True, slots=True)
class StageRun:
    """What one stage did for one request.

    A stage "runs" at a request when it newly changes the request: stage 1 when an artifact arrives
    or ages, stage 2 when it clears a batch, and so on. What earlier runs did stays in effect (a
    cleared result stays cleared) and shows in the messages' fates.

    Attributes:
        stage: Which stage.
        items: What it changed: artifact blocks (stage 1), tool results (stage 2), messages folded
            into the summary (stage 3) or left out (turn fitting, guard).
        tokens_freed: Tokens it removed from the request.
        tokens_before: Request size (raw estimate) when the stage started.
        tokens_after: Request size (raw estimate) when it finished.
    """

    stage: Stage
    items: int
    tokens_freed: int
    tokens_before: int = 0
    tokens_after: int = 0


@dataclass(frozen=True, slots=True)
class SummaryMarker:
    """A point where summarisation replaced older history (always shown to the user).

    Attributes:
        request_index: The request at which the summary was made.
        tokens_before: Request size before summarising.
        tokens_after: Request size after.
        tokens_freed: ``tokens_before - tokens_after``.
        tokens_summarised: Tokens of history that went into the summary.
        summary_tokens: Size of the summary itself.
        recent_kept_tokens: Tokens of recent history kept verbatim after the summary.
        recent_kept_messages: Messages of recent history kept verbatim.
        summary_text: The summary.
    """

    request_index: int
    tokens_before: int
    tokens_after: int
    tokens_freed: int
    tokens_summarised: int
    summary_tokens: int
    recent_kept_tokens: int
    recent_kept_messages: int
    summary_text: str


@dataclass(frozen=True, slots=True)
class Thresholds:
    """The three lines on the context meter, in tokens.

    Attributes:
        budget: The working budget.
        trigger: Compaction starts when the (calibrated) request size exceeds this.
        target: Compaction aims at this size (hysteresis: below the trigger).
        limit: The model's hard limit for this run.
    """

    budget: int
    trigger: int
    target: int
    limit: int


@dataclass(frozen=True, slots=True)
class RequestRecord:
    """One model call of a scope, replayed through the pipeline.

    Attributes:
        scope_id: The scope that made the call.
        index: The call's position in its scope (0-based).
        message_count: Stored messages the call was made over.
        stored_tokens: Estimated size of the stored history (everything, uncompacted).
        sent_tokens: Estimated size of the request the pipeline sends (raw estimator).
        calibrated_tokens: ``sent_tokens`` corrected by the run's calibration.
        reported_tokens: Prompt tokens the provider reported for the call, if the log has them.
        reported_cached_tokens: Of those, the part read from the provider's cache.
        cached_prefix_tokens: Leading tokens identical to the previous request's (the pipeline's
            own prefix-cache estimate).
        stages: The stages that ran, in order (empty when the request fit as it was).
        summary: The summary marker when stage 3 ran.
        over_limit: The request sent is above the hard limit (only ever true for ``legacy``).
        refused: The guard could not fit the minimum recent history; the user-facing refusal is
            shown instead of a request.
        fate_counts: Messages of the stored history per fate.
        by_category: Tokens of the sent request per category.
        by_tool: Tokens of tool results (and calls) in the sent request per tool name.
        model: The model called.
        error: The error the call got in the log, if any (e.g. ``context_length``).
        calibration_factor: The correction factor in force for this request (from the usage the
            provider reported for earlier calls).
        detail_released: A live view released this request's breakdowns (``fate_counts``,
            ``by_category``, ``by_tool`` are empty) and its detail to bound memory; its figures,
            stages and summary marker stay. ``ctxscope open`` keeps every request's detail.
        source: In the recorded lens, where :attr:`context_tokens` comes from: ``reported`` (the
            call's usage) or ``estimate`` (reconstructed); empty in the pipeline lens.
        unseen_tokens: Of :attr:`context_tokens`, the part the log never shows (recorded lens).
        cost: Estimated dollars of the call's reported usage at its model's list prices
            (:func:`~ctxscope.core.pricing.cost_of`); None without usage or for an unpriced model,
            and in the pipeline lens (a what-if has no bill).
        recorded_cost: The dollars the agent itself recorded for the call (Aider, OpenCode,
            Cline), None when its log records none (recorded lens).
        priced: False when the call has usage but its model is not in the price table.
        timestamp: The call's ISO-8601 time from the log ('' when the log has none).
    """

    scope_id: str
    index: int
    message_count: int
    stored_tokens: int
    sent_tokens: int
    calibrated_tokens: int
    reported_tokens: int | None
    reported_cached_tokens: int | None
    cached_prefix_tokens: int
    stages: tuple[StageRun, ...]
    summary: SummaryMarker | None
    over_limit: bool
    refused: bool
    fate_counts: Mapping[Fate, int]
    by_category: Mapping[Category, int]
    by_tool: Mapping[str, int]
    model: str = ""
    error: str = ""
    calibration_factor: float = 1.0
    detail_released: bool = False
    source: str = ""
    unseen_tokens: int = 0
    cost: float | None = None
    recorded_cost: float | None = None
    priced: bool = True
    timestamp: str = ""

    def freed_by(self, stage: Stage) -> int:
        return sum(run.tokens_freed for run in self.stages if run.stage is stage)

    @property
    def context_tokens(self) -> int:
        """The figure the lens shows for this request: the reported prompt where the recorded
        lens has it (``source == "reported"``), else the calibrated estimate."""
        if self.source == SOURCE_REPORTED and self.reported_tokens is not None:
            return self.reported_tokens
        return self.calibrated_tokens

    @property
    def held_back_tokens(self) -> int:
        """Pipeline lens: the stored history the request leaves out, in the unit of
        :attr:`context_tokens` (raw stored − raw sent, calibrated by the request's factor, as the
        request itself is); 0 in the recorded lens and where nothing was held back."""
        factor = self.calibration_factor
        if self.source or self.stored_tokens <= self.sent_tokens or not 0 < factor < math.inf:
            return 0
        return round((self.stored_tokens - self.sent_tokens) * factor)

    @property
    def in_log_tokens(self) -> int:
        """Of :attr:`context_tokens`, the part the log shows (the rest is :attr:`unseen_tokens`)."""
        return max(0, self.context_tokens - self.unseen_tokens)

    @property
    def provider_cached_share(self) -> float | None:
        """The share of the reported prompt the provider read from its cache (None unreported)."""
        if not self.reported_tokens or self.reported_cached_tokens is None:
            return None
        return self.reported_cached_tokens / self.reported_tokens

    @property
    def prefix_share(self) -> float | None:
        """The share of the sent request whose leading tokens repeat the previous request's."""
        return self.cached_prefix_tokens / self.sent_tokens if self.sent_tokens else None

    @property
    def sent_at(self) -> datetime | None:
        """When the call was made (UTC; None when the log has no usable timestamp)."""
        return parse_time(self.timestamp) if self.timestamp else None

    @property
    def drift(self) -> float | None:
        """``calibrated ÷ reported − 1`` where the provider reported the call (None otherwise)."""
        if not self.reported_tokens:
            return None
        return self.calibrated_tokens / self.reported_tokens - 1

    @property
    def diverges(self) -> bool:
        """The calibrated estimate is more than :data:`DIVERGENCE_TOLERANCE` from the reported figure."""
        drift = self.drift
        return drift is not None and abs(drift) > DIVERGENCE_TOLERANCE

    def category_figures(self) -> list[tuple[str, int]]:
        """The request by category in the lens's unit, adding up to :attr:`context_tokens`.

        The raw per-category estimates are scaled to what the log shows of the figure
        (``context_tokens - unseen_tokens``); :data:`NOT_IN_LOG` is the part of a reported figure the
        log never carries (system prompt, tool definitions). Empty once the detail was released.
        """
        raw = {cat.value: tokens for cat, tokens in self.by_category.items() if tokens > 0}
        total = self.context_tokens
        shown = self.in_log_tokens
        whole = sum(raw.values())
        if not whole:
            return [(NOT_IN_LOG, total)] if self.unseen_tokens and total else []
        out = [(name, tokens * shown // whole) for name, tokens in raw.items()]
        if out:  # the rounding rest goes to the largest row, so the rows add up exactly
            largest = max(range(len(out)), key=lambda i: out[i][1])
            name, tokens = out[largest]
            out[largest] = (name, tokens + shown - sum(t for _, t in out))
        if total - shown:
            out.append((NOT_IN_LOG, total - shown))
        return sorted(out, key=lambda row: -row[1])


@dataclass(frozen=True, slots=True)
class MessageView:
    """One stored message as the selected request treated it (for the message list).

    Attributes:
        index: Its index in the stored history.
        role: Its role.
        kind: A short description of its content (``text``, ``tool_call Bash``, ``tool_result``,
            ``dom_snapshot``, ``summary`` …).
        tokens: Tokens it contributes to the sent request (0 when dropped or summarised).
        stored_tokens: Tokens it has in the stored history.
        fate: What the pipeline did to it.
        preview: A one-line preview of its text (raw log text: render it literally, never as markup).
    """

    index: int
    role: str
    kind: str
    tokens: int
    stored_tokens: int
    fate: Fate
    preview: str


class MessageTimes(Sequence["datetime | None"]):
    """When each stored message of a scope was first sent: the time of the first request that
    carried it (None when that request has no timestamp, or no request carried it yet).

    Lazy: a row's time is looked up (a bisection on the records' message counts) when it is read,
    so a 100,000-message request costs only the rows shown. The records are an immutable snapshot.

    Args:
        records: The scope's records (message counts never decrease: messages are only appended).
        count: How many messages (the request's stored history).
    """

    __slots__ = ("_count", "_records")

    def __init__(self, records: Sequence[RequestRecord], count: int) -> None:
        self._records = records
        self._count = count

    def __len__(self) -> int:
        return self._count

    def _at(self, message: int) -> datetime | None:
        first = bisect.bisect_right(self._records, message, key=_message_count)
        return self._records[first].sent_at if first < len(self._records) else None

    @overload
    def __getitem__(self, index: int) -> datetime | None: ...

    @overload
    def __getitem__(self, index: slice) -> Sequence[datetime | None]: ...

    def __getitem__(self, index: int | slice) -> datetime | Sequence[datetime | None] | None:
        if isinstance(index, slice):
            return [self._at(i) for i in range(*index.indices(self._count))]
        if index < 0:
            index += self._count
        if not 0 <= index < self._count:
            raise IndexError(index)
        return self._at(index)


def _message_count(record: RequestRecord) -> int:
    return record.message_count


CHARS4_UNDERCOUNT: Final = 0.9
"""``chars / 4`` under-counts a text when it says less than this share of the estimate."""


@dataclass(frozen=True, slots=True)
class ScriptFigures:
    """One row of a per-script breakdown, with what ``chars / 4`` says of it.

    Attributes:
        name: The script class (``all`` for the whole text).
        chars: Its characters.
        tokens: Its estimated tokens.
        chars4: ``chars / 4``, rounded up.
        chars_per_token: Characters per estimated token (None without tokens).
    """

    name: str
    chars: int
    tokens: int
    chars4: int
    chars_per_token: float | None


def script_figures(by_script: ScriptBreakdown) -> list[ScriptFigures]:
    """Every script class present in ``by_script``, then the whole text (``all``)."""
    rows = [
        ScriptFigures(name, chars, tokens, -(-chars // 4), chars / tokens if tokens else None)
        for name, chars, tokens in by_script.rows()
    ]
    chars, tokens = by_script.chars, by_script.tokens
    rows.append(ScriptFigures("all", chars, tokens, by_script.chars4, chars / tokens if tokens else None))
    return rows


@dataclass(frozen=True, slots=True)
class RequestDetail:
    """The expensive part of a request, computed on demand for the selected request.

    Attributes:
        record: The request's record.
        messages: Every stored message with its fate, by index: rows materialised in the worker
            (:class:`~ctxscope.core.detail_rows.RequestRows`; the messages a live view released
            are one run of rows built from their position).
        by_script: Per-script breakdown of the sent request's text (with what chars/4 would say).
        sent_at: When each message was first sent, by index (:class:`MessageTimes`; empty when
            not looked up: the tailer adds it in the worker).
        framing_tokens: What the request's raw estimate counts beyond its text (message and
            tool-call overheads, tool names, images): ``by_script.tokens + framing_tokens`` is
            ``record.sent_tokens`` when every elided character was read back
            (:func:`~ctxscope.core.script_memo.non_text_tokens`).
        unread_tokens: The raw estimate's tokens of elided text that could not be read back (a
            Markdown log, a file since changed): ``by_script.tokens + framing_tokens +
            unread_tokens`` is ``record.sent_tokens`` with the estimator the reader counted with.
    """

    record: RequestRecord
    messages: Sequence[MessageView]
    by_script: ScriptBreakdown
    sent_at: Sequence[datetime | None] = ()
    framing_tokens: int = 0
    unread_tokens: int = 0

    @property
    def chars4_share(self) -> float | None:
        """What ``chars / 4`` says of the sent text, as a share of the estimate (None: no text)."""
        tokens = self.by_script.tokens
        return self.by_script.chars4 / tokens if tokens else None

    @property
    def chars4_undercounts(self) -> bool:
        """``chars / 4`` says less than :data:`CHARS4_UNDERCOUNT` of the estimate."""
        share = self.chars4_share
        return share is not None and share < CHARS4_UNDERCOUNT



GROWTH_WINDOW: Final = 8
"""Requests looked back over to measure the current growth rate."""


@dataclass(frozen=True, slots=True)
class AgentCompaction:
    """A compaction the agent made itself, placed on its scope's requests.

    Attributes:
        request: The first request after it (where the timeline marks it).
        kind: ``summary`` (the history was replaced by a summary) or ``microcompact`` (old tool
            results were cleared, the history stays).
        trigger: ``auto`` or ``manual`` when the log says.
        tokens_before: Context before: the agent's own figure, else the last reported prompt.
        tokens_after: Context after: the agent's own figure, else the next reported prompt.
        summary_tokens: Estimated size of the summary text (0 for a microcompact).
        kept_tokens: Estimated size of what the agent carried over verbatim besides the summary.
        summary_text: The summary (raw log text: render it literally).
        line: Log line of the compaction.
    """

    request: int
    kind: str
    trigger: str
    tokens_before: int | None
    tokens_after: int | None
    summary_tokens: int
    kept_tokens: int
    summary_text: str
    line: int = 0

    @property
    def tokens_freed(self) -> int | None:
        if self.tokens_before is None or self.tokens_after is None:
            return None
        return self.tokens_before - self.tokens_after


@dataclass(frozen=True, slots=True)
class Forecast:
    """How soon the next compaction comes at the current growth.

    Attributes:
        requests_left: Requests until the figure passes the trigger (0: it already has; None:
            not growing).
        growth: Average growth of the figure per request since the last compaction (None with
            fewer than two requests since).
        trigger: The trigger the forecast is against.
        trigger_known: False when no trigger is known for the agent (the recorded lens of a log
            from an agent whose auto-compaction threshold is unknown): then there is no forecast
            (``requests_left`` is None) and ``trigger`` is only the window.
    """

    requests_left: int | None
    growth: float | None
    trigger: int
    trigger_known: bool = True


def growth_rate(records: Sequence[RequestRecord], index: int, window: int = GROWTH_WINDOW) -> float | None:
    """Average growth of :attr:`RequestRecord.context_tokens` per request, up to ``index``.

    Only the run since the last request at which a stage freed tokens counts (a compaction resets
    the growth). None when fewer than two requests are in that run.
    """
    if index <= 0 or index >= len(records):
        return None
    start = max(0, index - window)
    for i in range(index, start, -1):
        if any(run.tokens_freed > 0 for run in records[i].stages if run.stage is not Stage.ARTIFACTS):
            start = i
            break
    if index - start < 1:
        return None
    return (records[index].context_tokens - records[start].context_tokens) / (index - start)


def requests_left(size: int, trigger: int, rate: float | None) -> int | None:
    """Requests until a request of ``size`` growing by ``rate`` per request passes ``trigger``.

    0 when it already has; None when the size is not growing.
    """
    if size > trigger:
        return 0
    if rate is None or rate <= 0:
        return None
    return max(1, math.ceil((trigger - size) / rate))


@dataclass(frozen=True, slots=True)
class ScopeTotals:
    """Figures over all of a scope's records, kept up to date in the worker as records arrive.

    Attributes:
        peak: The largest figure of a request (:attr:`RequestRecord.context_tokens`; refused ones
            excluded).
        peak_request: Which request (-1 before the first).
        summaries: Requests with a summary marker.
        over_limit: Requests over the hard limit, or refused.
        first_over_limit: The first of those (-1 when none).
        cost: The records' estimated dollars (:attr:`RequestRecord.cost`) summed: an estimate.
        priced: Requests whose estimated cost is in :attr:`cost` (usage at a known model's
            prices); the others (no usage, or :attr:`unpriced`) are not in it.
        unpriced: Requests with usage whose model has no price (not in :attr:`cost`).
        recorded_cost: The dollars the agent recorded, summed over the requests that carry it.
        recorded_calls: Requests with a recorded cost (0: the agent's log records none).
        times: The first and last timestamped request (:mod:`~ctxscope.core.timing`; each
            record's time is parsed once, as it arrives).
    """

    peak: int = 0
    peak_request: int = -1
    summaries: int = 0
    over_limit: int = 0
    first_over_limit: int = -1
    cost: float = 0.0
    priced: int = 0
    unpriced: int = 0
    recorded_cost: float = 0.0
    recorded_calls: int = 0
    times: SessionTimes = field(default_factory=SessionTimes)

    def extended(self, records: Sequence[RequestRecord]) -> ScopeTotals:
        """These totals with ``records`` (the requests that came after) taken in."""
        peak, peak_request, summaries = self.peak, self.peak_request, self.summaries
        over, first_over = self.over_limit, self.first_over_limit
        cost, priced, unpriced = self.cost, self.priced, self.unpriced
        recorded, recorded_calls = self.recorded_cost, self.recorded_calls
        started, last = self.times.started, self.times.last
        for record in records:
            moment = parse_time(record.timestamp) if record.timestamp else None
            if moment is not None:
                started = moment if started is None or moment < started else started
                last = moment if last is None or moment > last else last
            if record.cost is not None:
                cost += record.cost
                priced += 1
            unpriced += not record.priced
            if record.recorded_cost is not None:
                recorded += record.recorded_cost
                recorded_calls += 1
            if record.summary is not None:
                summaries += 1
            if record.over_limit or record.refused:
                over += 1
                if first_over < 0:
                    first_over = record.index
            if not record.refused and record.context_tokens > peak:
                peak, peak_request = record.context_tokens, record.index
        return ScopeTotals(
            peak, peak_request, summaries, over, first_over, cost, priced, unpriced, recorded, recorded_calls,
            SessionTimes(started, last),
        )


@dataclass(frozen=True, slots=True)
class StoredVolume:
    """What a scope stored when its log records no model call (``codex exec --json``): the
    volume of its tool work, estimated, since no provider figure exists, and the usage the log
    reports per turn.

    Attributes:
        messages: Messages stored.
        tool_calls: Tool calls among them.
        tool_results: Tool results among them.
        estimated_tokens: Estimated tokens of every stored message.
        by_category: ``estimated_tokens`` per category (raw estimate; adds up to it).
        turns: Turns whose usage the log reports (``turn.completed``).
        turn_usage: Those turns' usage summed, as reported: every model call of a turn is in it,
            so its prompt tokens are the sum of the calls' prompts, not a context's size (None
            when the log reports none).
    """

    messages: int
    tool_calls: int
    tool_results: int
    estimated_tokens: int
    by_category: Mapping[Category, int] = field(default_factory=dict)
    turns: int = 0
    turn_usage: Usage | None = None


@dataclass(frozen=True, slots=True)
class AgentErrors:
    """API errors the agent wrote in place of a response (Claude Code's ``<synthetic>`` messages,
    Gemini CLI's ``[API Error: …]``, Aider's litellm errors): requests it sent that got no
    response, so no usage and no record of their own.

    Attributes:
        count: How many.
        context_length: Those that said the prompt was too long (refused for its size).
        latest: The latest one's text as the agent wrote it (at most 200 characters).
    """

    count: int = 0
    context_length: int = 0
    latest: str = ""

    def to_json(self) -> dict[str, int | str]:
        """The ``agent_errors`` object of ``docs/report-json.md``."""
        return {"count": self.count, "context_length": self.context_length, "latest": self.latest}


def agent_errors(errors: Sequence[ObservedError]) -> AgentErrors:
    """The :class:`AgentErrors` of a scope's observed errors."""
    if not errors:
        return AgentErrors()
    too_long = sum(1 for e in errors if e.error.kind is ErrorKind.CONTEXT_LENGTH)
    return AgentErrors(len(errors), too_long, errors[-1].error.message)


@dataclass(frozen=True, slots=True)
class ScopeSnapshot:
    """Everything the dashboard shows for one scope at one moment.

    Attributes:
        header: The scope's header.
        thresholds: Budget, trigger, target and hard limit in force.
        records: One record per replayed request, in order (the list only grows; a live view
            holds the older ones as figures only, see :mod:`ctxscope.core.records`).
        observed: Compactions the agent itself reported.
        stored_messages: Messages stored so far.
        calibration_factor: The current correction factor applied to raw estimates.
        lens: The lens the records are in.
        agent_compactions: The agent's own compactions, placed on requests.
        thresholds_source: Where the thresholds come from, for the meter's note (e.g.
            ``window: model table · trigger: seen compactions``).
        own_pipeline: The agent ran ctxscope's pipeline (ctxscope's own log): the recorded lens
            shows the pipeline's thresholds and stages, and the lenses coincide.
        totals: Peak, summaries and requests over the limit over all the records.
        stored_volume: The stored messages' volume, for a scope whose log records no model call
            (None once there are records: the records say more).
        window_known: The window comes from the log, the model table or ``--window``; False when
            it is ctxscope's default (the log names no model of a known window).
        trigger_known: The trigger is the agent's own (its default, its seen compactions, or
            ``--trigger``) or the pipeline's; False when none is known and the window stands in.
        agent_errors: API errors the agent wrote in place of a response (observed in its log; the
            same in both lenses).
    """

    header: ScopeHeader
    thresholds: Thresholds
    records: Sequence[RequestRecord]
    observed: tuple[ObservedCompaction, ...]
    stored_messages: int
    calibration_factor: float
    lens: Lens = "pipeline"
    agent_compactions: tuple[AgentCompaction, ...] = ()
    thresholds_source: str = ""
    own_pipeline: bool = False
    totals: ScopeTotals = ScopeTotals()
    stored_volume: StoredVolume | None = None
    window_known: bool = True
    trigger_known: bool = True
    agent_errors: AgentErrors = AgentErrors()

    @property
    def agent_thresholds(self) -> bool:
        """The thresholds and stages are the agent's own (its window, its auto-compaction trigger,
        its compactions): the recorded lens of a log ctxscope's pipeline did not write."""
        return self.lens == "recorded" and not self.own_pipeline

    @property
    def summary_count(self) -> int:
        """The scope's summaries in its lens: the agent's own compactions where the thresholds are
        the agent's, else the summaries the pipeline made."""
        return len(self.agent_compactions) if self.agent_thresholds else self.totals.summaries

    def forecast(self, index: int) -> Forecast:
        """Requests until the next compaction from request ``index``, at the growth seen so far.

        In the recorded lens the trigger is the agent's own (its next compaction); in the
        pipeline lens it is the pipeline's.
        """
        trigger = self.thresholds.trigger
        if not 0 <= index < len(self.records):
            return Forecast(None, None, trigger, self.trigger_known)
        rate = growth_rate(self.records, index)
        if not self.trigger_known:
            return Forecast(None, rate, trigger, trigger_known=False)
        return Forecast(requests_left(self.records[index].context_tokens, trigger, rate), rate, trigger)

    def compaction_at(self, request: int) -> AgentCompaction | None:
        """The agent compaction marked at ``request`` (the last one when several are)."""
        found = None
        for compaction in self.agent_compactions:
            if compaction.request == request:
                found = compaction
        return found


@dataclass(frozen=True, slots=True)
class SessionSnapshot:
    """The whole session at one moment: its scopes plus what was skipped while reading.

    Attributes:
        source: Where it was read from.
        format: The log format.
        session_id: The agent session's id.
        scopes: Snapshots by scope id, main agent first.
        bad_lines: Skipped lines by kind.
        problems: The first few skipped lines with line numbers and reasons.
        notices: Truncation, rotation and follow notices.
        bytes_read: Bytes of the log read so far.
        size: The log's size when the snapshot was taken.
        lens: The lens every scope is shown in.
        estimator: The estimator's name (chosen by model family unless asked for).
    """

    source: str
    format: str
    session_id: str
    scopes: Mapping[str, ScopeSnapshot]
    bad_lines: Mapping[str, int] = field(default_factory=dict)
    problems: tuple[Problem, ...] = ()
    notices: tuple[Problem, ...] = ()
    bytes_read: int = 0
    size: int = 0
    lens: Lens = "pipeline"
    estimator: str = ""

    @property
    def times(self) -> SessionTimes:
        """When the session's first and last timestamped model call were, over every scope."""
        starts = [s.totals.times.started for s in self.scopes.values() if s.totals.times.started]
        lasts = [s.totals.times.last for s in self.scopes.values() if s.totals.times.last]
        return SessionTimes(min(starts) if starts else None, max(lasts) if lasts else None)


def scope_order(session: Session) -> list[str]:
    """A session's scope ids, the main agent first."""
    order = list(session.scopes)
    main = session.main_scope
    if main is not None and main.scope_id in order:
        order.remove(main.scope_id)
        order.insert(0, main.scope_id)
    return order


def session_snapshot(
    session: Session, scopes: Mapping[str, ScopeSnapshot], *, lens: Lens = "pipeline", estimator: str = ""
) -> SessionSnapshot:
    """A snapshot of ``session`` holding ``scopes`` (and what was skipped while reading)."""
    problems = session.problems
    return SessionSnapshot(
        source=session.source,
        format=session.format,
        session_id=session.session_id,
        scopes=scopes,
        bad_lines=dict(problems.counts),
        problems=tuple(problems.kept),
        notices=tuple(problems.notices),
        bytes_read=session.bytes_read,
        size=session.bytes_read,
        lens=lens,
        estimator=estimator,
    )
