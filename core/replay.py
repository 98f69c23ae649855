"""Replay: run a recorded session's model calls through the compaction pipeline.

For every request in every scope, :class:`SessionReplay` yields a
:class:`~ctxscope.core.snapshot.RequestRecord`: stored tokens, what would be sent (raw estimate,
calibrated, and what the provider reported where the log has usage), which stages ran and what they
freed, the summary marker, the cached-prefix tokens, the over-limit flag and fate counts.

It is incremental: :meth:`SessionReplay.update` processes only requests appended since the last
call, and each costs in proportion to the messages appended before it (the per-scope
:class:`~ctxscope.core.pipeline.engine.PipelineRun` keeps its state). Detail (each stored message's
fate, the per-script breakdown of the sent text) is computed on demand for one request. A live view
forgets the detail of old requests through :class:`~ctxscope.core.retention.LiveWindow`, which
asks the replay what it still needs (:meth:`SessionReplay.needs`) and tells it what to
let go (:meth:`SessionReplay.keep_detail_from`).

Limits: a scope header's ``context_limit`` and ``working_budget`` override the config's defaults;
values set explicitly on the config (``hard_limit``, ``budget``, ``tier_limit``; the CLI's flags)
override both.

Calibration: the replay does not learn a factor itself. The factor for request *i* is given
(``factor_of``) by the one calibration ctxscope has, the recorded lens's
(:class:`~ctxscope.core.calibration.AnchoredCalibration`, see :mod:`ctxscope.core.analysis`): the
reported usage belongs to what the agent really sent, so a replay of another configuration takes
its factors from there. A compare replay (``base``) takes its factors from another replay.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from .detail_rows import PipelineRows, pipeline_rows
from .model import Message, ScopeHeader
from .pipeline.config import PipelineConfig
from .pipeline.engine import Decision, PipelineRun, request_messages
from .records import RecordLog
from .retention import Held, Needs
from .session import Scope, Session
from .snapshot import (
    RequestDetail,
    RequestRecord,
    ScopeSnapshot,
    SessionSnapshot,
    scope_order,
    session_snapshot,
)
from .tokens import Estimator, get_estimator

FactorOf = Callable[[str, int], float]
"""The calibration factor in force for a scope's request ``index`` (see the module docs)."""


class _ScopeReplay:
    """One scope's replay state."""

    def __init__(self, scope: Scope, config: PipelineConfig, estimator: Estimator) -> None:
        self.scope_id = scope.scope_id
        self.header: ScopeHeader = scope.header
        self.run = PipelineRun(config, header=scope.header, scope_id=scope.scope_id, estimator=estimator)
        self.records = RecordLog(scope.scope_id)
        self.decisions: Held[Decision] = Held()
        """Per request, what rebuilds its detail (released with it: :meth:`keep_detail_from`)."""
        self.scope = scope

    def advance(self, scope: Scope, factor_of: FactorOf | None) -> list[RequestRecord]:
        if scope.header is not self.header:
            self.header = scope.header
            self.run.set_header(scope.header)
        self.scope = scope
        new: list[RequestRecord] = []
        requests = scope.requests
        messages = scope.messages
        for request in requests[len(self.records):]:
            factor = factor_of(self.scope_id, request.index) if factor_of is not None else 1.0
            record, decision = self.run.step(
                messages,
                request.message_count,
                factor=factor,
                usage=request.usage,
                model=request.model,
                error=request.error.kind.value if request.error is not None else "",
                timestamp=request.timestamp,
            )
            self.records.append(record)
            self.decisions.append(decision)
            new.append(record)
        return new

    def keep_detail_from(self, first: int) -> None:
        """Keep the detail of requests from ``first`` on only; release what only older ones need.

        Older records keep their figures, stages and summary marker (the timeline and the summary
        list show every request) but lose their per-category, per-tool and fate breakdowns and
        the decision that rebuilds their detail; the pipeline state then releases the stored
        messages none of the kept requests shows in full.
        """
        first = min(first, len(self.records) - 1)
        if first <= self.records.released:
            return
        self.decisions.release(first)
        self.records.release(first)
        self.run.state.release(self.decisions[first].start)


class SessionReplay:
    """Replays a session's requests through the pipeline, incrementally.

    Args:
        config: The pipeline configuration (default: :class:`PipelineConfig` defaults).
        base: Another replay of the same session whose factors this one takes (update it first).
        factor_of: The calibration factor of each request (default: ``base``'s, else 1.0).
        estimator: The estimator (default: the one the config names).
    """

    def __init__(
        self,
        config: PipelineConfig | None = None,
        *,
        base: SessionReplay | None = None,
        factor_of: FactorOf | None = None,
        estimator: Estimator | None = None,
    ) -> None:
        self.config = config or PipelineConfig()
        self.base = base
        self.factor_of = factor_of if factor_of is not None or base is None else base.factor
        self.estimator = estimator or get_estimator(self.config.estimator)
        self._session: Session | None = None
        self._scopes: dict[str, _ScopeReplay] = {}

    def factor(self, scope_id: str, index: int) -> float:
        """The factor this replay used for a scope's request (1.0 when it has not replayed it)."""
        replay = self._scopes.get(scope_id)
        if replay is None or index >= len(replay.records):
            return 1.0
        return replay.records[index].calibration_factor

    def update(self, session: Session) -> list[RequestRecord]:
        """Replay the requests appended since the last update; returns their records.

        A different session object (the reader started over after truncation or rotation) resets
        the replay.
        """
        if session is not self._session:
            self._session = session
            self._scopes = {}
        new: list[RequestRecord] = []
        for scope_id, scope in session.scopes.items():
            replay = self._scopes.get(scope_id)
            if replay is None:
                replay = self._scopes[scope_id] = _ScopeReplay(scope, self.config, self.estimator)
            new.extend(replay.advance(scope, self.factor_of))
        return new

    def records(self, scope_id: str) -> Sequence[RequestRecord]:
        """Records of a scope so far (the list only grows)."""
        replay = self._scopes.get(scope_id)
        return replay.records if replay is not None else ()

    def scope_ids(self) -> list[str]:
        return list(self._scopes)

    def _decision(self, scope_id: str, index: int) -> tuple[_ScopeReplay, Decision]:
        replay = self._scopes.get(scope_id)
        if replay is None or not 0 <= index < len(replay.records):
            raise KeyError(f"no request {index} in scope {scope_id!r}")
        if not replay.decisions.is_held(index):
            raise KeyError(f"the detail of request {index} in scope {scope_id!r} was released")
        return replay, replay.decisions[index]

    def rows(self, scope_id: str, index: int) -> PipelineRows:
        """Every stored message of one request with its fate (materialised rows).

        Raises:
            KeyError: No such scope or request, or its detail was released (:meth:`keep_detail_from`).
        """
        replay, decision = self._decision(scope_id, index)
        return pipeline_rows(replay.run.state, decision)

    def detail(self, scope_id: str, index: int) -> RequestDetail:
        """Every stored message of one request with its fate, and the sent text by script.

        Raises:
            KeyError: As :meth:`rows`.
        """
        replay, decision = self._decision(scope_id, index)
        state = replay.run.state
        text = "\n".join(message.text for message in request_messages(state, decision))
        rows = pipeline_rows(state, decision)
        return RequestDetail(replay.records[index], rows, state.estimator.breakdown(text))

    def sent_messages(self, scope_id: str, index: int) -> list[Message]:
        """The messages the pipeline sends for one request (reshaped copies where it changed them).

        Raises:
            KeyError: As :meth:`rows`.
        """
        replay, decision = self._decision(scope_id, index)
        return request_messages(replay.run.state, decision)

    # -- the live window (see ctxscope.core.retention) -------------------------------------------

    def keep_detail_from(self, scope_id: str, request: int) -> None:
        """Drop the detail of the scope's requests before ``request`` and the stored messages only
        they needed."""
        replay = self._scopes.get(scope_id)
        if replay is not None and replay.records:
            replay.keep_detail_from(request)

    def needs(self, scope_id: str) -> Needs:
        """What of the scope this replay may still read: the messages its state still holds, the
        requests it has not replayed yet."""
        replay = self._scopes.get(scope_id)
        if replay is None:
            return Needs(0, 0, 0)  # it has not read the scope yet: all of it
        window = replay.run.state.window
        return Needs(window.head_end, window.released_to, len(replay.records))

    def snapshot(self, session: Session | None = None) -> SessionSnapshot:
        """The whole session as replayed so far (updating first when ``session`` is given)."""
        if session is not None:
            self.update(session)
        current = self._session
        if current is None:
            return SessionSnapshot(source="", format="", session_id="", scopes={})
        scopes: dict[str, ScopeSnapshot] = {}
        for scope_id in scope_order(current):
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
                calibration_factor=replay.records[-1].calibration_factor if replay.records else 1.0,
            )
        return session_snapshot(current, scopes)


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
