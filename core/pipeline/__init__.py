"""The compaction pipeline: what an agent runs before every model call (SPEC §3).

Stages, cheapest and least lossy first; each later one runs only when the earlier ones were not
enough:

1. :mod:`.artifacts` — trim heavy artifacts (DOM snapshots, screenshots), always;
2. :mod:`.clearing` — clear old tool results in batches, silently;
3. :mod:`.summarize` — summarise older turns, visibly (a marker); :mod:`.fitting` when no summary;
4. :mod:`.guard` — the hard-limit guard: the request always fits, or is refused explicitly.

:mod:`.legacy` keeps the old turn-boundary-only strategy for comparison. :class:`ContextManager`
is the agent-facing entry point; :mod:`ctxscope.core.replay` runs recorded sessions through the
same code. See ``docs/pipeline.md``.
"""

from .artifacts import DomSummary, reduce_dom
from .config import DEFAULT_BUDGET_FRACTION, DEFAULT_HARD_LIMIT, STRATEGIES, PipelineConfig, Strategy
from .engine import ContextManager, Decision, PipelineRun, PreparedRequest
from .notes import CLEARED_NOTE, REFUSAL_MESSAGE, SUMMARY_HEADER, TRIM_NOTE
from .safety import SAFETY_NET_INSTRUCTION
from .summarize import (
    ExtractiveSummariser,
    OpenAICompatibleSummariser,
    Summariser,
    SummariserError,
    SummaryRequest,
)

__all__ = [
    "CLEARED_NOTE",
    "DEFAULT_BUDGET_FRACTION",
    "DEFAULT_HARD_LIMIT",
    "REFUSAL_MESSAGE",
    "SAFETY_NET_INSTRUCTION",
    "STRATEGIES",
    "SUMMARY_HEADER",
    "TRIM_NOTE",
    "ContextManager",
    "Decision",
    "DomSummary",
    "ExtractiveSummariser",
    "OpenAICompatibleSummariser",
    "PipelineConfig",
    "PipelineRun",
    "PreparedRequest",
    "Strategy",
    "Summariser",
    "SummariserError",
    "SummaryRequest",
    "reduce_dom",
]
