"""The offset-based containers of :mod:`ctxscope.core.retention`: absolute positions, a pinned
head, released positions that raise instead of standing in for something."""

from __future__ import annotations

import pytest
from ctxscope.core.retention import Held, HeldInts, LiveWindow, ReleasedError


def test_held_keeps_absolute_positions_and_its_head() -> None:
    held = Held(range(10))
    assert held == list(range(10)) and held.offset == 0
    assert held.release(2, keep_first=3) == []  # nothing past the head to release
    assert held.release(6, keep_first=2) == [2, 3, 4, 5]
    assert (len(held), held.pinned, held.offset) == (10, 2, 6)
    assert held[0] == 0 and held[1] == 1 and held[6] == 6 and held[-1] == 9
    assert held[6:8] == [6, 7] and held[0:2] == [0, 1]
    assert list(held) == [0, 1, 6, 7, 8, 9] and list(reversed(held)) == [9, 8, 7, 6, 1, 0]
    assert list(held.held(1, 8)) == [(1, 1), (6, 6), (7, 7)]
    assert [held.is_held(i) for i in (0, 2, 5, 6, 10)] == [True, False, False, True, False]
    for released in (2, 5):
        with pytest.raises(ReleasedError):
            held[released]
    with pytest.raises(ReleasedError):
        held[1:7]
    held.append(10)
    held[-1] = 11
    assert held[10] == 11 and len(held) == 11
    assert held.release(4) == [] and held.offset == 6  # never moves back
    assert held != list(range(11))


def test_held_ints_release_like_held() -> None:
    ints = HeldInts("q", range(8))
    ints.release(5, keep_first=1)
    assert (len(ints), ints.pinned, ints.offset, list(ints.raw)) == (8, 1, 5, [5, 6, 7])
    assert ints[0] == 0 and ints[5] == 5 and ints[-1] == 7
    ints[0], ints[7] = 10, 70
    assert ints[0] == 10 and ints.raw[-1] == 70
    with pytest.raises(ReleasedError):
        ints[3]
    with pytest.raises(ReleasedError):
        ints[3] = 1


def test_the_window_keeps_the_newest_requests_and_the_newest_one_always() -> None:
    assert [LiveWindow(3).first_kept(n) for n in (0, 2, 3, 10)] == [0, 0, 0, 7]
    assert LiveWindow(0).first_kept(10) == 9


def test_a_fenwick_tree_keeps_prefix_differences_after_dropping_positions() -> None:
    from ctxscope.core.pipeline.state import Fenwick

    values = [(7 * i) % 13 for i in range(300)]
    tree = Fenwick()
    for value in values:
        tree.append(value)
    tree.drop(3, 120, values.__getitem__)
    for value in (5, 9):
        tree.append(value)
        values.append(value)
    tree.add(150, 4)
    values[150] += 4
    tree.add(1, 2)
    values[1] += 2
    assert len(tree) == len(values) == 302
    assert [tree.prefix(k) for k in range(4)] == [sum(values[:k]) for k in range(4)]
    for a, b in ((120, 302), (130, 200), (150, 151), (299, 302)):
        assert tree.prefix(b) - tree.prefix(a) == sum(values[a:b])
