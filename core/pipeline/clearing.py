"""Stage 2: clear old tool results — no model call, silent.

When the request is still over the trigger after stage 1, the *content* of the oldest tool results
is replaced by :data:`~.notes.CLEARED_NOTE`; the call and its result stay paired. The rules
(SPEC §3):

* results are cleared in batches of ``clear_batch`` (4) oldest, not one at a time, so the cleared
  prefix stays identical across many calls and the provider's prefix cache keeps working;
* a result that would save less than ``min_clear_gain`` tokens over the note is left as it is
  (clearing it saves nothing but still changes the prefix), as are results of excluded tools;
* the newest results that fit in ``keep_fraction`` (a quarter) of the budget are kept intact —
  decided by size, not count — and always at least one.

Clearing works down to the target (hysteresis) and stays in effect for later requests.
"""

from __future__ import annotations

from ..snapshot import Stage, StageRun
from .state import ScopeState


def run_clearing(state: ScopeState, *, over: float, down_to: float, batch: int) -> StageRun | None:
    """Clear batches of the oldest clearable tool results while the request is over ``down_to``.

    Args:
        state: The scope's pipeline state.
        over: Run only when the request (raw tokens) is above this (the trigger, uncalibrated).
        down_to: Clear until the request is at or under this (the target, uncalibrated).
        batch: Results cleared per batch.

    Returns:
        The stage run, or None when nothing was cleared.
    """
    size = state.size()
    if size <= over:
        return None
    before = size
    protected = state.protected_from()
    cleared = 0
    while size > down_to:
        chosen = state.take_clearable(batch, before=protected)
        if not chosen:
            break
        for ordinal in chosen:
            size -= state.clear(ordinal)
            cleared += 1
    if not cleared:
        return None
    return StageRun(Stage.CLEAR_TOOL_RESULTS, cleared, before - size, before, size)
