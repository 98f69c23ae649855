"""Properties of the pipeline over random histories (Hypothesis).

Histories have several scopes, one or many user turns, long tool runs (single and parallel calls),
DOM snapshots and screenshots, and ASCII, code, Cyrillic and CJK text. For every request of every
scope: it fits the hard limit (measured on the materialised messages) or is refused; tool calls and
results are paired; the first message is there; the newest tool result is intact; later stages ran
only when the earlier ones were not enough; the result is deterministic; the stored history is
never changed; and the replay agrees with the agent-side context manager. A history edited
anywhere the manager has seen gives what a new manager gives on it.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from ctxscope.core.model import ArtifactKind, Block, BlockKind, Message, Usage, text_block
from ctxscope.core.pipeline import REFUSAL_MESSAGE, ContextManager, PipelineConfig, PreparedRequest
from ctxscope.core.replay import SessionReplay
from ctxscope.core.session import Session
from ctxscope.core.snapshot import Stage
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from .pipeline_support import History, frozen, measured, pairs_ok, pydoc_html, text_of

SCRIPTS = ("ascii", "cyrillic", "cjk", "code")
HTML = pydoc_html("json")

step = st.one_of(
    st.tuples(st.just("round"), st.sampled_from(SCRIPTS), st.integers(20, 30_000)),
    st.tuples(st.just("parallel"), st.sampled_from(SCRIPTS), st.integers(20, 6_000)),
    st.tuples(st.just("user"), st.sampled_from(SCRIPTS), st.integers(5, 3_000)),
    st.tuples(st.just("say"), st.sampled_from(SCRIPTS), st.integers(5, 2_000)),
    st.tuples(st.just("dom"), st.just("ascii"), st.integers(0, 0)),
    st.tuples(st.just("shot"), st.just("ascii"), st.integers(200, 3000)),
)


@dataclass(frozen=True)
class Case:
    scopes: list[list[tuple[str, str, int]]]
    limit: int
    budget_fraction: float
    batch: int
    min_recent: int
    summarise: bool
    usage_ratio: float | None


@st.composite
def cases(draw: st.DrawFn) -> Case:
    scopes = draw(st.lists(st.lists(step, min_size=1, max_size=14), min_size=1, max_size=3))
    return Case(
        scopes=scopes,
        limit=draw(st.integers(3_000, 40_000)),
        budget_fraction=draw(st.sampled_from((0.4, 0.7, 1.0))),
        batch=draw(st.integers(1, 5)),
        min_recent=draw(st.integers(1, 3)),
        summarise=draw(st.booleans()),
        usage_ratio=draw(st.sampled_from((None, 0.8, 1.0, 1.4))),
    )


def build(case: Case) -> Session:
    session = Session("hypothesis", "ctxscope")
    for n, steps in enumerate(case.scopes):
        history = History(session, scope=f"s{n}")
        if n == 0:
            history.system("You are a helpful agent.")
        history.user(text_of(steps[0][1], 200, seed=n))
        history.request()
        for k, (kind, script, size) in enumerate(steps):
            add_step(history, kind, script, size, n * 100 + k)
            history.request()
    return session


def add_step(history: History, kind: str, script: str, size: int, seed: int) -> None:
    """Append one drawn step (a tool round, parallel calls, a user or assistant text, an artifact)."""
    if kind == "round":
        history.round(text_of(script, size, seed))
    elif kind == "parallel":
        history.parallel([text_of(script, size, seed), text_of(script, size // 2 + 1, seed + 1)])
    elif kind == "user":
        history.user(text_of(script, size, seed))
    elif kind == "say":
        history.say(text_of(script, size, seed))
    elif kind == "dom":
        history.artifact(ArtifactKind.DOM_SNAPSHOT, HTML)
    else:
        history.artifact(ArtifactKind.SCREENSHOT, width=size, height=size // 2)


def config_of(case: Case) -> PipelineConfig:
    return PipelineConfig(
        hard_limit=case.limit,
        budget=max(1, int(case.limit * case.budget_fraction)),
        clear_batch=case.batch,
        min_recent_turns=case.min_recent,
        summarise=case.summarise,
    )


def newest_result_text(messages: list[Message]) -> tuple[str, str] | None:
    for message in reversed(messages):
        results = [b for b in message.blocks if b.kind is BlockKind.TOOL_RESULT]
        if results:
            return results[-1].call_id, results[-1].text
    return None


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cases())
def test_pipeline_properties(case: Case) -> None:
    session = build(case)
    config = config_of(case)
    for scope_id, scope in session.scopes.items():
        before = frozen(scope.messages)
        manager = ContextManager(config, scope_id=scope_id)
        twin = ContextManager(config, scope_id=scope_id)
        th = manager.thresholds
        last = None
        records = []
        for request in scope.requests:
            history = scope.messages[: request.message_count]
            usage = Usage(round(last * case.usage_ratio)) if last and case.usage_ratio else None
            prepared = manager.prepare(history, usage)
            again = twin.prepare(history, usage)
            record = prepared.record
            records.append(record)
            for run in record.stages:
                event(run.stage.value)
            if prepared.refused:
                event("refused")
            if record.summary:
                event("summary")
            # Deterministic.
            assert again.record == record
            assert [(m.index, m.role, m.blocks) for m in again.messages] == [
                (m.index, m.role, m.blocks) for m in prepared.messages
            ]
            factor = record.calibration_factor
            if prepared.refused:
                assert prepared.refusal == REFUSAL_MESSAGE
                assert prepared.messages == ()
                assert not record.over_limit
            else:
                # At or under the hard limit, measured on what is sent (raw and calibrated).
                size = measured(prepared.messages)
                assert size <= record.sent_tokens
                assert size * max(1.0, factor) <= th.limit + 1e-6
                assert not record.over_limit
                # Calls and results paired.
                assert pairs_ok(prepared.messages)
                # The first stored message is always sent first.
                assert prepared.messages[0].index == 0
                assert prepared.messages[0].role == history[0].role
                # The newest tool result is intact.
                newest = newest_result_text(list(history))
                if newest is not None:
                    sent = {
                        b.call_id: b.text
                        for m in prepared.messages
                        for b in m.blocks
                        if b.kind is BlockKind.TOOL_RESULT
                    }
                    assert sent.get(newest[0]) == newest[1]
            # Later stages only when the earlier ones were not enough.
            previous_after = None
            for run in record.stages:
                assert run.tokens_before - run.tokens_after == run.tokens_freed
                if run.stage is Stage.ARTIFACTS:
                    continue
                if run.stage is Stage.GUARD:
                    assert run.tokens_before * max(1.0, factor) > th.limit
                else:
                    assert run.tokens_before * factor > th.trigger
                if previous_after is not None:
                    assert run.tokens_before == previous_after
                previous_after = run.tokens_after
            if record.summary is not None:
                marker = record.summary
                assert marker.tokens_freed == marker.tokens_before - marker.tokens_after > 0
                assert marker.summary_tokens <= config.summary_max_tokens + 64
            last = None if prepared.refused else record.sent_tokens
        # The stored history is never changed.
        assert frozen(scope.messages) == before
        # Replay (no usage in the log) agrees with the agent-side manager when no usage is reported.
        if case.usage_ratio is None:
            replay = SessionReplay(config)
            replay.update(session)
            assert list(replay.records(scope_id)) == records


# -- a history that is not a pure continuation ---------------------------------------------------

history_step = st.tuples(
    st.sampled_from(("round", "parallel", "user", "say")), st.sampled_from(SCRIPTS), st.integers(20, 6_000)
)
edit = st.one_of(
    st.tuples(st.just("rewrite"), st.integers(0, 10_000), st.integers(2, 50)),  # content grows ×k
    st.tuples(st.just("shorten"), st.integers(0, 10_000), st.just(0)),
    st.tuples(st.just("drop"), st.integers(0, 10_000), st.just(0)),
    st.tuples(st.just("insert"), st.integers(0, 10_000), st.just(0)),
    st.tuples(st.just("swap"), st.integers(0, 10_000), st.just(0)),
)


def edited_text(text: str, kind: str, factor: int) -> str:
    return text * factor + "!" if kind == "rewrite" else text[: len(text) // 3] + " (edited)"


def apply_edit(messages: list[Message], change: tuple[str, int, int]) -> list[Message]:
    """``messages`` with one message of it changed, removed, inserted or moved (a lone message is
    rewritten instead of removed or moved)."""
    kind, where, factor = change
    out = list(messages)
    k = where % len(out)
    if kind == "insert":
        out.insert(k, Message(k, "user", (text_block(f"inserted at {k}"),)))
    elif kind == "drop" and len(out) > 1:
        del out[k]
    elif kind == "swap" and len(out) > 1:  # with the next (or, for the last, the previous) message
        j = k + 1 if k + 1 < len(out) else k - 1
        out[k], out[j] = out[j], out[k]
    else:
        kind = kind if kind in ("rewrite", "shorten") else "rewrite"
        blocks = tuple(replace(b, text=edited_text(b.text, kind, factor)) for b in out[k].blocks)
        out[k] = out[k].replace_blocks(blocks)
    return out


def sent(prepared: PreparedRequest) -> list[tuple[int, str, tuple[Block, ...]]]:
    return [(m.index, m.role, m.blocks) for m in prepared.messages]


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    steps=st.lists(history_step, min_size=2, max_size=12),
    calls=st.integers(1, 4),
    changes=st.lists(edit, min_size=1, max_size=3),
    appended=st.integers(0, 3),
    limit=st.integers(3_000, 30_000),
    summarise=st.booleans(),
)
def test_an_edited_history_gives_what_a_fresh_manager_gives(
    steps: list[tuple[str, str, int]],
    calls: int,
    changes: list[tuple[str, int, int]],
    appended: int,
    limit: int,
    summarise: bool,
) -> None:
    """Replacing, removing, inserting or moving any message the manager has seen (the first and
    last included) is detected: the next request is what a new manager makes of that history
    (what a manager fed the unedited calls makes of it when the edits cancel out), never one built
    on stale state (issue 12: a middle result made 50× larger was sent as the old text, with the
    old size)."""
    history = History()
    history.user("Read the files and report.")
    for k, (kind, script, size) in enumerate(steps):
        add_step(history, kind, script, size, k)
    messages = history.messages
    config = PipelineConfig(hard_limit=limit, budget=limit // 2, summarise=summarise)
    manager = ContextManager(config)
    seen_up_to = len(messages) - appended if len(messages) - appended >= 1 else len(messages)
    for n in range(calls):
        manager.prepare(messages[: max(1, seen_up_to * (n + 1) // calls)])
    edited = apply_edit(messages[:seen_up_to], changes[0])
    for change in changes[1:]:
        edited = apply_edit(edited, change)
    edited += messages[seen_up_to:]
    got = manager.prepare(edited)
    reference = ContextManager(config)
    if all(a is b for a, b in zip(edited, messages[:seen_up_to], strict=False)):
        event("edits cancelled out: a continuation")
        for n in range(calls):
            reference.prepare(messages[: max(1, seen_up_to * (n + 1) // calls)])
    expected = reference.prepare(edited)
    for run in expected.stages:
        event(run.stage.value)
    assert got.record == expected.record
    assert got.fates == expected.fates
    assert sent(got) == sent(expected)
    # The manager goes on from the edited history as the reference does.
    more = [*edited, Message(len(edited), "user", (text_block("and one more thing"),))]
    got, expected = manager.prepare(more), reference.prepare(more)
    assert got.record == expected.record and sent(got) == sent(expected)


def test_equal_copies_of_the_messages_seen_are_a_continuation() -> None:
    """An agent that rebuilds its message objects for every call still continues (no restart)."""
    history = History()
    history.user("Read the files.")
    for k in range(6):
        history.round(text_of("code", 3_000, k))
    messages = history.messages
    config = PipelineConfig(hard_limit=12_000, budget=6_000)
    manager, twin = ContextManager(config), ContextManager(config)
    manager.prepare(messages[:5])
    twin.prepare(messages[:5])
    copies = [replace(m) for m in messages]
    assert all(a is not b for a, b in zip(copies, messages, strict=True))
    got, expected = manager.prepare(copies), twin.prepare(messages)
    assert got.record.index == 1 and got.record == expected.record
    assert sent(got) == sent(expected)


def test_the_issue_case_a_middle_result_made_fifty_times_larger() -> None:
    """Issue 12's case: same first and last message, a middle tool result 40× larger (50× now
    estimates over the 200k hard limit, and the guard refuses the request)."""
    history = History()
    history.user("Read the file.")
    history.round(" ".join(f"line {i} of the file" for i in range(400)))
    history.say("Done.")
    messages = history.messages
    manager = ContextManager(PipelineConfig())
    before = manager.prepare(messages)
    edited = apply_edit(messages, ("rewrite", 2, 40))
    got = manager.prepare(edited)
    fresh = ContextManager(PipelineConfig()).prepare(edited)
    assert got.sent_tokens == fresh.sent_tokens > 30 * before.sent_tokens
    assert sent(got) == sent(fresh) and edited[2].blocks[0].text in {b.text for b in got.messages[2].blocks}
