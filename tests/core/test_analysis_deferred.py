"""The recorded lens does not replay the pipeline: an offline analysis replays it only when the
pipeline lens is asked for, and then gives what an analysis in the pipeline lens gives."""

from __future__ import annotations

from pathlib import Path

import pytest
from ctxscope.core.analysis import AnalysisOptions, analyse
from ctxscope.core.reader import open_log
from ctxscope.core.replay import SessionReplay

from ..conftest import shared_path


@pytest.fixture
def claude_log() -> Path:
    return shared_path("real-logs", "claude-code", "bhavana-v2.1.177-mode-records.jsonl")


@pytest.fixture
def replays(monkeypatch: pytest.MonkeyPatch) -> list[SessionReplay]:
    """Every :meth:`SessionReplay.update` call, by replay."""
    calls: list[SessionReplay] = []
    update = SessionReplay.update

    def counted(self: SessionReplay, session: object) -> object:
        calls.append(self)
        return update(self, session)  # type: ignore[arg-type]

    monkeypatch.setattr(SessionReplay, "update", counted)
    return calls


def test_recorded_report_replays_nothing_until_the_pipeline_lens(
    claude_log: Path, replays: list[SessionReplay]
) -> None:
    analysis = analyse(open_log(claude_log))
    summary = analysis.summary()
    assert summary.lens == "recorded" and summary.scopes
    assert replays == []
    deferred = analysis.snapshot("pipeline")
    assert len(replays) == 1
    analysis.snapshot("pipeline")
    assert len(replays) == 1  # caught up once, not again
    eager = analyse(open_log(claude_log), AnalysisOptions(lens="pipeline")).snapshot("pipeline")
    assert deferred.scopes.keys() == eager.scopes.keys()
    for scope_id, scope in eager.scopes.items():
        got = deferred.scopes[scope_id].records
        assert [r.context_tokens for r in got] == [r.context_tokens for r in scope.records]
        assert [r.calibration_factor for r in got] == [r.calibration_factor for r in scope.records]


def test_a_live_analysis_replays_as_it_goes(claude_log: Path, replays: list[SessionReplay]) -> None:
    """A live view releases what every replay passed, so its pipeline replay cannot wait."""
    analyse(open_log(claude_log), AnalysisOptions(keep_detail=100))
    assert len(replays) == 1


def test_the_pipeline_lens_records_carry_the_calls_times(claude_log: Path) -> None:
    """Request *i* is the same model call in either lens, so it has the same time: the pipeline
    lens's header, timeline axis and summary rows show times too."""
    analysis = analyse(open_log(claude_log))
    recorded, pipeline = analysis.snapshot("recorded"), analysis.snapshot("pipeline")
    for scope_id, scope in recorded.scopes.items():
        times = [r.timestamp for r in scope.records]
        assert any(times)
        assert [r.timestamp for r in pipeline.scopes[scope_id].records] == times
    assert pipeline.times.known and pipeline.times == recorded.times
