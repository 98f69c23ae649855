"""A request's per-script breakdown, summed from memoised per-message breakdowns (issue 19).

The detail's by-script table must not depend on what was memoised before (incremental equals a
fresh memo), the memo must forget what a live window released, a new request must cost only its
new messages (counted in characters handed to the estimator, not in time), and the table's total
must relate exactly to the meter's raw estimate of the same request.
"""

from __future__ import annotations

from pathlib import Path

from ctxscope.core.analysis import Analysis, AnalysisOptions, analyse
from ctxscope.core.detail_rows import recorded_rows
from ctxscope.core.model import ArtifactKind, Message, Usage, text_block, tool_call
from ctxscope.core.reader import open_log
from ctxscope.core.script_memo import ScriptMemo, non_text_tokens, sum_breakdowns
from ctxscope.core.session import Session
from ctxscope.core.tokens import DEFAULT_ESTIMATOR, Estimator, ScriptBreakdown, get_estimator

from .pipeline_support import History, pydoc_html, text_of
from .test_fulltext import write_claude_code

KEEP = 6


class CountingEstimator:
    """An estimator that counts the characters it is asked to break down."""

    def __init__(self, inner: Estimator) -> None:
        self.inner = inner
        self.broken_down = 0

    @property
    def name(self) -> str:
        return self.inner.name

    def count(self, text: str) -> int:
        return self.inner.count(text)

    def breakdown(self, text: str) -> ScriptBreakdown:
        self.broken_down += len(text)
        return self.inner.breakdown(text)


def grow(history: History, rounds: range) -> None:
    for k in rounds:
        script = ("code", "cyrillic", "cjk")[k % 3]
        history.round(text_of(script, 1_200, seed=k), path=f"m{k}.py")
        history.request(usage=Usage(3_000 + 50 * k))
        if k % 5 == 0:
            history.artifact(ArtifactKind.DOM_SNAPSHOT, pydoc_html("json"))
            history.request()


def new_history() -> History:
    history = History(Session("test", "ctxscope"), context_limit=40_000, working_budget=8_000)
    history.system("You are a careful agent. Пиши коротко.")
    history.user("Read every module and report.")
    return history


def test_sum_of_breakdowns_adds_every_class() -> None:
    estimator = get_estimator(DEFAULT_ESTIMATOR)
    parts = [estimator.breakdown(t) for t in ("plain ascii", "ключ и значение", "値と鍵", "")]
    total = sum_breakdowns(estimator.name, parts)
    assert total.chars == sum(p.chars for p in parts)
    assert total.tokens == sum(p.tokens for p in parts)
    for name, count in total.by_script.items():
        assert count.chars == sum(p.by_script[name].chars for p in parts)
        assert count.tokens == sum(p.by_script[name].tokens for p in parts)
    assert tuple(total.by_script) == tuple(parts[0].by_script)
    empty = sum_breakdowns(estimator.name, [])
    assert (empty.chars, empty.tokens, empty.chars4) == (0, 0, 0)


def test_incremental_detail_equals_a_fresh_memo() -> None:
    live_history = new_history()
    live = Analysis(AnalysisOptions(keep_detail=KEEP))
    for step in range(8):
        grow(live_history, range(step * 5, step * 5 + 5))
        live.update(live_history.session)
        count = len(live.snapshot().scopes["main"].records)
        for index in (count - KEEP, count - 1):
            for lens in ("recorded", "pipeline"):
                got = live.detail("main", index, lens)  # type: ignore[arg-type]
                assert got is not None
                fresh_history = new_history()
                grow(fresh_history, range(step * 5 + 5))
                want = analyse(fresh_history.session).detail("main", index, lens)  # type: ignore[arg-type]
                assert want is not None
                assert got.by_script == want.by_script
                assert got.by_script.tokens > 0


def test_a_released_message_leaves_the_memo() -> None:
    history = new_history()
    analysis = Analysis(AnalysisOptions(keep_detail=KEEP))
    memoised: set[int] = set()
    for step in range(16):
        grow(history, range(step * 8, step * 8 + 8))
        analysis.update(history.session)
        count = len(analysis.snapshot().scopes["main"].records)
        memo = analysis._scripts
        assert memo is not None
        messages = history.session.scopes["main"].messages
        for index in memoised:  # update forgot what the window released since the last step
            assert (("main", index) in memo) == messages.is_held(index)
        for index in range(max(0, count - KEEP), count):
            assert analysis.detail("main", index) is not None
        memoised |= {i for i in range(len(messages)) if ("main", i) in memo}
        memo.forget_released(history.session)  # as every update does, after the window
        assert len(memo) <= sum(1 for _ in messages.held())
    messages = history.session.scopes["main"].messages
    assert messages.offset > 0  # the window did release messages
    assert any(not messages.is_held(i) for i in memoised)  # some of them had been memoised


def test_a_new_request_costs_only_its_new_messages() -> None:
    history = new_history()
    estimator = CountingEstimator(get_estimator(DEFAULT_ESTIMATOR))
    memo = ScriptMemo(estimator)
    scope = history.session.scopes["main"]
    seen = 0
    costs = []
    for k in range(30):
        grow(history, range(k, k + 1))
        sent = list(scope.messages)
        before = estimator.broken_down
        result = memo.request(history.session, sent)
        new_chars = sum(len(b.text) for m in sent[seen:] for b in m.blocks if not b.is_image)
        costs.append(estimator.broken_down - before)
        assert costs[-1] == new_chars
        assert result == ScriptMemo(estimator).request(history.session, sent)
        seen = len(sent)
    plain = [cost for k, cost in enumerate(costs) if k % 5]  # rounds alike (no page snapshot)
    assert max(plain) < 2 * min(plain)  # the 29th costs what the 1st did


def test_an_amended_message_is_broken_down_again() -> None:
    session = Session("test", "ctxscope")
    session.add_message("user", [text_block("Write it.")], scope_id="main")
    session.add_message("assistant", [text_block("Writing.")], scope_id="main")
    memo = ScriptMemo(get_estimator(DEFAULT_ESTIMATOR))
    first = memo.message(session, session.scopes["main"].messages[-1])
    amended: Message = session.amend_last_message("main", [tool_call("c1", "Write", '{"text": "ключ"}')])
    second = memo.message(session, amended)
    assert second.chars > first.chars
    assert second.by_script["cyrillic"].chars == 4
    assert second == ScriptMemo(get_estimator(DEFAULT_ESTIMATOR)).message(session, amended)


def test_the_script_total_plus_framing_is_the_raw_estimate(tmp_path: Path) -> None:
    """The meter's raw estimate is the sum of the request's messages' estimates; the by-script
    total is their text's part of it (each block counted as the estimate counts it), and the rest is
    framing: message and tool-call overheads, tool names, images."""
    path = tmp_path / "s.jsonl"
    write_claude_code(path)
    session = open_log(path)
    analysis = analyse(session)
    assert analysis.estimator is not None
    scope = session.scopes["main"]
    for index in range(len(scope.requests)):
        detail = analysis.detail("main", index, "recorded")
        assert detail is not None
        _, live = recorded_rows(scope, index, detail.record.message_count, analysis.estimator)
        framing = sum(non_text_tokens(m, analysis.estimator) for m in live)
        assert detail.record.sent_tokens == sum(m.tokens(analysis.estimator) for m in live)
        assert detail.by_script.tokens + framing == detail.record.sent_tokens
        assert detail.framing_tokens == framing  # the breakdown shows it, so the figures add up
    # The pipeline lens's detail: the same relation over the messages it sends.
    for index in range(len(scope.requests)):
        detail = analysis.detail("main", index, "pipeline")
        assert detail is not None
        assert detail.by_script.tokens + detail.framing_tokens == detail.record.sent_tokens


def test_text_that_cannot_be_read_back_is_its_own_part_of_the_raw_estimate(tmp_path: Path) -> None:
    """Elided text that cannot be read back (here a Markdown log rewritten since it was read): the
    by-script rows cover the part that was held, ``unread_tokens`` the rest, and the three add up
    to the meter's raw estimate. Read back (the same Markdown log unchanged, a JSONL log), nothing
    is unread."""
    from ctxscope.tui.widgets.breakdown import script_table
    from rich.console import Console

    markdown = tmp_path / "chat.md"
    turns = (
        f"_**User**_\n\nquestion {k}: {'word ' * 400}\n\n---\n\n_**Assistant**_\n\nanswer {k}\n\n---\n\n"
        for k in range(3)
    )
    head = "<!-- Generated by SpecStory -->\n\n# A chat (2025-05-01 15:32:25)\n\n"
    text = head + "".join(turns)
    markdown.write_text(text)
    analysis = analyse(open_log(markdown, text_cap=200))
    last = len(analysis.snapshot("recorded").scopes["main"].records) - 1
    detail = analysis.detail("main", last, "recorded")
    assert detail is not None and detail.unread_tokens == 0  # read again by its adapter
    analysis = analyse(open_log(markdown, text_cap=200))
    markdown.write_text(text.replace("word", "term"))  # rewritten: no longer the text it kept
    detail = analysis.detail("main", last, "recorded")
    assert detail is not None and detail.unread_tokens > detail.by_script.tokens / 2
    assert detail.by_script.tokens + detail.framing_tokens + detail.unread_tokens == detail.record.sent_tokens
    console = Console(width=80, record=True)
    console.print(script_table(detail))
    assert "+ not read back" in console.export_text()
    jsonl = tmp_path / "s.jsonl"
    write_claude_code(jsonl)
    analysis = analyse(open_log(jsonl, text_cap=64))
    for index in range(len(analysis.snapshot("recorded").scopes["main"].records)):
        detail = analysis.detail("main", index, "recorded")
        assert detail is not None and detail.unread_tokens == 0
