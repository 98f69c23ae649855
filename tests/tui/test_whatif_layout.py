"""The demo's side-by-side what-if view (``w``) at the widths users run it at."""

from __future__ import annotations

import re

from ctxscope.core.analysis import summarise_session
from ctxscope.tui.screens.whatif import WhatIfScreen
from textual.widgets import Static

from . import fakes
from .conftest import MockApp, detail_shown, until


async def test_the_scope_table_fits_its_column_without_cutting_a_header_or_a_name() -> None:
    """eight-subagents at 120 columns, ``w``: the per-scope table's headers were cut ("cal…
    max se…  ov…  refus…  cle…  cach…") and so were the scope names ("review slice…", eight alike).
    It now abbreviates its headers, then leaves out its least important columns, to fit."""
    scopes = [fakes.scope(3)] + [
        fakes.scope(12, scope_id=f"agent-{n}", parent="main", label=f"review slice {n}") for n in range(1, 9)
    ]
    snapshot = fakes.session(*scopes)
    summary = summarise_session(snapshot)
    full = ("scope", "calls", "max sent", "over", "refused", "clears", "cached")
    for width, headers in ((120, ("scope", "calls", "max", "over", "ref", "clr", "cache")), (200, full)):
        app = MockApp(snapshot)
        async with app.run_test(size=(width, 48)) as pilot:
            await detail_shown(pilot)
            app.push_screen(WhatIfScreen(("pipeline", "legacy"), [snapshot] * 2, [summary] * 2, "agent-1"))
            await until(pilot, lambda a=app: isinstance(a.screen, WhatIfScreen))  # type: ignore[misc]
            await pilot.pause()
            table = app.screen.query_one("#whatif-scopes-0", Static)
            lines = [table.render_line(y).text.rstrip() for y in range(table.size.height)]
            assert tuple(re.split(r"\s{2,}", lines[0].strip())) == headers, lines
            assert "…" not in "".join(lines), lines
            assert all(f"review slice {n}" in "".join(lines) for n in range(1, 9)), lines
