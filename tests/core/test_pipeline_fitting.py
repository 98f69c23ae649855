"""Turn fitting (keep user turns; keep tool rounds inside one long turn), the legacy strategy, and
the hard-limit guard with its explicit refusal."""

from __future__ import annotations

from ctxscope.core.model import BlockKind
from ctxscope.core.pipeline import REFUSAL_MESSAGE, TRIM_NOTE, ContextManager, PipelineConfig
from ctxscope.core.pipeline.engine import PipelineRun
from ctxscope.core.pipeline.guard import run_guard
from ctxscope.core.snapshot import Fate, Stage

from .pipeline_support import History, measured, pairs_ok, text_of

SPEC_REFUSAL = (
    "This conversation has grown too long for the model to read in one go. Start a new chat for the "
    "next step — everything built so far is kept."
)


def test_refusal_message_is_the_specs_verbatim() -> None:
    assert REFUSAL_MESSAGE == SPEC_REFUSAL


def turns(count: int, chars: int = 3_000) -> History:
    history = History()
    history.user("You help me plan. Keep answers short.")
    for k in range(count):
        history.user(f"Question {k}: " + text_of("ascii", chars, seed=k))
        history.round(text_of("code", 400, seed=k), tool="Grep")
        history.say(f"Answer {k}.")
    return history


def test_keep_user_turns_first_message_note_and_newest_complete_turns() -> None:
    history = turns(30)
    config = PipelineConfig(
        hard_limit=40_000, budget=10_000, summarise=False, excluded_tools=frozenset({"Grep"})
    )
    prepared = ContextManager(config).prepare(history.messages)
    assert [run.stage for run in prepared.stages] == [Stage.TRIM_TURNS]
    sent = prepared.messages
    assert sent[0].index == 0
    assert sent[1].text == TRIM_NOTE and sent[1].meta
    # The tail starts at a user turn and runs to the newest message.
    assert sent[2].role == "user" and sent[2].is_user_turn_start
    assert sent[-1].index == len(history.messages) - 1
    assert pairs_ok(sent)
    assert prepared.sent_tokens <= 10_000
    dropped = [i for i, fate in enumerate(prepared.fates) if fate is Fate.DROPPED]
    assert dropped == list(range(1, sent[2].index))


def test_keep_tool_rounds_inside_one_long_turn() -> None:
    history = History()
    history.user("Read every module.")  # a sub-agent: its brief is its only user message
    for k in range(40):
        history.round(text_of("code", 2_000, seed=k))
    config = PipelineConfig(
        hard_limit=40_000, budget=10_000, summarise=False, excluded_tools=frozenset({"Read"})
    )
    prepared = ContextManager(config).prepare(history.messages)
    assert [run.stage for run in prepared.stages] == [Stage.TRIM_TURNS]
    sent = prepared.messages
    assert sent[0].index == 0 and sent[1].text == TRIM_NOTE
    assert sent[2].role == "assistant" and sent[2].tool_calls  # a round starts with its call
    assert pairs_ok(sent)
    assert prepared.sent_tokens <= 10_000


def test_legacy_trims_only_at_user_messages() -> None:
    history = turns(30)
    legacy = ContextManager(PipelineConfig(strategy="legacy", hard_limit=40_000, budget=10_000))
    prepared = legacy.prepare(history.messages)
    assert [run.stage for run in prepared.stages] == [Stage.TRIM_TURNS]
    assert prepared.messages[1].text == TRIM_NOTE
    assert prepared.messages[2].is_user_turn_start
    assert prepared.sent_tokens <= 10_000


def test_legacy_cannot_trim_a_sub_agent_and_goes_over_the_limit() -> None:
    history = History()
    history.user("Read every module.")
    manager = ContextManager(PipelineConfig(strategy="legacy", hard_limit=20_000, budget=10_000))
    records = []
    for k in range(30):
        history.round(text_of("code", 4_000, seed=k))
        records.append(manager.prepare(history.messages).record)
    assert all(not r.stages for r in records)
    assert records[-1].sent_tokens == records[-1].stored_tokens > 20_000
    assert records[-1].over_limit and not records[-1].refused
    # The pipeline, on the same history, never does.
    pipeline = ContextManager(PipelineConfig(hard_limit=20_000, budget=10_000))
    assert not pipeline.prepare(history.messages).record.over_limit


def test_guard_trims_the_oldest_keeping_the_minimum() -> None:
    history = History()
    history.user("Go.")
    for k in range(20):
        history.round(text_of("code", 4_000, seed=k))
    run = PipelineRun(PipelineConfig(hard_limit=8_000, budget=8_000, min_recent_turns=2))
    run.state.ingest(history.messages, len(history.messages))
    assert run.state.size() > 8_000
    guarded, refused = run_guard(run.state, allowed=8_000, min_units=2)
    assert guarded is not None and guarded.stage is Stage.GUARD and not refused
    assert guarded.tokens_after <= 8_000 < guarded.tokens_before
    assert run.state.start <= len(history.messages) - 4  # the newest two rounds are kept


def test_guard_refuses_when_even_the_minimum_does_not_fit() -> None:
    history = History()
    history.user("Read the big file.")
    history.round(text_of("code", 200_000))
    manager = ContextManager(PipelineConfig(hard_limit=10_000, budget=8_000))
    prepared = manager.prepare(history.messages)
    assert prepared.refused
    assert prepared.refusal == SPEC_REFUSAL
    assert prepared.messages == ()
    assert prepared.record.refused and not prepared.record.over_limit
    assert prepared.stages[-1].stage is Stage.GUARD


def test_guard_fits_when_calibration_says_the_estimate_is_low() -> None:
    history = History()
    history.user("Go.")
    manager = ContextManager(PipelineConfig(hard_limit=30_000, budget=30_000, min_recent_turns=1))
    last = None
    for k in range(30):
        history.round(text_of("code", 3_000, seed=k))
        prepared = manager.prepare(history.messages, None if last is None else int(last * 1.5))
        last = prepared.sent_tokens
        assert measured(prepared.messages) * max(1.0, prepared.record.calibration_factor) <= 30_000
    assert manager.calibrator.factor > 1.2
    results = [b for m in prepared.messages for b in m.blocks if b.kind is BlockKind.TOOL_RESULT]
    assert results
