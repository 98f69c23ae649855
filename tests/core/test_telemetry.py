"""core/telemetry.py and core/fleet.py: the points published, each call and compaction once, the
redaction, and the fleet's rows read back from Prometheus API answers."""

from __future__ import annotations

from pathlib import Path

import pytest
from ctxscope.core import fleet
from ctxscope.core import telemetry as tm
from ctxscope.core.analysis import Analysis, AnalysisOptions
from ctxscope.core.follow import Follower
from ctxscope.core.sessions_index import SessionRow
from ctxscope.core.snapshot import SessionSnapshot

from tests.session_home import claude_call, claude_session

IDENTITY = tm.Identity("host-1")


def recorded(path: Path, follower: Follower | None = None) -> tuple[SessionSnapshot, Follower]:
    follower = follower or Follower(str(path), None)
    follower.poll(None)
    analysis = Analysis(AnalysisOptions(lens="recorded"))
    assert follower.session is not None
    analysis.update(follower.session)
    return analysis.snapshot("recorded"), follower


def test_gauges_counters_and_events_from_a_snapshot(tmp_path: Path) -> None:
    log = claude_session(tmp_path, "s1", [40_000, 80_000, 30_000], compact_after=2, cwd="/p/q")
    snapshot, _ = recorded(log)
    batch = tm.TelemetryTracker(IDENTITY).from_snapshot(snapshot, project="/p/q")
    [scope] = batch.scopes
    assert dict(scope.attributes) == {
        tm.HOST: "host-1", tm.AGENT: "claude-code", tm.SESSION: "s1", tm.SCOPE: "main",
        tm.MODEL: "claude-opus-4-6", tm.PROJECT: "/p/q",
    }
    gauges = scope.gauges()
    assert gauges[tm.CONTEXT_TOKENS] == 30_000
    assert gauges[tm.CONTEXT_WINDOW] == 200_000
    assert gauges[tm.COMPACTION_TRIGGER] == snapshot.scopes["main"].thresholds.trigger
    assert gauges[tm.CACHED_RATIO] == (30_000 - 110) / 30_000  # 10 uncached + 100 written
    record = snapshot.scopes["main"].records[-1]
    assert gauges[tm.ESTIMATE_RATIO] == record.sent_tokens / 30_000
    assert [call.input_tokens for call in batch.calls] == [40_000, 80_000, 30_000]
    assert {call.provider for call in batch.calls} == {"anthropic"}
    [event] = batch.compactions
    assert (event.tokens_before, event.tokens_after, event.tokens_freed) == (80_000, 30_000, 50_000)
    assert event.fields()["ctxscope.compaction.kind"] == "summary"
    assert all(isinstance(value, int | str) for value in event.fields().values())


def test_each_call_and_compaction_leaves_once(tmp_path: Path) -> None:
    log = claude_session(tmp_path, "s1", [40_000, 80_000, 30_000], compact_after=2)
    tracker = tm.TelemetryTracker(IDENTITY)
    snapshot, follower = recorded(log)
    assert len(tracker.from_snapshot(snapshot).calls) == 3
    again = tracker.from_snapshot(snapshot)
    assert again.calls == () and again.compactions == () and len(again.scopes) == 1
    with open(log, "ab") as handle:
        handle.write(b"".join(claude_call("s1", "/home/dev/project", 4, 33_000)))
    grown, _ = recorded(log, follower)
    batch = tracker.from_snapshot(grown)
    assert [call.input_tokens for call in batch.calls] == [33_000]
    assert batch.compactions == ()
    assert batch.scopes[0].gauges()[tm.CONTEXT_TOKENS] == 33_000


def test_redact_hashes_session_and_project_only() -> None:
    attrs = dict(tm.Identity("h", redact=True).attributes(
        agent="codex", session_id="abc", scope="main", model="gpt-5", project="/home/me/secret"))
    assert attrs[tm.SESSION] == tm.redacted("abc") and attrs[tm.SESSION].startswith("h:")
    assert attrs[tm.PROJECT] == tm.redacted("/home/me/secret")
    assert (attrs[tm.HOST], attrs[tm.AGENT], attrs[tm.MODEL]) == ("h", "codex", "gpt-5")
    assert tm.redacted("") == "" and tm.redacted("abc") != tm.redacted("abd")


def row(**changes: object) -> SessionRow:
    base: dict[str, object] = dict(
        path="/l/s.jsonl", agent="codex", format="codex-rollout", session_id="s", project="/w", model="gpt-5",
        started="", last_activity=0.0, calls=2, context=9_000, peak=9_000, window=272_000, compactions=0,
        subagents=0, cost=None, unpriced=0, live=False,
    )
    base.update(changes)
    return SessionRow(**base)  # type: ignore[arg-type]


def test_rows_publish_their_growth() -> None:
    tracker = tm.TelemetryTracker(IDENTITY)
    first = tracker.from_rows([row(), row(path="/bad", session_id="bad", problem="unreadable")])
    assert len(first.scopes) == 1 and len(first.calls) == 2 and first.compactions == ()
    grown = row(calls=5, compactions=2, last_compaction=(200_000, 20_000), tokens_freed=250_000,
                trigger=244_800, cached=6_000, cost=1.25, started="2026-02-12T16:00:00.000Z")
    later = tracker.from_rows([grown])
    assert len(later.calls) == 3
    assert [event.tokens_freed for event in later.compactions] == [None, 180_000]
    assert [tokens for _, tokens in later.freed] == [250_000]  # both compactions, from the digest
    assert "ctxscope.compaction.request" not in later.compactions[1].fields()
    assert later.scopes[0].gauges() == {
        tm.CONTEXT_TOKENS: 9_000, tm.CONTEXT_WINDOW: 272_000, tm.COMPACTION_TRIGGER: 244_800,
        tm.CACHED_RATIO: pytest.approx(6_000 / 9_000), tm.SESSION_COST: 1.25,
        tm.SESSION_START: 1_770_912_000.0,
    }
    again = tracker.from_rows([row(calls=5, compactions=2, tokens_freed=250_000)])
    assert (again.calls, again.compactions, again.freed) == ((), (), ())


def test_start_times_that_are_no_instant_are_not_published() -> None:
    assert tm.iso_seconds("2026-02-12T16:00:00+01:00") == 1_770_908_400.0
    assert [tm.iso_seconds(s) for s in ("", "yesterday", "2026-02-12T16:00:00")] == [None, None, None]


def sample(host: str, session: str, value: float, **labels: str) -> dict[str, object]:
    metric = {"host_name": host, "gen_ai_conversation_id": session, **labels}
    return {"metric": metric, "value": [1.0, str(value)]}


def test_fleet_rows_from_query_answers() -> None:
    labels = {"gen_ai_agent_name": "claude-code", "gen_ai_request_model": "m", "ctxscope_project": "/x"}
    results = {
        "context": [sample("a", "s1", 50_000, **labels), sample("b", "s2", 7_000)],
        "window": [sample("a", "s1", 200_000)],
        "peak": [sample("a", "s1", 90_000)],
        "calls": [sample("a", "s1", 12), sample("b", "s2", 1)],
        "compactions": [sample("a", "s1", 1)],
        "scopes": [sample("a", "s1", 3)],
        "seen": [sample("a", "s1", 1_700_000_100)],
        "moving": [sample("a", "s1", 2), sample("b", "s2", 0)],
        "cost": [sample("a", "s1", 3.5)],
        "started": [sample("a", "s1", 1_770_912_000)],
        "ignored": [{"metric": {}, "value": [1, "x"]}],
    }
    rows = fleet.fleet_rows(results, now=1_700_000_200)
    assert [(r.host, r.row.session_id) for r in rows] == [("a", "s1"), ("b", "s2")]
    a, b = (r.row for r in rows)
    figures = (a.context, a.window, a.peak, a.calls, a.compactions, a.subagents)
    assert figures == (50_000, 200_000, 90_000, 12, 1, 2)
    assert (a.agent, a.model, a.project, a.live, a.path) == ("claude-code", "m", "/x", True, "prometheus://a/s1")
    assert (a.cost, a.started) == (3.5, "2026-02-12T16:00:00Z")
    assert (b.window, b.compactions, b.live, b.last_activity) == (None, 0, False, 0.0)
    assert (b.cost, b.started) == (None, "")
    assert rows[0].to_json()["host"] == "a"


def test_broken_answers_are_no_rows() -> None:
    broken = {"context": [{"metric": "x"}, {"value": [1, "NaN"], "metric": {"host_name": "a"}},
                          sample("a", "s", float("nan"))]}
    assert fleet.fleet_rows(broken, now=0) == []


def test_history_queries_quote_hostile_ids() -> None:
    queries = fleet.history_queries('h"o\\st', 'id"}or{x="')
    assert 'host_name="h\\"o\\\\st"' in queries["context"]
    assert 'gen_ai_conversation_id="id\\"}or{x=\\""' in queries["context"]
    points = fleet.history({
        "context": [{"values": [[10, "100"], [20, "150"], [30, "bad"]]}],
        "calls": [{"values": [[20, "3"]]}],
    })
    assert points == [(10.0, {"context": 100}), (20.0, {"context": 150, "calls": 3})]


def test_rows_of_an_exporting_index_publish_every_call_once(tmp_path: Path) -> None:
    from ctxscope.core.homes import discover
    from ctxscope.core.sessions_index import SessionIndex

    log = claude_session(tmp_path, "s-x", [10_000, 14_000], subagents=1)
    tracker = tm.TelemetryTracker(IDENTITY)
    with SessionIndex(":memory:", export=True) as index:
        [first] = index.rows(discover([str(tmp_path)], homes=False))
        batch = tracker.from_rows([first])
        with open(log, "ab") as handle:
            call = claude_call("s-x", "/home/dev/project", 3, 18_000, model="claude-sonnet-4-5")
            handle.write(b"".join(call))
        [grown] = index.rows(discover([str(tmp_path)], homes=False))
    opus = "claude-opus-4-6"
    assert [(c.input_tokens, c.model) for c in batch.calls] == [(10_000, opus), (14_000, opus), (5_000, opus)]
    assert grown.export is not None and grown.export.estimate is not None
    later = tracker.from_rows([grown])
    assert [(c.input_tokens, c.model) for c in later.calls] == [(18_000, "claude-sonnet-4-5")]
    assert later.calls[0].usage_attributes()[tm.MODEL] == "claude-sonnet-4-5"
    assert dict(later.calls[0].attributes)[tm.MODEL] == "claude-sonnet-4-5"  # the row's: its last call's
    estimate, reported = grown.export.estimate
    assert reported == 18_000 and later.scopes[0].gauges()[tm.ESTIMATE_RATIO] == estimate / reported
    assert tracker.from_rows([grown]).calls == ()
