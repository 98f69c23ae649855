"""The agent-facing ContextManager: thresholds, hysteresis, calibration, cached prefix, stored
history untouched, the safety-net instruction."""

from __future__ import annotations

import pytest
from ctxscope.core.model import BlockKind, ScopeHeader, Usage
from ctxscope.core.pipeline import SAFETY_NET_INSTRUCTION, ContextManager, PipelineConfig
from ctxscope.core.snapshot import Stage, Thresholds

from .pipeline_support import History, frozen, measured, text_of


def reads(count: int, chars: int = 8_000) -> History:
    history = History()
    history.user("Read the files.")
    for k in range(count):
        history.round(text_of("code", chars, seed=k))
    return history


def test_safety_net_instruction_says_what_the_spec_asks() -> None:
    text = SAFETY_NET_INSTRUCTION.lower()
    assert "oldest tool results are cleared" in text
    assert "newest" in text and "kept" in text
    assert "do not stop" in text and "to save room" in text
    assert "re-read the file" in text


def test_thresholds_resolve_defaults_header_and_explicit_values() -> None:
    assert PipelineConfig().thresholds() == Thresholds(
        budget=160_000, trigger=160_000, target=144_000, limit=200_000
    )
    header = ScopeHeader("s", context_limit=1_000_000, working_budget=400_000)
    assert PipelineConfig().thresholds(header) == Thresholds(400_000, 400_000, 360_000, 1_000_000)
    explicit = PipelineConfig(budget=100_000, hard_limit=300_000)
    assert explicit.thresholds(header) == Thresholds(100_000, 100_000, 90_000, 300_000)
    # A higher tier's limit overrides the model's base limit.
    assert PipelineConfig(hard_limit=200_000, tier_limit=1_000_000).thresholds(header).limit == 1_000_000
    absolute = PipelineConfig(budget=100_000, trigger_tokens=80_000, target_tokens=50_000)
    assert absolute.thresholds() == Thresholds(100_000, 80_000, 50_000, 200_000)
    # A budget above the limit is capped by it; a target above the trigger by the trigger.
    assert PipelineConfig(budget=500_000, hard_limit=100_000).thresholds().budget == 100_000
    assert PipelineConfig(trigger_fraction=0.5, target_fraction=0.9).thresholds().target == 80_000


@pytest.mark.parametrize(
    "bad",
    [
        {"strategy": "fast"},
        {"clear_batch": 0},
        {"budget": 0},
        {"trigger_fraction": 1.5},
        {"keep_fraction": 0},
    ],
)
def test_config_rejects_bad_values(bad: dict[str, object]) -> None:
    with pytest.raises(ValueError):
        PipelineConfig(**bad)  # type: ignore[arg-type]


def test_stored_history_is_never_changed_and_sent_copies_are_measured_exactly() -> None:
    history = reads(30)
    before = frozen(history.messages)
    manager = ContextManager(PipelineConfig(hard_limit=60_000, budget=30_000))
    for count in range(1, len(history.messages) + 1, 2):
        prepared = manager.prepare(history.messages[:count])
        assert measured(prepared.messages) == prepared.sent_tokens
    assert frozen(history.messages) == before
    assert all(b.text != "" for m in history.messages for b in m.blocks if b.kind is BlockKind.TOOL_RESULT)


def test_hysteresis_compacts_down_to_the_target_then_rests() -> None:
    history = reads(40, chars=4_000)
    config = PipelineConfig(hard_limit=100_000, budget=30_000, target_fraction=0.6)
    manager = ContextManager(config)
    sizes, ran = [], []
    for count in range(1, len(history.messages) + 1, 2):
        prepared = manager.prepare(history.messages[:count])
        sizes.append(prepared.sent_tokens)
        ran.append(bool(prepared.stages))
        if prepared.stages:
            assert prepared.sent_tokens <= 18_000 + 2_000  # down to about the target, not just under 30k
    # After a compaction, the next few calls need none.
    first = ran.index(True)
    assert not any(ran[first + 1 : first + 3])


def test_calibrated_estimate_drives_the_trigger() -> None:
    history = reads(30, chars=4_000)
    plain = ContextManager(PipelineConfig(hard_limit=200_000, budget=40_000))
    calibrated = ContextManager(PipelineConfig(hard_limit=200_000, budget=40_000))
    first_plain = first_calibrated = None
    last = None
    for count in range(1, len(history.messages) + 1, 2):
        a = plain.prepare(history.messages[:count])
        b = calibrated.prepare(history.messages[:count], Usage(int(last * 1.6)) if last else None)
        last = b.sent_tokens
        if a.stages and first_plain is None:
            first_plain = count
        if b.stages and first_calibrated is None:
            first_calibrated = count
            assert b.record.calibrated_tokens <= 40_000
            assert (
                b.stages[0].tokens_before < 40_000 < b.stages[0].tokens_before * b.record.calibration_factor
            )
    assert first_calibrated is not None and first_plain is not None
    assert first_calibrated < first_plain
    assert calibrated.calibrator.factor == pytest.approx(1.6, rel=0.01)


def test_cached_prefix_counts_the_unchanged_start_of_the_request() -> None:
    history = reads(30, chars=4_000)
    manager = ContextManager(PipelineConfig(hard_limit=100_000, budget=30_000))
    previous = None
    for count in range(1, len(history.messages) + 1, 2):
        prepared = manager.prepare(history.messages[:count])
        if previous is None:
            assert prepared.cached_prefix_tokens == 0
        elif not prepared.stages:
            # Only appended: the whole previous request is a prefix of this one.
            assert prepared.cached_prefix_tokens == previous.sent_tokens
        else:
            assert [run.stage for run in prepared.stages] == [Stage.CLEAR_TOOL_RESULTS]
            # Everything before the first newly cleared result is unchanged.
            first_changed = next(
                i
                for i, (a, b) in enumerate(zip(previous.messages, prepared.messages, strict=False))
                if a.blocks != b.blocks
            )
            assert prepared.cached_prefix_tokens == measured(prepared.messages[:first_changed])
        previous = prepared


def test_a_rewritten_history_starts_afresh() -> None:
    history = reads(10)
    other = reads(3, chars=100)
    manager = ContextManager(PipelineConfig(hard_limit=100_000, budget=30_000))
    manager.prepare(history.messages)
    prepared = manager.prepare(other.messages)
    assert prepared.record.index == 0
    assert prepared.sent_tokens == measured(other.messages)


def test_estimates_come_from_the_messages_own_api() -> None:
    """The pipeline's per-message figures are the messages' own estimates (``Message.tokens`` /
    ``block_tokens``, elided text included); it writes nothing else into stored messages."""
    from ctxscope.core.model import MESSAGE_OVERHEAD_TOKENS
    from ctxscope.core.session import Session

    from .pipeline_support import EST

    history = History(Session("test", "ctxscope", text_cap=300, estimator=EST))
    history.user("Read the files.")
    for k in range(4):
        history.round(text_of("cyrillic", 5_000, seed=k))  # elided to 300 characters
    messages = history.messages
    assert any(b.elided_chars for m in messages for b in m.blocks)
    memos = [dict(m._tokens) for m in messages]
    prepared = ContextManager(PipelineConfig(hard_limit=1_000_000, budget=400_000)).prepare(messages)
    assert prepared.record.stored_tokens == sum(m.tokens(EST) for m in messages)
    for message, memo in zip(messages, memos, strict=True):
        assert MESSAGE_OVERHEAD_TOKENS + sum(message.block_tokens(EST)) == message.tokens(EST)
        assert set(message._tokens) == {EST.name} and memo.items() <= message._tokens.items()
