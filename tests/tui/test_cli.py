"""``ctxscope watch`` / ``ctxscope open`` argument handling (the app itself is not started)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from ctxscope.tui.cli import main


def test_open_missing_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["open", str(tmp_path / "missing.jsonl")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("ctxscope open: ") and "no such file" in err and err.count("\n") == 1


def test_open_unknown_format_names_the_known_ones(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log = tmp_path / "weird.jsonl"
    log.write_text('{"hello": 1}\n{"world": 2}\n')
    assert main(["open", str(log)]) == 2
    err = capsys.readouterr().err
    assert "known formats" in err and "claude-code" in err and err.count("\n") == 1


def test_open_forced_unknown_format(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log = tmp_path / "a.jsonl"
    log.write_text("")
    assert main(["open", str(log), "--format", "nope"]) == 2
    assert "unknown format" in capsys.readouterr().err


def test_open_an_empty_folder_is_a_usage_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["open", str(tmp_path)]) == 2
    assert "no session log" in capsys.readouterr().err


def test_open_a_folder_opens_its_newest_log_with_its_subagents(tmp_path: Path) -> None:
    """A Claude Code project folder: the newest session, its sub-agent files joining as scopes."""
    import os

    import orjson
    from ctxscope.tui.app import dashboard_options
    from ctxscope.tui.cli import build_parser
    from ctxscope.tui.tailer import CoreSource

    def line(session: str, text: str, **extra: object) -> bytes:
        record = {"type": "user", "sessionId": session, "parentUuid": None, "isSidechain": False,
                  "message": {"role": "user", "content": text}, **extra}
        return orjson.dumps(record) + b"\n"

    old, new = tmp_path / "aaa.jsonl", tmp_path / "bbb.jsonl"
    old.write_bytes(line("aaa", "old session"))
    new.write_bytes(line("bbb", "newer session"))
    sub = tmp_path / "bbb" / "subagents" / "agent-x1.jsonl"
    sub.parent.mkdir(parents=True)
    sub.write_bytes(line("bbb", "sub prompt", isSidechain=True, agentId="x1"))
    os.utime(old, (100, 100))
    os.utime(new, (200, 200))
    options = dashboard_options(build_parser().parse_args(["open", str(tmp_path), "--redact"]), live=False)
    assert options.path == str(new) and options.redact
    source = CoreSource(options.path)
    source.read(None)
    source.finish()
    assert set(source.follower.session.scopes) == {"main", "agent-x1"}  # type: ignore[union-attr]


def test_bad_budget_is_an_argparse_error(tmp_path: Path) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["watch", str(tmp_path), "--budget", "lots"])
    assert exc.value.code == 2


def test_watch_parses_every_flag(tmp_path: Path) -> None:
    from ctxscope.tui.cli import build_parser

    args = build_parser().parse_args(
        ["watch", str(tmp_path), "--poll", "--format", "codex", "--budget", "400_000", "--limit", "1,000,000"]
    )
    assert args.poll and args.format == "codex" and args.budget == 400_000 and args.limit == 1_000_000
    args = build_parser().parse_args(["open", "x.jsonl"])
    assert not hasattr(args, "poll") and args.budget is None and not args.redact


def test_only_the_console_script_tunes_the_collector() -> None:
    """``ctxscope`` (a process of its own) sets the collector; ``main(argv)`` in a caller's process
    leaves it alone."""
    import gc
    import subprocess
    import sys

    from ctxscope.tui.cli import COLLECTOR_THRESHOLDS

    before = gc.get_threshold()
    assert main(["demo", "--list"]) == 0
    assert gc.get_threshold() == before
    code = (
        "import gc, sys; from ctxscope.tui import cli; sys.argv = ['ctxscope', 'demo', '--list']\n"
        "cli.main(); print(gc.get_threshold(), gc.get_freeze_count() > 0, file=sys.stderr)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stderr.strip() == f"{COLLECTOR_THRESHOLDS} True"


def test_the_report_process_ends_without_teardown_its_output_whole(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``ctxscope report`` as a process of its own ends by :func:`~ctxscope.tui.cli.quick_exit`:
    the same bytes as ``main(argv)`` in this process and exit 0, also when nobody reads its
    output (a closed pipe)."""
    import subprocess
    import sys

    bench = str(Path(__file__).resolve().parents[2] / "bench")
    sys.path.insert(0, bench)
    try:
        from bench_reader import synthesize
    finally:
        sys.path.remove(bench)
    log = synthesize(tmp_path / "log.jsonl", 1)
    assert main(["report", "--json", str(log)]) == 0
    expected = capsys.readouterr().out
    command = [sys.executable, "-m", "ctxscope.tui.cli", "report", "--json", str(log)]
    done = subprocess.run(command, capture_output=True, check=True)
    assert done.stdout.decode() == expected and len(expected) > 1_000 and not done.stderr
    read_end, write_end = os.pipe()
    os.close(read_end)  # nobody reads: the report's flush at the end meets a closed pipe
    try:
        closed = subprocess.run(command, stdout=write_end, stderr=subprocess.PIPE, check=False)
    finally:
        os.close(write_end)
    assert closed.returncode == 0 and not closed.stderr
