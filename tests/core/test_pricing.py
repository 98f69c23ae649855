"""The price table: model ids with dates and variants, cost arithmetic, session totals."""

from __future__ import annotations

import pytest
from ctxscope.core.model import ModelRequest, Usage
from ctxscope.core.pricing import (
    PRICE_TABLE,
    PRICES_TAKEN,
    CostTotal,
    cost_of,
    format_dollars,
    price_of,
    session_cost,
)


@pytest.mark.parametrize(
    ("model", "key"),
    [
        ("claude-opus-4-6", "claude-opus-4-6"),
        ("claude-opus-4-5-20251101", "claude-opus-4-5"),
        ("claude-opus-4-20250514", "claude-opus-4"),
        ("claude-opus-4-1-20250805", "claude-opus-4-1"),
        ("claude-opus-4-6[1m]", "claude-opus-4-6"),
        ("us.anthropic.claude-sonnet-4-5-20250929-v1:0", "claude-sonnet-4-5"),
        ("anthropic/claude-haiku-4-5", "claude-haiku-4-5"),
        ("claude-3-5-haiku-latest", "claude-3-5-haiku"),
        ("GPT-5-Codex", "gpt-5-codex"),
        ("openai/gpt-5.5", "gpt-5.5"),
        ("gpt-5.4-mini", "gpt-5.4-mini"),
        ("gemini-2.5-pro-preview-05-06", "gemini-2.5-pro"),
    ],
)
def test_model_ids_find_their_prices(model: str, key: str) -> None:
    assert price_of(model) is PRICE_TABLE[key]


@pytest.mark.parametrize("model", ["", "gpt-5.9", "claude-opus-4-9", "gpt-5-mini", "llama-4", "<synthetic>"])
def test_unknown_models_are_unpriced_not_guessed(model: str) -> None:
    assert price_of(model) is None
    assert cost_of(Usage(1000), model) is None


def test_cost_splits_the_prompt_into_uncached_written_and_read() -> None:
    # Opus 4.6: $5 input, $6.25 cache write, $0.50 cache read, $25 output per million.
    usage = Usage(prompt_tokens=1_000_000, cached_prompt_tokens=600_000, cache_write_tokens=300_000,
                  output_tokens=10_000)
    expected = 0.1 * 5 + 0.3 * 6.25 + 0.6 * 0.50 + 0.01 * 25
    assert cost_of(usage, "claude-opus-4-6") == pytest.approx(expected)


def test_openai_cache_writes_cost_the_input_price() -> None:
    usage = Usage(prompt_tokens=200_000, cached_prompt_tokens=150_000, output_tokens=1_000)
    expected = (50_000 * 1.25 + 150_000 * 0.125 + 1_000 * 10) / 1e6
    assert cost_of(usage, "gpt-5-codex") == pytest.approx(expected)


def test_session_totals_count_unpriced_calls_apart() -> None:
    requests = [
        ModelRequest(0, "main", 1, "claude-sonnet-4-5", Usage(100_000, output_tokens=1_000)),
        ModelRequest(1, "main", 2, "mystery-model", Usage(5_000)),
        ModelRequest(2, "main", 3, "claude-sonnet-4-5", None),
    ]
    total = session_cost(requests)
    assert total.dollars == pytest.approx(100_000 * 3 / 1e6 + 1_000 * 15 / 1e6)
    assert (total.priced, total.unpriced, total.unpriced_models) == (1, 1, {"mystery-model"})
    assert CostTotal().add(None, "claude-sonnet-4-5") is None


def test_dollars_are_formatted_for_a_narrow_column() -> None:
    assert [format_dollars(x) for x in (None, 0.0, 0.04213, 12.345, 1234.5)] == [
        "?", "$0.00", "$0.0421", "$12.35", "$1,234.50"
    ]
    # A call's cost under a dollar keeps cents: "$0.50" (it read "$0.5"), "$0.10", "$0.198".
    assert [format_dollars(x) for x in (0.5, 0.1, 0.198, 0.0952, 0.99951)] == [
        "$0.50", "$0.10", "$0.198", "$0.0952", "$1.00"
    ]
    assert PRICES_TAKEN.count("-") == 2
