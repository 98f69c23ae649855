"""Replay: run a recorded session's model calls through the compaction pipeline.

For every request in every scope, :class:`SessionReplay` yields a
:class:`~ctxscope.core.snapshot.RequestRecord`: stored tokens, what would be sent (raw estimate,
calibrated, and what the provider reported where the log has usage), which stages ran and what they
freed, the summary marker, the cached-prefix tokens, the over-limit flag and fate counts.

It is incremental: :meth:`SessionReplay.update` processes only requests appended since the last
call, and each costs in proportion to the messages appended before it (the per-scope
:class:`~ctxscope.core.pipeline.engine.PipelineRun` keeps its state). Detail (each stored message's
fate, the per-script breakdown of the sent text) is computed on demand for one request.

Limits: a scope header's ``context_limit`` and ``working_budget`` override the config's defaults;
values set explicitly on the config (``hard_limit``, ``budget``, ``tier_limit``; the CLI's flags)
override both.

Calibration: the factor for request *i* comes from the usage reported for earlier requests of the
same scope, paired with the estimate of what was really sent then. For ctxscope's own logs (written
by an agent running this pipeline under the recorded configuration) that is the pipeline's sent
estimate; for other agents' logs it is the stored history. A what-if replay (another
configuration over the same log) takes its factors from the replay of the recorded configuration,
since the reported usage belongs to what was really sent.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from .logformat import FORMAT_NAME
from .model import ScopeHeader
from .pipeline.config import PipelineConfig
from .pipeline.engine import Decision, PipelineRun, request_detail
from .records import RecordLog
from .session import Scope, Session
from .snapshot import RequestDetail, RequestRecord, ScopeSnapshot, SessionSnapshot, Stage
from .tokens import Calibrator, Estimator, get_estimator
from .usage_check import RatioStats, ScopeCheck, UsageCheck, ratio_stats

CalibrateAgainst = Literal["auto", "sent", "stored"]


class _ScopeReplay:
    """One scope's replay state."""

    def __init__(
        self, scope: Scope, config: PipelineConfig, estimator: Estimator, keep_detail: int | None
    ) -> None:
        self.scope_id = scope.scope_id
        self.header: ScopeHeader = scope.header
        self.run = PipelineRun(config, header=scope.header, scope_id=scope.scope_id, estimator=estimator)
        self.calibrator = Calibrator()
        self.records = RecordLog(scope.scope_id)
        self.decisions: list[Decision | None] = []
        """Per request, what rebuilds its detail (None once released: see ``keep_detail``)."""
        self.scope = scope
        self.keep_detail = keep_detail
        self._compaction = -1

    def _stored_sent(self, scope: Scope, count: int) -> int:
        """What an agent that does not run this pipeline sent: its stored history, or — after a
        compaction it reported — the history since that compaction (its summary is stored there)."""
        compactions = scope.compactions
        nxt = self._compaction + 1
        while nxt < len(compactions) and compactions[nxt].message_count < count:
            self._compaction = nxt
            nxt += 1
        cum = self.run.state.stored_cum
        since = compactions[self._compaction].message_count if self._compaction >= 0 else 0
        head = cum[min(1, count)] if since > 0 else 0
        return cum[count] - cum[min(since, count)] + head

    def advance(
        self, scope: Scope, against: Literal["sent", "stored"], base: _ScopeReplay | None
    ) -> list[RequestRecord]:
        if scope.header is not self.header:
            self.header = scope.header
            self.run.set_header(scope.header)
        self.scope = scope
        new: list[RequestRecord] = []
        requests = scope.requests
        messages = scope.messages
        for request in requests[len(self.records):]:
            if base is not None and request.index < len(base.records):
                factor = base.records[request.index].calibration_factor
            else:
                factor = self.calibrator.factor
            record, decision = self.run.step(
                messages,
                request.message_count,
                factor=factor,
                usage=request.usage,
                model=request.model,
                error=request.error.kind.value if request.error is not None else "",
            )
            if request.usage is not None and request.usage.prompt_tokens > 0 and not record.refused:
                if against == "sent":
                    estimate = record.sent_tokens
                else:
                    estimate = self._stored_sent(scope, request.message_count)
                if estimate > 0:
                    self.calibrator.observe(estimate, request.usage.prompt_tokens)
            self.records.append(record)
            self.decisions.append(decision)
            new.append(record)
        if self.keep_detail is not None and new:
            self._release(self.keep_detail)
        return new

    def _release(self, keep: int) -> None:
        """Keep the detail of the newest ``keep`` requests only; release what only older ones need.

        Older records keep their figures, stages and summary marker (the timeline and the summary
        list show every request) but lose their per-category, per-tool and fate breakdowns and
        the decision that rebuilds their detail; the pipeline state then releases the stored
        messages none of the kept requests shows in full.
        """
        oldest_kept = len(self.records) - max(1, keep)
        if oldest_kept <= self.records.released:
            return
        decisions = self.decisions
        for i in range(self.records.released, oldest_kept):
            decisions[i] = None
        self.records.release(oldest_kept)
        kept = decisions[oldest_kept]
        if kept is not None:
            self.run.state.release(kept.start)


class SessionReplay:
    """Replays a session's requests through the pipeline, incrementally.

    Args:
        config: The pipeline configuration (default: :class:`PipelineConfig` defaults).
        base: The replay of the recorded configuration, for a what-if replay: calibration factors
            are taken from it (update it first).
        calibrate_against: Pair reported usage with the ``sent`` estimate or the ``stored`` one;
            ``auto`` picks ``sent`` for ctxscope's own format and ``stored`` otherwise.
        estimator: The estimator (default: the one the config names).
        keep_detail: Keep the detail of only the newest this many requests per scope (None: all).
            A live view sets it so memory stays bounded however long the log grows: older
            records keep their figures but not their breakdowns (``detail_released``), and the
            stored messages only they showed are released (:func:`release_replayed`).
    """

    def __init__(
        self,
        config: PipelineConfig | None = None,
        *,
        base: SessionReplay | None = None,
        calibrate_against: CalibrateAgainst = "auto",
        estimator: Estimator | None = None,
        keep_detail: int | None = None,
    ) -> None:
        self.config = config or PipelineConfig()
        self.keep_detail = keep_detail
        self.base = base
        self.calibrate_against = calibrate_against
        self.estimator = estimator or get_estimator(self.config.estimator)
        self._session: Session | None = None
        self._scopes: dict[str, _ScopeReplay] = {}

    def _against(self, session: Session) -> Literal["sent", "stored"]:
        if self.calibrate_against != "auto":
            return self.calibrate_against
        return "sent" if session.format in (FORMAT_NAME, "") else "stored"

    def update(self, session: Session) -> list[RequestRecord]:
        """Replay the requests appended since the last update; returns their records.

        A different session object (the reader started over after truncation or rotation) resets
        the replay.
        """
        if session is not self._session:
            self._session = session
            self._scopes = {}
        against = self._against(session)
        new: list[RequestRecord] = []
        for scope_id, scope in session.scopes.items():
            replay = self._scopes.get(scope_id)
            if replay is None:
                replay = self._scopes[scope_id] = _ScopeReplay(
                    scope, self.config, self.estimator, self.keep_detail
                )
            base = self.base._scopes.get(scope_id) if self.base is not None else None
            new.extend(replay.advance(scope, against, base))
        return new

    def records(self, scope_id: str) -> Sequence[RequestRecord]:
        """Records of a scope so far (the list only grows)."""
        replay = self._scopes.get(scope_id)
        return replay.records if replay is not None else ()

    def scope_ids(self) -> list[str]:
        return list(self._scopes)

    def detail(self, scope_id: str, index: int) -> RequestDetail:
        """Every stored message of one request with its fate, and the sent text by script.

        Raises:
            KeyError: No such scope or request, or its detail was released (``keep_detail``).
        """
        replay = self._scopes.get(scope_id)
        if replay is None or not 0 <= index < len(replay.records):
            raise KeyError(f"no request {index} in scope {scope_id!r}")
        decision = replay.decisions[index]
        if decision is None:
            raise KeyError(f"the detail of request {index} in scope {scope_id!r} was released")
        return request_detail(replay.run.state, replay.records[index], decision)

    def released_messages(self, scope_id: str) -> tuple[int, int]:
        """The scope's stored messages ``[start, stop)`` this replay no longer needs."""
        replay = self._scopes.get(scope_id)
        if replay is None:
            return (0, 0)
        state = replay.run.state
        return (state.head_end, state.released_to)

    def released_requests(self, scope_id: str) -> int:
        """How many of the scope's first requests this replay no longer needs (their records
        are held as figures only)."""
        replay = self._scopes.get(scope_id)
        return replay.records.released if replay is not None else 0

    def snapshot(self, session: Session | None = None) -> SessionSnapshot:
        """The whole session as replayed so far (updating first when ``session`` is given)."""
        if session is not None:
            self.update(session)
        current = self._session
        if current is None:
            return SessionSnapshot(source="", format="", session_id="", scopes={})
        order = list(current.scopes)
        main = current.main_scope
        if main is not None and main.scope_id in order:
            order.remove(main.scope_id)
            order.insert(0, main.scope_id)
        scopes: dict[str, ScopeSnapshot] = {}
        for scope_id in order:
            scope = current.scopes[scope_id]
            replay = self._scopes.get(scope_id)
            if replay is None:
                continue
            scopes[scope_id] = ScopeSnapshot(
                header=scope.header,
                thresholds=replay.run.thresholds,
                records=replay.records.view(),
                observed=tuple(scope.compactions),
                stored_messages=len(scope.messages),
                calibration_factor=(
                    replay.records[-1].calibration_factor if self.base is not None and replay.records
                    else replay.calibrator.factor
                ),
            )
        problems = current.problems
        return SessionSnapshot(
            source=current.source,
            format=current.format,
            session_id=current.session_id,
            scopes=scopes,
            bad_lines=dict(problems.counts),
            problems=tuple(problems.kept),
            notices=tuple(problems.notices),
            bytes_read=current.bytes_read,
            size=current.bytes_read,
        )


@dataclass
class WhatIf:
    """The same session replayed under several configurations, side by side.

    The first configuration is the recorded one (calibration comes from it); the others are
    what-ifs (another budget, limit, strategy or batch size).

    Args:
        configs: The configurations; at least one.
    """

    replays: list[SessionReplay]

    @classmethod
    def of(cls, *configs: PipelineConfig) -> WhatIf:
        if not configs:
            raise ValueError("WhatIf needs at least one configuration")
        base = SessionReplay(configs[0])
        return cls([base, *(SessionReplay(config, base=base) for config in configs[1:])])

    def update(self, session: Session) -> list[list[RequestRecord]]:
        """Update every replay (the recorded one first); new records per configuration."""
        return [replay.update(session) for replay in self.replays]

    def snapshots(self, session: Session | None = None) -> list[SessionSnapshot]:
        if session is not None:
            self.update(session)
        return [replay.snapshot() for replay in self.replays]


def release_replayed(session: Session, replays: Iterable[SessionReplay]) -> int:
    """Release from ``session`` the stored messages that every one of ``replays`` released.

    A live view calls this after each update (the replays read the session; the session holds
    the messages). The requests whose records every replay holds as figures only are released
    too. Returns how many messages were released this time.
    """
    replays = list(replays)
    if not replays:
        return 0
    released = 0
    for scope_id in session.scopes:
        ranges = [replay.released_messages(scope_id) for replay in replays]
        start = max(r[0] for r in ranges)
        stop = min(r[1] for r in ranges)
        released += session.release_messages(scope_id, start, stop)
        session.release_requests(scope_id, min(r.released_requests(scope_id) for r in replays))
    return released


def replay_session(session: Session, config: PipelineConfig | None = None) -> SessionSnapshot:
    """Replay a whole session under one configuration (a what-if when it is not the default).

    Explicit settings on ``config`` count as overrides of the recorded configuration, so the
    calibration still comes from a replay under the defaults and the scope headers.
    """
    recorded = SessionReplay()
    recorded.update(session)
    if config is None or config == PipelineConfig():
        return recorded.snapshot()
    whatif = SessionReplay(config, base=recorded)
    whatif.update(session)
    return whatif.snapshot()


# -- the report ------------------------------------------------------------------------------------


def scope_report(scope: ScopeSnapshot) -> dict[str, Any]:
    """One scope's entry of ``ctxscope report --json`` (see ``docs/pipeline.md``)."""
    records = scope.records
    runs = {stage.value: 0 for stage in Stage}
    for record in records:
        for run in record.stages:
            runs[run.stage.value] += 1
    sent_total = sum(r.sent_tokens for r in records if not r.refused)
    cached_total = sum(r.cached_prefix_tokens for r in records)
    with_usage = [r.reported_tokens for r in records if r.reported_tokens is not None]
    header = scope.header
    return {
        "id": header.scope_id,
        "parent": header.parent_id,
        "label": header.label,
        "requests": len(records),
        "messages": scope.stored_messages,
        "limit": scope.thresholds.limit,
        "budget": scope.thresholds.budget,
        "trigger": scope.thresholds.trigger,
        "target": scope.thresholds.target,
        "max_stored_tokens": max((r.stored_tokens for r in records), default=0),
        "max_sent_tokens": max((r.sent_tokens for r in records if not r.refused), default=0),
        "max_calibrated_tokens": max((r.calibrated_tokens for r in records if not r.refused), default=0),
        "over_limit_requests": sum(1 for r in records if r.over_limit),
        "refused_requests": sum(1 for r in records if r.refused),
        "over_budget_requests": sum(
            1 for r in records if not r.refused and r.calibrated_tokens > scope.thresholds.budget
        ),
        "stage_runs": runs,
        "tokens_freed": {
            stage.value: sum(r.freed_by(stage) for r in records) for stage in Stage
        },
        "summaries": [
            {
                "request": r.summary.request_index,
                "tokens_before": r.summary.tokens_before,
                "tokens_after": r.summary.tokens_after,
                "tokens_freed": r.summary.tokens_freed,
                "tokens_summarised": r.summary.tokens_summarised,
                "summary_tokens": r.summary.summary_tokens,
                "recent_kept_tokens": r.summary.recent_kept_tokens,
                "recent_kept_messages": r.summary.recent_kept_messages,
            }
            for r in records
            if r.summary is not None
        ],
        "cached_prefix_ratio": round(cached_total / sent_total, 4) if sent_total else 0.0,
        "reported": {
            "requests_with_usage": len(with_usage),
            "max_prompt_tokens": max((t for t in with_usage if t is not None), default=0),
        },
        "calibration_factor": round(scope.calibration_factor, 4),
    }


def _ratio_json(stats: RatioStats | None) -> dict[str, float | int] | None:
    if stats is None:
        return None
    return {
        "calls": stats.calls,
        "median": round(stats.median, 4),
        "worst": round(stats.worst, 4),
        "within_5pct": round(stats.within_5pct, 4),
    }


def usage_json(check: ScopeCheck | None) -> dict[str, Any] | None:
    """A scope's estimate ÷ reported figures (raw and calibrated), or None without usage."""
    if check is None:
        return None
    return {
        "calls": len(check.calls),
        "raw": _ratio_json(check.raw),
        "calibrated": _ratio_json(check.calibrated),
        "unseen_prefix_tokens": check.unseen_prefix,
    }


def sent_usage_json(scope: ScopeSnapshot) -> dict[str, Any] | None:
    """Estimate ÷ reported from replay records: the request the pipeline sent against its usage.

    For ctxscope's own logs the agent ran this pipeline, so what it reported usage for is the
    reshaped request, not the stored history; the recorded replay reproduces that request.
    """
    with_usage = [r for r in scope.records if r.reported_tokens and not r.refused]
    if not with_usage:
        return None
    raw = ratio_stats(r.sent_tokens / r.reported_tokens for r in with_usage if r.reported_tokens)
    calibrated = ratio_stats(
        r.calibrated_tokens / r.reported_tokens for r in with_usage[1:] if r.reported_tokens
    )
    return {
        "calls": len(with_usage),
        "raw": _ratio_json(raw),
        "calibrated": _ratio_json(calibrated),
        "unseen_prefix_tokens": 0,
    }


def report_json(
    snapshot: SessionSnapshot,
    *,
    strategy: str = "pipeline",
    usage: UsageCheck | None = None,
    recorded: SessionSnapshot | None = None,
    estimator: str | None = None,
) -> dict[str, Any]:
    """The object ``ctxscope report --json`` prints for a replayed session.

    Args:
        snapshot: The replayed session.
        strategy: The strategy it was replayed with.
        usage: The estimate-vs-reported check of the same session (other agents' logs: their
            live context against their usage), added per scope as ``estimate_vs_reported``
            (None for a scope without provider usage).
        recorded: The replay under the recorded configuration. For ctxscope's own logs the
            figures come from it instead (:func:`sent_usage_json`), so ``usage`` is not needed.
        estimator: The estimator's name when ``usage`` does not carry it.
    """
    checks = {check.scope_id: check for check in usage.scopes} if usage is not None else {}
    own_format = snapshot.format == FORMAT_NAME and recorded is not None
    scopes = []
    for scope in snapshot.scopes.values():
        entry = scope_report(scope)
        scope_id = scope.header.scope_id
        if own_format and recorded is not None and scope_id in recorded.scopes:
            entry["estimate_vs_reported"] = sent_usage_json(recorded.scopes[scope_id])
        else:
            entry["estimate_vs_reported"] = usage_json(checks.get(scope_id))
        scopes.append(entry)
    return {
        "format": snapshot.format,
        "source": snapshot.source,
        "strategy": strategy,
        "estimator": usage.estimator if usage is not None else estimator,
        "scopes": scopes,
        "errors": {
            "bad_lines": sum(snapshot.bad_lines.values()),
            "by_kind": dict(sorted(snapshot.bad_lines.items())),
        },
    }
