"""Properties of the pipeline over random histories (Hypothesis).

Histories have several scopes, one or many user turns, long tool runs (single and parallel calls),
DOM snapshots and screenshots, and ASCII, code, Cyrillic and CJK text. For every request of every
scope: it fits the hard limit (measured on the materialised messages) or is refused; tool calls and
results are paired; the first message is there; the newest tool result is intact; later stages ran
only when the earlier ones were not enough; the result is deterministic; the stored history is
never changed; and the replay agrees with the agent-side context manager.
"""

from __future__ import annotations

from dataclasses import dataclass

from ctxscope.core.model import ArtifactKind, BlockKind, Message, Usage
from ctxscope.core.pipeline import REFUSAL_MESSAGE, ContextManager, PipelineConfig
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
            seed = n * 100 + k
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
            history.request()
    return session


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
