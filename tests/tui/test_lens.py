"""The two lenses in the dashboard: recorded first, ``l`` switches, ``--lens`` chooses on open.

Runs the real tailer and core on a small Claude Code transcript written here (no ../shared data).
"""

from __future__ import annotations

import json
from pathlib import Path

from ctxscope.core.pricing import format_dollars
from ctxscope.tui.app import DashboardOptions
from ctxscope.tui.messages import Mode
from ctxscope.tui.widgets.header import StatusHeader
from ctxscope.tui.widgets.meter import ContextMeter

from .conftest import ReadyApp, until, wait_ready

REPORTED = [20_503 + 900 * k for k in range(8)]


def write_transcript(path: Path) -> None:
    """Eight calls of a Claude Code session, each with usage (prompt = ``REPORTED[k]``)."""
    lines: list[dict[str, object]] = []
    parent: str | None = None
    for k in range(8):
        lines.append({
            "type": "user", "uuid": f"u{k}", "parentUuid": parent, "sessionId": "s1", "isSidechain": False,
            "message": {"role": "user", "content": f"Step {k}: read file {k}. " + "x" * 2_000},
        })
        lines.append({
            "type": "assistant", "uuid": f"a{k}", "parentUuid": f"u{k}", "sessionId": "s1",
            "isSidechain": False, "requestId": f"req_{k}",
            "message": {
                "model": "claude-opus-4-6", "id": f"msg_{k}", "type": "message", "role": "assistant",
                "content": [{"type": "text", "text": "done " * 50}],
                "usage": {"input_tokens": 3, "cache_creation_input_tokens": 500,
                          "cache_read_input_tokens": REPORTED[k] - 503, "output_tokens": 5},
            },
        })
        parent = f"a{k}"
    path.write_text("\n".join(json.dumps(line) for line in lines) + "\n")


def shown_lens(app: ReadyApp) -> str:
    snapshot = app.dashboard.snapshot
    return snapshot.lens if snapshot is not None else ""


def screen_text(app: ReadyApp) -> tuple[str, str]:
    header = app.query_one(StatusHeader).render()
    meter = app.query_one(ContextMeter).render()
    return str(header), str(meter)


async def test_recorded_lens_first_and_the_key_switches(tmp_path: Path) -> None:
    log = tmp_path / "s1.jsonl"
    write_transcript(log)
    app = ReadyApp(DashboardOptions(str(log), mode=Mode.OFFLINE))
    async with app.run_test(size=(160, 48)) as pilot:
        await wait_ready(pilot)
        header, meter = screen_text(app)
        assert "recorded" in header and "estimator claude" in header
        # The meter shows the reported prompt of the selected (last) call.
        assert f"context {REPORTED[-1]:,} reported" in meter
        # Its cost at claude-opus-4-6's list prices, and the scope's (computed here by hand).
        last = (3 * 5.0 + 500 * 6.25 + (REPORTED[-1] - 503) * 0.50 + 5 * 25.0) / 1e6
        total = sum((3 * 5.0 + 500 * 6.25 + (r - 503) * 0.50 + 5 * 25.0) / 1e6 for r in REPORTED)
        assert f"cost (estimate) ≈{format_dollars(last)}" in meter
        assert f"scope total ≈{format_dollars(total)}" in meter
        assert app.dashboard.snapshot is not None and app.dashboard.snapshot.lens == "recorded"

        await until(pilot, lambda: detail_shown(app))

        await pilot.press("l")
        await until(pilot, lambda: shown_lens(app) == "pipeline")
        header, meter = screen_text(app)
        assert "pipeline what-if" in header
        assert "what-if" in meter and f"{REPORTED[-1]:,}" in meter  # the agent's own figure, labelled
        # The same request's detail is asked for again, in this lens (it was asked for in the other).
        await until(pilot, lambda: detail_shown(app))

        await pilot.press("l")
        await until(pilot, lambda: shown_lens(app) == "recorded")
        assert "recorded" in screen_text(app)[0] and "what-if" not in screen_text(app)[0]
        await until(pilot, lambda: detail_shown(app))


def detail_shown(app: ReadyApp) -> bool:
    """The messages pane shows the selected request's detail, computed in the lens shown."""
    dashboard = app.dashboard
    return dashboard.detail is not None and dashboard.detail.record == dashboard.record


async def test_lens_flag_opens_the_pipeline_lens(tmp_path: Path) -> None:
    log = tmp_path / "s1.jsonl"
    write_transcript(log)
    app = ReadyApp(DashboardOptions(str(log), mode=Mode.OFFLINE, lens="pipeline"))
    async with app.run_test(size=(160, 48)) as pilot:
        await wait_ready(pilot)
        assert app.dashboard.snapshot is not None and app.dashboard.snapshot.lens == "pipeline"
        assert "pipeline what-if" in screen_text(app)[0]


async def test_meter_says_when_the_agents_window_and_trigger_are_not_known(tmp_path: Path) -> None:
    """A SpecStory export names no model and comes from an agent with no known trigger: the meter
    marks the window as the default and forecasts no compaction (never "now (over the trigger)")."""
    log = tmp_path / "chat.md"
    turns = "".join(
        f"_**User**_\n\nquestion {k}: {'word ' * 4_000}\n\n---\n\n_**Assistant**_\n\nanswer {k}\n\n---\n\n"
        for k in range(60)
    )
    log.write_text("<!-- Generated by SpecStory -->\n\n# A chat (2025-05-01 15:32:25)\n\n" + turns)
    app = ReadyApp(DashboardOptions(str(log), mode=Mode.OFFLINE))
    async with app.run_test(size=(160, 48)) as pilot:
        await wait_ready(pilot)
        meter = screen_text(app)[1]
        assert "default window 200k" in meter
        assert "no trigger known for this agent" in meter and "over the trigger" not in meter
