"""Turn fitting: keep the first message, a note, and the newest complete units that fit.

Two modes, from the Mythex design (SPEC §3):

* **keep user turns** — the first message, :data:`~.notes.TRIM_NOTE`, and the newest complete
  user turns that fit; a tool call is never separated from its result;
* **keep tool rounds** — inside one long turn (the only kind a sub-agent has, since its brief is its
  only user message): the first message, the note, and the newest complete "call a tool, get the
  result" rounds that fit.

User turns are tried first; when even the newest turn does not fit, tool rounds are used. This is
stage 3's fallback when summarisation is off or unavailable. The newest ``min_recent_turns`` units
are never removed. :meth:`~.state.ScopeState.first_fit` is shared with summarisation and the guard.
"""

from __future__ import annotations

from ..snapshot import Stage, StageRun
from .state import DROPPED, ScopeState


def first_fitting_turn(state: ScopeState, high: int, allowed: float) -> int | None:
    """The oldest valid user-turn start in ``(start, high]`` at which the request fits ``allowed``."""
    for s in state.turn_starts_between(state.start, high):
        if state.size_if_start(s) <= allowed:
            return s
    return None


def run_fitting(state: ScopeState, *, over: float, down_to: float, min_units: int) -> StageRun | None:
    """Drop the oldest complete turns (or tool rounds) until the request fits ``down_to``.

    Returns:
        The stage run, or None when it was not needed or nothing could be dropped.
    """
    before = state.size()
    if before <= over:
        return None
    high = state.min_start(min_units)
    if high <= state.start:
        return None
    s = first_fitting_turn(state, high, down_to)
    if s is None:
        s = state.first_fit(high, down_to)
    if s is None:
        s = high
    dropped = s - state.start
    state.move_start(s, DROPPED)
    after = state.size()
    return StageRun(Stage.TRIM_TURNS, dropped, before - after, before, after)
