"""The memory-policy lab screen: every policy runs over the loaded session, off the UI thread."""

from __future__ import annotations

from pathlib import Path

from ctxscope.core.logformat import SessionLogWriter
from ctxscope.tui.screens.policies import PolicyLabRequest, PolicyLabScreen
from textual.app import App
from textual.widgets import DataTable, Input, Static

FACTS = {
    18: "For offsites, the lunch preference is vegetarian.",
    142: "Update: the offsite lunch is now vegan, not just vegetarian.",
    260: "Project Atlas launch moves from Wednesday to Friday.",
}


def write_planning_log(path: Path, turns: int = 320) -> None:
    with SessionLogWriter.create(path) as log:
        log.session(model="claude-opus-4-6", context_limit=200_000, budget=160_000)
        for turn in range(1, turns):
            if turn in FACTS:
                log.message("user", FACTS[turn])
            elif turn % 2:
                log.message("user", f"Routine check-in number {turn}: anything new on the tickets?")
            else:
                log.message("assistant", f"Nothing new on ticket {turn}; all quiet. [bold red]x[/]")
        log.message("user", "Can you plan the Atlas launch lunch on Friday?")


class LabApp(App[None]):
    def __init__(self, request: PolicyLabRequest) -> None:
        super().__init__()
        self.request = request

    def on_mount(self) -> None:
        self.push_screen(PolicyLabScreen(self.request))


async def test_policies_run_over_the_session(tmp_path: Path) -> None:
    log = tmp_path / "planning.jsonl"
    write_planning_log(log)
    app = LabApp(PolicyLabRequest(str(log), None, None, budget_messages=20))
    async with app.run_test(size=(140, 44)) as pilot:
        await pilot.app.workers.wait_for_complete()
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, PolicyLabScreen)
        table = screen.query_one("#policy-table", DataTable)
        names = [str(key.value) for key in table.rows]
        assert names[0] == "focus"  # the lab leads with the recommended policy
        # what retrieval returned, not what was sent (focus leaves superseded hits out)
        assert "retrieval hits" in [str(column.label) for column in table.columns.values()]
        assert "importance-seed" in names and "sliding-window" in names
        ours = screen._selections["focus"]
        assert 260 in ours.kept and 142 in ours.kept  # the current launch day and the vegan update
        window = screen._selections["sliding-window"]
        assert 18 not in window.kept and 142 not in window.kept
        kept = screen.query_one("#policy-kept", Static).render()
        assert str(kept).startswith("focus keeps ")
        # log text is shown literally, never as markup
        table.move_cursor(row=names.index("sliding-window"))
        await pilot.pause()
        kept_text = str(screen.query_one("#policy-kept", Static).render())
        assert kept_text.startswith("sliding-window keeps 20 of 320")
        assert "[bold red]x[/]" in kept_text
        # a policy's notes in full under its name (the table's notes column is cut on narrow screens)
        adaptive = screen._selections["adaptive"]
        assert adaptive.notes
        table.move_cursor(row=names.index("adaptive"))
        await pilot.pause()
        kept_lines = str(screen.query_one("#policy-kept", Static).render()).splitlines()
        assert kept_lines[1] == "notes  " + "; ".join(adaptive.notes)


async def test_rerun_with_a_typed_query_and_a_bad_log(tmp_path: Path) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text("not a log\n")
    app = LabApp(PolicyLabRequest(str(bad), None, None, budget_messages=20))
    async with app.run_test(size=(140, 44)) as pilot:
        await pilot.app.workers.wait_for_complete()
        await pilot.pause()
        status = app.screen.query_one("#policy-status", Static).render()
        assert "UnknownFormatError" in str(status)


async def test_the_lab_budgets_in_tokens(tmp_path: Path) -> None:
    log = tmp_path / "planning.jsonl"
    write_planning_log(log)
    app = LabApp(PolicyLabRequest(str(log), None, None, budget_messages=600))
    async with app.run_test(size=(140, 44)) as pilot:
        await pilot.app.workers.wait_for_complete()
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, PolicyLabScreen)
        status = str(screen.query_one("#policy-status", Static).render())
        assert "budget 16,000 tokens (estimator claude), 600 messages" in status
        budget = screen.query_one("#policy-budget", Input)
        budget.value = "300"
        screen.action_rerun()
        await pilot.app.workers.wait_for_complete()
        await pilot.pause()
        assert screen.request.budget_tokens == 300
        assert all(s.tokens <= 300 for n, s in screen._selections.items() if n != "full-history")
