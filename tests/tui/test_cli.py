"""``ctxscope watch`` / ``ctxscope open`` argument handling (the app itself is not started)."""

from __future__ import annotations

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


def test_open_folder_is_a_usage_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["open", str(tmp_path)]) == 2
    assert "watch follows folders" in capsys.readouterr().err


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
    assert not hasattr(args, "poll") and args.budget is None
