"""Turn fitting: keep the first message, a note, and the newest complete units that fit.

Two modes, from the Mythex design (SPEC §3):

* **keep user turns** — the first message, :data:`~.notes.TRIM_NOTE`, and the newest complete
  user turns that fit; a tool call is never separated from its result;
* **keep tool rounds** — inside one long turn (the only kind a sub-agent has, since its brief is its
  only user message): the first message, the note, and the newest complete "call a tool, get the
  result" rounds that fit.

User turns are tried first; when even the newest turn does not fit, tool rounds are used. This is
stage 3's fallback when summarisation is off or unavailable. The newest ``min_recent_turns`` units
are never removed. :func:`first_fit` is shared with summarisation and the guard.
"""

from __future__ import annotations

from ..snapshot import Stage, StageRun
from .state import DROPPED, ScopeState


def first_fit(state: ScopeState, high: int, allowed: float, *, header: int | None = None) -> int | None:
    """The smallest valid cut ``s`` in ``(start, high]`` at which the request fits ``allowed``.

    Args:
        state: The scope's state.
        high: The latest position allowed (keeps the minimum of recent units).
        allowed: Raw tokens the request must fit in.
        header: Tokens of what goes between head and tail; None means the note and current summary.

    Returns:
        The position, or None when none fits. Walks forward from ``start``; callers then move
        ``start`` at least that far, so the walks of a whole session add up to its length.
    """
    tail = state.tail_tokens
    s = state.start
    eff = state.eff
    cut_ok = state.cut_ok
    head = state.head_tokens
    while s < high:
        tail -= eff[s]
        s += 1
        if not cut_ok[s]:
            continue
        size = head + (state.header_tokens(s) if header is None else header) + tail
        if size <= allowed:
            return s
    return None


def first_fitting_turn(state: ScopeState, high: int, allowed: float) -> int | None:
    """The oldest valid user-turn start in ``(start, high]`` at which the request fits ``allowed``."""
    total = state.fen.prefix(state.n)
    for s in state.turn_starts_between(state.start, high):
        if state.head_tokens + state.header_tokens(s) + total - state.fen.prefix(s) <= allowed:
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
        s = first_fit(state, high, down_to)
    if s is None:
        s = high
    dropped = s - state.start
    state.move_start(s, DROPPED)
    after = state.size()
    return StageRun(Stage.TRIM_TURNS, dropped, before - after, before, after)
