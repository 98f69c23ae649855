"""Stage 2: clearing old tool results — batches of the oldest, small ones left alone, the newest
that fit a quarter of the budget kept intact (always at least one), pairs intact, silent."""

from __future__ import annotations

import itertools

from ctxscope.core.model import BlockKind
from ctxscope.core.pipeline import CLEARED_NOTE, ContextManager, PipelineConfig
from ctxscope.core.snapshot import Fate, Stage

from .pipeline_support import EST, History, pairs_ok, text_of

BUDGET = 40_000


def reads(count: int, chars: int = 12_000, **config: object) -> tuple[History, ContextManager, list]:
    """A sub-agent: one brief, then ``count`` file reads, a request after each."""
    history = History()
    history.user("Read every file and keep notes.")
    manager = ContextManager(PipelineConfig(hard_limit=100_000, budget=BUDGET, **config))  # type: ignore[arg-type]
    prepared = [manager.prepare(history.messages)]
    for k in range(count):
        history.round(text_of("code", chars, seed=k), path=f"pkg/mod_{k}.py")
        prepared.append(manager.prepare(history.messages))
    return history, manager, prepared


def cleared_calls(prepared) -> list[str]:  # type: ignore[no-untyped-def]
    return [
        b.call_id
        for m in prepared.messages
        for b in m.blocks
        if b.kind is BlockKind.TOOL_RESULT and b.text == CLEARED_NOTE
    ]


def test_the_note_is_the_specs() -> None:
    assert "cleared to keep the conversation within the model's context" in CLEARED_NOTE
    assert "Run the tool again" in CLEARED_NOTE


def test_clears_the_four_oldest_at_once_and_keeps_pairs() -> None:
    history, _, prepared = reads(20)
    first = next(p for p in prepared if p.stages)
    assert [run.stage for run in first.stages] == [Stage.CLEAR_TOOL_RESULTS]
    assert first.stages[0].items == 4
    assert first.record.sent_tokens <= first.record.calibrated_tokens <= BUDGET
    assert cleared_calls(first) == ["main-c1", "main-c2", "main-c3", "main-c4"]
    # The calls stay, paired with their (cleared) results; the stored history still has the content.
    assert pairs_ok(first.messages)
    stored = [b.text for m in history.messages for b in m.blocks if b.kind is BlockKind.TOOL_RESULT]
    assert CLEARED_NOTE not in stored
    # Silent: no summary marker.
    assert all(p.summary is None for p in prepared)
    # Every later clearing is also a whole batch; cleared results stay cleared.
    runs = [run for p in prepared for run in p.stages]
    assert runs and all(run.items % 4 == 0 for run in runs)
    for earlier, later in itertools.pairwise(prepared):
        assert set(cleared_calls(earlier)) <= set(cleared_calls(later))
    assert all(p.sent_tokens <= BUDGET for p in prepared)


def test_batch_size_is_configurable() -> None:
    _, _, one = reads(20, clear_batch=1, target_fraction=1.0)
    _, _, four = reads(20, clear_batch=4, target_fraction=1.0)
    runs_one = [run for p in one for run in p.stages]
    runs_four = [run for p in four for run in p.stages]
    assert runs_one[0].items < 4
    assert all(run.items % 4 == 0 for run in runs_four)
    # One at a time clears at more calls (so the request's prefix changes more often).
    assert len(runs_one) > len(runs_four)


def test_results_not_much_larger_than_the_note_are_left_alone() -> None:
    history = History()
    history.user("Run the checks.")
    for k in range(30):
        history.round("ok", tool="Bash")
        history.round(text_of("ascii", 12_000, seed=k), path=f"f{k}.txt")
    prepared = ContextManager(PipelineConfig(hard_limit=100_000, budget=BUDGET)).prepare(history.messages)
    cleared = set(cleared_calls(prepared))
    assert cleared
    small = {
        b.call_id
        for m in history.messages
        for b in m.blocks
        if b.kind is BlockKind.TOOL_RESULT and b.text == "ok"
    }
    assert not cleared & small


def test_newest_results_within_a_quarter_of_the_budget_stay_intact() -> None:
    history, manager, prepared = reads(30, chars=6_000)
    quarter = manager.thresholds.budget * 0.25
    stored = [b for m in history.messages for b in m.blocks if b.kind is BlockKind.TOOL_RESULT]
    protected: list[str] = []
    total = 0
    for block in reversed(stored):
        tokens = block.tokens(EST)
        if protected and total + tokens > quarter:
            break
        protected.append(block.call_id)
        total += tokens
    assert len(protected) > 1
    cleared = set(cleared_calls(prepared[-1]))
    assert cleared, "the rule only matters when something was cleared"
    assert not cleared & set(protected)


def test_always_keeps_the_newest_result_even_when_larger_than_the_quarter() -> None:
    _, _, prepared = reads(6, chars=60_000)
    last = prepared[-1]
    results = [b for m in last.messages for b in m.blocks if b.kind is BlockKind.TOOL_RESULT]
    assert results[-1].text != CLEARED_NOTE
    assert all(block.text == CLEARED_NOTE for block in results[:-1])


def test_excluded_tools_are_never_cleared() -> None:
    history = History()
    history.user("Read and remember.")
    for k in range(12):
        history.round(text_of("code", 12_000, seed=k), tool="Memory" if k % 2 else "Read")
    config = PipelineConfig(hard_limit=100_000, budget=BUDGET, excluded_tools=frozenset({"Memory"}))
    prepared = ContextManager(config).prepare(history.messages)
    cleared = set(cleared_calls(prepared))
    assert cleared
    memory = {
        b.call_id
        for m in history.messages
        for b in m.blocks
        if b.kind is BlockKind.TOOL_CALL and b.name == "Memory"
    }
    assert not cleared & memory


def test_no_clearing_under_the_trigger() -> None:
    _, _, prepared = reads(3)
    assert all(not p.stages for p in prepared)
    assert all(fate is Fate.KEPT for fate in prepared[-1].fates)
