"""Facts about models and agents that a log does not always state: context windows, the agents'
own auto-compaction triggers, and which token estimator fits a model family.

Pure data and small functions; nothing here reads a log. The figures were checked on
:data:`CHECKED` against the providers' model documentation and the agents' own sources (each
table says where from). A figure the log itself gives always wins over the table: Codex writes
the window it uses (``token_count.info.model_context_window``) and the compactions an agent
already made in a session say where it really compacts.

* :func:`context_window` — the window of a model id (the log's own figure first).
* :func:`compaction_trigger` — the prompt size at which an agent compacts by itself, by default
  and as refined by the compactions already seen.
* :func:`estimator_profile` — the estimator profile (``core/tokens.py``) for a model family.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Final

from .model import SUMMARIZE, ObservedCompaction

CHECKED: Final = "2026-12-01"
"""When the tables below were last checked."""

ONE_MILLION: Final = 1_000_000

CONTEXT_WINDOWS: Final[tuple[tuple[str, int], ...]] = (
    # Anthropic (platform.claude.com "Models overview" and each model's page): the window an
    # agent gets by default. The current lineup (Fable, Mythos, Opus 5 / 5.5, Sonnet 5 / 5.5,
    # Haiku 5.5) and Opus 4.7 / 4.8 read 1M natively. Sonnet 4 / 4.5 / 4.6 and Opus 4.6 run at
    # 200k unless the 1M window is asked for (the ``context-1m`` beta; Claude Code's ``[1m]``
    # model suffix): see LONG_CONTEXT. (Claude Code auto-compacted claude-opus-4-6 at 170,251
    # tokens in the real logs: it ran at 200k.)
    ("claude-fable", ONE_MILLION),
    ("claude-mythos", ONE_MILLION),
    ("claude-opus-5", ONE_MILLION),
    ("claude-sonnet-5", ONE_MILLION),
    ("claude-haiku-5", ONE_MILLION),
    ("claude-opus-4-8", ONE_MILLION),
    ("claude-opus-4-7", ONE_MILLION),
    ("claude-opus-4", 200_000),
    ("claude-sonnet-4", 200_000),
    ("claude-haiku-4", 200_000),
    ("claude-3", 200_000),
    ("claude", 200_000),
    # OpenAI. The GPT-5 family's 400k is input plus output: the input window is 272k, which is
    # what Codex uses (openai/codex ``codex-rs/core/models.json``: ``context_window`` 272000 for
    # gpt-5.2-codex; its logs write 95 % of it, 258,400, from 0.58 on: CODEX_EFFECTIVE_PERCENT).
    # Newer Codex models state their own window in every log (``model_context_window``).
    ("gpt-5", 272_000),
    ("codex-mini", 200_000),
    ("gpt-4.1", 1_047_576),
    ("gpt-4o", 128_000),
    ("gpt-4-turbo", 128_000),
    ("gpt-4-32k", 32_768),
    ("gpt-4", 8_192),
    ("gpt-3.5-turbo", 16_385),
    ("gpt-oss", 131_072),
    ("o4-mini", 200_000),
    ("o3", 200_000),
    ("o1-mini", 128_000),
    ("o1", 200_000),
    # Google (ai.google.dev "Gemini models"): 1,048,576 input tokens for 2.x and 3.x models,
    # 2M for 1.5 Pro.
    ("gemini-1.5-pro", 2_097_152),
    ("gemini-1.5-flash", 1_048_576),
    ("gemini", 1_048_576),
    # Zhipu (docs.z.ai): GLM-4.5 128k, GLM-4.6 and later 200k.
    ("glm-4.5", 131_072),
    ("glm", 200_000),
)
"""Context window by model-id prefix; the longest matching prefix wins (dated suffixes such as
``-20250929`` and provider prefixes such as ``anthropic/`` are ignored)."""

LONG_CONTEXT: Final[tuple[str, ...]] = ("claude-sonnet-4", "claude-opus-4-6")
"""Claude models whose 1M-token window is asked for, not the default: a ``[1m]`` suffix, or a
reported prompt larger than 200k, selects it."""

CODEX_EFFECTIVE_PERCENT: Final = 95
"""Codex sends at most this share of a model's window (``effective_context_window_percent``,
default 95, in openai/codex ``codex-rs/protocol/src/openai_models.rs``); it writes that figure as
``model_context_window`` from 0.58 on."""

CODEX_AUTO_COMPACT_PERCENT: Final = 90
"""Codex's own auto-compaction limit: ``auto_compact_token_limit`` = the smaller of the model's
explicit limit (none for current models) and ``context_window * 9 / 10`` of the model's full
window (openai/codex ``codex-rs/protocol/src/openai_models.rs``, ``ModelInfo::
auto_compact_token_limit``; overridable by ``model_auto_compact_token_limit`` in
``config.toml``). A compaction runs before a turn, or after a sampling step, once the context
exceeds it: 244,800 on the GPT-5 family's 272k."""

CLAUDE_CODE_COMPACT_MARGIN: Final = 33_000
"""Claude Code auto-compacts once the context reaches the window less about this many tokens
(room for the summary's own output, ~20k, and a buffer, ~13k): 167,000 on a 200k window.
Measured: the auto compactions in the real logs fired at ``preTokens`` 167,766, 168,315,
169,910, 170,251 and 172,183 on 200k-window models (``preTokens`` is read when the compaction
runs, a call after crossing the trigger, so it is a little above it). ``CLAUDE_AUTOCOMPACT_PCT_
OVERRIDE`` lowers it; :func:`compaction_trigger` then learns it from the session."""

AGENT_CLAUDE_CODE: Final = "claude-code"
AGENT_CODEX: Final = "codex"

AGENTS_BY_FORMAT: Final[dict[str, str]] = {
    "claude-code": AGENT_CLAUDE_CODE,
    "claude-sdk": AGENT_CLAUDE_CODE,
    "codex-rollout": AGENT_CODEX,
    "codex-exec": AGENT_CODEX,
}
"""The agent behind a log format, for :func:`compaction_trigger` (formats not listed have no
known auto-compaction rule)."""

_DATE_SUFFIX: Final = re.compile(r"-(20\d{6}|\d{4}-\d{2}-\d{2}|latest)$")


def normalise_model(model: str) -> str:
    """A model id as the tables key it: lower case, without a provider prefix
    (``anthropic/``, ``openai/``, ``models/``), a ``[1m]``-style suffix or a date suffix."""
    name = model.strip().lower().rsplit("/", 1)[-1]
    name = name.split("[", 1)[0]
    return _DATE_SUFFIX.sub("", name)


def table_window(model: str) -> int | None:
    """The window the table gives a model id (longest prefix), or None when it is unknown."""
    name = normalise_model(model)
    best: tuple[int, int] | None = None
    for prefix, window in CONTEXT_WINDOWS:
        if name.startswith(prefix) and (best is None or len(prefix) > best[0]):
            best = (len(prefix), window)
    return best[1] if best is not None else None


def context_window(
    model: str, *, log_window: int | None = None, largest_prompt: int | None = None
) -> int | None:
    """The context window of a model: the log's own figure when it has one, else the table's.

    Args:
        model: The model id as the log names it (``claude-opus-4-6``, ``gpt-5.1-codex``, …).
        log_window: A window the log itself states (Codex ``model_context_window``).
        largest_prompt: The largest prompt the provider reported in the session: a Claude model
            with a 1M variant that was sent more than 200k tokens was running the 1M variant.
    """
    if log_window:
        return log_window
    window = table_window(model)
    if window is None:
        return None
    lowered = model.lower()
    name = normalise_model(model)
    long_variant = any(name.startswith(prefix) for prefix in LONG_CONTEXT)
    if long_variant and ("[1m]" in lowered or (largest_prompt is not None and largest_prompt > window)):
        return ONE_MILLION
    return window


def default_compaction_trigger(agent: str, window: int, *, model: str = "") -> int | None:
    """The prompt size at which an agent compacts by itself by default, or None when unknown.

    Args:
        agent: ``claude-code`` or ``codex`` (see :data:`AGENTS_BY_FORMAT`).
        window: The context window in use (for Codex, the ``model_context_window`` it logs).
        model: The model id (Codex: its full window from the table, when known, is what the 90 %
            rule is taken of; otherwise it is recovered from the logged 95 % figure).
    """
    if window <= 0:
        return None
    if agent == AGENT_CLAUDE_CODE:
        return max(window - CLAUDE_CODE_COMPACT_MARGIN, window // 2)
    if agent == AGENT_CODEX:
        full = table_window(model) if model else None
        if full is None or full < window:
            full = window * 100 // CODEX_EFFECTIVE_PERCENT
        return min(full * CODEX_AUTO_COMPACT_PERCENT // 100, window)
    return None


def compaction_trigger(
    agent: str, window: int, observed: Iterable[ObservedCompaction] = (), *, model: str = ""
) -> int | None:
    """Where the agent will compact next: its default, refined by the compactions already seen.

    An automatic summary compaction the agent already made shows where its trigger really is: it
    fired at or just after crossing it, so the smallest ``tokens_before`` of those compactions
    is taken when it is below the default (a lowered trigger, e.g. Claude Code's
    ``CLAUDE_AUTOCOMPACT_PCT_OVERRIDE`` or Codex's ``model_auto_compact_token_limit``). Manual
    compactions and clearings of tool results say nothing about the trigger.
    """
    seen = [
        c.tokens_before
        for c in observed
        if c.stage == SUMMARIZE and c.trigger in ("auto", "") and c.tokens_before
    ]
    return refined_trigger(agent, window, min(seen) if seen else None, model=model)


def refined_trigger(agent: str, window: int, lowest_auto: int | None, *, model: str = "") -> int | None:
    """:func:`compaction_trigger` from the smallest ``tokens_before`` of the automatic summary
    compactions seen (None: none seen), for callers that keep only that figure (the session
    digest)."""
    default = default_compaction_trigger(agent, window, model=model)
    if lowest_auto is None:
        return default
    return lowest_auto if default is None or lowest_auto < default else default


ESTIMATOR_FAMILIES: Final[tuple[tuple[str, str], ...]] = (
    ("claude", "claude"),
    ("gpt-", "openai"),
    ("chatgpt", "openai"),
    ("codex", "openai"),
    ("o1", "openai"),
    ("o3", "openai"),
    ("o4", "openai"),
    # Large-vocabulary BPE tokenizers, closer to OpenAI's o200k than to Claude's: Gemini (a
    # 256k SentencePiece vocabulary), GLM, Llama 3/4, Qwen, DeepSeek, Mistral.
    ("gemini", "openai"),
    ("gemma", "openai"),
    ("glm", "openai"),
    ("llama", "openai"),
    ("qwen", "openai"),
    ("deepseek", "openai"),
    ("mistral", "openai"),
    ("devstral", "openai"),
    ("kimi", "openai"),
    ("grok", "openai"),
)
"""Estimator profile by model-id prefix (after :func:`normalise_model`)."""

DEFAULT_PROFILE: Final = "claude"
"""The profile for a model of no known family (and for logs that name no model)."""


def estimator_profile(model: str) -> str:
    """The estimator profile (``claude`` or ``openai``) that fits a model family.

    Claude models → ``claude``; GPT, o-series and Codex models → ``openai``; Gemini, GLM, Llama,
    Qwen, DeepSeek, Mistral, Kimi and Grok → ``openai`` (large-vocabulary BPE tokenizers);
    anything else → :data:`DEFAULT_PROFILE`.
    """
    name = normalise_model(model)
    for prefix, profile in ESTIMATOR_FAMILIES:
        if name.startswith(prefix):
            return profile
    return DEFAULT_PROFILE
