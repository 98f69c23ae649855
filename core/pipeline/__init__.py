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

Importing the package imports none of its stages: each name below is imported from its module on
first use (PEP 562 module ``__getattr__``), so reading :mod:`.config` alone (what the recorded
lens's options name) loads no stage, engine or state. Type checkers see the same names through
the ``TYPE_CHECKING`` imports.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .. import _lazy_attribute

if TYPE_CHECKING:
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

_MODULE_OF: dict[str, str] = {
    name: module
    for module, names in {
        "artifacts": ("DomSummary", "reduce_dom"),
        "config": (
            "DEFAULT_BUDGET_FRACTION", "DEFAULT_HARD_LIMIT", "STRATEGIES", "PipelineConfig", "Strategy",
        ),
        "engine": ("ContextManager", "Decision", "PipelineRun", "PreparedRequest"),
        "notes": ("CLEARED_NOTE", "REFUSAL_MESSAGE", "SUMMARY_HEADER", "TRIM_NOTE"),
        "safety": ("SAFETY_NET_INSTRUCTION",),
        "summarize": (
            "ExtractiveSummariser", "OpenAICompatibleSummariser", "Summariser", "SummariserError",
            "SummaryRequest",
        ),
    }.items()
    for name in names
}
"""Each public name → the module that defines it (the ``TYPE_CHECKING`` imports list the same)."""

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


if not TYPE_CHECKING:  # type checkers see the imports above; an unknown name stays an error for them

    def __getattr__(name: str) -> Any:
        """Import a public name from its module on first use (then it is a plain attribute)."""
        return _lazy_attribute(__name__, _MODULE_OF, globals(), name)


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
