"""The dashboard's reader counts elided text with the estimator its analysis uses (by the first
call's model, as ``report`` picks it), so the per-script table adds up to the meter's raw estimate
on an OpenAI-family log too."""

from __future__ import annotations

import pytest
from ctxscope.tui.tailer import CoreSource

from ..conftest import shared_path


@pytest.mark.shared
def test_a_codex_log_is_counted_with_the_openai_profile_from_its_first_line() -> None:
    log = shared_path("real-logs", "codex-rollout", "raze-0.114.jsonl")
    source = CoreSource(str(log))
    assert source.follower.estimator is not None and source.follower.estimator.name == "openai"
    source.finish()
    analysis = source.analysis
    assert analysis.estimator is not None and analysis.estimator.name == "openai"
    scope = next(iter(analysis.snapshot("recorded").scopes.values()))
    for record in scope.records:
        detail = analysis.detail(scope.header.scope_id, record.index, "recorded")
        assert detail is not None
        assert detail.by_script.tokens + detail.framing_tokens == detail.record.sent_tokens
