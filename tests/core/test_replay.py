"""Replay: records per request, incremental updates, detail on demand, what-if, limits precedence,
calibration against the right estimate."""

from __future__ import annotations

from pathlib import Path

from ctxscope.core.analysis import AnalysisOptions, analyse
from ctxscope.core.logformat import SessionLogWriter
from ctxscope.core.model import ArtifactKind, ScopeHeader, Usage
from ctxscope.core.pipeline import ContextManager, PipelineConfig
from ctxscope.core.pipeline.state import ScopeState
from ctxscope.core.reader import SessionReader, open_log
from ctxscope.core.replay import SessionReplay, WhatIf
from ctxscope.core.session import Session
from ctxscope.core.snapshot import Fate, Stage

from .pipeline_support import History, pydoc_html, text_of


def two_scopes() -> Session:
    session = Session("t", "ctxscope")
    main = History(session, "main", context_limit=60_000, working_budget=20_000)
    main.system("You coordinate.")
    main.user("Start a sub-agent.")
    main.request()
    sub = History(
        session, "sub", parent_id="main", context_limit=60_000, working_budget=20_000, label="reader"
    )
    sub.user("Read everything.")
    sub.request()
    for k in range(25):
        sub.round(text_of("code", 5_000, seed=k))
        sub.request()
        if k % 5 == 0:
            main.user(f"Status {k}?")
            main.artifact(ArtifactKind.DOM_SNAPSHOT, pydoc_html("json"))
            main.request()
    return session


def test_replay_reproduces_what_the_agent_sent() -> None:
    session = two_scopes()
    replay = SessionReplay()
    records = replay.update(session)
    assert len(records) == sum(len(s.requests) for s in session.scopes.values())
    for scope_id, scope in session.scopes.items():
        manager = ContextManager(PipelineConfig(), header=scope.header, scope_id=scope_id)
        expected = [manager.prepare(scope.messages[: r.message_count]).record for r in scope.requests]
        assert list(replay.records(scope_id)) == expected
    sub = replay.records("sub")
    assert any(run.stage is Stage.CLEAR_TOOL_RESULTS for r in sub for run in r.stages)
    assert all(r.sent_tokens <= 20_000 for r in sub)
    assert any(run.stage is Stage.ARTIFACTS for r in replay.records("main") for run in r.stages)


def write_log(path: Path) -> None:
    """A two-scope ctxscope log, as an agent would write it."""
    with SessionLogWriter.create(path) as log:
        log.session(scope="main", context_limit=60_000, budget=20_000)
        log.session(scope="sub", parent="main", context_limit=60_000, budget=20_000)
        log.message("user", "Start a sub-agent.")
        log.request()
        shadow = History(Session(), "sub")
        shadow.user("Read everything.")
        log.write_message(shadow.messages[-1])
        for k in range(25):
            shadow.round(text_of("code", 5_000, seed=k))
            log.write_message(shadow.messages[-2])
            log.write_message(shadow.messages[-1])
            log.request(scope="sub", usage=Usage(3_000 + 2_000 * k))
            if k % 5 == 0:
                log.message("user", f"Status {k}?")
                log.request()


def test_incremental_updates_equal_one_pass_and_cost_only_the_change(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    source = tmp_path / "source.jsonl"
    write_log(source)
    once = SessionReplay().update(open_log(source))
    costed: list[tuple[str, int]] = []
    original = ScopeState._cost

    def counting(self: ScopeState, message):  # type: ignore[no-untyped-def]
        costed.append((message.scope_id, message.index))
        return original(self, message)

    monkeypatch.setattr(ScopeState, "_cost", counting)
    live = tmp_path / "live.jsonl"
    live.write_bytes(b"")
    reader = SessionReader(live)
    replay = SessionReplay()
    incremental = []
    with live.open("ab") as out:
        for line in source.read_bytes().splitlines(keepends=True):
            out.write(line)
            out.flush()
            reader.poll()
            incremental.extend(replay.update(reader.session))
    assert replay.update(reader.session) == []

    def key(record):  # type: ignore[no-untyped-def]
        return (record.scope_id, record.index)

    assert sorted(incremental, key=key) == sorted(once, key=key)
    # Every message a request was made over was costed exactly once across all those updates.
    scopes = reader.session.scopes.values()
    assert sorted(costed) == sorted(set(costed))
    assert len(costed) == sum(s.requests[-1].message_count for s in scopes if s.requests)


def test_detail_gives_every_message_its_fate_and_the_sent_text_by_script() -> None:
    session = two_scopes()
    replay = SessionReplay()
    replay.update(session)
    records = replay.records("sub")
    index = max(i for i, r in enumerate(records) if r.fate_counts.get(Fate.CLEARED))
    detail = replay.detail("sub", index)
    assert detail.record is records[index]
    assert len(detail.messages) == records[index].message_count
    fates = [view.fate for view in detail.messages]
    assert fates.count(Fate.CLEARED) == records[index].fate_counts[Fate.CLEARED]
    assert sum(view.tokens for view in detail.messages) == records[index].sent_tokens
    cleared = next(view for view in detail.messages if view.fate is Fate.CLEARED)
    assert cleared.tokens < cleared.stored_tokens and cleared.kind == "result Read"
    assert detail.by_script.tokens > 0
    main = replay.detail("main", len(replay.records("main")) - 1)
    assert any(view.fate is Fate.TRIMMED and view.kind.endswith("dom_snapshot") for view in main.messages)


def test_snapshot_lists_the_main_scope_first_with_thresholds() -> None:
    session = Session("t", "ctxscope")
    History(session, "sub", parent_id="main").user("x")
    session.add_request(scope_id="sub")
    History(session, "main").user("y")
    session.add_request(scope_id="main")
    snapshot = SessionReplay().snapshot(session)
    assert list(snapshot.scopes) == ["main", "sub"]
    assert snapshot.scopes["main"].thresholds.limit == 200_000
    assert snapshot.scopes["main"].stored_messages == 1


def test_header_overrides_defaults_and_explicit_settings_override_the_header() -> None:
    session = two_scopes()
    assert analyse(session).snapshot("pipeline").scopes["sub"].thresholds.budget == 20_000
    options = AnalysisOptions(config=PipelineConfig(budget=50_000, hard_limit=100_000))
    snapshot = analyse(session, options).snapshot("pipeline")
    assert snapshot.scopes["sub"].thresholds.budget == 50_000
    assert snapshot.scopes["sub"].thresholds.limit == 100_000


def test_what_if_side_by_side() -> None:
    session = Session("t", "ctxscope")
    sub = History(session, "sub", context_limit=30_000, working_budget=20_000)
    sub.user("Read everything.")
    for k in range(30):
        sub.round(text_of("code", 4_000, seed=k))
        sub.request()
    pipeline, legacy = WhatIf.of(PipelineConfig(), PipelineConfig(strategy="legacy")).snapshots(session)
    assert sum(r.over_limit for r in pipeline.scopes["sub"].records) == 0
    assert sum(r.over_limit for r in legacy.scopes["sub"].records) > 0


def test_calibration_pairs_reported_usage_with_what_was_really_sent() -> None:
    # ctxscope's own logs: the agent ran the pipeline, so the report matches the sent estimate.
    session = Session("t", "ctxscope")
    sub = History(session, "sub", context_limit=60_000, working_budget=20_000)
    sub.user("Read everything.")
    manager = ContextManager(PipelineConfig(), header=session.scopes["sub"].header)
    for k in range(30):
        sub.round(text_of("code", 4_000, seed=k))
        sent = manager.prepare(sub.messages).sent_tokens
        sub.request(Usage(int(sent * 1.25)))
    analysis = analyse(session)
    records = analysis.snapshot("recorded").scopes["sub"].records
    assert all(r.context_tokens == r.reported_tokens for r in records)
    # Before the pipeline first compacts (at the fifth call since the estimator's refit on the
    # status-line corpus; the sixth before), the calibrated estimate (made before each call's own
    # report) converges on the report.
    assert all(abs(r.calibrated_tokens / r.context_tokens - 1) < 0.01 for r in records[2:4])
    # ctxscope's own logs: the two lenses coincide — the same requests, sent the same way — but
    # the pipeline lens is still the pipeline's (its own calibrated figures, labelled pipeline).
    pipeline = analysis.snapshot("pipeline")
    assert pipeline.lens == pipeline.scopes["sub"].lens == "pipeline"
    assert not pipeline.scopes["sub"].own_pipeline
    piped = pipeline.scopes["sub"].records
    assert [(r.sent_tokens, r.stages, r.reported_tokens) for r in piped] == [
        (r.sent_tokens, r.stages, r.reported_tokens) for r in records
    ]
    # A what-if replay takes its factors from the recorded configuration's replay: 1.25 once warm
    # (its last request meets the recorded pipeline's compaction just before, measured 2.10).
    legacy = analyse(session, AnalysisOptions(config=PipelineConfig(strategy="legacy")))
    factors = [r.calibration_factor for r in legacy.snapshot("pipeline").scopes["sub"].records]
    assert all(abs(f - 1.25) < 0.01 for f in factors[3:-1])
    # Another agent's log: its stored history is what it sent, so usage pairs with the stored estimate.
    foreign = Session("t", "claude-code")
    other = History(foreign, "main", context_limit=1_000_000)
    other.user("hi")
    for k in range(5):
        other.round(text_of("ascii", 2_000, seed=k))
        stored = sum(m.tokens() for m in other.messages)
        other.request(Usage(int(stored * 1.3)))
    recorded = analyse(foreign).snapshot("recorded").scopes["main"].records
    assert abs(recorded[-1].calibrated_tokens / recorded[-1].reported_tokens - 1) < 0.01


def test_a_new_session_object_resets_the_replay() -> None:
    session = two_scopes()
    replay = SessionReplay()
    replay.update(session)
    fresh = Session("t", "ctxscope")
    History(fresh, "main").user("again")
    fresh.add_request()
    assert len(replay.update(fresh)) == 1
    assert replay.scope_ids() == ["main"]
    assert ScopeHeader("main") == replay.snapshot().scopes["main"].header


def test_calibration_after_an_agent_reported_compaction() -> None:
    """After a compaction the agent reported, what it sent is its history since then."""
    from ctxscope.core.model import ObservedCompaction

    session = Session("t", "claude-code")
    history = History(session, "main", context_limit=1_000_000)
    history.user("hi")
    for k in range(12):
        if k == 6:
            session.add_compaction(ObservedCompaction("main", len(history.messages), tokens_before=1))
            history.user("Summary of the conversation so far.")
        history.round(text_of("ascii", 3_000, seed=k))
        messages = history.messages
        since = next((c.message_count for c in session.scopes["main"].compactions), 0)
        sent = messages[0].tokens() + sum(m.tokens() for m in messages[max(since, 1) :])
        history.request(Usage(int(sent * 1.2)))
    records = analyse(session).snapshot("recorded").scopes["main"].records
    assert records[6].stages and records[6].stages[0].stage.value == "summarize"
    assert abs(records[-1].calibrated_tokens / records[-1].reported_tokens - 1) < 0.02
