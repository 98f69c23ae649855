"""API errors an agent wrote in place of a response: counted in both lenses, a 'prompt too long'
one counted as a refused call in the recorded lens, and said in the report (the meter: in
tests/tui/test_stored_volume.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from ctxscope.core.analysis import analyse, summarise_session
from ctxscope.core.reader import open_log
from ctxscope.tui.cli import main

from tests.core.test_adapters_claude_code import assistant, usage, user, write


def api_error(msg_id: str, text: str) -> dict[str, object]:
    return assistant(msg_id, {"type": "text", "text": text}, usage(0, 0, 0), model="<synthetic>",
                     isApiErrorMessage=True)


def grown_too_long(tmp_path: Path) -> Path:
    """Two answered calls, then three requests refused for their size and one other error."""
    return write(tmp_path / "s.jsonl", [
        user("a"),
        assistant("m1", {"type": "text", "text": "x"}, usage(10, 100, 150_000)),
        user("b"),
        assistant("m2", {"type": "text", "text": "y"}, usage(10, 100, 190_000)),
        user("c"), api_error("e1", "Prompt is too long"),
        user("d"), api_error("e2", "Prompt is too long"),
        user("e"), api_error("e3", "API Error: 529 overloaded"),
        user("f"), api_error("e4", "Prompt is too long"),
    ])


def test_errors_are_counted_in_both_lenses_and_refused_only_in_the_recorded_one(tmp_path: Path) -> None:
    analysis = analyse(open_log(grown_too_long(tmp_path)))
    recorded = analysis.snapshot("recorded")
    pipeline = analysis.snapshot("pipeline")
    for snapshot in (recorded, pipeline):
        errors = snapshot.scopes["main"].agent_errors
        assert (errors.count, errors.context_length, errors.latest) == (4, 3, "Prompt is too long")
    (scope,) = summarise_session(recorded, recorded, "").scopes
    assert scope.requests == 2 and scope.refused_requests == 3  # the agent's calls refused for size
    (what_if,) = summarise_session(pipeline, recorded, "").scopes
    assert what_if.refused_requests == 0  # the what-if's guard refused none of its own


def test_report_says_what_the_agent_got(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log = grown_too_long(tmp_path)
    assert main(["report", str(log), "--json"]) == 0
    scope = json.loads(capsys.readouterr().out)["scopes"][0]
    assert scope["agent_errors"] == {"count": 4, "context_length": 3, "latest": "Prompt is too long"}
    assert scope["refused_requests"] == 3
    assert main(["report", str(log)]) == 0
    text = " ".join(capsys.readouterr().out.split())
    assert "main: 4 API errors the agent got in place of a response, 3 of them 'prompt too long'" in text
    assert "(counted as refused); latest: Prompt is too long" in text
