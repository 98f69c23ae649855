"""ctxscope.core: the engine behind ctxscope, in pure Python with no UI imports.

* Token estimation: :func:`estimate_tokens`, named estimators, per-script breakdowns, calibration
  against provider-reported usage (:mod:`ctxscope.core.tokens`).
* The session model: immutable records (:mod:`ctxscope.core.model`) built into a
  :class:`Session` by readers (:mod:`ctxscope.core.reader`) from ctxscope's own log format
  (:mod:`ctxscope.core.logformat`) or real agent logs (:mod:`ctxscope.core.adapters`).
* The compaction pipeline (:mod:`ctxscope.core.pipeline`), usable by an agent as its own context
  manager, and session replay (:mod:`ctxscope.core.replay`) producing the snapshot records the
  dashboard renders (:mod:`ctxscope.core.snapshot`).
* The memory-policy lab (:mod:`ctxscope.core.policies`).

Importing the package imports none of this: each name below is imported from its module on first
use (PEP 562 module ``__getattr__``), so ``import ctxscope.core`` costs almost nothing and
``from ctxscope.core import ContextManager`` loads only the pipeline. Type checkers see the same
names through the ``TYPE_CHECKING`` imports.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .analysis import Analysis, AnalysisOptions, analyse
    from .follow import Follower
    from .logformat import SessionLogWriter
    from .model import (
        ArtifactKind,
        Block,
        BlockKind,
        Category,
        ErrorKind,
        Message,
        ModelRequest,
        ObservedCompaction,
        RequestError,
        ScopeHeader,
        Usage,
    )
    from .pipeline import (
        REFUSAL_MESSAGE,
        SAFETY_NET_INSTRUCTION,
        ContextManager,
        PipelineConfig,
        PreparedRequest,
    )
    from .reader import (
        SessionReader,
        UnknownFormatError,
        detect_format,
        open_log,
    )
    from .replay import SessionReplay, WhatIf
    from .session import Scope, Session
    from .snapshot import (
        Fate,
        RequestDetail,
        RequestRecord,
        ScopeSnapshot,
        SessionSnapshot,
        Stage,
        SummaryMarker,
        Thresholds,
    )
    from .tokens import (
        DEFAULT_ESTIMATOR,
        ESTIMATOR_NAMES,
        Calibrator,
        Estimator,
        ScriptBreakdown,
        estimate_tokens,
        get_estimator,
    )
    from .usage_check import UsageCheck, check_usage

_MODULE_OF: dict[str, str] = {
    name: module
    for module, names in {
        "analysis": ("Analysis", "AnalysisOptions", "analyse"),
        "follow": ("Follower",),
        "logformat": ("SessionLogWriter",),
        "model": (
            "ArtifactKind", "Block", "BlockKind", "Category", "ErrorKind", "Message", "ModelRequest",
            "ObservedCompaction", "RequestError", "ScopeHeader", "Usage",
        ),
        "pipeline": (
            "REFUSAL_MESSAGE", "SAFETY_NET_INSTRUCTION", "ContextManager", "PipelineConfig",
            "PreparedRequest",
        ),
        "reader": ("SessionReader", "UnknownFormatError", "detect_format", "open_log"),
        "replay": ("SessionReplay", "WhatIf"),
        "session": ("Scope", "Session"),
        "snapshot": (
            "Fate", "RequestDetail", "RequestRecord", "ScopeSnapshot", "SessionSnapshot", "Stage",
            "SummaryMarker", "Thresholds",
        ),
        "tokens": (
            "DEFAULT_ESTIMATOR", "ESTIMATOR_NAMES", "Calibrator", "Estimator", "ScriptBreakdown",
            "estimate_tokens", "get_estimator",
        ),
        "usage_check": ("UsageCheck", "check_usage"),
    }.items()
    for name in names
}
"""Each public name → the submodule that defines it (the ``TYPE_CHECKING`` imports list the same)."""

__all__ = [
    "DEFAULT_ESTIMATOR",
    "ESTIMATOR_NAMES",
    "REFUSAL_MESSAGE",
    "SAFETY_NET_INSTRUCTION",
    "Analysis",
    "AnalysisOptions",
    "ArtifactKind",
    "Block",
    "BlockKind",
    "Calibrator",
    "Category",
    "ContextManager",
    "ErrorKind",
    "Estimator",
    "Fate",
    "Follower",
    "Message",
    "ModelRequest",
    "ObservedCompaction",
    "PipelineConfig",
    "PreparedRequest",
    "RequestDetail",
    "RequestError",
    "RequestRecord",
    "Scope",
    "ScopeHeader",
    "ScopeSnapshot",
    "ScriptBreakdown",
    "Session",
    "SessionLogWriter",
    "SessionReader",
    "SessionReplay",
    "SessionSnapshot",
    "Stage",
    "SummaryMarker",
    "Thresholds",
    "UnknownFormatError",
    "Usage",
    "UsageCheck",
    "WhatIf",
    "analyse",
    "check_usage",
    "detect_format",
    "estimate_tokens",
    "get_estimator",
    "open_log",
]


def _lazy_attribute(package: str, module_of: dict[str, str], namespace: dict[str, Any], name: str) -> Any:
    """A package's public ``name`` imported from its submodule on first use (then it is a plain
    attribute of the package): the module ``__getattr__`` of this package and of ``pipeline``."""
    module = module_of.get(name)
    if module is None:
        raise AttributeError(f"module {package!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{module}", package), name)
    namespace[name] = value
    return value


if not TYPE_CHECKING:  # type checkers see the imports above; an unknown name stays an error for them

    def __getattr__(name: str) -> Any:
        """Import a public name from its submodule on first use (then it is a plain attribute)."""
        return _lazy_attribute(__name__, _MODULE_OF, globals(), name)


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
