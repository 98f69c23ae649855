"""Stage 4: the hard-limit guard.

Before a request is sent its measured size — the larger of the raw and the calibrated estimate —
is checked against the hard limit in force. If it is over, the oldest messages after the head are
left out (at complete-unit boundaries, so calls stay with their results) while the newest
``min_recent_turns`` units are kept. If even that minimum does not fit, the request is *refused*:
nothing is sent and the user sees :data:`~.notes.REFUSAL_MESSAGE`. An oversized request is never
produced, so overflow is structurally impossible.
"""

from __future__ import annotations

from ..snapshot import Stage, StageRun
from .notes import REFUSAL_MESSAGE
from .state import DROPPED, ScopeState

__all__ = ["REFUSAL_MESSAGE", "run_guard"]


def run_guard(state: ScopeState, *, allowed: float, min_units: int) -> tuple[StageRun | None, bool]:
    """Fit the request under ``allowed`` raw tokens (the hard limit, calibrated).

    Returns:
        The stage run (None when the request already fitted) and whether the request is refused.
    """
    before = state.size()
    if before <= allowed:
        return None, False
    high = state.min_start(min_units)
    s = state.first_fit(high, allowed) if high > state.start else None
    if s is None and high > state.start:
        s = high
    dropped = 0
    if s is not None:
        dropped = s - state.start
        state.move_start(s, DROPPED)
    after = state.size()
    return StageRun(Stage.GUARD, dropped, before - after, before, after), after > allowed
