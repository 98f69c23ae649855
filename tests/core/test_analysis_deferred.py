"""The recorded lens does not replay the pipeline: an offline analysis replays it only when the
pipeline lens is asked for, and then gives what an analysis in the pipeline lens gives. A report in
the recorded lens of another agent's log does not even import the pipeline's stages or the replay
(proven in a fresh interpreter via ``sys.modules``)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from ctxscope.core.analysis import AnalysisOptions, analyse
from ctxscope.core.reader import open_log
from ctxscope.core.replay import SessionReplay

from ..conftest import shared_path
from .test_reader_perf_paths import response_log


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


PIPELINE_MODULES = (
    "ctxscope.core.replay", "ctxscope.core.detail_rows", "ctxscope.core.pipeline.engine",
    "ctxscope.core.pipeline.state", "ctxscope.core.pipeline.artifacts", "ctxscope.core.pipeline.clearing",
    "ctxscope.core.pipeline.summarize", "ctxscope.core.pipeline.fitting", "ctxscope.core.pipeline.guard",
    "ctxscope.core.pipeline.legacy",
)


def imported_by_report(path: Path, *flags: str) -> list[str]:
    """The pipeline modules a ``ctxscope report --json`` run in a fresh interpreter imported."""
    code = (
        "import contextlib, io, sys\n"
        "from ctxscope.tui.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        f"    assert main(['report', '--json', {str(path)!r}, *{list(flags)!r}]) == 0\n"
        f"print(','.join(m for m in {PIPELINE_MODULES!r} if m in sys.modules))\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return [m for m in result.stdout.strip().split(",") if m]


def test_a_recorded_report_of_an_agent_log_does_not_import_the_pipeline(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    path.write_bytes(b"".join(response_log()))
    assert imported_by_report(path) == []
    assert "ctxscope.core.pipeline.engine" in imported_by_report(path, "--lens", "pipeline")
    assert "ctxscope.core.replay" in imported_by_report(path, "--budget", "50000")
