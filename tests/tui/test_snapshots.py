"""Snapshot tests of the main screens (fixed terminal size; nothing on screen depends on the clock).

Made-up snapshots cover layout and every pane; real logs from ../shared and a generated
ctxscope-format session go through the real tailer and core (these change when core's figures
change: review the diff, then ``pytest tests/tui --snapshot-update``).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from ctxscope.core.model import ObservedCompaction
from ctxscope.tui.app import DashboardOptions
from ctxscope.tui.messages import Mode

from ..conftest import shared_path
from . import fakes
from .conftest import MockApp, ReadyApp, wait_ready

WIDE = (160, 48)
SMALL = (80, 24)


def demo_snapshot() -> object:
    observed = [ObservedCompaction("main", 60, trigger="auto", tokens_before=330_000, tokens_after=90_000,
                                   summary="The agent's own summary.")]
    return fakes.session(
        fakes.scope(80, summary_every=30, observed=observed),
        fakes.scope(12, scope_id="agent-1", parent="main", label="read the chapters"),
        bad_lines={"invalid_json": 2, "wrong_type": 1},
    )


class TestDashboardLayout:
    """The dashboard on made-up figures: every pane, wide and small."""

    def test_wide(self, snap_compare: object) -> None:
        """160×48: header, meter, timeline with lanes, breakdown, messages, summaries, error strip."""
        assert snap_compare(MockApp(demo_snapshot()), terminal_size=WIDE)  # type: ignore[operator]

    def test_small_timeline(self, snap_compare: object) -> None:
        """80×24: the meter, the pane tabs and the timeline pane; labels shortened, nothing wraps."""
        assert snap_compare(MockApp(demo_snapshot()), terminal_size=SMALL)  # type: ignore[operator]

    def test_small_messages(self, snap_compare: object) -> None:
        """80×24, pane 2: the message list in its compact columns."""
        assert snap_compare(MockApp(demo_snapshot()), press=["2"], terminal_size=SMALL)  # type: ignore[operator]

    def test_small_breakdown(self, snap_compare: object) -> None:
        """80×24, pane 3: per category, per tool, per script."""
        assert snap_compare(MockApp(demo_snapshot()), press=["3"], terminal_size=SMALL)  # type: ignore[operator]

    def test_cursor_moved_back(self, snap_compare: object) -> None:
        """←×5 from the end: follow off (title says so), cursor line and lane highlight moved."""
        assert snap_compare(  # type: ignore[operator]
            MockApp(demo_snapshot()), press=["left"] * 5, terminal_size=WIDE
        )


class TestScreens:
    """Modal screens: summary text, help, scope picker."""

    def test_summary_text(self, snap_compare: object) -> None:
        """Enter on a summary marker: its figures in the title and the text, hostile parts literal."""
        assert snap_compare(MockApp(demo_snapshot()), press=["4", "enter"], terminal_size=WIDE)  # type: ignore[operator]

    def test_help(self, snap_compare: object) -> None:
        """? shows what every number means and the keys."""
        assert snap_compare(MockApp(demo_snapshot()), press=["question_mark"], terminal_size=WIDE)  # type: ignore[operator]

    def test_scope_picker(self, snap_compare: object) -> None:
        """S lists the scopes with calls, peak and summaries."""
        assert snap_compare(MockApp(demo_snapshot()), press=["S"], terminal_size=WIDE)  # type: ignore[operator]


class TestHostileText:
    """Log text with markup, escapes, controls, zero-width and bidi characters, shown literally."""

    def test_hostile_messages(self, snap_compare: object) -> None:
        """Previews show ``[bold red]x[/]`` and control pictures (␛ ␇ ␀ ␍ ⍰), the columns stay aligned."""
        snap = fakes.session(fakes.scope(6, label=fakes.HOSTILE, tool=fakes.HOSTILE))
        app = MockApp(snap, detail_messages=20, preview=fakes.HOSTILE)
        assert snap_compare(app, press=["2"], terminal_size=(120, 30))  # type: ignore[operator]


class TestRealData:
    """The real tailer and core on a generated ctxscope-format session and on real agent logs."""

    def test_generated_session(self, snap_compare: object, tmp_path: Path) -> None:
        """A generated session (stdlib sources as tool output) with a sub-agent and bad lines."""
        log = tmp_path / "session.jsonl"
        fakes.write_session(log, turns=24, subagent_turns=3, bad_line=True)
        app = ReadyApp(DashboardOptions(str(log), mode=Mode.OFFLINE))
        assert snap_compare(app, terminal_size=WIDE, run_before=wait_ready)  # type: ignore[operator]

    @pytest.mark.shared
    def test_claude_code_autocompact(self, snap_compare: object) -> None:
        """Claude Code session with an auto-compaction (◇ at #61) and two sub-agent scopes;
        ``--redact``: previews are shapes, so the baseline carries no text from the log."""
        log = shared_path("real-logs", "claude-code", "spotter-4d5611e5-autocompact",
                          "4d5611e5-241a-462a-8d15-5122611a9569.jsonl")
        app = ReadyApp(DashboardOptions(str(log), mode=Mode.OFFLINE, redact=True))
        assert snap_compare(app, terminal_size=WIDE, run_before=wait_ready)  # type: ignore[operator]
        assert_no_log_text(baseline("test_claude_code_autocompact"), log)

    @pytest.mark.shared
    def test_claude_code_small(self, snap_compare: object) -> None:
        """The same session at 80×24 (redacted)."""
        log = shared_path("real-logs", "claude-code", "spotter-4d5611e5-autocompact",
                          "4d5611e5-241a-462a-8d15-5122611a9569.jsonl")
        app = ReadyApp(DashboardOptions(str(log), mode=Mode.OFFLINE, redact=True))
        assert snap_compare(app, terminal_size=SMALL, run_before=wait_ready)  # type: ignore[operator]
        assert_no_log_text(baseline("test_claude_code_small"), log)

    @pytest.mark.shared
    def test_codex_rollout(self, snap_compare: object) -> None:
        """A Codex CLI rollout (redacted)."""
        log = shared_path("real-logs", "codex-rollout",
                          "rollout-2025-09-24T19-22-20-01997e76-d124-7592-9cac-2ec05abbca08.jsonl")
        app = ReadyApp(DashboardOptions(str(log), mode=Mode.OFFLINE, redact=True))
        assert snap_compare(app, terminal_size=WIDE, run_before=wait_ready)  # type: ignore[operator]
        assert_no_log_text(baseline("test_codex_rollout"), log)


def baseline(test: str) -> Path:
    return Path(__file__).parent / "__snapshots__" / "test_snapshots" / f"TestRealData.{test}.svg"


def svg_text(path: Path) -> str:
    """The characters an SVG screenshot shows, row by row."""
    import html
    import re

    rows: dict[str, list[str]] = {}
    for y, content in re.findall(r'<text class="terminal-[^"]*" x="[^"]*" y="([^"]*)"[^>]*>([^<]*)</text>',
                                 path.read_text(encoding="utf-8")):
        rows.setdefault(y, []).append(html.unescape(content).replace("\xa0", " "))
    return "\n".join("".join(parts) for parts in rows.values())


def assert_no_log_text(svg: Path, log: Path) -> None:
    """No message text and no sub-agent label of ``log`` shows in the screenshot (ids and tool
    names are not content and may show)."""
    from ctxscope.core.reader import open_log

    shown = " ".join(svg_text(svg).split())
    session = open_log(log)
    probes: set[str] = set()
    for scope in session.scopes.values():
        label = " ".join(scope.header.label.split())
        if len(label) >= 12:  # a short label ("compaction") is the adapter's word, not log text
            probes.add(label[:20])
        for message in scope.messages:
            words = " ".join(message.text.split())
            if len(words) >= 12:
                probes.add(words[:16])
    assert probes, "the log should have text to look for"
    leaked = sorted(p for p in probes if p in shown)
    assert not leaked, f"log text in {svg.name}: {leaked[:5]}"
