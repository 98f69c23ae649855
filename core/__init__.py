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
"""

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
from .reader import SessionReader, UnknownFormatError, detect_format, open_log, read_session
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
    "read_session",
]
