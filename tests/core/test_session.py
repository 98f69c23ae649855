"""The session model: indexes, derived structure, memoised token estimates, immutability."""

from __future__ import annotations

import dataclasses

import pytest
from ctxscope.core.model import Block, BlockKind, Category, image_tokens, text_block, tool_call, tool_result
from ctxscope.core.session import KEPT_PROBLEMS, Session
from ctxscope.core.tokens import get_estimator


def build() -> Session:
    s = Session()
    s.add_message("system", [text_block("You are helpful.")])
    s.add_message("user", [text_block("Fix the bug.")])
    s.add_request()
    s.add_message("assistant", [tool_call("a", "grep", '{"q": "bug"}'), tool_call("b", "ls", "{}")])
    s.add_message("tool", [tool_result("a", "x.py:1: bug")])
    s.add_message("tool", [tool_result("b", "x.py")])
    s.add_message("user", [text_block("<reminder>")], meta=True)
    s.add_message("user", [text_block("Now add a test.")])
    s.add_request()
    return s


def test_indexes_and_request_counts() -> None:
    scope = build().scopes["main"]
    assert [m.index for m in scope.messages] == list(range(7))
    assert [r.message_count for r in scope.requests] == [2, 7]
    assert [r.index for r in scope.requests] == [0, 1]


def test_derived_structure() -> None:
    scope = build().scopes["main"]
    assert list(scope.user_turn_starts) == [1, 6]  # the meta reminder does not start a turn
    assert scope.user_turns() == [range(1, 6), range(6, 7)]
    assert scope.tool_rounds["a"].call_index == 2 and scope.tool_rounds["a"].result_index == 3
    assert scope.tool_rounds["b"].result_index == 4
    assert scope.first_message is scope.messages[0]


def test_amend_last_message_keeps_structure() -> None:
    s = Session()
    s.add_message("user", [text_block("go")])
    s.add_request()
    s.add_message("assistant", [text_block("thinking")])
    amended = s.amend_last_message("main", [tool_call("c", "run", "{}")])
    scope = s.scopes["main"]
    assert scope.messages[-1] is amended and len(amended.blocks) == 2
    assert scope.tool_rounds["c"].call_index == 1
    s.add_request()
    with pytest.raises(ValueError):
        s.amend_last_message("main", [text_block("late")])


def test_message_tokens_are_memoised_and_records_frozen() -> None:
    message = build().scopes["main"].messages[1]
    est = get_estimator("claude")
    first = message.tokens(est)
    assert message.tokens(est) == first
    assert message._tokens == {"claude": first}
    with pytest.raises(dataclasses.FrozenInstanceError):
        message.role = "assistant"  # type: ignore[misc]


def test_elided_text_scales_the_estimate() -> None:
    est = get_estimator("chars4")
    full = Block(BlockKind.TOOL_RESULT, "abcd" * 1000)
    elided = Block(BlockKind.TOOL_RESULT, "abcd" * 100, elided_chars=3600)
    assert elided.chars == full.chars
    assert elided.tokens(est) == full.tokens(est)


def test_image_tokens() -> None:
    assert image_tokens(1000, 750, 0) == 1000
    assert image_tokens(4000, 4000, 0) == 1600
    assert image_tokens(0, 0, 6400) == 100


def test_categories() -> None:
    scope = build().scopes["main"]
    assert [m.category() for m in scope.messages[:4]] == [
        Category.SYSTEM,
        Category.USER,
        Category.ASSISTANT,
        Category.TOOL_RESULTS,
    ]


def test_problems_keep_first_few_and_count_all() -> None:
    s = Session()
    for line in range(KEPT_PROBLEMS + 5):
        s.problems.add("invalid_json", line + 1, "bad")
    s.problems.add("truncated", 0, "the file was truncated")
    assert s.problems.bad_lines == KEPT_PROBLEMS + 5
    assert len(s.problems.kept) == KEPT_PROBLEMS
    assert [n.kind for n in s.problems.notices] == ["truncated"]


def test_records_made_by_the_fast_init_are_ordinary_frozen_dataclasses() -> None:
    import pickle

    block = Block(BlockKind.TOOL_CALL, '{"q": 1}', "c1", "grep", is_error=True)
    assert type(block) is Block
    assert (block.kind, block.text, block.call_id, block.name, block.is_error) == (
        BlockKind.TOOL_CALL,
        '{"q": 1}',
        "c1",
        "grep",
        True,
    )
    defaults = (block.artifact, block.size_bytes, block.width, block.height, block.elided_chars)
    assert defaults == (None, 0, 0, 0, 0)
    assert block == Block(BlockKind.TOOL_CALL, '{"q": 1}', "c1", "grep", is_error=True)
    assert hash(block) == hash(dataclasses.replace(block))
    assert dataclasses.replace(block, text="{}").text == "{}"
    assert pickle.loads(pickle.dumps(block)) == block
    with pytest.raises(dataclasses.FrozenInstanceError):
        block.text = "changed"  # type: ignore[misc]
    with pytest.raises(TypeError):
        Block()  # type: ignore[call-arg]
    s = build()
    first, second = s.scopes["main"].messages[:2]
    assert first._tokens is not second._tokens  # each message its own memo


def test_a_subclass_of_a_record_is_initialised_too() -> None:
    class Marked(Block):
        __slots__ = ()

    marked = Marked(BlockKind.TEXT, "x", call_id="c")
    assert type(marked) is Marked and (marked.text, marked.call_id) == ("x", "c")
    with pytest.raises(dataclasses.FrozenInstanceError):
        marked.text = "y"  # type: ignore[misc]


ESTIMATE_TEXTS = [
    "".join(f"{n:6d}→    def handle(request):\n" for n in range(1, 400)),  # a Read result
    "│ 983 │ {:ok, {type, _, _, _}} when type in '-_' ->\n" * 50 + "✓ done",
    "レビュー結果を確認しました。" * 40 + " plus some ASCII",
    "emoji \U0001f600 and a lone \ud800 surrogate, \udc00 another, \U00010400 astral",
    "plain ASCII " * 2000,
    "",
]


@pytest.mark.parametrize("text", ESTIMATE_TEXTS, ids=range(len(ESTIMATE_TEXTS)))
def test_estimates_agree_with_the_whole_text_computation(text: str) -> None:
    """The estimator's memo of recent texts gives the figure of the plain computation."""
    from ctxscope.core.tokens import PROFILES, UNIT, ProfileEstimator

    for profile in PROFILES.values():
        estimator = ProfileEstimator(profile)
        data = text.encode("utf-8", "surrogatepass")
        expected = min(len(data), max(1, -(-estimator._units(text, data) // UNIT))) if text else 0
        assert estimator.count(text) == expected
        assert estimator.count(text) == expected  # memoised
        assert estimator.breakdown(text).tokens == expected


# -- agent compactions, rollbacks, call deduplication ---------------------------------------------


def test_compaction_fills_request_index_and_tokens_from_the_calls_around_it() -> None:
    from ctxscope.core.model import LAST_CALL, NEXT_CALL, ObservedCompaction, Usage

    s = build()
    s.add_request(usage=Usage(120_000))
    added = s.add_compaction(ObservedCompaction("main", len(s.scope().messages)))
    assert (added.request_index, added.tokens_before, added.tokens_before_source) == (3, 120_000, LAST_CALL)
    s.add_message("user", [Block(BlockKind.SUMMARY, "summary")])
    s.add_request()  # no usage: does not measure the compaction
    s.add_request(usage=Usage(30_000))
    (compaction,) = s.scope().compactions
    assert (compaction.tokens_after, compaction.tokens_after_source, compaction.tokens_freed) == (
        30_000,
        NEXT_CALL,
        90_000,
    )
    # A later line of the measuring call with a more complete usage revises the figure.
    s.revise_last_request("main", Usage(31_000))
    assert s.scope().compactions[0].tokens_after == 31_000


def test_reported_figures_are_kept_and_marked_as_the_agents_own() -> None:
    from ctxscope.core.model import CLEAR_TOOL_RESULTS, REPORTED, ObservedCompaction, Usage

    s = build()
    s.add_compaction(
        ObservedCompaction("main", 7, stage=CLEAR_TOOL_RESULTS, tokens_before=50_000, tokens_after=40_000)
    )
    s.add_request(usage=Usage(41_000))
    (compaction,) = s.scope().compactions
    assert (compaction.tokens_before_source, compaction.tokens_after_source) == (REPORTED, REPORTED)
    assert compaction.tokens_after == 40_000  # the agent's own figure is not overwritten
    assert s.scope().context_start(s.scope().requests[-1].index) == 0  # a clearing keeps history


def test_kept_messages_join_the_open_compaction_only() -> None:
    from ctxscope.core.model import ObservedCompaction, Usage

    s = build()
    s.add_compaction(ObservedCompaction("main", 7))
    s.add_message("user", [Block(BlockKind.SUMMARY, "summary")])
    kept = s.add_message("user", [text_block("re-attached file")], meta=True)
    s.note_kept("main", kept.index)
    s.add_request(usage=Usage(10))
    later = s.add_message("user", [text_block("after the call")], meta=True)
    s.note_kept("main", later.index)
    assert s.scope().compactions[0].kept_indices == (kept.index,)


def test_rollback_takes_the_last_turns_out_of_later_requests() -> None:
    s = build()
    s.add_message("assistant", [text_block("done")])
    s.add_message("user", [text_block("third turn")])
    s.add_message("assistant", [text_block("answer")])
    before = s.add_request()
    rollback = s.add_rollback("main", 1)
    assert rollback.dropped == range(8, 10) and rollback.request_index == 3
    s.add_message("user", [text_block("another try")])
    after = s.add_request()
    scope = s.scope()
    assert [m.index for m in scope.context_messages(before)] == list(range(10))
    assert [m.index for m in scope.context_messages(after)] == [*range(8), 10]
    # Rolling back again counts only the turns still live.
    assert s.add_rollback("main", 1).dropped_start == 10


def test_each_call_id_counts_once_across_scopes() -> None:
    s = Session()
    assert s.claim_call("msg_1") and not s.claim_call("msg_1")
    assert s.claim_call("") and s.claim_call("")  # nothing to deduplicate by
