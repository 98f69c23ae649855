"""The memory-policy lab (SPEC §4): which earlier state deserves to enter the next model call.

Policies see only ``(turn, role, content)`` messages, a query and a budget, and say what they would
send (:class:`Selection`). The benchmark grades them against an answer key that no policy module
imports.

Main entry points:

* :func:`run_policies` — every policy's selection for one query over a list of messages (the call a
  dashboard "what if" view makes);
* :func:`run_generated` — the seeded synthetic benchmark (:func:`generate`) graded per policy;
* :func:`evaluate` with :func:`load_session` / :func:`load_labels` — the same grades on external data.

Example::

    from ctxscope.core.policies import Budget, PolicyMessage, run_policies

    msgs = [PolicyMessage(1, "user", "My lunch preference for offsites is vegetarian."),
            PolicyMessage(2, "user", "Update: I'm vegan now, not just vegetarian.")]
    run_policies(msgs, "Plan the offsite lunch", Budget(tokens=2000))["focus"].turns

Importing the package loads none of its modules: each name above is imported from its module on
first use (PEP 562 ``__getattr__``).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .answer_key import AnswerKey, Checkpoint, Label, TurnLabel
    from .benchmark import BenchmarkResult, PolicyMetrics, evaluate, evaluate_sessions, run_generated
    from .claims import Claim, extract_claim
    from .external import DatasetError, export_dataset, load_labels, load_session, session_messages
    from .generator import DEFAULT_SEED, DEFAULT_TURNS, GeneratedBenchmark, generate
    from .ledger import SupersessionTracker
    from .policies import POLICY_NAMES, RECOMMENDED, Policy, PolicyContext, make_policies
    from .records import Budget, PolicyMessage, Selection
    from .runner import PolicyRunner, TimedSelection, run_policies
    from .scoring import SeedFeatures, seed_features, seed_score
    from .store import MemoryStore

_MODULES: dict[str, str] = {
    "AnswerKey": ".answer_key",
    "BenchmarkResult": ".benchmark",
    "Budget": ".records",
    "Checkpoint": ".answer_key",
    "Claim": ".claims",
    "DEFAULT_SEED": ".generator",
    "DEFAULT_TURNS": ".generator",
    "DatasetError": ".external",
    "GeneratedBenchmark": ".generator",
    "Label": ".answer_key",
    "MemoryStore": ".store",
    "POLICY_NAMES": ".policies",
    "Policy": ".policies",
    "PolicyContext": ".policies",
    "PolicyMessage": ".records",
    "PolicyMetrics": ".benchmark",
    "PolicyRunner": ".runner",
    "RECOMMENDED": ".policies",
    "SeedFeatures": ".scoring",
    "Selection": ".records",
    "SupersessionTracker": ".ledger",
    "TimedSelection": ".runner",
    "TurnLabel": ".answer_key",
    "evaluate": ".benchmark",
    "evaluate_sessions": ".benchmark",
    "export_dataset": ".external",
    "extract_claim": ".claims",
    "generate": ".generator",
    "load_labels": ".external",
    "load_session": ".external",
    "make_policies": ".policies",
    "run_generated": ".benchmark",
    "run_policies": ".runner",
    "seed_features": ".scoring",
    "seed_score": ".scoring",
    "session_messages": ".external",
}
"""Each public name and the module it comes from."""


def __getattr__(name: str) -> Any:
    module = _MODULES.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(module, __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_MODULES})


__all__ = [
    "DEFAULT_SEED",
    "DEFAULT_TURNS",
    "POLICY_NAMES",
    "RECOMMENDED",
    "AnswerKey",
    "BenchmarkResult",
    "Budget",
    "Checkpoint",
    "Claim",
    "DatasetError",
    "GeneratedBenchmark",
    "Label",
    "MemoryStore",
    "Policy",
    "PolicyContext",
    "PolicyMessage",
    "PolicyMetrics",
    "PolicyRunner",
    "SeedFeatures",
    "Selection",
    "SupersessionTracker",
    "TimedSelection",
    "TurnLabel",
    "evaluate",
    "evaluate_sessions",
    "export_dataset",
    "extract_claim",
    "generate",
    "load_labels",
    "load_session",
    "make_policies",
    "run_generated",
    "run_policies",
    "seed_features",
    "seed_score",
    "session_messages",
]
