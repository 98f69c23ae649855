"""Snapshot records: what replaying a session through the pipeline computed, ready to render.

These frozen records are the contract between ``ctxscope.core`` (which computes them) and the
dashboard and ``ctxscope report`` (which only render them). Data flows one way: log bytes → reader
→ session model → pipeline replay → these records → widgets.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from .model import Category, ObservedCompaction, ScopeHeader
from .session import Problem
from .tokens import ScriptBreakdown


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

    def freed_by(self, stage: Stage) -> int:
        return sum(run.tokens_freed for run in self.stages if run.stage is stage)


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


@dataclass(frozen=True, slots=True)
class RequestDetail:
    """The expensive part of a request, computed on demand for the selected request.

    Attributes:
        record: The request's record.
        messages: Every stored message with its fate, by index (a read-only sequence whose views
            are built when read, so a 100,000-message request costs only the rows shown).
        by_script: Per-script breakdown of the sent request's text (with what chars/4 would say).
    """

    record: RequestRecord
    messages: Sequence[MessageView]
    by_script: ScriptBreakdown


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
    """

    header: ScopeHeader
    thresholds: Thresholds
    records: Sequence[RequestRecord]
    observed: tuple[ObservedCompaction, ...]
    stored_messages: int
    calibration_factor: float


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
