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
from .reader import SessionReader, UnknownFormatError, read_session
from .session import Scope, Session
from .tokens import (
    DEFAULT_ESTIMATOR,
    ESTIMATOR_NAMES,
    Calibrator,
    Estimator,
    ScriptBreakdown,
    estimate_tokens,
    get_estimator,
)

__all__ = [
    "DEFAULT_ESTIMATOR",
    "ESTIMATOR_NAMES",
    "ArtifactKind",
    "Block",
    "BlockKind",
    "Calibrator",
    "Category",
    "ErrorKind",
    "Estimator",
    "Message",
    "ModelRequest",
    "ObservedCompaction",
    "RequestError",
    "Scope",
    "ScopeHeader",
    "ScriptBreakdown",
    "Session",
    "SessionLogWriter",
    "SessionReader",
    "UnknownFormatError",
    "Usage",
    "estimate_tokens",
    "get_estimator",
    "read_session",
]
