"""At 80 columns: the scope picker does not wrap, the kind column keeps tool names, the header keeps
the model, and the budget line keeps its label when the limit comes close."""

from __future__ import annotations

import dataclasses

from ctxscope.core.snapshot import Thresholds
from ctxscope.tui.messages import Mode, TailStatus
from ctxscope.tui.widgets.header import header_text
from ctxscope.tui.widgets.messages_view import COMPACT, WIDE, fit_kind
from ctxscope.tui.widgets.timeline import TimelinePlot
from rich.cells import cell_len
from textual.widgets import OptionList

from . import fakes
from .conftest import MockApp, detail_shown


async def test_scope_picker_rows_fit_80_columns() -> None:
    snap = fakes.session(
        fakes.scope(30, summary_every=10),
        fakes.scope(3, scope_id="agent-a", parent="main", label="review slice 1 of the standard library"),
    )
    app = MockApp(snap)
    async with app.run_test(size=(80, 24)) as pilot:
        await detail_shown(pilot)
        await pilot.press("S")
        await pilot.pause()
        options = app.screen.query_one(OptionList)
        width = options.scrollable_content_region.width
        for index in range(options.option_count):
            prompt = options.get_option_at_index(index).prompt
            assert cell_len(getattr(prompt, "plain", str(prompt))) <= width - 2
        assert "summaries" in options.get_option_at_index(0).prompt.plain  # type: ignore[union-attr]


def test_kind_column_keeps_tool_names() -> None:
    for width in (COMPACT.kind - 1, WIDE.kind - 1):
        assert fit_kind("text, reasoning, call Read", width) == "call Read"
        assert fit_kind("result Read", width) == "result Read"
        assert fit_kind("reasoning, text, call shell", width) == "call shell"
        assert len(fit_kind("text, call Read, call Bash, call Grep", width)) <= width
    assert fit_kind("text", COMPACT.kind - 1) == "text"


def test_header_keeps_the_model_at_80_columns() -> None:
    snap = fakes.session(fakes.scope(3), fakes.scope(3, scope_id="s", parent="main", label="review slice 1"))
    status = TailStatus(Mode.OFFLINE, 10, 10, True, "/logs/session.jsonl")
    scope = snap.scopes["s"]
    text = header_text(snap, scope, status, paused=False, follow=True, width=80)
    assert "model claude-opus-4-6" in text.plain[:80]


async def test_budget_line_keeps_its_label_when_the_limit_comes_close() -> None:
    scope = fakes.scope(20)
    close = Thresholds(budget=400_000, trigger=400_000, target=300_000, limit=430_000)
    scope = dataclasses.replace(scope, thresholds=close)
    app = MockApp(fakes.session(scope))
    async with app.run_test(size=(80, 24)) as pilot:
        await detail_shown(pilot)
        plot = app.query_one(TimelinePlot)
        await pilot.pause()
        rendered = "\n".join(plot.render_line(y).text for y in range(plot.size.height))
        assert "budget = trigger 400k" in rendered and "limit 430k" in rendered
