"""``ctxscope report``: the JSON shape, the tables (log text shown literally), flags, exit codes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from ctxscope.core.logformat import SessionLogWriter
from ctxscope.core.model import Usage
from ctxscope.core.pipeline import ContextManager, PipelineConfig
from ctxscope.core.session import Session
from ctxscope.tui.cli import main

from .pipeline_support import History, text_of

HOSTILE = "[bold red]x[/] [/path] [link=https://e.x]y \x1b[31mred\x1b[0m"


def write_log(path: Path, *, scope: str = "sub", reads: int = 30, usage: bool = True) -> None:
    """A main scope and a sub-agent whose reported usage is what its pipeline sent."""
    shadow = History(Session(), scope)
    manager = ContextManager(PipelineConfig(hard_limit=60_000, budget=20_000))
    with SessionLogWriter.create(path) as log:
        log.session(scope="main", context_limit=60_000, budget=20_000)
        log.session(scope=scope, parent="main", context_limit=60_000, budget=20_000, label=HOSTILE)
        log.message("user", "Start a sub-agent.")
        log.request(usage=Usage(20) if usage else None)
        shadow.user("Read everything.")
        log.write_message(shadow.messages[-1])
        for k in range(reads):
            shadow.round(text_of("code", 5_000, seed=k))
            log.write_message(shadow.messages[-2])
            log.write_message(shadow.messages[-1])
            sent = manager.prepare(shadow.messages).sent_tokens
            log.request(scope=scope, usage=Usage(sent) if usage else None)
        log.stream.write(b"{not json\n")


def report(capsys: pytest.CaptureFixture[str], *args: str) -> dict:  # type: ignore[type-arg]
    assert main(["report", *args, "--json"]) == 0
    return json.loads(capsys.readouterr().out)  # type: ignore[no-any-return]


def test_json_has_the_documented_shape(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "log.jsonl"
    write_log(path)
    out = report(capsys, str(path))
    assert out["format"] == "ctxscope"
    assert out["errors"]["bad_lines"] == 1
    assert [s["id"] for s in out["scopes"]] == ["main", "sub"]
    sub = out["scopes"][1]
    for key in (
        "id",
        "requests",
        "messages",
        "limit",
        "budget",
        "max_sent_tokens",
        "over_limit_requests",
        "stage_runs",
        "summaries",
        "cached_prefix_ratio",
        "reported",
    ):
        assert key in sub
    assert set(sub["stage_runs"]) >= {"artifacts", "clear_tool_results", "summarize", "guard"}
    assert sub["requests"] == 30 and sub["messages"] == 61
    assert sub["limit"] == 60_000 and sub["budget"] == 20_000
    assert 0 < sub["max_sent_tokens"] <= 20_000
    assert sub["over_limit_requests"] == 0
    assert sub["stage_runs"]["clear_tool_results"] > 0
    assert 0 < sub["cached_prefix_ratio"] < 1
    assert sub["reported"] == {"requests_with_usage": 30, "max_prompt_tokens": sub["max_sent_tokens"]}
    assert sub["parent"] == "main" and sub["label"] == HOSTILE


def test_summaries_are_listed(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "chat.jsonl"
    with SessionLogWriter.create(path) as log:
        log.session(context_limit=50_000, budget=20_000)
        log.message("user", "Plan the offsite.")
        for k in range(40):
            log.message("user", f"Turn {k}: " + text_of("ascii", 1_500, seed=k))
            log.message("assistant", f"I will note item {k}. " + text_of("ascii", 1_500, seed=k + 99))
            log.request()
    out = report(capsys, str(path))
    (scope,) = out["scopes"]
    assert scope["stage_runs"]["summarize"] == len(scope["summaries"]) > 0
    summary = scope["summaries"][0]
    assert set(summary) >= {"request", "tokens_freed", "summary_tokens", "recent_kept_tokens"}
    assert summary["tokens_freed"] > 0 and summary["recent_kept_tokens"] > 0
    no_summary = report(capsys, str(path), "--no-summary")["scopes"][0]
    assert no_summary["summaries"] == [] and no_summary["stage_runs"]["trim_turns"] > 0


def test_flags_override_the_log(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "log.jsonl"
    write_log(path)
    sub = report(capsys, str(path), "--budget", "10000", "--limit", "30000")["scopes"][1]
    assert sub["budget"] == 10_000 and sub["limit"] == 30_000 and sub["max_sent_tokens"] <= 10_000
    legacy = report(capsys, str(path), "--strategy", "legacy")
    assert legacy["strategy"] == "legacy"
    assert legacy["scopes"][1]["over_limit_requests"] > 0
    assert legacy["scopes"][1]["stage_runs"]["clear_tool_results"] == 0
    one = report(capsys, str(path), "--clear-batch", "1", "--target", "1.0")["scopes"][1]
    four = report(capsys, str(path), "--clear-batch", "4", "--target", "1.0")["scopes"][1]
    assert one["stage_runs"]["clear_tool_results"] > four["stage_runs"]["clear_tool_results"]
    assert one["cached_prefix_ratio"] < four["cached_prefix_ratio"]


def test_tables_show_log_text_literally(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "log.jsonl"
    write_log(path, scope=HOSTILE, reads=3)
    assert main(["report", str(path)]) == 0
    out = capsys.readouterr().out
    assert "[bold red]x" in out  # shown, not interpreted
    assert "requests and context" in out and "recorded lens" in out
    assert "lenses coincide" in out  # ctxscope's own log
    assert main(["report", str(path), "--budget", "10000"]) == 0
    assert "what the pipeline would do (what-if)" in capsys.readouterr().out
    assert "1 bad line skipped" in out


@pytest.mark.parametrize(
    ("content", "reason"),
    [
        (None, "no such file"),
        (b"", "empty"),
        (b"\x00\x01\x02 not a log\n", ""),
        (b"[1, 2, 3]\n", ""),
    ],
)
def test_unreadable_input_exits_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content: bytes | None, reason: str
) -> None:
    path = tmp_path / "bad.jsonl"
    if content is not None:
        path.write_bytes(content)
    assert main(["report", str(path), "--json"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("ctxscope report: ") and err.count("\n") == 1
    assert reason in err


def test_a_folder_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["report", str(tmp_path)]) == 2
    assert "folder" in capsys.readouterr().err


@pytest.mark.parametrize(
    "flags", [["--budget", "0"], ["--strategy", "fast"], ["--clear-batch", "x"], ["--target", "2"]]
)
def test_bad_flags_exit_2(tmp_path: Path, flags: list[str]) -> None:
    path = tmp_path / "log.jsonl"
    write_log(path, reads=1)
    with pytest.raises(SystemExit) as exc:
        main(["report", str(path), *flags])
    assert exc.value.code == 2


def real_logs() -> list[Path]:
    from ..conftest import SHARED

    root = SHARED / "real-logs"
    if not root.is_dir():
        return []
    return sorted(
        p
        for p in root.rglob("*")
        if p.is_file() and p.suffix in (".jsonl", ".json", ".traj") and p.name != "SOURCES.json"
    )


@pytest.mark.shared
@pytest.mark.parametrize("path", real_logs() or [None], ids=lambda p: p.name if p else "absent")
def test_report_reads_real_agent_logs(path: Path | None, capsys: pytest.CaptureFixture[str]) -> None:
    """Every real log in ../shared/real-logs reports, and the pipeline never goes over the limit."""
    if path is None:
        pytest.skip("needs ../shared/real-logs (absent here)")
    out = report(capsys, str(path), "--lens", "pipeline")
    assert out["format"] and out["scopes"]
    for scope in out["scopes"]:
        assert scope["over_limit_requests"] == 0 and scope["refused_requests"] == 0
        assert scope["max_sent_tokens"] <= scope["limit"]
        assert scope["reported"]["requests_with_usage"] <= scope["requests"]
    for scope in out["scopes"]:
        usage = scope["estimate_vs_reported"]
        if scope["reported"]["requests_with_usage"] == 0:
            assert usage is None
        else:
            assert usage["calls"] == scope["reported"]["requests_with_usage"]
            assert usage["raw"]["median"] > 0


@pytest.mark.shared
@pytest.mark.parametrize("path", real_logs() or [None], ids=lambda p: p.name if p else "absent")
def test_recorded_report_is_what_a_full_read_gives(
    path: Path | None, capsys: pytest.CaptureFixture[str]
) -> None:
    """The recorded lens counts each message as it is read and lets its text go: every figure is
    the one a read keeping all text gives."""
    if path is None:
        pytest.skip("needs ../shared/real-logs (absent here)")
    from ctxscope.core.analysis import AnalysisOptions, analyse
    from ctxscope.core.reader import open_log

    whole = analyse(open_log(path, text_cap=None), AnalysisOptions(lens="recorded")).summary()
    expected = json.loads(json.dumps(whole.to_json(per_request=True)))
    assert report(capsys, str(path), "--per-request") == expected


def test_estimate_vs_reported_per_scope(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Usage in the log gives each scope the median and worst estimate ÷ reported ratio."""
    path = tmp_path / "log.jsonl"
    write_log(path)
    out = report(capsys, str(path))
    assert out["estimator"] == "claude"
    main_scope, sub = out["scopes"]
    assert main_scope["estimate_vs_reported"]["calls"] == 1
    assert main_scope["estimate_vs_reported"]["calibrated"] is None  # nothing to calibrate on
    usage = sub["estimate_vs_reported"]
    assert usage["calls"] == 30
    # write_log reports exactly what the pipeline sent, so calibration converges on it.
    assert abs(usage["calibrated"]["median"] - 1) <= 0.05
    for stats in (usage["raw"], usage["calibrated"]):
        assert set(stats) == {"calls", "median", "worst", "within_5pct"}
    assert main(["report", str(path)]) == 0
    assert "estimate ÷ reported" in capsys.readouterr().out


def test_recorded_lens_json_per_request_and_agent_thresholds(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Another agent's log: the recorded lens by default, ``--per-request``, ``--window``/``--trigger``."""
    from ..tui.test_lens import REPORTED, write_transcript

    path = tmp_path / "s1.jsonl"
    write_transcript(path)
    out = report(capsys, str(path), "--per-request", "--window", "300000", "--trigger", "250000")
    assert out["lens"] == "recorded" and out["estimator"] == "claude"
    (scope,) = out["scopes"]
    assert scope["lens"] == "recorded" and scope["requests"] == len(REPORTED)
    assert scope["limit"] == 300_000 and scope["trigger"] == 250_000
    assert scope["agent_compactions"] == []
    assert [p["context"] for p in scope["per_request"]] == REPORTED
    assert {p["source"] for p in scope["per_request"]} == {"reported"}
    assert scope["forecast"]["requests_left"] is not None and scope["forecast"]["requests_left"] > 0
    pipeline = report(capsys, str(path), "--lens", "pipeline")
    assert pipeline["lens"] == "pipeline" and "per_request" not in pipeline["scopes"][0]
    # A fractional --trigger is the pipeline's trigger (a what-if), as before.
    assert report(capsys, str(path), "--trigger", "0.8")["lens"] == "pipeline"


def test_recorded_lens_says_when_window_and_trigger_are_assumed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A log that names no model and comes from an agent with no known trigger: the window is the
    default and stands in for the trigger, so no compaction is forecast, and the text report says
    why its window and trigger carry a ``?``. A Claude Code log knows both."""
    from ..tui.test_lens import write_specstory, write_transcript

    known = tmp_path / "s1.jsonl"
    write_transcript(known)
    (scope,) = report(capsys, str(known))["scopes"]
    assert scope["window_known"] and scope["trigger_known"]

    export = tmp_path / "chat.md"  # a SpecStory export: no model, no usage
    write_specstory(export, turns=30, words=400)
    out = report(capsys, str(export), "--per-request")
    assert out["format"] == "specstory"
    (scope,) = out["scopes"]
    assert not scope["window_known"] and not scope["trigger_known"]
    assert scope["trigger"] == scope["limit"] and scope["forecast"]["requests_left"] is None
    assert main(["report", str(export)]) == 0
    text = capsys.readouterr().out
    assert "200k?" in text and "unknown" in text and "no auto-compaction trigger is known" in text
    # --trigger makes the trigger known again (and the forecast with it)
    (scope,) = report(capsys, str(export), "--trigger", "5000")["scopes"]
    assert scope["trigger_known"] and scope["forecast"]["requests_left"] == 0


def test_lens_pipeline_on_ctxscope_own_log_is_the_pipeline_lens(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """ctxscope's own logs: the lenses coincide, yet ``--lens pipeline`` is the pipeline lens (it
    once fell back to the recorded one), and only the recorded lens says they coincide."""
    path = tmp_path / "log.jsonl"
    write_log(path, reads=6)
    recorded = report(capsys, str(path))
    pipeline = report(capsys, str(path), "--lens", "pipeline")
    assert recorded["lens"] == "recorded" and pipeline["lens"] == "pipeline"
    assert [s["lens"] for s in pipeline["scopes"]] == ["pipeline", "pipeline"]
    assert "prompt_cost" in pipeline and "prompt_cost" not in recorded  # the what-if's own figure
    # The same requests, the same pipeline decisions.
    for key in ("requests", "messages", "stage_runs", "max_sent_tokens"):
        assert [s[key] for s in pipeline["scopes"]] == [s[key] for s in recorded["scopes"]]
    assert main(["report", str(path), "--lens", "pipeline"]) == 0
    out = capsys.readouterr().out
    assert "pipeline lens: a what-if" in out and "what the pipeline would do (what-if)" in out
    assert "coincide" not in out and "recorded lens: what the agent sent" not in out
    assert main(["report", str(path)]) == 0
    out = capsys.readouterr().out
    assert "recorded lens: what the agent sent" in " ".join(out.split())
    assert "lenses coincide" in " ".join(out.split())


def test_report_tokens_read_as_the_dashboard_shows_them() -> None:
    """A peak of 164,831 read '164k' in the report and '165k' on the dashboard's meter."""
    from ctxscope.core.short_form import tokens
    from ctxscope.tui.commands.report_cmd import _tokens

    assert _tokens(164_831) == tokens(164_831) == "165k"
    assert _tokens(999_999) == "1.00M" and _tokens(99_960) == "100k"
    assert _tokens(9_999) == "9,999" and _tokens(45_249) == "45.2k"


def test_a_log_without_model_calls_says_why_and_reports_its_turns(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``codex exec --json``: the report showed 0 calls, peak 0, and nothing on why. It says the
    log records no model call, what was stored, and each turn's usage as the log gives it (summed
    over the turn's calls: never a peak or a context size)."""
    cmd = {"id": "item_0", "type": "command_execution", "command": "ls", "aggregated_output": "a.py\n",
           "exit_code": 0, "status": "completed"}
    lines = [
        {"type": "thread.started", "thread_id": "th-1"},
        {"type": "turn.started"},
        {"type": "item.completed", "item": cmd},
        {"type": "turn.completed", "usage": {"input_tokens": 2795973, "cached_input_tokens": 2597760,
                                             "output_tokens": 15308}},
    ]
    path = tmp_path / "exec.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    scope = report(capsys, str(path))["scopes"][0]
    assert scope["requests"] == 0 and scope["peak_tokens"] == 0
    assert scope["turn_usage"] == {"turns": 1, "input_tokens": 2795973, "cached_input_tokens": 2597760,
                                   "output_tokens": 15308}
    assert main(["report", str(path)]) == 0
    text = " ".join(capsys.readouterr().out.split())
    assert "main: no model call in the log (it records no per-call usage); 2 messages stored" in text
    assert "reported for 1 turn, its calls summed: 2,795,973 input (2,597,760 cached), 15,308 output" in text
    other = tmp_path / "log.jsonl"
    write_log(other)
    assert all("turn_usage" not in s for s in report(capsys, str(other))["scopes"])  # a log with calls
