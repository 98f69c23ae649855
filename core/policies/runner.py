"""Running the policies over a session: the core API the benchmark and the dashboard call.

:func:`run_policies` answers "given these ``(turn, role, content)`` messages and this query, what would
each policy keep?" in one call. :class:`PolicyRunner` does the same incrementally, for a session that
is fed message by message and queried at several points (the benchmark's checkpoints).

The runner also plays the memory layer of the seed's runtime path: when it stores a user message
that asks something (contains ``?``), it retrieves for it once, as a deployed context builder would
before answering, and those retrievals are what raise the retrieval counts the seed's scorer reads.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from .policies import ImportanceSeed, Policy, PolicyContext, make_policies
from .records import Budget, PolicyMessage, Selection
from .store import MemoryStore


@dataclass(frozen=True, slots=True)
class TimedSelection:
    """A selection and how long the policy took to make it.

    Attributes:
        selection: What the policy would send.
        seconds: Wall time of the ``select`` call.
    """

    selection: Selection
    seconds: float


class PolicyRunner:
    """Feeds a session to a store and asks every policy for its context at chosen points.

    Args:
        policies: Policy names (default: all).
        db_path: The store's SQLite file, or ``":memory:"``.
        runtime_retrieval: Retrieve for each user question as it is stored (raises retrieval counts).
        save_scores: Record the seed scorer's scores in the store.
        estimator: The token estimator messages are counted with (``None``: the default).
    """

    def __init__(
        self,
        policies: Sequence[str] | None = None,
        *,
        db_path: str | os.PathLike[str] = ":memory:",
        runtime_retrieval: bool = True,
        save_scores: bool = False,
        estimator: str | None = None,
    ) -> None:
        self.store = MemoryStore(db_path, estimator=estimator)
        self.policies: list[Policy] = make_policies(policies)
        for policy in self.policies:
            if isinstance(policy, ImportanceSeed):
                policy.save_scores = save_scores
        self.runtime_retrieval = runtime_retrieval

    def close(self) -> None:
        """Flush and close the store."""
        self.store.close()

    def feed(self, message: PolicyMessage) -> None:
        """Store the next message (turn order), retrieving for it first if it is a user question."""
        if self.runtime_retrieval and message.role == "user" and "?" in message.content:
            self.store.retrieve_for_query(message.turn, message.content)
        self.store.add(message)

    def feed_many(self, messages: Iterable[PolicyMessage]) -> None:
        """Store messages in order."""
        for message in messages:
            self.feed(message)

    def select(self, at_turn: int, query: str, budget: Budget) -> dict[str, TimedSelection]:
        """Every policy's context for a query asked at ``at_turn``.

        Args:
            at_turn: The query's turn; the messages stored before it are the history.
            query: The query text.
            budget: What may be sent.

        Returns:
            Timed selections by policy name, in the runner's policy order.
        """
        context = PolicyContext(self.store, at_turn, query, budget)
        results: dict[str, TimedSelection] = {}
        for policy in self.policies:
            started = time.perf_counter()
            selection = policy.select(context)
            results[policy.name] = TimedSelection(selection, time.perf_counter() - started)
        return results


def run_policies(
    messages: Sequence[PolicyMessage],
    query: str,
    budget: Budget,
    *,
    policies: Sequence[str] | None = None,
    at_turn: int | None = None,
    estimator: str | None = None,
) -> dict[str, Selection]:
    """What each policy would keep for ``query`` after ``messages``.

    This is the call behind a "what if" view: feed it a loaded session's messages and a query, show
    each selection's turns, summary and tokens.

    Args:
        messages: The session so far, as ``(turn, role, content)`` records in turn order.
        query: The next query.
        budget: What may be sent.
        policies: Policy names (default: all).
        at_turn: The query's turn (default: one after the last message).
        estimator: The token estimator the budget is counted with (default: the default
            estimator; the policy lab passes the log's own, as the meter counts with it).

    Returns:
        Selections by policy name.

    Raises:
        ValueError: For messages out of turn order or an unknown policy name.
    """
    runner = PolicyRunner(policies, estimator=estimator)
    try:
        runner.feed_many(messages)
        turn = at_turn if at_turn is not None else (messages[-1].turn + 1 if messages else 1)
        return {name: timed.selection for name, timed in runner.select(turn, query, budget).items()}
    finally:
        runner.close()
