"""The pipeline as an agent runs it before every model call, and the per-scope driver replay uses.

:class:`ContextManager` is what an agent imports::

    from ctxscope.core.pipeline import ContextManager, PipelineConfig, SAFETY_NET_INSTRUCTION

    manager = ContextManager(PipelineConfig(hard_limit=1_000_000, budget=400_000))
    prepared = manager.prepare(history, reported_usage_of_last_call=last_usage)
    if prepared.refused:
        tell_user(prepared.refusal)          # SPEC's message; not an incident, no retry
    else:
        response = call_model(prepared.messages)

``history`` is the agent's stored history (a sequence of :class:`~ctxscope.core.model.Message`);
it is never changed — only the outgoing copy is reshaped. Successive calls are expected to pass
the same history grown by appending; a history changed anywhere else (a message replaced, removed,
inserted or reordered; every message seen is checked on each call) starts the pipeline's state
afresh, with the same result as a new manager.

:class:`PipelineRun` is the incremental core both use: one per scope, advanced one request at a
time, each step costing in proportion to what was appended (see :mod:`.state`).
"""

from __future__ import annotations

from array import array
from bisect import bisect_left
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import islice

from ..model import MAIN_SCOPE, Block, BlockKind, Message, ScopeHeader, Usage
from ..snapshot import (
    Fate,
    RequestRecord,
    Stage,
    StageRun,
    SummaryMarker,
    Thresholds,
)
from ..tokens import Calibrator, Estimator, get_estimator
from .artifacts import Level, keeps_reduced
from .clearing import run_clearing
from .config import PipelineConfig
from .fitting import run_fitting
from .guard import run_guard
from .legacy import run_legacy
from .notes import CLEARED_NOTE, REFUSAL_MESSAGE, TRIM_NOTE
from .state import CLEARED, DROPPED, FATES, KEPT, SUMMARISED, TRIMMED, ScopeState, SummaryState
from .summarize import DEFAULT_SUMMARISER, Summariser, run_summarise


@dataclass(frozen=True, slots=True)
class Decision:
    """What the pipeline decided for one request, enough to rebuild it on demand.

    Attributes:
        message_count: Stored messages the request was made over.
        start: First stored message of the tail.
        head_end: Messages before this index are the head (always sent).
        summary: The summary in force.
        clearable_considered: Clearable results looked at so far (those in the tail are cleared).
        refused: The guard refused the request.
    """

    message_count: int
    start: int
    head_end: int
    summary: SummaryState | None
    clearable_considered: int
    refused: bool


class PipelineRun:
    """The pipeline for one scope, advanced one request at a time.

    Args:
        config: The configuration.
        header: The scope's header (its limit and budget apply unless the config overrides them).
        scope_id: The scope's id (for records).
        estimator: The estimator (default: the one the config names).
    """

    def __init__(
        self,
        config: PipelineConfig,
        *,
        header: ScopeHeader | None = None,
        scope_id: str = MAIN_SCOPE,
        estimator: Estimator | None = None,
    ) -> None:
        self.config = config
        self.scope_id = scope_id
        self.estimator = estimator or get_estimator(config.estimator)
        self.thresholds = config.thresholds(header)
        self.legacy = config.strategy == "legacy"
        self.state = ScopeState(
            config, self.estimator, trim_artifacts=not self.legacy, keep_tokens=self._keep_tokens(),
            scope_id=scope_id,
        )
        summariser = config.summariser
        self.summariser: Summariser = summariser if summariser is not None else DEFAULT_SUMMARISER
        self.count = 0
        self._prev_sent: int | None = None

    def _keep_tokens(self) -> int:
        return max(1, int(self.thresholds.budget * self.config.keep_fraction))

    def set_header(self, header: ScopeHeader | None) -> None:
        """Apply a header that arrived (or changed) after the scope started."""
        self.thresholds = self.config.thresholds(header)
        self.state.set_keep_tokens(self._keep_tokens())

    def step(
        self,
        messages: Sequence[Message],
        message_count: int,
        *,
        factor: float = 1.0,
        usage: Usage | None = None,
        model: str = "",
        error: str = "",
        timestamp: str = "",
    ) -> tuple[RequestRecord, Decision]:
        """Run the pipeline for the next request, made over ``messages[:message_count]``.

        Args:
            messages: The scope's stored history (only read; may be longer than ``message_count``).
            message_count: How many stored messages the request is made over (never decreasing).
            factor: The calibration factor in force (estimate × factor ≈ what the provider counts).
            usage: What the provider reported for this call, if known (recorded, not used here).
            model: The model called.
            error: The error the call got, if any.
            timestamp: When the call was made, as the log wrote it ("" when it does not say).
        """
        state = self.state
        config = self.config
        th: Thresholds = self.thresholds
        runs: list[StageRun] = []
        marker: SummaryMarker | None = None
        refused = False
        items, freed = state.ingest(messages, message_count)
        if items:
            after = state.size()
            runs.append(StageRun(Stage.ARTIFACTS, items, freed, after + freed, after))
        if self.legacy:
            legacy = run_legacy(state, budget=th.budget)
            if legacy is not None:
                runs.append(legacy)
        else:
            over, down_to = th.trigger / factor, th.target / factor
            units = config.min_recent_turns
            cleared = run_clearing(state, over=over, down_to=down_to, batch=config.clear_batch)
            if cleared is not None:
                runs.append(cleared)
            summarised = None
            if config.summarise:
                summarised = run_summarise(
                    state, request_index=self.count, over=over, down_to=down_to, min_units=units,
                    summariser=self.summariser, max_tokens=config.summary_max_tokens,
                    keep_recent=th.budget * config.summary_keep_fraction / factor,
                )
            if summarised is not None:
                runs.append(summarised[0])
                marker = summarised[1]
            else:
                fitted = run_fitting(state, over=over, down_to=down_to, min_units=units)
                if fitted is not None:
                    runs.append(fitted)
            guarded, refused = run_guard(state, allowed=th.limit / max(factor, 1.0), min_units=units)
            if guarded is not None:
                runs.append(guarded)
        raw = state.size()
        calibrated = round(raw * factor)
        changed = state.take_first_change()
        if refused or self._prev_sent is None:
            cached = 0
        elif changed is None:
            cached = min(self._prev_sent, raw)
        else:
            cached = min(self._prev_sent, state.prefix_before(changed))
        self._prev_sent = None if refused else raw
        by_category, by_tool = state.totals()
        record = RequestRecord(
            scope_id=self.scope_id,
            index=self.count,
            message_count=message_count,
            stored_tokens=state.stored_total,
            sent_tokens=raw,
            calibrated_tokens=calibrated,
            reported_tokens=usage.prompt_tokens if usage is not None else None,
            reported_cached_tokens=usage.cached_prompt_tokens if usage is not None else None,
            cached_prefix_tokens=cached,
            stages=tuple(runs),
            summary=marker,
            over_limit=not refused and max(raw, calibrated) > th.limit,
            refused=refused,
            fate_counts=state.fate_map(),
            by_category=by_category,
            by_tool=by_tool,
            model=model,
            error=error,
            calibration_factor=factor,
            timestamp=timestamp,
        )
        self.count += 1
        decision = Decision(
            message_count, state.start, state.head_end, state.summary,
            state.window.clearable_considered, refused,
        )
        return record, decision


# -- rebuilding a request ------------------------------------------------------------------------


def _levels_at(state: ScopeState, i: int, count: int) -> list[Level] | None:
    cost = state.ledger.costs[i]
    if not cost.artifacts or not state.trim_artifacts:
        return None
    config = state.config
    levels: list[Level] = []
    for k, art in enumerate(cost.artifacts):
        entries = state.ledger.artifacts[art.kind]
        position = bisect_left(entries, (i, k))
        newer = bisect_left(entries, (count, -1)) - 1 - position
        levels.append(keeps_reduced(art.kind, newer, config.dom_keep_actionable, config.screenshot_keep))
    return levels


def _cleared_at(state: ScopeState, decision: Decision) -> dict[int, int]:
    ledger = state.ledger
    clearable = ledger.clearable
    cleared: dict[int, int] = {}
    # Results released before the offset were all left out of the request already.
    for ordinal in clearable.raw[: max(0, decision.clearable_considered - clearable.offset)]:
        i, k = ledger.result_message[ordinal], ledger.result_position[ordinal]
        if decision.start <= i < decision.message_count:
            cleared[i] = cleared.get(i, 0) | (1 << k)
    return cleared


def _reshape(state: ScopeState, i: int, cleared: int, levels: list[Level] | None) -> Message:
    message = state.messages[i]
    if not cleared and (levels is None or all(level is Level.FULL for level in levels)):
        return message
    cost = state.ledger.costs[i]
    blocks = list(message.blocks)
    for k, result in enumerate(cost.results):
        if cleared >> k & 1:
            old = blocks[result.block]
            blocks[result.block] = Block(
                BlockKind.TOOL_RESULT, CLEARED_NOTE, call_id=old.call_id, name=old.name, is_error=old.is_error
            )
    if levels is not None:
        for k, art in enumerate(cost.artifacts):
            if art.forms is not None:
                blocks[art.block] = art.forms.at(levels[k])
    return message.replace_blocks(tuple(blocks))


def _header_messages(state: ScopeState, decision: Decision) -> list[Message]:
    out: list[Message] = []
    floor = decision.head_end
    if decision.summary is not None:
        out.append(decision.summary.message(state.scope_id))
        floor = decision.summary.upto
    if decision.start > floor:
        out.append(Message(-1, "user", (Block(BlockKind.TEXT, TRIM_NOTE),), state.scope_id, meta=True))
    return out


def _repair_pairs(messages: list[Message]) -> list[Message]:
    """Leave out tool results whose call is not in the request, and calls whose result is not."""
    calls = {b.call_id for m in messages for b in m.blocks if b.kind is BlockKind.TOOL_CALL and b.call_id}
    results = {b.call_id for m in messages for b in m.blocks if b.kind is BlockKind.TOOL_RESULT and b.call_id}
    if calls == results:
        return messages
    out: list[Message] = []
    for message in messages:
        kept = tuple(
            b
            for b in message.blocks
            if not b.call_id
            or (b.kind is BlockKind.TOOL_CALL and b.call_id in results)
            or (b.kind is BlockKind.TOOL_RESULT and b.call_id in calls)
            or b.kind not in (BlockKind.TOOL_CALL, BlockKind.TOOL_RESULT)
        )
        if len(kept) == len(message.blocks):
            out.append(message)
        elif kept:
            out.append(message.replace_blocks(kept))
    return out


def request_messages(state: ScopeState, decision: Decision) -> list[Message]:
    """The messages the request was sent with (empty when it was refused)."""
    if decision.refused:
        return []
    count = decision.message_count
    head_end = min(decision.head_end, count)
    cleared = _cleared_at(state, decision)
    out = [_reshape(state, i, 0, _levels_at(state, i, count)) for i in range(head_end)]
    out.extend(_header_messages(state, decision))
    out.extend(
        _reshape(state, i, cleared.get(i, 0), _levels_at(state, i, count))
        for i in range(max(decision.start, head_end), count)
    )
    return _repair_pairs(out)


@dataclass(frozen=True, slots=True)
class MessageFates:
    """Every stored message's fate and tokens in one request: 9 bytes a message (a request of a
    long session has tens of thousands, and the dashboard asks for one every few refreshes).

    Attributes:
        codes: Per message, the index of its fate in :data:`~.state.FATES`.
        tokens: Per message, its tokens in the request (0 when left out).
    """

    codes: bytearray
    tokens: array[int]

    def __len__(self) -> int:
        return len(self.codes)

    def fate(self, i: int) -> Fate:
        return FATES[self.codes[i]]

    def all(self) -> tuple[Fate, ...]:
        return tuple(FATES[code] for code in self.codes)


def message_fates(state: ScopeState, decision: Decision) -> MessageFates:
    """Every stored message's fate and tokens in the request (0 when left out)."""
    count = decision.message_count
    head_end = min(decision.head_end, count)
    cleared = _cleared_at(state, decision)
    summary_upto = decision.summary.upto if decision.summary is not None else head_end
    codes = bytearray()
    tokens = array("q")

    def sent(lo: int, hi: int) -> None:
        for i in range(lo, hi):
            mask = cleared.get(i, 0)
            cost = state.ledger.costs[i]
            got = state.contribution(cost, mask, _levels_at(state, i, count))[0]
            codes.append(CLEARED if mask else TRIMMED if got < cost.stored else KEPT)
            tokens.append(got)

    sent(0, head_end)
    left_out_end = max(head_end, min(decision.start, count))
    summarised = max(0, min(summary_upto, left_out_end) - head_end)
    codes += bytes([SUMMARISED]) * summarised + bytes([DROPPED]) * (left_out_end - head_end - summarised)
    tokens.frombytes(bytes(tokens.itemsize * (left_out_end - head_end)))
    sent(left_out_end, count)
    return MessageFates(codes, tokens)


# -- the agent's context manager -----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PreparedRequest:
    """What :meth:`ContextManager.prepare` returns.

    Attributes:
        messages: The messages to send (copies where reshaped; the stored history is untouched).
            Empty when refused.
        record: Sizes, stage runs, summary marker, cached prefix, fate counts.
        fates: Each stored message's fate, by index.
        refusal: :data:`~.notes.REFUSAL_MESSAGE` when the request cannot fit the hard limit.
    """

    messages: tuple[Message, ...]
    record: RequestRecord
    fates: tuple[Fate, ...]
    refusal: str | None = None

    @property
    def refused(self) -> bool:
        return self.refusal is not None

    @property
    def sent_tokens(self) -> int:
        return self.record.sent_tokens

    @property
    def calibrated_tokens(self) -> int:
        return self.record.calibrated_tokens

    @property
    def stages(self) -> tuple[StageRun, ...]:
        return self.record.stages

    @property
    def summary(self) -> SummaryMarker | None:
        return self.record.summary

    @property
    def cached_prefix_tokens(self) -> int:
        return self.record.cached_prefix_tokens


def _same_message(a: Message, b: Message) -> bool:
    """Two distinct message objects that hold the same message."""
    return (
        a.index == b.index
        and a.role == b.role
        and a.meta == b.meta
        and a.scope_id == b.scope_id
        and a.line == b.line
        and a.category_hint == b.category_hint
        and a.blocks == b.blocks
    )


class ContextManager:
    """The compaction pipeline an agent calls before each model call.

    Args:
        config: The configuration (limits, budget, batch size, summariser …).
        header: The scope's header, when the agent has one (limits and budget from it apply unless
            ``config`` sets them).
        scope_id: Scope id used in records.
        calibrator: Calibration state (default: a fresh :class:`~ctxscope.core.tokens.Calibrator`).
    """

    def __init__(
        self,
        config: PipelineConfig | None = None,
        *,
        header: ScopeHeader | None = None,
        scope_id: str | None = None,
        calibrator: Calibrator | None = None,
    ) -> None:
        self.config = config or PipelineConfig()
        self.header = header
        self.scope_id = scope_id or (header.scope_id if header is not None else MAIN_SCOPE)
        self.calibrator = calibrator if calibrator is not None else Calibrator()
        self._run = self._new_run()
        self._last_sent: int | None = None

    def _new_run(self) -> PipelineRun:
        return PipelineRun(self.config, header=self.header, scope_id=self.scope_id)

    @property
    def thresholds(self) -> Thresholds:
        return self._run.thresholds

    @property
    def estimator(self) -> Estimator:
        return self._run.estimator

    def _continues(self, history: Sequence[Message]) -> bool:
        """Whether ``history`` is the history seen so far with messages appended (nothing else).

        Every message seen is checked, in one pass: the same object (``Message`` compares by
        identity, so the list comparison runs at C speed), or failing that an equal one (same
        index, role, content and attributes: an agent may rebuild its messages for each call). A
        history edited anywhere — a message replaced, removed, inserted or reordered — is not a
        continuation, and the manager starts afresh on it.
        """
        seen = list(self._run.state.messages)  # a manager never releases: every message is held
        count = len(seen)
        if len(history) < count:
            return False
        prefix = history[:count] if isinstance(history, list) else list(islice(history, count))
        return prefix == seen or all(a is b or _same_message(a, b) for a, b in zip(prefix, seen, strict=True))

    def prepare(
        self, history: Sequence[Message], reported_usage_of_last_call: Usage | int | None = None
    ) -> PreparedRequest:
        """Reshape the outgoing request for the next model call.

        Args:
            history: The full stored history so far (never changed).
            reported_usage_of_last_call: What the provider reported for the previous call (its
                ``Usage`` or prompt tokens); calibrates the estimate that drives the trigger.

        Returns:
            The messages to send with the record of what each stage did, or a refusal.
        """
        if reported_usage_of_last_call is not None and self._last_sent:
            reported = reported_usage_of_last_call
            prompt = reported.prompt_tokens if isinstance(reported, Usage) else int(reported)
            self.calibrator.observe(self._last_sent, prompt)
        if not self._continues(history):
            self._run = self._new_run()
        record, decision = self._run.step(history, len(history), factor=self.calibrator.factor)
        self._last_sent = None if record.refused else record.sent_tokens
        state = self._run.state
        fates = message_fates(state, decision).all()
        if decision.refused:
            return PreparedRequest((), record, fates, REFUSAL_MESSAGE)
        return PreparedRequest(tuple(request_messages(state, decision)), record, fates)


__all__ = [
    "FATES",
    "ContextManager",
    "Decision",
    "MessageFates",
    "PipelineRun",
    "PreparedRequest",
    "message_fates",
    "request_messages",
]
