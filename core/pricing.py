"""What a model call cost: a documented price table per model id, and the cost of reported usage.

Every figure here is an **estimate**: list prices in US dollars per million tokens, taken on
:data:`PRICES_TAKEN` from the providers' published price pages (sources below), applied to the
usage the agent's log reports. What a user really pays can differ (subscriptions, batch and
regional discounts, long-prompt surcharges, 1-hour cache writes, price changes after that date).

Sources (read on 2026-12-01):

* Anthropic — ``platform.claude.com/docs/en/about-claude/pricing`` ("Model pricing": base input,
  5-minute cache writes, cache hits, output) and the model overview pages for Sonnet 5 / 5.5.
  Cache writes are priced at the 5-minute rate (Claude Code's default). Haiku 5.5 is priced at
  its prompts-up-to-100k band. Third-party price trackers report a cut of Sonnet 5.5 cache reads
  to $0.10 on 2026-10-07 that the official page read here did not show; the page's $0.20 is used.
* OpenAI — ``developers.openai.com/api/docs/pricing`` and model pages (``gpt-5-codex``), as
  reproduced by price trackers in June and November 2026. OpenAI charges no cache-write premium:
  written tokens cost the input price. GPT-5.5's long-prompt (> 272k) rates are not applied.
* Google — ``ai.google.dev/gemini-api/docs/pricing`` as reproduced by the ``gemini-cost`` crate:
  Gemini 2.5 at the prompts-up-to-200k rates; context-cache storage is not counted.

A model id (normalised as :func:`~ctxscope.core.model_info.normalise_model` does, Bedrock's
``anthropic.`` prefix dropped too) is matched to the longest table entry it starts with,
followed only by a date, a version or a variant suffix (``claude-opus-4-5-20251101``,
``anthropic.claude-sonnet-4-5-v1:0``, ``claude-opus-4-6[1m]``, ``gpt-5-codex``): an unknown
version (``gpt-5.9``) is *unpriced* rather than priced as its nearest neighbour.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Final

from .model import ModelRequest, Usage
from .model_info import normalise_model

PRICES_TAKEN: Final = "2026-12-01"
"""The date the prices in :data:`PRICE_TABLE` were read from the providers' pages."""

PER_TOKENS: Final = 1_000_000
"""Prices are per this many tokens."""


@dataclass(frozen=True, slots=True)
class Price:
    """List prices of one model in US dollars per million tokens.

    Attributes:
        input: Uncached prompt tokens.
        output: Generated tokens (reasoning included).
        cache_write: Prompt tokens written to the provider's cache on this call.
        cache_read: Prompt tokens read from the cache.
    """

    input: float
    output: float
    cache_write: float
    cache_read: float


def _openai(input: float, cached: float, output: float) -> Price:
    return Price(input, output, input, cached)


PRICE_TABLE: Final[dict[str, Price]] = {
    # Anthropic: input, output, 5-minute cache write, cache read.
    "claude-fable-5-1": Price(10.0, 50.0, 12.5, 0.25),
    "claude-mythos-5-1": Price(10.0, 50.0, 12.5, 0.25),
    "claude-fable-5": Price(10.0, 50.0, 12.5, 1.0),
    "claude-mythos-5": Price(10.0, 50.0, 12.5, 1.0),
    "claude-opus-5-5": Price(4.0, 20.0, 5.0, 0.20),
    "claude-opus-5": Price(5.0, 25.0, 6.25, 0.50),
    "claude-opus-4-8": Price(5.0, 25.0, 6.25, 0.50),
    "claude-opus-4-7": Price(5.0, 25.0, 6.25, 0.50),
    "claude-opus-4-6": Price(5.0, 25.0, 6.25, 0.50),
    "claude-opus-4-5": Price(5.0, 25.0, 6.25, 0.50),
    "claude-opus-4-1": Price(15.0, 75.0, 18.75, 1.50),
    "claude-opus-4": Price(15.0, 75.0, 18.75, 1.50),
    "claude-sonnet-5-5": Price(2.0, 10.0, 2.5, 0.20),
    "claude-sonnet-5": Price(2.0, 10.0, 2.5, 0.20),
    "claude-sonnet-4-6": Price(3.0, 15.0, 3.75, 0.30),
    "claude-sonnet-4-5": Price(3.0, 15.0, 3.75, 0.30),
    "claude-sonnet-4": Price(3.0, 15.0, 3.75, 0.30),
    "claude-3-7-sonnet": Price(3.0, 15.0, 3.75, 0.30),
    "claude-haiku-5-5": Price(0.10, 0.50, 0.125, 0.01),
    "claude-haiku-4-5": Price(1.0, 5.0, 1.25, 0.10),
    "claude-3-5-haiku": Price(0.80, 4.0, 1.0, 0.08),
    "claude-3-haiku": Price(0.25, 1.25, 0.30, 0.03),
    # OpenAI: input, cached input, output (no cache-write premium).
    "gpt-5.5": _openai(5.0, 0.50, 30.0),
    "gpt-5.4": _openai(2.50, 0.25, 15.0),
    "gpt-5.4-mini": _openai(0.75, 0.075, 4.50),
    "gpt-5.4-nano": _openai(0.20, 0.02, 1.25),
    "gpt-5": _openai(1.25, 0.125, 10.0),
    "gpt-5-codex": _openai(1.25, 0.125, 10.0),
    # Google: input, output, cached input (prompts up to 200k).
    "gemini-2.5-pro": Price(1.25, 10.0, 1.25, 0.125),
    "gemini-2.5-flash": Price(0.30, 2.50, 0.30, 0.03),
}
"""List prices by model id (see the module docs for the sources and what is left out)."""

_BEDROCK_PREFIX: Final = re.compile(r"^(?:(?:us|eu|apac|global)\.)?anthropic\.")
_SUFFIX: Final = re.compile(
    r"(?:-\d{4}-?\d{2}-?\d{2})?(?:-v\d+(?::\d+)?)?(?:@[\w.-]*)?(?:-latest|-preview[\w.-]*)?(?:\[\w+\])?"
)


@functools.lru_cache(maxsize=256)
def price_of(model: str) -> Price | None:
    """The list prices of a model, or None when the table does not know it (memoised: a log
    names a few models on thousands of calls)."""
    name = _BEDROCK_PREFIX.sub("", normalise_model(model))
    fitting = [key for key in PRICE_TABLE if name.startswith(key) and _SUFFIX.fullmatch(name, len(key))]
    return PRICE_TABLE[max(fitting, key=len)] if fitting else None


def cost_of(usage: Usage, model: str) -> float | None:
    """Estimated cost in US dollars of one call's reported usage, or None for an unpriced model.

    The prompt splits into cache reads (``cached_prompt_tokens``), cache writes
    (``cache_write_tokens``) and the rest, each at its own price; output at the output price.
    """
    price = price_of(model)
    if price is None:
        return None
    uncached = max(0, usage.prompt_tokens - usage.cached_prompt_tokens - usage.cache_write_tokens)
    return (
        uncached * price.input
        + usage.cache_write_tokens * price.cache_write
        + usage.cached_prompt_tokens * price.cache_read
        + usage.output_tokens * price.output
    ) / PER_TOKENS


@dataclass(slots=True)
class CostTotal:
    """The estimated cost of many calls, and what could not be priced.

    Attributes:
        dollars: Sum over the priced calls.
        priced: Calls with usage at a known model's prices.
        unpriced: Calls with usage whose model is not in the table.
        unpriced_models: The model ids that were not priced.
    """

    dollars: float = 0.0
    priced: int = 0
    unpriced: int = 0
    unpriced_models: set[str] = field(default_factory=set)

    def add(self, usage: Usage | None, model: str) -> float | None:
        """Count one call (a call without usage costs nothing known and is not counted)."""
        if usage is None:
            return None
        cost = cost_of(usage, model)
        if cost is None:
            self.unpriced += 1
            self.unpriced_models.add(model)
        else:
            self.dollars += cost
            self.priced += 1
        return cost


REFERENCE_MODEL: Final = "claude-sonnet-4-5"
"""The model whose prices cost a what-if whose log names no priced model (the demo's
``demo-model``): the figure is then a comparison at a known price, said so wherever it shows."""


def cached_prompt_cost(tokens: float, cached_share: float, price: Price) -> float:
    """Estimated dollars of one prompt of ``tokens`` whose leading ``cached_share`` is read from
    the provider's prefix cache and the rest written to it (the whole prompt marked cacheable, as
    Claude Code does). Output is left out: it does not depend on what the context holds."""
    share = min(1.0, max(0.0, cached_share))
    return tokens * (share * price.cache_read + (1 - share) * price.cache_write) / PER_TOKENS


def session_cost(requests: Iterable[ModelRequest]) -> CostTotal:
    """The estimated cost of a session's calls (pass every scope's requests)."""
    total = CostTotal()
    for request in requests:
        total.add(request.usage, request.model)
    return total


def format_dollars(dollars: float | None) -> str:
    """``$12.34``, ``$0.042`` (three significant places under a dollar, never fewer than two
    decimals: ``$0.50``, not ``$0.5``), or ``?`` when unknown."""
    if dollars is None:
        return "?"
    if dollars >= 1 or dollars == 0:
        return f"${dollars:,.2f}"
    short = f"{dollars:.3g}"
    if "e" in short:  # under a ten-thousandth of a dollar
        return f"${short}"
    decimals = len(short.partition(".")[2])
    return f"${dollars:.{max(2, decimals)}f}"
