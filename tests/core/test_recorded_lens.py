"""The recorded lens: what the agent sent and did, checked against every real log in ../shared.

* At every call with usage the recorded context is the reported prompt.
* The agent's compactions match an independent count of the log's own records (``compact_boundary``,
  ``microcompact_boundary``, Codex ``compacted``): tokens before = ``preTokens`` (else the last
  reported prompt), tokens after = the next call's prompt.
* Reconstruction: with usage removed from all but every 5th call, the recorded context stays within
  10 % of the removed figure on the median call, and within 15 % at the call before each agent
  compaction (the kept calls are chosen so that one is removed).
"""

from __future__ import annotations

import dataclasses
import json
import statistics
from pathlib import Path

import pytest
from ctxscope.core.analysis import analyse
from ctxscope.core.model import ObservedCompaction, Usage
from ctxscope.core.reader import open_log
from ctxscope.core.session import Session
from ctxscope.core.snapshot import NOT_IN_LOG, SOURCE_ESTIMATE, SOURCE_REPORTED, SessionSnapshot, Stage

from ..conftest import SHARED
from .pipeline_support import History, text_of

KEEP_EVERY: int = 5
MEDIAN_TOLERANCE = 0.10
BEFORE_COMPACTION_TOLERANCE = 0.15
MIN_REMOVED = 10
"""A log needs at least this many removed calls for its median to be checked (two or three calls
say little about a median; their figures are still computed)."""


def real_logs() -> list[Path]:
    root = SHARED / "real-logs"
    if not root.is_dir():
        return []
    return sorted(
        p for p in root.rglob("*")
        if p.is_file() and p.suffix in (".jsonl", ".json", ".traj") and p.name != "SOURCES.json"
        and "subagents" not in p.parts
    )


LOGS = real_logs()
parametrize = pytest.mark.parametrize("path", LOGS or [None], ids=lambda p: p.name if p else "absent")


def need(path: Path | None) -> Path:
    if path is None:
        pytest.skip("needs ../shared/real-logs (the ../shared folder beside the checkout); absent here")
    return path


@pytest.mark.shared
@parametrize
def test_recorded_context_is_the_reported_prompt_at_every_call_with_usage(path: Path | None) -> None:
    session = open_log(need(path), text_cap=None)
    snapshot = analyse(session).snapshot("recorded")
    assert snapshot.lens == "recorded"
    checked = 0
    for scope_id, scope in session.scopes.items():
        records = snapshot.scopes[scope_id].records
        assert len(records) == len(scope.requests)
        for request, record in zip(scope.requests, records, strict=True):
            usage = request.usage
            if usage is not None and usage.prompt_tokens > 0:
                assert record.source == SOURCE_REPORTED
                assert record.context_tokens == usage.prompt_tokens
                checked += 1
            else:
                assert record.source == SOURCE_ESTIMATE and record.reported_tokens is None
            # The breakdown adds up to the figure the meter shows.
            if record.category_figures():
                assert sum(t for _, t in record.category_figures()) == record.context_tokens
    reported = sum(
        1
        for s in session.scopes.values()
        for r in s.requests
        if r.usage is not None and r.usage.prompt_tokens > 0
    )
    assert checked == reported


def independent_compactions(path: Path) -> list[dict[str, object]]:
    """The compaction records of a log, parsed here without ctxscope's adapters."""
    found: list[dict[str, object]] = []
    for line in path.read_bytes().splitlines():
        try:
            obj = json.loads(line)
        except ValueError:
            continue
        if not isinstance(obj, dict):
            continue
        boundary = obj.get("subtype") in ("compact_boundary", "microcompact_boundary")
        if obj.get("type") == "system" and boundary:
            meta = (
                obj.get("compactMetadata") or obj.get("compact_metadata")
                or obj.get("microcompactMetadata") or {}
            )
            pre = meta.get("preTokens", meta.get("pre_tokens"))
            kind = "summary" if obj["subtype"] == "compact_boundary" else "microcompact"
            found.append({"kind": kind, "pre": pre, "sidechain": bool(obj.get("isSidechain"))})
        elif obj.get("type") == "compacted":
            found.append({"kind": "summary", "pre": None, "sidechain": False})
    return [c for c in found if not c["sidechain"]]


@pytest.mark.shared
@parametrize
def test_agent_compactions_match_an_independent_count(path: Path | None) -> None:
    path = need(path)
    session = open_log(path, text_cap=None)
    snapshot = analyse(session).snapshot("recorded")
    expected = independent_compactions(path)
    main = session.main_scope
    assert main is not None
    scope = snapshot.scopes[main.scope_id]
    placed = scope.agent_compactions
    assert [c.kind for c in placed] == [c["kind"] for c in expected]
    records = scope.records
    for compaction, raw in zip(placed, expected, strict=True):
        before = [r.reported_tokens for r in records[: compaction.request] if r.reported_tokens]
        assert compaction.tokens_before == (raw["pre"] if raw["pre"] is not None else before[-1])
        after = next((r.reported_tokens for r in records[compaction.request:] if r.reported_tokens), None)
        assert compaction.tokens_after == after
        # The compaction shows on its request: a stage run (and the summary marker).
        stages = [run.stage for run in records[compaction.request].stages]
        assert (Stage.SUMMARIZE if compaction.kind == "summary" else Stage.CLEAR_TOOL_RESULTS) in stages


def reconstruct(session: Session, phase: int) -> tuple[SessionSnapshot, dict[tuple[str, int], int]]:
    """Remove the usage of every call but each 5th (from ``phase``); the removed figures."""
    removed: dict[tuple[str, int], int] = {}
    for scope_id, scope in session.scopes.items():
        for i, request in enumerate(scope.requests):
            usage = request.usage
            if usage is not None and usage.prompt_tokens > 0 and i % KEEP_EVERY != phase % KEEP_EVERY:
                removed[(scope_id, i)] = usage.prompt_tokens
                scope.requests[i] = dataclasses.replace(request, usage=None)
    return analyse(session).snapshot("recorded"), removed


def reconstruction_errors(path: Path, phase: int = 0) -> list[float]:
    snapshot, removed = reconstruct(open_log(path, text_cap=None), phase)
    return [
        snapshot.scopes[scope_id].records[i].context_tokens / figure - 1
        for (scope_id, i), figure in removed.items()
    ]


@pytest.mark.shared
@parametrize
def test_reconstruction_without_usage_stays_close_to_the_removed_figures(path: Path | None) -> None:
    errors = reconstruction_errors(need(path))
    if len(errors) < MIN_REMOVED:
        pytest.skip(f"only {len(errors)} calls with usage to remove (the median needs {MIN_REMOVED})")
    assert statistics.median(abs(e) for e in errors) <= MEDIAN_TOLERANCE


@pytest.mark.shared
@parametrize
def test_reconstruction_at_the_call_before_each_agent_compaction(path: Path | None) -> None:
    path = need(path)
    session = open_log(path, text_cap=None)
    compactions = analyse(session).snapshot("recorded")
    points = [
        (scope_id, c.request - 1)
        for scope_id, scope in compactions.scopes.items()
        for c in scope.agent_compactions
        if c.request > 0
    ]
    if not points:
        pytest.skip("the agent did not compact in this log")
    for scope_id, before in points:
        # Keep every 5th call so that the call before the compaction is one of those removed.
        snapshot, removed = reconstruct(open_log(path, text_cap=None), before + 1)
        if (scope_id, before) not in removed:
            continue  # that call had no usage in the log
        record = snapshot.scopes[scope_id].records[before]
        assert record.source == SOURCE_ESTIMATE
        assert abs(record.context_tokens / removed[(scope_id, before)] - 1) <= BEFORE_COMPACTION_TOLERANCE


# -- made-up sessions ------------------------------------------------------------------------------


def agent_session() -> Session:
    """Another agent's log (claude-code format): a constant unseen prefix of 20,000 tokens, the
    estimate off by 1.3 on what the log shows; a microcompact at call 4, a summary at call 8."""
    session = Session("t", "claude-code")
    history = History(session, "main", context_limit=200_000)
    history.user("Read the files.")
    for k in range(12):
        if k == 4:
            cleared = tuple(r.call_id for r in session.scopes["main"].tool_rounds.values())[:2]
            session.add_compaction(
                ObservedCompaction("main", len(history.messages), stage="clear_tool_results", trigger="auto",
                                   tokens_before=60_000, tokens_after=50_000, compacted_tool_ids=cleared)
            )
        if k == 8:
            session.add_compaction(
                ObservedCompaction("main", len(history.messages), trigger="auto", tokens_before=90_000,
                                   summary="What happened so far.")
            )
            history.user("What happened so far.")
        history.round(text_of("ascii", 8_000, seed=k))
        compactions = session.scopes["main"].compactions
        since = next((c.message_count for c in compactions if c.stage == "summarize"), 0)
        live = sum(m.tokens() for m in history.messages[since:])
        history.request(Usage(20_000 + int(live * 1.3)))
    return session


def test_agent_compactions_become_markers_lanes_and_the_trigger() -> None:
    snapshot = analyse(agent_session()).snapshot("recorded")
    scope = snapshot.scopes["main"]
    assert [(c.request, c.kind) for c in scope.agent_compactions] == [(4, "microcompact"), (8, "summary")]
    assert [run.stage for run in scope.records[4].stages] == [Stage.CLEAR_TOOL_RESULTS]
    assert scope.records[8].summary is not None and scope.records[8].summary.summary_text
    assert scope.compaction_at(8) is scope.agent_compactions[1]
    # The seen automatic summary lowers Claude Code's default trigger (200k - 33k) to 90,000.
    assert scope.thresholds.trigger == 90_000 and scope.thresholds.limit == 200_000
    assert "seen compactions" in scope.thresholds_source


def test_not_in_the_log_is_its_own_category_and_the_breakdown_adds_up() -> None:
    scope = analyse(agent_session()).snapshot("recorded").scopes["main"]
    record = scope.records[3]
    rows = dict(record.category_figures())
    assert rows[NOT_IN_LOG] == record.unseen_tokens > 15_000
    assert sum(rows.values()) == record.context_tokens == record.reported_tokens


def test_forecast_counts_requests_until_the_agents_own_compaction() -> None:
    scope = analyse(agent_session()).snapshot("recorded").scopes["main"]
    forecast = scope.forecast(3)
    assert forecast.trigger == 90_000 and forecast.growth is not None and forecast.growth > 0
    assert forecast.requests_left is not None and forecast.requests_left >= 1


def test_window_and_trigger_flags_override() -> None:
    from ctxscope.core.analysis import AnalysisOptions

    options = AnalysisOptions(window=300_000, trigger=250_000)
    scope = analyse(agent_session(), options).snapshot("recorded").scopes["main"]
    assert (scope.thresholds.limit, scope.thresholds.trigger) == (300_000, 250_000)
    assert "--window" in scope.thresholds_source and "--trigger" in scope.thresholds_source


def test_estimator_by_model_family() -> None:
    from ctxscope.core.analysis import AnalysisOptions

    session = agent_session()
    requests = session.scopes["main"].requests
    requests[0] = dataclasses.replace(requests[0], model="gpt-5.1-codex")
    assert analyse(session).snapshot().estimator == "openai"
    assert analyse(session, AnalysisOptions(estimator="claude")).snapshot().estimator == "claude"


def test_snapshots_hold_no_reference_to_live_state() -> None:
    """A detail is materialised (its rows hold no live object), and the session can go on growing."""
    from ctxscope.core.detail_rows import RequestRows

    session = agent_session()
    analysis = analyse(session)
    detail = analysis.detail("main", 9)
    assert detail is not None and isinstance(detail.messages, RequestRows)
    assert isinstance(detail.messages._rows, tuple)
    before = [(m.index, m.fate, m.tokens) for m in detail.messages]
    History(session, "main").user("more")
    session.add_request(scope_id="main")
    analysis.update(session)
    assert [(m.index, m.fate, m.tokens) for m in detail.messages] == before
    # Messages before the summary are summarised in the recorded lens; the summary is kept.
    fates = {m.fate.value for m in detail.messages}
    assert fates == {"kept", "summarised"}
    # Before it, the two tool results the agent's microcompact emptied show as cleared.
    early = analysis.detail("main", 5)
    assert early is not None
    assert sum(1 for m in early.messages if m.fate.value == "cleared") == 2


def test_a_rollback_takes_the_turns_out_of_the_recorded_context() -> None:
    session = Session("t", "codex-rollout")
    history = History(session, "main", context_limit=258_400)
    for k in range(3):
        history.user(f"Turn {k}: " + text_of("ascii", 6_000, seed=k))
        history.request()
    session.add_rollback("main", 1)
    history.user("Instead, do this.")
    history.request()
    analysis = analyse(session)
    records = analysis.snapshot("recorded").scopes["main"].records
    rolled_back = history.messages[2].tokens()
    assert records[3].sent_tokens == records[2].sent_tokens - rolled_back + history.messages[3].tokens()
    detail = analysis.detail("main", 3)
    assert detail is not None
    assert [m.fate.value for m in detail.messages] == ["kept", "kept", "dropped", "kept"]
