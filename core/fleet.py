"""The fleet: session rows and figures over time from what ctxscope exporters published to Prometheus.

Pure computation over the JSON of Prometheus's HTTP query API: :data:`FLEET_QUERIES` are the
instant queries whose results :func:`fleet_rows` turns into the session browser's
:class:`~ctxscope.core.sessions_index.SessionRow`\\ s (one per host and session id, the main
agent's figures, the calls of every scope); :func:`history_queries` and :func:`history` give one
session's figures over time. ``ctxscope.tui.prometheus_source`` does the HTTP.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Final

from .sessions_index import LIVE_SECONDS, SessionRow
from .telemetry import (
    AGENT,
    CALLS,
    COMPACTION_TRIGGER,
    COMPACTIONS,
    CONTEXT_TOKENS,
    CONTEXT_WINDOW,
    HOST,
    MODEL,
    PROJECT,
    SCOPE,
    SESSION,
    SESSION_COST,
    SESSION_START,
    prometheus_name,
)

LOOKBACK: Final = "7d"
"""How far back the browser looks: a session whose exporter stopped stays listed this long."""

_HOST, _SESSION, _SCOPE = prometheus_name(HOST), prometheus_name(SESSION), prometheus_name(SCOPE)
_BY: Final = f"by ({_HOST}, {_SESSION})"
_CONTEXT, _WINDOW = prometheus_name(CONTEXT_TOKENS), prometheus_name(CONTEXT_WINDOW)
_TRIGGER = prometheus_name(COMPACTION_TRIGGER)
_CALLS, _COMPACTIONS = prometheus_name(CALLS) + "_total", prometheus_name(COMPACTIONS) + "_total"
_MAIN: Final = f'{_SCOPE}="main"'
_COST = prometheus_name(SESSION_COST)
_START = prometheus_name(SESSION_START) + "_seconds"  # the exporter appends the unit (s)

FLEET_QUERIES: Final[Mapping[str, str]] = {
    "context": f"last_over_time({_CONTEXT}{{{_MAIN}}}[{LOOKBACK}])",
    "window": f"last_over_time({_WINDOW}{{{_MAIN}}}[{LOOKBACK}])",
    "peak": f"max_over_time({_CONTEXT}{{{_MAIN}}}[{LOOKBACK}])",
    "calls": f"sum {_BY} (last_over_time({_CALLS}[{LOOKBACK}]))",
    "compactions": f"sum {_BY} (last_over_time({_COMPACTIONS}[{LOOKBACK}]))",
    "scopes": f"count {_BY} (last_over_time({_CONTEXT}[{LOOKBACK}]))",
    "seen": f"max {_BY} (timestamp({_CONTEXT}{{{_MAIN}}}))",
    "moving": f"sum {_BY} (changes({_CALLS}[{int(LIVE_SECONDS)}s]))",
    "cost": f"last_over_time({_COST}{{{_MAIN}}}[{LOOKBACK}])",
    "started": f"min {_BY} (last_over_time({_START}{{{_MAIN}}}[{LOOKBACK}]))",
}
"""Instant queries, by the row field they fill. ``seen`` is the latest scrape of a session that is
still exported (absent once its exporter stopped); ``moving`` counts calls in the live window."""

REMOTE_SCHEME: Final = "prometheus://"
"""A remote row's ``path``: ``prometheus://HOST/SESSION`` (the log itself stays on its machine)."""


def remote_path(host: str, session_id: str) -> str:
    return f"{REMOTE_SCHEME}{host}/{session_id}"


def is_remote(path: str) -> bool:
    return path.startswith(REMOTE_SCHEME)


def _value(sample: Mapping[str, Any]) -> float | None:
    try:
        value = float(sample["value"][1])
    except (KeyError, IndexError, TypeError, ValueError):
        return None
    return value if value == value else None  # NaN is no figure


def _key(sample: Mapping[str, Any]) -> tuple[str, str] | None:
    metric = sample.get("metric")
    if not isinstance(metric, Mapping):
        return None
    host, session = metric.get(_HOST), metric.get(_SESSION)
    if not isinstance(host, str) or not isinstance(session, str):
        return None
    return host, session


def by_session(samples: Sequence[Mapping[str, Any]]) -> dict[tuple[str, str], tuple[dict[str, str], float]]:
    """An instant vector's samples by (host, session id), with their labels and value."""
    out: dict[tuple[str, str], tuple[dict[str, str], float]] = {}
    for sample in samples:
        key, value = _key(sample), _value(sample)
        if key is None or value is None:
            continue
        labels = {str(k): str(v) for k, v in sample.get("metric", {}).items()}
        out[key] = (labels, value)
    return out


@dataclass(frozen=True, slots=True)
class RemoteRow:
    """A session row from Prometheus with the host it runs on."""

    host: str
    row: SessionRow

    def to_json(self) -> dict[str, Any]:
        return {"host": self.host, **self.row.to_json()}


def fleet_rows(results: Mapping[str, Sequence[Mapping[str, Any]]], now: float) -> list[RemoteRow]:
    """The browser's rows from the results of :data:`FLEET_QUERIES` (newest first).

    Args:
        results: Each query's ``data.result`` list, by the key of :data:`FLEET_QUERIES`.
        now: Seconds since the epoch (a session not scraped any more is dated by its lookback).
    """
    series = {name: by_session(results.get(name, ())) for name in FLEET_QUERIES}
    keys = set(series["context"]) | set(series["calls"])
    rows: list[RemoteRow] = []
    for key in keys:
        host, session = key
        labels = (series["context"].get(key) or series["calls"].get(key) or ({}, 0.0))[0]

        def figure(name: str, key: tuple[str, str] = key) -> int | None:
            found = series[name].get(key)
            return None if found is None else round(found[1])

        seen = series["seen"].get(key)
        cost, started = series["cost"].get(key), series["started"].get(key)
        row = SessionRow(
            path=remote_path(host, session),
            agent=labels.get(prometheus_name(AGENT), ""),
            format="",
            session_id=session,
            project=labels.get(prometheus_name(PROJECT), ""),
            model=labels.get(prometheus_name(MODEL), ""),
            started=iso_time(started[1]) if started is not None else "",
            last_activity=seen[1] if seen is not None else 0.0,
            calls=figure("calls") or 0,
            context=figure("context"),
            peak=figure("peak"),
            window=figure("window"),
            compactions=figure("compactions") or 0,
            subagents=max(0, (figure("scopes") or 1) - 1),
            cost=cost[1] if cost is not None else None,
            unpriced=0,
            live=seen is not None and (figure("moving") or 0) > 0,
        )
        rows.append(RemoteRow(host, row))
    rows.sort(key=lambda remote: (-remote.row.last_activity, remote.host, remote.row.session_id))
    return rows


def iso_time(seconds: float) -> str:
    """Seconds since the epoch as the ISO-8601 UTC time rows carry ('' when out of range)."""
    try:
        return datetime.fromtimestamp(seconds, UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    except (OverflowError, OSError, ValueError):
        return ""


def _quoted(value: str) -> str:
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def history_queries(host: str, session_id: str) -> dict[str, str]:
    """Range queries of one session's main-agent figures over time, by the figure's name."""
    match = f"{_HOST}={_quoted(host)}, {_SESSION}={_quoted(session_id)}"
    return {
        "context": f"max({_CONTEXT}{{{match}, {_MAIN}}})",
        "window": f"max({_WINDOW}{{{match}, {_MAIN}}})",
        "trigger": f"max({_TRIGGER}{{{match}, {_MAIN}}})",
        "calls": f"sum({_CALLS}{{{match}}})",
        "compactions": f"sum({_COMPACTIONS}{{{match}}})",
    }


def history(results: Mapping[str, Sequence[Mapping[str, Any]]]) -> list[tuple[float, dict[str, int]]]:
    """One session's figures at every step of a range query: ``(time, {figure: value})``, oldest first.

    Args:
        results: Each range query's ``data.result`` (a matrix) by the key of :func:`history_queries`.
    """
    table: dict[float, dict[str, int]] = {}
    for name, matrix in results.items():
        for series in matrix:
            for point in series.get("values", ()):
                try:
                    stamp, value = float(point[0]), float(point[1])
                except (IndexError, TypeError, ValueError):
                    continue
                if value == value:
                    table.setdefault(stamp, {})[name] = round(value)
    return sorted(table.items())
