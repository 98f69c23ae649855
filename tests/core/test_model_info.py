"""Model facts: context windows, the agents' own compaction triggers, estimator profiles."""

from __future__ import annotations

from ctxscope.core.model import CLEAR_TOOL_RESULTS, ObservedCompaction
from ctxscope.core.model_info import (
    CHECKED,
    compaction_trigger,
    context_window,
    default_compaction_trigger,
    estimator_profile,
    normalise_model,
)


def test_windows_by_model_id_with_the_logs_own_figure_first() -> None:
    assert CHECKED == "2026-12-01"
    assert context_window("claude-opus-4-6") == 200_000 and context_window("claude-opus-4-8") == 1_000_000
    assert (
        context_window("claude-sonnet-5-5") == 1_000_000 and context_window("claude-fable-5-1") == 1_000_000
    )
    assert context_window("claude-sonnet-4-5-20250929") == 200_000
    assert context_window("claude-sonnet-4-5-20250929[1m]") == 1_000_000
    assert context_window("claude-sonnet-4-5", largest_prompt=350_000) == 1_000_000  # ran the 1M variant
    assert context_window("claude-haiku-4-5", largest_prompt=350_000) == 200_000  # has no 1M variant
    assert context_window("gpt-5.1-codex") == 272_000
    assert context_window("gpt-5.1-codex", log_window=258_400) == 258_400
    assert context_window("openai/gpt-4o-2024-08-06") == 128_000
    assert context_window("o3-mini") == 200_000 and context_window("o1-mini") == 128_000
    assert context_window("gemini-2.5-pro") == 1_048_576
    assert context_window("glm-4.7") == 200_000 and context_window("glm-4.5-air") == 131_072
    assert context_window("some-local-model") is None
    assert normalise_model("Anthropic/Claude-Opus-4-6[1m]") == "claude-opus-4-6"


def test_claude_code_compacts_about_33k_below_the_window() -> None:
    trigger = default_compaction_trigger("claude-code", 200_000)
    assert trigger == 167_000
    # Every auto compaction seen in the real logs fired at or a little above it.
    assert all(trigger <= seen for seen in (167_766, 168_315, 169_910, 170_251, 172_183))


def test_codex_compacts_at_90_percent_of_the_full_window() -> None:
    # 0.58+ logs 95 % of the window (258,400 of 272,000); the rule is 90 % of the full window.
    assert default_compaction_trigger("codex", 258_400, model="gpt-5.1-codex") == 244_800
    assert default_compaction_trigger("codex", 272_000, model="gpt-5-codex") == 244_800  # 0.40 logs
    assert default_compaction_trigger("codex", 258_400) == 244_800  # recovered from the 95 % figure
    assert default_compaction_trigger("openhands", 128_000) is None


def test_compactions_seen_refine_the_trigger() -> None:
    def seen(before: int, trigger: str = "auto", stage: str = "summarize") -> ObservedCompaction:
        return ObservedCompaction("main", 10, stage=stage, trigger=trigger, tokens_before=before)

    assert compaction_trigger("claude-code", 200_000, [seen(170_251)]) == 167_000  # overshoot
    assert compaction_trigger("claude-code", 200_000, [seen(120_400), seen(121_000)]) == 120_400  # lowered
    ignored = [seen(60_000, trigger="manual"), seen(50_000, stage=CLEAR_TOOL_RESULTS)]
    assert compaction_trigger("claude-code", 200_000, ignored) == 167_000
    assert compaction_trigger("aider", 128_000, [seen(90_000)]) == 90_000  # no default: what was seen


def test_estimator_profile_by_family() -> None:
    assert estimator_profile("claude-opus-4-6") == "claude"
    assert estimator_profile("<synthetic>") == "claude"  # the default
    for model in (
        "gpt-5.1-codex",
        "gpt-4o",
        "o3",
        "o4-mini",
        "codex-mini-latest",
        "gemini-2.5-pro",
        "glm-4.7",
    ):
        assert estimator_profile(model) == "openai", model
