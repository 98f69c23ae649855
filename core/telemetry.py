"""Telemetry points: what ctxscope publishes to OpenTelemetry and Prometheus, computed from snapshots.

Pure computation, no OpenTelemetry import: :class:`TelemetryTracker` turns successive recorded-lens
:class:`~ctxscope.core.snapshot.SessionSnapshot`\\ s (``ctxscope watch``) or session rows
(``ctxscope sessions --export``) into a :class:`TelemetryBatch` — the gauges of every scope as of
now, the calls and agent compactions that are new since the previous batch — and
``ctxscope.tui.export`` hands the batch to the SDK. Names follow the OpenTelemetry GenAI semantic
conventions where they have one (``gen_ai.client.token.usage``, ``gen_ai.request.model``,
``gen_ai.conversation.id``, ``gen_ai.agent.name``, ``gen_ai.provider.name``); the rest live under
``ctxscope.`` (``docs/telemetry.md`` lists every name with its Prometheus spelling).

Nothing here carries log text: attributes are identities and figures only, and with ``redact``
the session id and the project path are replaced by a short hash.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Final

from .agent_homes import agent_of_log
from .model_info import AGENT_CLAUDE_CODE, AGENT_CODEX
from .sessions_index import ExportFigures, SessionRow
from .snapshot import AgentCompaction, ScopeSnapshot, SessionSnapshot

# -- metric names (OpenTelemetry spelling; Prometheus replaces dots by underscores) ---------------

TOKEN_USAGE: Final = "gen_ai.client.token.usage"
"""Histogram, one point per call: the prompt tokens the provider reported (GenAI semconv)."""
CONTEXT_TOKENS: Final = "ctxscope.context.tokens"
"""Gauge: recorded context of the scope's latest call (the provider-reported prompt)."""
CONTEXT_WINDOW: Final = "ctxscope.context.window"
"""Gauge: the scope's context window."""
COMPACTION_TRIGGER: Final = "ctxscope.compaction.trigger"
"""Gauge: the context at which the agent compacts on its own."""
CACHED_RATIO: Final = "ctxscope.context.cached_ratio"
"""Gauge: share of the latest call's prompt read from the provider's cache (0–1)."""
ESTIMATE_RATIO: Final = "ctxscope.estimate.ratio"
"""Gauge: ctxscope's raw estimate of the latest reported call ÷ the reported prompt."""
CALLS: Final = "ctxscope.calls"
"""Counter: model calls."""
COMPACTIONS: Final = "ctxscope.compactions"
"""Counter: compactions the agent made."""
TOKENS_FREED: Final = "ctxscope.compaction.tokens_freed"
"""Counter: tokens the agent's compactions took out of the context."""
SESSION_COST: Final = "ctxscope.session.cost_usd"
"""Gauge: the session's estimated dollars (an estimate from list prices; ``sessions --export`` only)."""
SESSION_START: Final = "ctxscope.session.start_time"
"""Gauge: when the session started, seconds since the epoch (``sessions --export`` only)."""
COMPACTION_EVENT: Final = "ctxscope.compaction"
"""Log record event name of one agent compaction."""

GAUGES: Final = (
    CONTEXT_TOKENS, CONTEXT_WINDOW, COMPACTION_TRIGGER, CACHED_RATIO, ESTIMATE_RATIO,
    SESSION_COST, SESSION_START,
)
COUNTERS: Final = (CALLS, COMPACTIONS, TOKENS_FREED)

# -- attribute keys ---------------------------------------------------------------------------------

HOST: Final = "host.name"
AGENT: Final = "gen_ai.agent.name"
SESSION: Final = "gen_ai.conversation.id"
SCOPE: Final = "ctxscope.scope"
MODEL: Final = "gen_ai.request.model"
PROJECT: Final = "ctxscope.project"
PROVIDER: Final = "gen_ai.provider.name"
OPERATION: Final = "gen_ai.operation.name"
TOKEN_TYPE: Final = "gen_ai.token.type"
IDENTITY_KEYS: Final = (HOST, AGENT, SESSION, SCOPE, MODEL, PROJECT)
"""The attributes of every point, in this order."""

PROVIDERS: Final[Mapping[str, str]] = {AGENT_CLAUDE_CODE: "anthropic", AGENT_CODEX: "openai"}

REDACTED_DIGITS: Final = 16


def redacted(value: str) -> str:
    """A stable short hash of ``value`` (``''`` stays ``''``): the same session always hashes alike."""
    if not value:
        return ""
    return "h:" + hashlib.sha256(value.encode("utf-8", "surrogatepass")).hexdigest()[:REDACTED_DIGITS]


Attributes = tuple[tuple[str, str], ...]


@dataclass(frozen=True, slots=True)
class Identity:
    """Who publishes: fixed for one ctxscope process.

    Attributes:
        host: ``host.name`` of every point (``--host``; default the machine's name).
        project: The project when the caller knows it (``--project``, or the log's working
            directory); rows carry their own.
        agent: Override of the agent's name ('' : from the log format).
        redact: Hash session ids and project paths.
    """

    host: str
    project: str = ""
    agent: str = ""
    redact: bool = False

    def attributes(self, *, agent: str, session_id: str, scope: str, model: str, project: str) -> Attributes:
        """The identity attributes of one scope's points."""
        if self.redact:
            session_id, project = redacted(session_id), redacted(project)
        values = (self.host, self.agent or agent, session_id, scope, model, project)
        return tuple(zip(IDENTITY_KEYS, values, strict=True))


@dataclass(frozen=True, slots=True)
class ScopeFigures:
    """The gauges of one scope as of now (None: not known yet, not published). ``cost`` and
    ``started`` are the session's, known from session rows only."""

    attributes: Attributes
    context: int | None
    window: int | None
    trigger: int | None
    cached_ratio: float | None
    estimate_ratio: float | None
    cost: float | None = None
    started: float | None = None

    def gauges(self) -> dict[str, float]:
        """The known gauges by metric name."""
        values = (
            self.context, self.window, self.trigger, self.cached_ratio, self.estimate_ratio,
            self.cost, self.started,
        )
        return {name: value for name, value in zip(GAUGES, values, strict=True) if value is not None}


@dataclass(frozen=True, slots=True)
class CallPoint:
    """One model call that is new since the previous batch.

    Attributes:
        attributes: Its scope's identity (what the calls counter counts it under).
        input_tokens: The prompt the provider reported (None: the call has no usage).
        provider: ``gen_ai.provider.name`` ('' when the agent's provider is not known).
        model: The call's own model, the ``gen_ai.request.model`` of its
            ``gen_ai.client.token.usage`` point ('' : the scope's).
    """

    attributes: Attributes
    input_tokens: int | None
    provider: str = ""
    model: str = ""

    def usage_attributes(self) -> dict[str, str]:
        """The attributes of its ``gen_ai.client.token.usage`` point."""
        usage = {**dict(self.attributes), OPERATION: "chat", TOKEN_TYPE: "input"}
        if self.model:
            usage[MODEL] = self.model
        if self.provider:
            usage[PROVIDER] = self.provider
        return usage


@dataclass(frozen=True, slots=True)
class CompactionEvent:
    """One agent compaction that is new since the previous batch (figures only, never its text).

    From session rows only the latest compaction's before/after are known: earlier ones since the
    previous batch have no figures, and ``request`` is -1 (not published).
    """

    attributes: Attributes
    request: int
    kind: str
    trigger: str
    tokens_before: int | None
    tokens_after: int | None
    summary_tokens: int
    kept_tokens: int

    @property
    def tokens_freed(self) -> int | None:
        if self.tokens_before is None or self.tokens_after is None:
            return None
        return max(0, self.tokens_before - self.tokens_after)

    def fields(self) -> dict[str, str | int]:
        """The log record's attributes: the identity plus the figures known."""
        out: dict[str, str | int] = dict(self.attributes)
        figures: dict[str, str | int | None] = {
            "ctxscope.compaction.request": self.request if self.request >= 0 else None,
            "ctxscope.compaction.kind": self.kind,
            "ctxscope.compaction.trigger_kind": self.trigger,
            "ctxscope.compaction.tokens_before": self.tokens_before,
            "ctxscope.compaction.tokens_after": self.tokens_after,
            "ctxscope.compaction.tokens_freed": self.tokens_freed,
            "ctxscope.compaction.summary_tokens": self.summary_tokens,
            "ctxscope.compaction.kept_tokens": self.kept_tokens,
        }
        out.update((key, value) for key, value in figures.items() if value is not None and value != "")
        return out


@dataclass(frozen=True, slots=True)
class TelemetryBatch:
    """What to publish now: every scope's gauges, and the calls and compactions since the last batch.

    ``freed`` is what the tokens-freed counter grows by, per scope: from a snapshot, each new
    compaction's figure; from a row, its digest's total since the previous batch (which also
    counts earlier compactions whose events carry no figures).
    """

    scopes: tuple[ScopeFigures, ...] = ()
    calls: tuple[CallPoint, ...] = ()
    compactions: tuple[CompactionEvent, ...] = ()
    freed: tuple[tuple[Attributes, int], ...] = ()

    def __bool__(self) -> bool:
        return bool(self.scopes or self.calls or self.compactions)


@dataclass
class _Seen:
    calls: int = 0
    compactions: int = 0
    freed: int = 0
    logs: dict[str, int] = field(default_factory=dict)
    """Calls published per log of a session row (rows with export figures)."""


@dataclass
class TelemetryTracker:
    """Remembers what was published, so each call and compaction leaves exactly once.

    A restarted or replaced log (a new session id) starts its own count; the same session read
    again from the start (``restarted`` in the tailer) is not counted twice.
    """

    identity: Identity
    _seen: dict[tuple[str, str], _Seen] = field(default_factory=dict)

    def from_snapshot(self, snapshot: SessionSnapshot, *, project: str = "") -> TelemetryBatch:
        """The batch for a recorded-lens snapshot (``ctxscope watch``)."""
        agent = agent_of_log(snapshot.source, snapshot.format) or snapshot.format
        project = self.identity.project or project
        scopes: list[ScopeFigures] = []
        calls: list[CallPoint] = []
        compactions: list[CompactionEvent] = []
        for scope_id, scope in snapshot.scopes.items():
            session_id = scope.header.session_id or snapshot.session_id
            attributes = self.identity.attributes(
                agent=agent, session_id=session_id, scope=scope_id, model=scope_model(scope), project=project
            )
            scopes.append(scope_figures(scope, attributes))
            seen = self._seen.setdefault((session_id, scope_id), _Seen())
            provider = PROVIDERS.get(self.identity.agent or agent, "")
            records = scope.records
            calls.extend(
                CallPoint(attributes, record.reported_tokens, provider, record.model)
                for record in records[seen.calls : len(records)]
            )
            seen.calls = max(seen.calls, len(records))
            fresh = scope.agent_compactions[seen.compactions :]
            compactions.extend(compaction_event(c, attributes) for c in fresh)
            seen.compactions = max(seen.compactions, len(scope.agent_compactions))
        freed = tuple((event.attributes, event.tokens_freed) for event in compactions if event.tokens_freed)
        return TelemetryBatch(tuple(scopes), tuple(calls), tuple(compactions), freed)

    def from_rows(self, rows: Iterable[SessionRow]) -> TelemetryBatch:
        """The batch for session rows (``ctxscope sessions --export``): one ``main`` scope each."""
        scopes: list[ScopeFigures] = []
        calls: list[CallPoint] = []
        compactions: list[CompactionEvent] = []
        freed: list[tuple[Attributes, int]] = []
        for row in rows:
            if row.problem:
                continue
            agent = row.agent or row.format
            session_id = row.session_id or row.path
            attributes = self.identity.attributes(
                agent=agent, session_id=session_id, scope="main", model=row.model,
                project=self.identity.project or row.project,
            )
            scopes.append(row_figures(row, attributes))
            seen = self._seen.setdefault((session_id, "main"), _Seen())
            provider = PROVIDERS.get(self.identity.agent or agent, "")
            if row.export is not None:
                calls.extend(_logged_calls(row.export, seen, attributes, provider))
            else:
                new = max(0, row.calls - seen.calls)
                calls.extend(CallPoint(attributes, None, provider) for _ in range(new))
            seen.calls = max(seen.calls, row.calls)
            if row.compactions > seen.compactions:
                before, after = row.last_compaction or (None, None)
                missed = row.compactions - seen.compactions - 1
                compactions.extend(
                    CompactionEvent(attributes, -1, "", "", None, None, 0, 0) for _ in range(missed)
                )
                compactions.append(CompactionEvent(attributes, -1, "", "", before, after, 0, 0))
                seen.compactions = row.compactions
            if row.tokens_freed > seen.freed:
                freed.append((attributes, row.tokens_freed - seen.freed))
                seen.freed = row.tokens_freed
        return TelemetryBatch(tuple(scopes), tuple(calls), tuple(compactions), tuple(freed))


def _logged_calls(
    export: ExportFigures, seen: _Seen, attributes: Attributes, provider: str
) -> list[CallPoint]:
    """The calls of a session row's logs not published yet, each with its prompt and model."""
    out: list[CallPoint] = []
    for path, digest in export.logs:
        start = seen.logs.get(path, 0)
        points = digest.call_points(start)
        out.extend(CallPoint(attributes, prompt or None, provider, model) for prompt, model in points)
        seen.logs[path] = max(start, len(digest.prompts))
    return out


def scope_model(scope: ScopeSnapshot) -> str:
    """The model attribute of a scope's gauges: the one it started with (stable series)."""
    if scope.header.model:
        return scope.header.model
    return next((record.model for record in scope.records if record.model), "")


def scope_figures(scope: ScopeSnapshot, attributes: Attributes) -> ScopeFigures:
    """A scope's gauges from its latest calls (recorded lens)."""
    records = scope.records
    context = records[-1].context_tokens if records else None
    reported = next((r for r in reversed(records) if r.reported_tokens), None)
    cached = estimate = None
    if reported is not None and reported.reported_tokens:
        if reported.reported_cached_tokens is not None:
            cached = reported.reported_cached_tokens / reported.reported_tokens
        if reported.sent_tokens:
            estimate = reported.sent_tokens / reported.reported_tokens
    window, trigger = scope.thresholds.limit or None, scope.thresholds.trigger or None
    return ScopeFigures(attributes, context, window, trigger, cached, estimate)


def row_figures(row: SessionRow, attributes: Attributes) -> ScopeFigures:
    """A session row's gauges. Estimate ÷ reported is the digest's running estimate of the main
    agent's latest reported call over that call's reported prompt (rows of an exporting index)."""
    cached = None
    if row.cached is not None and row.context:
        cached = row.cached / row.context
    estimate = row.export.estimate if row.export is not None else None
    ratio = estimate[0] / estimate[1] if estimate is not None and estimate[1] else None
    return ScopeFigures(
        attributes, row.context, row.window, row.trigger, cached, ratio, row.cost, iso_seconds(row.started)
    )


def iso_seconds(stamp: str) -> float | None:
    """Seconds since the epoch of an ISO-8601 timestamp as logs write it (None when it is not
    one, or names no time zone)."""
    try:
        parsed = datetime.fromisoformat(stamp.replace("Z", "+00:00")) if stamp else None
    except ValueError:
        return None
    if parsed is None or parsed.tzinfo is None:
        return None
    return parsed.timestamp()


def compaction_event(compaction: AgentCompaction, attributes: Attributes) -> CompactionEvent:
    return CompactionEvent(
        attributes,
        compaction.request,
        compaction.kind,
        compaction.trigger,
        compaction.tokens_before,
        compaction.tokens_after,
        compaction.summary_tokens,
        compaction.kept_tokens,
    )


def labels(attributes: Sequence[tuple[str, str]]) -> dict[str, str]:
    """Attributes spelt as Prometheus labels (dots become underscores)."""
    return {prometheus_name(key): value for key, value in attributes}


def prometheus_name(name: str) -> str:
    """A metric or attribute name as Prometheus spells it after the SDK's exporter."""
    return name.replace(".", "_")


__all__ = [
    "CALLS",
    "COMPACTIONS",
    "COMPACTION_EVENT",
    "CONTEXT_TOKENS",
    "CONTEXT_WINDOW",
    "SESSION_COST",
    "SESSION_START",
    "TOKENS_FREED",
    "TOKEN_USAGE",
    "CallPoint",
    "CompactionEvent",
    "Identity",
    "ScopeFigures",
    "TelemetryBatch",
    "TelemetryTracker",
    "redacted",
]
