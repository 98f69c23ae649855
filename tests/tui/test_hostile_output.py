"""Log-controlled text never styles or controls the terminal, and the command line says what is wrong.

Covers the command palette (markup in a scope label or id must not crash, style, link or click),
``report`` tables, ``estimate FILE``, one-line errors, cell widths (Hangul fillers, tag characters),
and the CLI's messages and exit statuses.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
from pathlib import Path

import orjson
import pytest
from ctxscope.tui.app import DashboardCommands
from ctxscope.tui.cli import main
from ctxscope.tui.widgets.text import clean
from rich.cells import cell_len
from textual.command import CommandPalette
from textual.content import Content

from . import fakes
from .conftest import MockApp, detail_shown

MARKUP = [
    "[/]",
    "[bold red]styled[/]",
    "[link=https://evil.example]x[/link]",
    "[@click=app.screenshot('o','/tmp')]click me[/]",
]
ESCAPES = ["\x1b]52;c;cHduZWQ=\x07", "\x1b]2;pwned\x07", "\x1b[2J", "\x9b2J", "\x1b]8;;http://e\x07"]
ENTRY = "import sys; from ctxscope.tui.cli import main; sys.exit(main(sys.argv[1:]))"
CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")


@pytest.mark.parametrize("label", MARKUP)
async def test_palette_shows_scope_labels_and_ids_literally(label: str) -> None:
    snap = fakes.session(
        fakes.scope(2), fakes.scope(3, scope_id=label + "-id", parent="main", label=label + " \x1b]2;t\x07")
    )
    app = MockApp(snap)
    async with app.run_test(size=(120, 40)) as pilot:
        await detail_shown(pilot)
        provider = DashboardCommands(app.dashboard)
        hits = [hit async for hit in provider.discover()] + [hit async for hit in provider.search("scope")]
        prompts = [hit.prompt for hit in hits]
        assert all(isinstance(prompt, Content) for prompt in prompts)
        shown = [prompt.plain for prompt in prompts if isinstance(prompt, Content)]
        assert any(label[:30] in text for text in shown)  # names are cut at 40 characters
        assert not any("\x1b" in text for text in shown)
        for prompt in prompts:  # no style, link or action came from the log
            assert isinstance(prompt, Content)
            for span in prompt.spans:
                style = str(span.style)
                assert "link" not in style and "@click" not in style and "red" not in style
        await pilot.press("ctrl+p")
        await pilot.pause()
        await pilot.press(*"scope")
        await pilot.pause(0.3)  # the palette renders every hit (a MarkupError would stop the app)
        assert app.is_running and isinstance(app.screen, CommandPalette)


def test_clean_makes_width_disagreeing_and_invisible_characters_visible() -> None:
    for text in ("a\u3164b", "a\uffa0b", "a\u115fb", "a\U000e0041\U000e0042b"):
        shown = clean(text)
        assert cell_len(shown) == len(shown)  # one cell each, as the terminal draws them
        assert "⍰" in shown and shown.startswith("a") and shown.endswith("b")


def hostile_claude_log(folder: Path, name: str = "s.jsonl") -> Path:
    evil = "".join(ESCAPES) + "".join(MARKUP)
    log = folder / name
    sub = folder / name[: -len(".jsonl")] / "subagents" / f"agent-{evil.replace('/', '_')}.jsonl"
    sub.parent.mkdir(parents=True)
    base = {"parentUuid": None, "isSidechain": False, "sessionId": "s"}
    usage = {
        "input_tokens": 5,
        "cache_creation_input_tokens": 0,
        "cache_read_input_tokens": 0,
        "output_tokens": 1,
    }
    lines = [
        {**base, "type": "user", "uuid": "u1", "message": {"role": "user", "content": evil}},
        {
            **base,
            "type": "assistant",
            "uuid": "a1",
            "requestId": "r1",
            "message": {
                "id": "m1",
                "model": evil,
                "role": "assistant",
                "content": [{"type": "text", "text": evil}],
                "usage": usage,
            },
        },
    ]
    log.write_bytes(b"".join(orjson.dumps(line) + b"\n" for line in lines))
    sub.write_bytes(b"".join(orjson.dumps({**line, "isSidechain": True}) + b"\n" for line in lines))
    return log


def run_cli(*args: str, stdin: bytes = b"") -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([sys.executable, "-c", ENTRY, *args], input=stdin, capture_output=True, timeout=60)


def test_report_estimate_and_errors_print_no_escape_sequence(tmp_path: Path) -> None:
    """Piped output too: scope ids, sub-agent file names, file names are shown, never obeyed."""
    log = hostile_claude_log(tmp_path)
    report = run_cli("report", str(log))
    assert report.returncode == 0, report.stderr
    assert b"agent-" in report.stdout
    evil_name = tmp_path / ("x" + "".join(ESCAPES).replace("/", "_") + ".txt")
    evil_name.write_text("hello")
    estimate = run_cli("estimate", str(evil_name))
    assert estimate.returncode == 0
    missing = run_cli("open", str(tmp_path / ("nope" + "".join(ESCAPES).replace("/", "_"))))
    assert missing.returncode == 2
    for out in (report.stdout, report.stderr, estimate.stdout, missing.stderr):
        text = out.decode("utf-8", "replace")
        assert not CONTROL.search(text.replace("\n", "").replace("\t", "")), text[:400]


def test_report_takes_a_folder_like_open(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    hostile_claude_log(tmp_path)
    assert main(["report", str(tmp_path), "--json"]) == 0
    assert orjson.loads(capsys.readouterr().out)["format"] == "claude-code"


def test_unreadable_paths_are_named_precisely(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "d"
    folder.mkdir()
    (folder / "x.jsonl").write_bytes(b"{}\n")
    real_access = os.access
    monkeypatch.setattr(
        os, "access", lambda p, mode: False if str(p).startswith(str(folder)) else real_access(p, mode)
    )
    for argv in (["open", str(folder)], ["watch", str(folder)], ["report", str(folder)]):
        assert main(argv) == 2
        assert "cannot read the folder (permission denied)" in capsys.readouterr().err
    assert main(["report", str(folder / "x.jsonl")]) == 2
    assert "cannot read the file (permission denied)" in capsys.readouterr().err
    fifo = tmp_path / "p.jsonl"
    os.mkfifo(fifo)
    for argv in (["open", str(fifo)], ["watch", str(fifo)], ["report", str(fifo)]):
        assert main(argv) == 2
        assert "FIFO" in capsys.readouterr().err
    named = tmp_path / "opencode.db"  # OpenCode's PATH#SESSION form names the file behind it
    os.mkfifo(named)
    assert main(["report", f"{named}#ses_abc"]) == 2
    assert "FIFO" in capsys.readouterr().err


def test_estimate_refuses_binary_utf16_devices_and_endless_input(tmp_path: Path) -> None:
    png = tmp_path / "pic.png"
    png.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + b"\x00" * 40)
    u16 = tmp_path / "u16.txt"
    u16.write_bytes("hello world, this is text".encode("utf-16"))
    cases = {
        "binary data": run_cli("estimate", str(png)),
        "UTF-16": run_cli("estimate", str(u16)),
        "device": run_cli("estimate", "/dev/zero"),
    }
    for words, result in cases.items():
        assert result.returncode == 2 and words in result.stderr.decode(), result.stderr
    from ctxscope.tui.commands import estimate_cmd

    endless = subprocess.run(
        f"head -c {estimate_cmd.MAX_TEXT_BYTES + 10} /dev/zero | {sys.executable} -c '{ENTRY}' estimate -",
        shell=True,
        capture_output=True,
        timeout=60,
    )
    assert endless.returncode == 2 and b"at most" in endless.stderr


def test_estimate_of_text_given_as_path_quotes_it_briefly_and_says_how(tmp_path: Path) -> None:
    long_text = "hello world " * 400  # longer than a file name may be
    result = run_cli("estimate", long_text)
    err = result.stderr.decode()
    assert result.returncode == 2 and "File name too long" in err and "pipe it" in err
    assert len(err) < 300 and long_text not in err
    assert "pipe it" in run_cli("estimate", "hello there").stderr.decode()
    missing_path = tmp_path / ("long-folder-name-" * 6) / "notes.txt"
    missing = run_cli("estimate", str(missing_path)).stderr.decode()
    assert "No such file" in missing and "pipe it" not in missing  # a plain missing file: no hint
    assert missing.split(": ")[1].endswith("/notes.txt") and len(str(missing_path)) > 80  # its end kept


def test_command_line_messages(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["--version"])
    assert exit_info.value.code == 0 and re.match(r"ctxscope \S+", capsys.readouterr().out)
    with pytest.raises(SystemExit) as exit_info:
        main(["--bogus"])
    err = capsys.readouterr().err
    assert exit_info.value.code == 2 and "--bogus" in err and "required" not in err
    with pytest.raises(SystemExit):
        main(["open", "--bogus", "x.jsonl"])
    err = capsys.readouterr().err
    assert err.startswith("usage: ctxscope open") and "--bogus" in err


def test_a_crashed_dashboard_exits_non_zero(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from ctxscope.tui import app as app_module

    log = tmp_path / "s.jsonl"
    fakes.write_session(log, turns=2)

    def crash(self: object) -> None:
        raise RuntimeError("a bug")

    run = app_module.CtxscopeApp.run
    monkeypatch.setattr(app_module.CtxscopeApp, "on_mount", crash, raising=False)
    monkeypatch.setattr(app_module.CtxscopeApp, "run", lambda self: run(self, headless=True))
    args = argparse.Namespace(path=str(log), format=None, budget=None, limit=None, redact=False)
    assert app_module.run_dashboard(args, live=False) == 1


def test_plural_calls() -> None:
    from ctxscope.tui.widgets.text import plural

    assert plural(1, "model call") == "1 model call" and plural(2, "call") == "2 calls"


def test_repaired_lines_are_not_called_skipped(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log = hostile_claude_log(tmp_path)
    repaired = (
        b'{"parentUuid":null,"sessionId":"s","type":"user","message":{"role":"user","content":"caf\xe9"}}\n'
    )
    log.write_bytes(log.read_bytes() + repaired + b"not json\n")
    assert main(["report", str(log)]) == 0
    out = capsys.readouterr().out
    assert "1 bad line skipped (invalid_json 1); 1 line repaired and kept (repaired_utf8 1)" in out
