"""Strategy ``legacy``: the behaviour before the pipeline, kept for comparison.

When the request is over the budget, trim — but only at the start of a user message, so a tool
call and its result are never separated: keep the first message, add a note that earlier
conversation was trimmed, and keep the newest complete user turns that fit. No artifact trimming,
no clearing, no summary, no guard.

A sub-agent has exactly one user message, its brief, so there is nowhere to cut: it sends its whole
history every step until the request is larger than the model accepts. That is the seed's failure
(8 of 8 sub-agents refused); replaying a session with ``--strategy legacy`` shows it.
"""

from __future__ import annotations

from ..snapshot import Stage, StageRun
from .fitting import first_fitting_turn
from .state import DROPPED, ScopeState


def run_legacy(state: ScopeState, *, budget: float) -> StageRun | None:
    """Drop the oldest complete user turns until the request fits ``budget`` (raw tokens)."""
    before = state.size()
    if before <= budget:
        return None
    turns = state.turn_starts_between(state.start, state.count - 1)
    if not turns:
        return None
    s = first_fitting_turn(state, turns[-1], budget) or turns[-1]
    dropped = s - state.start
    state.move_start(s, DROPPED)
    after = state.size()
    return StageRun(Stage.TRIM_TURNS, dropped, before - after, before, after)
