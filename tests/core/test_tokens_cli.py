"""``ctxscope estimate``: JSON shape, the table, standard input, estimators, exit codes."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from ctxscope.core.tokens import get_estimator
from ctxscope.tui.cli import main

TEXT = "Hello, world! Привет, мир! 你好世界 😀\n"


def test_json_from_a_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "t.txt"
    path.write_text(TEXT, encoding="utf-8")
    assert main(["estimate", str(path), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert set(data) >= {"tokens", "chars", "estimator", "chars4", "by_script"}
    assert data["estimator"] == "claude"
    assert data["tokens"] == get_estimator("claude").count(TEXT)
    assert data["chars"] == len(TEXT)
    assert data["chars4"] == -(-len(TEXT) // 4)
    assert data["by_script"]["cyrillic"]["chars"] == 9
    assert all(set(v) == {"chars", "tokens"} for v in data["by_script"].values())


def test_stdin_and_estimator(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(TEXT.encode("utf-8"))))
    assert main(["estimate", "--json", "--estimator", "mythex"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["estimator"] == "mythex"
    assert data["tokens"] == get_estimator("mythex").count(TEXT)


def test_undecodable_bytes_are_replaced(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "bad.bin"
    path.write_bytes(b"ok \xff\xfe bytes")
    assert main(["estimate", str(path), "--json", "--estimator", "chars4"]) == 0
    assert json.loads(capsys.readouterr().out)["chars"] == len("ok \ufffd\ufffd bytes")


def test_table(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "[bold]t.txt"
    path.write_text(TEXT, encoding="utf-8")
    assert main(["estimate", str(path)]) == 0
    out = capsys.readouterr().out
    for word in ("script", "chars/4", "total", "cyrillic", "cjk", "[bold]t.txt"):
        assert word in out


def test_a_run_of_one_mark_estimates_under_a_token_a_byte(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # issue 14: 1,000 "=" once estimated at 2,670 tokens (exact o200k 16, Claude 64)
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(b"=" * 1000)))
    assert main(["estimate", "-", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["estimator"] == "claude" and not out["exact"]
    assert out["tokens"] < 1000


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["estimate", "/nonexistent/file.txt"], "No such file"),
        (["estimate", "--estimator", "nope", "-"], "unknown estimator 'nope'"),
    ],
)
def test_usage_errors_exit_2(argv: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("ctxscope estimate: ") and message in err
    assert err.count("\n") == 1


def test_directory_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["estimate", str(tmp_path)]) == 2
    assert "is a folder, not a text file" in capsys.readouterr().err
