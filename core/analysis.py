"""The analysis: one worker-side object that owns a session's lenses and hands out snapshots.

:class:`Analysis` is what ``ctxscope report``, the dashboard's tailer, the what-if view and the
demo all use. It owns

* the **recorded lens** (:mod:`ctxscope.core.lens`): what the agent sent and did, with the one
  calibration (:class:`~ctxscope.core.calibration.AnchoredCalibration`);
* the **pipeline lens**: ctxscope's pipeline replayed over the same history (a what-if; with the
  command line's budget, limit or strategy) — calibrated by the recorded lens's ratio of what the
  log shows at the same request;
* compare replays (the demo's what-if view) and the live window (what may be forgotten).

For ctxscope's own logs the agent ran this pipeline under the recorded configuration, so the two
lenses coincide (unless the configuration was changed on the command line): the same requests and
stages. The pipeline lens is still the pipeline replay's (its own calibrated figures, labelled
``pipeline``); only the recorded lens is the recorded one.

Everything it hands out is immutable and holds no reference to live state:
:meth:`Analysis.snapshot` (per lens), :meth:`Analysis.summary` (the typed per-scope summary whose
:meth:`SessionSummary.to_json` is ``ctxscope report --json``) and :meth:`Analysis.detail` (one
request's rows and breakdowns, materialised). Call it from one thread at a time (the worker).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Final

from .lens import RecordedScope, recorded_thresholds
from .lenses import LENSES, Lens
from .logformat import FORMAT_NAME
from .model import BlockKind, Category, Message, Usage
from .model_info import AGENTS_BY_FORMAT, compaction_trigger, context_window, estimator_profile
from .pipeline.config import PipelineConfig
from .pricing import PER_TOKENS, PRICES_TAKEN, REFERENCE_MODEL, cached_prompt_cost, price_of
from .retention import LiveWindow, Needs, WindowedLens
from .script_memo import ScriptMemo
from .session import Scope, Session
from .snapshot import (
    AgentCompaction,
    AgentErrors,
    MessageView,
    RequestDetail,
    RequestRecord,
    ScopeSnapshot,
    ScopeTotals,
    SessionSnapshot,
    Stage,
    StoredVolume,
    SummaryMarker,
    Thresholds,
    agent_errors,
    scope_order,
    session_snapshot,
)
from .tokens import Estimator, get_estimator
from .usage_check import RatioStats, ratio_stats

if TYPE_CHECKING:  # the replay (and the pipeline's stages) is imported only when a replay is made
    from .replay import SessionReplay

DEFAULT_WINDOW: Final = 200_000
"""The context window assumed when neither the flag, the log nor the model table gives one."""


@dataclass(frozen=True, slots=True)
class AgentThresholds:
    """The recorded lens's thresholds of one scope and where they come from.

    Attributes:
        thresholds: The agent's window and auto-compaction trigger.
        source: Where each comes from (``window: model table (…) · trigger: seen compactions``).
        window_known: False when the window is ctxscope's default (the log names no model of a
            known window and no ``--window`` was given).
        trigger_known: False when no trigger is known for the agent: the window stands in for
            it, so "over the trigger" means over the window and no compaction is forecast.
    """

    thresholds: Thresholds
    source: str
    window_known: bool
    trigger_known: bool


@dataclass(frozen=True, slots=True)
class AnalysisOptions:
    """How to analyse a session.

    Attributes:
        lens: The lens snapshots are in by default (None: ``recorded``).
        config: The pipeline configuration of the pipeline lens (the command line's overrides).
        window: The agent's context window in tokens (overrides the log and the model table).
        trigger: The agent's auto-compaction trigger in tokens (overrides defaults and what the
            session's compactions showed).
        estimator: The estimator's name (None: by the model family of the session's first call).
        keep_detail: Keep the detail of only the newest this many requests per scope (None: all):
            a live view's window (:class:`~ctxscope.core.retention.LiveWindow`).
        compare: Configurations replayed side by side (the demo's what-if view; the first is the
            reference).
        breakdowns: The recorded lens makes each request's breakdowns (tokens per category,
            messages per fate) and keeps its detail; False leaves them out (every figure of a
            summary is the same; ``ctxscope report`` prints no breakdown).
    """

    lens: Lens | None = None
    config: PipelineConfig = field(default_factory=PipelineConfig)
    window: int | None = None
    trigger: int | None = None
    estimator: str | None = None
    keep_detail: int | None = None
    compare: tuple[PipelineConfig, ...] = ()
    breakdowns: bool = True


def session_model(session: Session) -> str:
    """The model of the session's first call (else of its main scope's header)."""
    for scope in session.scopes.values():
        for request in scope.requests[:1]:
            if request.model:
                return request.model
    main = session.main_scope
    return main.header.model if main is not None else ""


# -- the summary -----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class CostFigures:
    """What some calls cost: ctxscope's estimate at list prices and the agent's own figure.

    Always from the recorded lens (what the agent really sent), whichever lens is shown.

    Attributes:
        dollars: Estimated US dollars of the priced calls (:mod:`~ctxscope.core.pricing`; an
            estimate at the prices taken on :data:`~ctxscope.core.pricing.PRICES_TAKEN`).
        priced_requests: Calls with usage at a known model's prices.
        unpriced_requests: Calls with usage whose model has no price (not in ``dollars``).
        unpriced_models: Those calls' model ids.
        recorded_dollars: The sum of the costs the agent recorded itself (Aider, OpenCode,
            Cline), None when its log records none.
        recorded_requests: Calls with a recorded cost.
    """

    dollars: float = 0.0
    priced_requests: int = 0
    unpriced_requests: int = 0
    unpriced_models: tuple[str, ...] = ()
    recorded_dollars: float | None = None
    recorded_requests: int = 0

    @classmethod
    def of(cls, records: Sequence[RequestRecord]) -> CostFigures:
        """The cost of recorded-lens records."""
        priced = [r.cost for r in records if r.cost is not None]
        recorded = [r.recorded_cost for r in records if r.recorded_cost is not None]
        unpriced = [r.model for r in records if not r.priced]
        return cls(
            sum(priced), len(priced), len(unpriced), tuple(sorted(set(unpriced))),
            sum(recorded) if recorded else None, len(recorded),
        )

    def plus(self, other: CostFigures) -> CostFigures:
        """These figures and ``other``'s together."""
        recorded = (
            None if self.recorded_dollars is None and other.recorded_dollars is None
            else (self.recorded_dollars or 0.0) + (other.recorded_dollars or 0.0)
        )
        return CostFigures(
            self.dollars + other.dollars,
            self.priced_requests + other.priced_requests,
            self.unpriced_requests + other.unpriced_requests,
            tuple(sorted({*self.unpriced_models, *other.unpriced_models})),
            recorded,
            self.recorded_requests + other.recorded_requests,
        )

    def to_json(self) -> dict[str, Any]:
        """The ``cost`` object of ``docs/report-json.md``."""
        return {
            "estimate": True,
            "usd": round(self.dollars, 6),
            "prices_taken": PRICES_TAKEN,
            "priced_requests": self.priced_requests,
            "unpriced_requests": self.unpriced_requests,
            "unpriced_models": list(self.unpriced_models),
            "recorded_usd": None if self.recorded_dollars is None else round(self.recorded_dollars, 6),
            "recorded_requests": self.recorded_requests,
        }


@dataclass(frozen=True, slots=True)
class PromptCost:
    """What a what-if's prompts would cost (pipeline lens): each request's calibrated size, its
    cached prefix read from the provider's cache and the rest written to it
    (:func:`~ctxscope.core.pricing.cached_prompt_cost`). An estimate to compare configurations,
    not a bill: output is left out, and a log without a priced model is priced at
    :data:`~ctxscope.core.pricing.REFERENCE_MODEL`.

    Attributes:
        model: The model whose prices were used.
        dollars: The prompts with the prefix cache.
        without_cache_dollars: The same prompts at the plain input price (no cache at all).
    """

    model: str
    dollars: float
    without_cache_dollars: float

    def plus(self, other: PromptCost) -> PromptCost:
        """These prompts and ``other``'s (the first one's model named)."""
        return PromptCost(
            self.model, self.dollars + other.dollars, self.without_cache_dollars + other.without_cache_dollars
        )

    def saved_against(self, other: PromptCost) -> tuple[float, float]:
        """Dollars these prompts cost less than ``other``'s, and that as a share of ``other``'s
        (negative when they cost more)."""
        saved = other.dollars - self.dollars
        return saved, saved / other.dollars if other.dollars > 0 else 0.0

    def to_json(self) -> dict[str, Any]:
        """The ``prompt_cost`` object of ``docs/report-json.md``."""
        return {
            "estimate": True,
            "model": self.model,
            "prices_taken": PRICES_TAKEN,
            "usd": round(self.dollars, 6),
            "without_cache_usd": round(self.without_cache_dollars, 6),
        }


def prompt_cost(records: Sequence[RequestRecord]) -> PromptCost:
    """The what-if prompt cost of pipeline-lens records (refused requests are never sent)."""
    model = next((r.model for r in records if price_of(r.model) is not None), REFERENCE_MODEL)
    price = price_of(model)
    assert price is not None  # the reference model is in the table
    dollars = plain = 0.0
    for record in records:
        if record.refused or record.sent_tokens <= 0:
            continue
        share = record.cached_prefix_tokens / record.sent_tokens
        dollars += cached_prompt_cost(record.calibrated_tokens, share, price)
        plain += record.calibrated_tokens * price.input / PER_TOKENS
    return PromptCost(model, dollars, plain)


@dataclass(frozen=True, slots=True)
class PerRequest:
    """One request in ``--per-request`` output: the lens's figure and where it comes from."""

    request: int
    reported: int | None
    context: int
    source: str
    cost: float | None = None
    recorded_cost: float | None = None


@dataclass(frozen=True, slots=True)
class ScopeSummary:
    """One scope of a session in one lens: what ``ctxscope report`` prints per scope.

    Attributes mirror the JSON (``docs/report-json.md``); figures are in the lens's unit.
    """

    scope_id: str
    parent: str | None
    label: str
    lens: Lens
    requests: int
    messages: int
    limit: int
    budget: int
    trigger: int
    target: int
    thresholds_source: str
    window_known: bool
    trigger_known: bool
    peak: int
    peak_request: int
    max_stored_tokens: int
    max_sent_tokens: int
    over_limit_requests: int
    refused_requests: int
    over_budget_requests: int
    stage_runs: Mapping[str, int]
    tokens_freed: Mapping[str, int]
    summaries: tuple[SummaryMarker, ...]
    agent_compactions: tuple[AgentCompaction, ...]
    forecast_requests_left: int | None
    forecast_growth: float | None
    cached_prefix_ratio: float
    requests_with_usage: int
    max_prompt_tokens: int
    calibration_factor: float
    estimate_raw: RatioStats | None
    estimate_calibrated: RatioStats | None
    estimate_calls: int
    unseen_prefix_tokens: int
    per_request: tuple[PerRequest, ...]
    cost: CostFigures = CostFigures()
    prompt_cost: PromptCost | None = None
    agent_errors: AgentErrors = field(default_factory=AgentErrors)
    stored_volume: StoredVolume | None = None
    """What a scope whose log records no model call stored, and the turns' reported usage."""

    def to_json(self, *, per_request: bool = False) -> dict[str, Any]:
        out: dict[str, Any] = {
            "id": self.scope_id,
            "parent": self.parent,
            "label": self.label,
            "lens": self.lens,
            "requests": self.requests,
            "messages": self.messages,
            "limit": self.limit,
            "budget": self.budget,
            "trigger": self.trigger,
            "target": self.target,
            "thresholds_source": self.thresholds_source,
            "window_known": self.window_known,
            "trigger_known": self.trigger_known,
            "peak_tokens": self.peak,
            "peak_request": self.peak_request,
            "max_stored_tokens": self.max_stored_tokens,
            "max_sent_tokens": self.max_sent_tokens,
            "max_calibrated_tokens": self.peak,
            "over_limit_requests": self.over_limit_requests,
            "refused_requests": self.refused_requests,
            "agent_errors": self.agent_errors.to_json(),
            "over_budget_requests": self.over_budget_requests,
            "stage_runs": dict(self.stage_runs),
            "tokens_freed": dict(self.tokens_freed),
            "summaries": [
                {
                    "request": s.request_index,
                    "tokens_before": s.tokens_before,
                    "tokens_after": s.tokens_after,
                    "tokens_freed": s.tokens_freed,
                    "tokens_summarised": s.tokens_summarised,
                    "summary_tokens": s.summary_tokens,
                    "recent_kept_tokens": s.recent_kept_tokens,
                    "recent_kept_messages": s.recent_kept_messages,
                }
                for s in self.summaries
            ],
            "agent_compactions": [
                {
                    "request": c.request,
                    "kind": c.kind,
                    "trigger": c.trigger,
                    "tokens_before": c.tokens_before,
                    "tokens_after": c.tokens_after,
                    "tokens_freed": c.tokens_freed,
                    "summary_tokens": c.summary_tokens,
                    "kept_tokens": c.kept_tokens,
                }
                for c in self.agent_compactions
            ],
            "forecast": {
                "requests_left": self.forecast_requests_left,
                "growth_per_request": None if self.forecast_growth is None else round(self.forecast_growth),
            },
            "cached_prefix_ratio": round(self.cached_prefix_ratio, 4),
            "reported": {
                "requests_with_usage": self.requests_with_usage,
                "max_prompt_tokens": self.max_prompt_tokens,
            },
            "calibration_factor": round(self.calibration_factor, 4),
            "estimate_vs_reported": None if self.estimate_raw is None else {
                "calls": self.estimate_calls,
                "raw": _ratio_json(self.estimate_raw),
                "calibrated": _ratio_json(self.estimate_calibrated),
                "unseen_prefix_tokens": self.unseen_prefix_tokens,
            },
            "cost": self.cost.to_json(),
        }
        if self.prompt_cost is not None:
            out["prompt_cost"] = self.prompt_cost.to_json()
        usage = self.stored_volume.turn_usage if self.stored_volume is not None else None
        if usage is not None and self.stored_volume is not None:
            out["turn_usage"] = {
                "turns": self.stored_volume.turns,
                "input_tokens": usage.prompt_tokens,
                "cached_input_tokens": usage.cached_prompt_tokens,
                "output_tokens": usage.output_tokens,
            }
        if per_request:
            out["per_request"] = [
                {
                    "request": p.request, "reported": p.reported, "context": p.context, "source": p.source,
                    "cost_usd": None if p.cost is None else round(p.cost, 6),
                    "recorded_cost_usd": None if p.recorded_cost is None else round(p.recorded_cost, 6),
                }
                for p in self.per_request
            ]
        return out


def _ratio_json(stats: RatioStats | None) -> dict[str, float | int] | None:
    if stats is None:
        return None
    return {
        "calls": stats.calls,
        "median": round(stats.median, 4),
        "worst": round(stats.worst, 4),
        "within_5pct": round(stats.within_5pct, 4),
    }


@dataclass(frozen=True, slots=True)
class SessionSummary:
    """The whole session in one lens: ``ctxscope report``'s content."""

    source: str
    format: str
    lens: Lens
    strategy: str
    estimator: str
    scopes: tuple[ScopeSummary, ...]
    bad_lines: Mapping[str, int]

    @property
    def prompt_cost(self) -> PromptCost | None:
        """The what-if prompt cost of every scope (pipeline lens; None in the recorded lens)."""
        costs = [scope.prompt_cost for scope in self.scopes if scope.prompt_cost is not None]
        if not costs:
            return None
        total = costs[0]
        for cost in costs[1:]:
            total = total.plus(cost)
        return total

    @property
    def cost(self) -> CostFigures:
        """The whole session's cost: every scope's calls (each call counted once, in its scope)."""
        total = CostFigures()
        for scope in self.scopes:
            total = total.plus(scope.cost)
        return total

    def to_json(self, *, per_request: bool = False) -> dict[str, Any]:
        """The object ``ctxscope report --json`` prints (``docs/report-json.md``)."""
        return {
            "format": self.format,
            "source": self.source,
            "lens": self.lens,
            "strategy": self.strategy,
            "estimator": self.estimator,
            "cost": self.cost.to_json(),
            **({} if self.prompt_cost is None else {"prompt_cost": self.prompt_cost.to_json()}),
            "scopes": [scope.to_json(per_request=per_request) for scope in self.scopes],
            "errors": {
                "bad_lines": sum(self.bad_lines.values()),
                "by_kind": dict(sorted(self.bad_lines.items())),
            },
        }


@dataclass(frozen=True, slots=True)
class SessionTally:
    """Counts over every scope of a :class:`SessionSummary` (the demo's closing line, the what-if
    view's headline)."""

    scopes: int
    requests: int
    stage_runs: Mapping[str, int]
    refused_requests: int
    over_budget_requests: int
    over_limit_requests: int
    sub_agents: int
    """Scopes with a parent."""
    sub_agents_over_limit: int
    """Sub-agents with a request over the limit or refused by the guard."""
    largest_request: int
    """The largest peak of any scope, in tokens."""


def session_tally(summary: SessionSummary) -> SessionTally:
    """Every scope's requests, stage runs (by :class:`Stage` value), refused, over-budget and
    over-limit requests added up; sub-agents and those that went over the limit counted."""
    runs = {stage.value: 0 for stage in Stage}
    for scope in summary.scopes:
        for stage, count in scope.stage_runs.items():
            runs[stage] += count
    subs = [s for s in summary.scopes if s.parent is not None]
    return SessionTally(
        scopes=len(summary.scopes),
        requests=sum(s.requests for s in summary.scopes),
        stage_runs=runs,
        refused_requests=sum(s.refused_requests for s in summary.scopes),
        over_budget_requests=sum(s.over_budget_requests for s in summary.scopes),
        over_limit_requests=sum(s.over_limit_requests for s in summary.scopes),
        sub_agents=len(subs),
        sub_agents_over_limit=sum(1 for s in subs if s.over_limit_requests or s.refused_requests),
        largest_request=max((s.peak for s in summary.scopes), default=0),
    )


def summarise_scope(scope: ScopeSnapshot, recorded: ScopeSnapshot | None) -> ScopeSummary:
    """The summary of one scope snapshot; estimate-vs-reported figures come from the recorded lens
    (``recorded``; the scope itself when it is in that lens)."""
    records = scope.records
    t = scope.thresholds
    runs = {stage.value: 0 for stage in Stage}
    freed = {stage.value: 0 for stage in Stage}
    peak, peak_request = 0, -1
    max_stored = max_sent = over_limit = refused = over_budget = with_usage = max_reported = 0
    cached = sent_total = 0
    for record in records:
        for run in record.stages:
            runs[run.stage.value] += 1
            freed[run.stage.value] += run.tokens_freed
        max_stored = max(max_stored, record.stored_tokens)
        if record.refused:
            refused += 1
            continue
        context = record.context_tokens
        over_limit += record.over_limit or context > t.limit
        if context > peak:
            peak, peak_request = context, record.index
        max_sent = max(max_sent, record.sent_tokens)
        over_budget += context > t.budget
        cached += record.cached_prefix_tokens
        sent_total += record.context_tokens if scope.lens == "recorded" else record.sent_tokens
        if record.reported_tokens:  # all-zero usage is no usage
            with_usage += 1
            max_reported = max(max_reported, record.reported_tokens)
    if scope.lens == "recorded":  # a request the provider refused for its size, written as an error
        refused += scope.agent_errors.context_length
    check = recorded if recorded is not None else scope
    reported = [r for r in check.records if r.reported_tokens and not r.refused]
    forecast = scope.forecast(len(records) - 1)
    header = scope.header
    billed = {r.index: r for r in check.records}
    return ScopeSummary(
        scope_id=header.scope_id,
        parent=header.parent_id,
        label=header.label,
        lens=scope.lens,
        requests=len(records),
        messages=scope.stored_messages,
        limit=t.limit,
        budget=t.budget,
        trigger=t.trigger,
        target=t.target,
        thresholds_source=scope.thresholds_source,
        window_known=scope.window_known,
        trigger_known=scope.trigger_known,
        peak=peak,
        peak_request=peak_request,
        max_stored_tokens=max_stored,
        max_sent_tokens=max_sent,
        over_limit_requests=over_limit,
        refused_requests=refused,
        agent_errors=scope.agent_errors,
        over_budget_requests=over_budget,
        stage_runs=runs,
        tokens_freed=freed,
        summaries=tuple(r.summary for r in records if r.summary is not None),
        agent_compactions=scope.agent_compactions,
        forecast_requests_left=forecast.requests_left,
        forecast_growth=forecast.growth,
        cached_prefix_ratio=cached / sent_total if sent_total else 0.0,
        requests_with_usage=with_usage,
        max_prompt_tokens=max_reported,
        calibration_factor=scope.calibration_factor,
        estimate_raw=ratio_stats(r.sent_tokens / r.reported_tokens for r in reported if r.reported_tokens),
        estimate_calibrated=ratio_stats(
            r.calibrated_tokens / r.reported_tokens for r in reported[1:] if r.reported_tokens
        ),
        estimate_calls=len(reported),
        unseen_prefix_tokens=max((r.unseen_tokens for r in check.records), default=0),
        per_request=tuple(
            PerRequest(
                r.index, r.reported_tokens, r.context_tokens, r.source or "estimate",
                billed[r.index].cost if r.index in billed else None,
                billed[r.index].recorded_cost if r.index in billed else None,
            )
            for r in records
        ),
        cost=CostFigures.of(check.records),
        prompt_cost=None if scope.lens == "recorded" else prompt_cost(records),
        stored_volume=check.stored_volume,
    )


# -- the analysis ----------------------------------------------------------------------------------


class Analysis:
    """A session's recorded and pipeline lenses, compare replays and live window (see the module).

    Args:
        options: How to analyse.
    """

    def __init__(self, options: AnalysisOptions | None = None) -> None:
        self.options = options or AnalysisOptions()
        self.lens: Lens = self.options.lens or "recorded"
        keep = self.options.keep_detail
        self._window = LiveWindow(keep) if keep is not None else None
        """A live view's retention policy (None: keep everything)."""
        self._session: Session | None = None
        self._reset()

    def _reset(self) -> None:
        self._recorded: dict[str, RecordedScope] = {}
        self._own_replay: SessionReplay | None = None
        """ctxscope's own logs: the pipeline under the recorded configuration (what was sent)."""
        self._pipeline: SessionReplay | None = None
        self._compare: list[SessionReplay] = []
        self._pipeline_behind = False
        """The pipeline replay has not read the session's latest update yet (see :meth:`update`)."""
        self._running: dict[tuple[str, str], tuple[int, ScopeTotals]] = {}
        """Per (view, scope): records taken into the totals so far, and the totals."""
        self.estimator: Estimator | None = None
        self._scripts: ScriptMemo | None = None
        """The per-message script breakdowns the detail sums (see :mod:`~ctxscope.core.script_memo`)."""

    # -- building ------------------------------------------------------------------------------

    @property
    def own_format(self) -> bool:
        return self._session is not None and self._session.format in (FORMAT_NAME, "")

    def _start(self, session: Session) -> None:
        self._session = session
        self._reset()
        options = self.options
        name = options.estimator or session_model_estimator(session)
        self.estimator = get_estimator(name)
        self._scripts = ScriptMemo(self.estimator)
        if self.own_format:
            from .replay import SessionReplay

            self._own_replay = SessionReplay(
                PipelineConfig(), factor_of=self._own_factor, estimator=self.estimator
            )
        if self._own_replay is not None or options.compare or not self._pipeline_deferred():
            self._pipeline = self._new_pipeline()
        # else the pipeline replay is made when the pipeline lens is first asked for: the recorded
        # lens of another agent's log (``ctxscope report``'s default) never imports the pipeline.
        if options.compare:
            self._compare = self._compare_replays(options.compare)

    def _compare_replays(self, configs: Sequence[PipelineConfig]) -> list[SessionReplay]:
        from .replay import SessionReplay

        replays: list[SessionReplay] = []
        for i, compare in enumerate(configs):
            if i == 0 and compare == self.options.config and self._pipeline is not None:
                replays.append(self._pipeline)
            elif i == 0:
                replays.append(SessionReplay(compare, factor_of=self._factor_of(), estimator=self.estimator))
            else:
                replays.append(SessionReplay(compare, base=replays[0], estimator=self.estimator))
        return replays

    def _new_pipeline(self) -> SessionReplay:
        """The pipeline lens's replay: ctxscope's own logs' replay under the recorded configuration,
        else a replay of the configuration asked for (the pipeline imported here)."""
        base = self._own_replay
        config = self.options.config
        if base is not None and config == PipelineConfig():
            return base
        from .replay import SessionReplay

        return SessionReplay(config, factor_of=self._factor_of(), estimator=self.estimator)

    def _factor_of(self) -> Callable[[str, int], float]:
        """The calibration a what-if replay takes: the own replay's on ctxscope's logs, else the log's."""
        return self._own_replay.factor if self._own_replay is not None else self._in_log_factor

    def ready(self) -> bool:
        """Whether a session was analysed."""
        return self._session is not None

    def update(self, session: Session) -> None:
        """Take in what was appended to ``session`` (a different session object starts over)."""
        if session is not self._session:
            self._start(session)
        assert self.estimator is not None
        for scope_id, scope in session.scopes.items():
            if scope_id not in self._recorded:
                self._recorded[scope_id] = RecordedScope(
                    scope, self.estimator, whole_request=self.own_format, breakdowns=self.options.breakdowns
                )
        if self._own_replay is not None:
            self._own_replay.update(session)
            for scope_id, lens in self._recorded.items():
                records = self._own_replay.records(scope_id)
                lens.take_pipeline(records[len(lens.records):])
        else:
            for scope_id, lens in self._recorded.items():
                scope = session.scopes[scope_id]
                lens.advance(scope)
                lens.refresh_compactions(scope)
        if self._pipeline is None or self._pipeline is not self._own_replay:
            self._pipeline_behind = True
            if not self._pipeline_deferred():
                self._catch_up_pipeline()
        for replay in self._compare:
            if replay is not self._pipeline:
                replay.update(session)
        if self._window is not None:
            lenses: list[WindowedLens] = [_RecordedWindow(self._recorded), *self._replays()]
            self._window.apply(session.scopes.items(), lenses)
            if self._scripts is not None:
                self._scripts.forget_released(session)

    def _pipeline_deferred(self) -> bool:
        """Whether the pipeline replay may wait until the pipeline lens is asked for.

        The recorded lens never reads it, so a report or an offline dashboard in the recorded lens
        does not replay the pipeline at all. A live view (``keep_detail``) replays as it goes: it
        releases the messages every replay has passed, and a deferred replay would need them.
        """
        return (
            self.lens == "recorded" and self.options.keep_detail is None
            and not any(replay is self._pipeline for replay in self._compare)
        )

    def _catch_up_pipeline(self) -> SessionReplay:
        """The pipeline lens's replay, made if it was not and up to date with the session."""
        if self._pipeline is None:
            self._pipeline = self._new_pipeline()
        if self._pipeline_behind and self._session is not None:
            self._pipeline.update(self._session)
        self._pipeline_behind = False
        return self._pipeline

    def _replays(self) -> list[SessionReplay]:
        replays = [self._own_replay, self._pipeline, *self._compare]
        return list({id(r): r for r in replays if r is not None}.values())

    def _own_factor(self, scope_id: str, index: int) -> float:
        """The factor of request ``index`` of ctxscope's own logs: the recorded lens's ratio at the
        request before (recalibrating the replay's records made so far first)."""
        lens = self._recorded.get(scope_id)
        if lens is None or self._own_replay is None:
            return 1.0
        lens.take_pipeline(self._own_replay.records(scope_id)[len(lens.records):index])
        return lens.prior_factor()

    def _in_log_factor(self, scope_id: str, index: int) -> float:
        """The pipeline lens's factor for other agents' logs: the recorded lens's ratio of what the
        log shows at the same request (its figure less the unseen prefix, over its raw estimate)."""
        lens = self._recorded.get(scope_id)
        if lens is None or index >= len(lens.records):
            return 1.0
        record = lens.records[index]
        if record.sent_tokens <= 0:
            return 1.0
        return max(0.0, record.context_tokens - record.unseen_tokens) / record.sent_tokens or 1.0

    # -- snapshots -----------------------------------------------------------------------------

    def snapshot(self, lens: Lens | None = None) -> SessionSnapshot:
        """The session in ``lens`` (default: :attr:`lens`) as analysed so far."""
        lens = lens or self.lens
        session = self._session
        if session is None:
            return SessionSnapshot(source="", format="", session_id="", scopes={}, lens=lens)
        if lens == "pipeline":  # ctxscope's own logs too: the replay under the recorded configuration
            return self._labelled(self._catch_up_pipeline().snapshot(), "pipeline")
        return self._recorded_snapshot(session)

    def compare_snapshots(self) -> tuple[SessionSnapshot, ...]:
        """The session under each compare configuration (empty without them)."""
        session = self._session
        if session is None:
            return ()
        return tuple(
            self._labelled(replay.snapshot(), "pipeline", f"compare {i}")
            for i, replay in enumerate(self._compare)
        )

    def compare_summaries(self) -> tuple[SessionSummary, ...]:
        """The summary of each compare configuration (empty without them)."""
        recorded = self.snapshot("recorded")
        return tuple(
            summarise_session(snapshot, recorded, config.strategy)
            for snapshot, config in zip(self.compare_snapshots(), self.options.compare, strict=True)
        )

    def _totals(self, key: str, scope_id: str, records: Sequence[RequestRecord]) -> ScopeTotals:
        """The running totals of a scope's records in one view (``key``), taking in new ones."""
        done, totals = self._running.get((key, scope_id), (0, ScopeTotals()))
        if len(records) < done:  # another session: start over
            done, totals = 0, ScopeTotals()
        if len(records) > done:
            totals = totals.extended(records[done:])
            self._running[(key, scope_id)] = (len(records), totals)
        return totals

    def _labelled(self, snapshot: SessionSnapshot, lens: Lens, key: str = "pipeline") -> SessionSnapshot:
        scopes = {
            scope_id: _with(
                scope, lens=lens, agent_compactions=self._compactions(scope_id),
                totals=self._totals(key, scope_id, scope.records), agent_errors=self._agent_errors(scope_id),
            )
            for scope_id, scope in snapshot.scopes.items()
        }
        return dataclasses.replace(snapshot, scopes=scopes, lens=lens, estimator=self.estimator_name)

    def _agent_errors(self, scope_id: str) -> AgentErrors:
        scope = self._session.scopes.get(scope_id) if self._session is not None else None
        return agent_errors(scope.errors) if scope is not None else AgentErrors()

    def _compactions(self, scope_id: str) -> tuple[AgentCompaction, ...]:
        lens = self._recorded.get(scope_id)
        return tuple(lens.compactions) if lens is not None else ()

    @property
    def estimator_name(self) -> str:
        return self.estimator.name if self.estimator is not None else ""

    def _recorded_snapshot(self, session: Session) -> SessionSnapshot:
        scopes: dict[str, ScopeSnapshot] = {}
        pipeline = self._own_replay.snapshot() if self._own_replay is not None else None
        for scope_id in scope_order(session):
            lens = self._recorded.get(scope_id)
            if lens is None:
                continue
            scope = session.scopes[scope_id]
            records = lens.records.view()
            if pipeline is not None and scope_id in pipeline.scopes:
                own = pipeline.scopes[scope_id]
                scopes[scope_id] = _with(
                    own, records=records, lens="recorded", agent_compactions=tuple(lens.compactions),
                    calibration_factor=lens.prior_factor(),
                    thresholds_source="the log's configuration",
                    own_pipeline=True,
                    totals=self._totals("recorded", scope_id, records),
                    agent_errors=agent_errors(scope.errors),
                )
                continue
            agent = self.agent_thresholds(scope, lens)
            scopes[scope_id] = ScopeSnapshot(
                header=scope.header,
                thresholds=agent.thresholds,
                records=records,
                observed=tuple(scope.compactions),
                stored_messages=len(scope.messages),
                calibration_factor=lens.prior_factor(),
                lens="recorded",
                agent_compactions=tuple(lens.compactions),
                thresholds_source=agent.source,
                totals=self._totals("recorded", scope_id, records),
                stored_volume=None if len(records) else self._stored_volume(scope),
                window_known=agent.window_known,
                trigger_known=agent.trigger_known,
                agent_errors=agent_errors(scope.errors),
            )
        return session_snapshot(session, scopes, lens="recorded", estimator=self.estimator_name)

    def _stored_volume(self, scope: Scope) -> StoredVolume:
        """The volume of a scope with no model call (its messages are few enough to count here)."""
        messages = list(scope.messages)  # what is held (a live view may have released some)
        kinds = [block.kind for m in messages for block in m.blocks]
        by_category: dict[Category, int] = {}
        for message in messages:
            category = message.category()
            by_category[category] = by_category.get(category, 0) + message.tokens(self.estimator)
        turns = scope.turn_usage
        summed = Usage(
            prompt_tokens=sum(u.prompt_tokens for u in turns),
            cached_prompt_tokens=sum(u.cached_prompt_tokens for u in turns),
            output_tokens=sum(u.output_tokens for u in turns),
        ) if turns else None
        return StoredVolume(
            messages=len(messages),
            tool_calls=kinds.count(BlockKind.TOOL_CALL),
            tool_results=kinds.count(BlockKind.TOOL_RESULT),
            estimated_tokens=sum(by_category.values()),
            by_category=by_category,
            turns=len(turns),
            turn_usage=summed,
        )

    def agent_thresholds(self, scope: Scope, lens: RecordedScope) -> AgentThresholds:
        """The recorded lens's window and trigger for a scope, and where they come from."""
        options = self.options
        model = next((r.model for r in reversed(scope.requests) if r.model), scope.header.model)
        logged = next((r.context_window for r in reversed(scope.requests) if r.context_window), None)
        logged = logged or scope.header.context_limit
        table = context_window(model, largest_prompt=lens.largest_reported or None)
        window_known = trigger_known = True
        if options.window is not None:
            window, window_source = options.window, "--window"
        elif logged:
            window, window_source = logged, "the log"
        elif table:
            window, window_source = table, f"model table ({model})"
        else:
            window, window_source, window_known = DEFAULT_WINDOW, "default", False
        agent = AGENTS_BY_FORMAT.get(self._session.format if self._session else "", "")
        default = compaction_trigger(agent, window, (), model=model)
        refined = compaction_trigger(agent, window, scope.compactions, model=model)
        if options.trigger is not None:
            trigger, trigger_source = options.trigger, "--trigger"
        elif refined is not None and refined != default:
            trigger, trigger_source = refined, "seen compactions"
        elif default is not None:
            trigger, trigger_source = default, f"{agent} default"
        else:
            trigger, trigger_source, trigger_known = window, "none known: the window", False
        return AgentThresholds(
            recorded_thresholds(window, trigger),
            f"window: {window_source} · trigger: {trigger_source}",
            window_known=window_known,
            trigger_known=trigger_known,
        )

    # -- summary and detail --------------------------------------------------------------------

    def summary(self, lens: Lens | None = None, *, strategy: str | None = None) -> SessionSummary:
        """The typed summary of every scope in ``lens`` (``ctxscope report``)."""
        lens = lens or self.lens
        snapshot = self.snapshot(lens)
        recorded = snapshot if lens == "recorded" else self.snapshot("recorded")
        return summarise_session(snapshot, recorded, strategy or self.options.config.strategy)

    def detail(self, scope_id: str, index: int, lens: Lens | None = None) -> RequestDetail | None:
        """One request's rows and breakdowns in ``lens``, materialised (None when it does not exist
        or its detail was released)."""
        lens = lens or self.lens
        if lens == "pipeline" or self._own_replay is not None:
            replay = self._catch_up_pipeline() if lens == "pipeline" else self._own_replay
            assert replay is not None
            try:
                rows = replay.rows(scope_id, index)
                sent = replay.sent_messages(scope_id, index)
            except KeyError:
                return None
            record = replay.records(scope_id)[index]
            if lens == "recorded":
                recorded = self._recorded.get(scope_id)
                if recorded is not None and index < len(recorded.records):
                    record = recorded.records[index]
            return self._detail_of(record, rows, sent)
        return self._recorded_detail(scope_id, index)

    def _recorded_detail(self, scope_id: str, index: int) -> RequestDetail | None:
        session, lens = self._session, self._recorded.get(scope_id)
        if session is None or lens is None or not 0 <= index < len(lens.records):
            return None
        record = lens.records[index]
        if record.detail_released or self.estimator is None:
            return None
        from .detail_rows import recorded_rows  # it imports the pipeline's state

        rows, live = recorded_rows(session.scopes[scope_id], index, record.message_count, self.estimator)
        return self._detail_of(record, rows, live)

    def _detail_of(
        self, record: RequestRecord, rows: Sequence[MessageView], sent: Sequence[Message]
    ) -> RequestDetail:
        """A request's detail: its rows, and the per-script breakdown of every character of the
        ``sent`` messages (elided text read back), the sum of their memoised breakdowns
        (:class:`~ctxscope.core.script_memo.ScriptMemo`, with the real tokenizers' counts beside
        it where the exact extra is installed), and the raw estimate's tokens that carry no text."""
        assert self._session is not None and self._scripts is not None
        scripts = self._scripts
        return RequestDetail(
            record, rows, scripts.request(self._session, sent), framing_tokens=scripts.framing(sent),
            unread_tokens=scripts.unread(self._session, sent),
        )


class _RecordedWindow:
    """The recorded lens as the live window sees it (:class:`~ctxscope.core.retention.WindowedLens`):
    it reads each stored message once, as it arrives, so it holds none back."""

    def __init__(self, scopes: Mapping[str, RecordedScope]) -> None:
        self._scopes = scopes

    def keep_detail_from(self, scope_id: str, request: int) -> None:
        lens = self._scopes.get(scope_id)
        if lens is not None:
            lens.keep_detail_from(request)

    def needs(self, scope_id: str) -> Needs:
        lens = self._scopes.get(scope_id)
        if lens is None:
            return Needs(0, 0, 0)
        return Needs(0, len(lens.sums.scope.messages), len(lens.records))


def summarise_session(
    snapshot: SessionSnapshot, recorded: SessionSnapshot | None = None, strategy: str = ""
) -> SessionSummary:
    """The summary of a session snapshot; estimate-vs-reported figures come from ``recorded`` (the
    recorded lens's snapshot; ``snapshot`` itself when None)."""
    check = recorded if recorded is not None else snapshot
    return SessionSummary(
        source=snapshot.source,
        format=snapshot.format,
        lens=snapshot.lens,
        strategy=strategy,
        estimator=snapshot.estimator,
        scopes=tuple(
            summarise_scope(scope, check.scopes.get(scope_id))
            for scope_id, scope in snapshot.scopes.items()
        ),
        bad_lines=snapshot.bad_lines,
    )


def session_model_estimator(session: Session) -> str:
    """The estimator by the model family of the session's first call
    (:func:`~ctxscope.core.model_info.estimator_profile`)."""
    return estimator_profile(session_model(session))


def analyse(session: Session, options: AnalysisOptions | None = None) -> Analysis:
    """A finished session, analysed."""
    analysis = Analysis(options)
    analysis.update(session)
    return analysis


def _with(scope: ScopeSnapshot, **changes: Any) -> ScopeSnapshot:
    return dataclasses.replace(scope, **changes)


__all__ = [
    "LENSES",
    "Analysis",
    "AnalysisOptions",
    "PerRequest",
    "ScopeSummary",
    "SessionSummary",
    "SessionTally",
    "analyse",
    "session_tally",
    "summarise_scope",
    "summarise_session",
]
