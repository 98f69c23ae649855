"""The calibrator: its rule (median of recent ratios, warm-up shrink, clamps) and its figures."""

from __future__ import annotations

import pytest
from ctxscope.core.calibration import MAX_FACTOR, MIN_FACTOR, WINDOW, Calibrator, diverges
from ctxscope.core.tokens import Calibrator as ReExported
from hypothesis import given
from hypothesis import strategies as st


def test_reexported_from_tokens() -> None:
    assert ReExported is Calibrator


def test_no_observations_means_no_correction() -> None:
    cal = Calibrator()
    assert cal.factor == 1.0
    assert cal.calibrate(1234) == 1234
    assert cal.calibrate(0) == 0
    assert cal.observations == 0
    assert cal.last_reported is None


def test_median_of_recent_ratios() -> None:
    cal = Calibrator()
    for estimate, reported in [(1000, 1200), (2000, 2500), (3000, 3500)]:
        cal.observe(estimate, reported)
    assert cal.factor == pytest.approx(1.2)
    assert cal.calibrate(10_000) == 12_000
    assert cal.last_reported == 3500


def test_first_observation_is_shrunk_towards_one() -> None:
    cal = Calibrator()
    cal.observe(1000, 2000)
    assert cal.factor == pytest.approx(1.5)  # halfway from 1.0 to 2.0 until warm-up ends


def test_one_outlier_does_not_swing_the_factor() -> None:
    cal = Calibrator()
    for _ in range(6):
        cal.observe(1000, 1300)
    cal.observe(1000, 4900)  # a mismatched pair, within the accepted range
    assert cal.factor == pytest.approx(1.3)
    cal.observe(1000, 200)
    assert cal.factor == pytest.approx(1.3)


def test_window_forgets_old_runs() -> None:
    cal = Calibrator()
    for _ in range(WINDOW):
        cal.observe(1000, 1000)
    for _ in range(WINDOW // 2 + 1):
        cal.observe(1000, 1500)
    assert cal.factor == pytest.approx(1.5)


def test_invalid_pairs_are_ignored() -> None:
    cal = Calibrator()
    cal.observe(0, 100)
    cal.observe(100, 0)
    cal.observe(-5, 100)
    cal.observe(100, 10_000)  # ratio 100: a report for some other request
    assert cal.observations == 0
    assert cal.factor == 1.0


def test_clamped() -> None:
    cal = Calibrator()
    for _ in range(5):
        cal.observe(100, 490)
    assert cal.factor == MAX_FACTOR
    cal = Calibrator()
    for _ in range(5):
        cal.observe(490, 100)
    assert cal.factor == MIN_FACTOR


def test_calibration_and_divergence() -> None:
    cal = Calibrator()
    for _ in range(3):
        cal.observe(1000, 1500)
    assert cal.calibrate(2000) == 3000
    assert cal.factor == pytest.approx(1.5)
    assert diverges(2000, 2900)
    assert not diverges(2000, 2100)
    assert not diverges(100, 105)
    assert diverges(100, 150)
    assert not diverges(0, 0)


@given(st.lists(st.tuples(st.integers(1, 10**6), st.integers(1, 10**6)), max_size=40))
def test_factor_always_in_range(pairs: list[tuple[int, int]]) -> None:
    cal = Calibrator()
    for estimate, reported in pairs:
        cal.observe(estimate, reported)
        assert MIN_FACTOR <= cal.factor <= MAX_FACTOR
        assert cal.calibrate(estimate) >= 0


def test_window_must_be_positive() -> None:
    with pytest.raises(ValueError):
        Calibrator(window=0)


def test_evidence_weighted_warm_up() -> None:
    """With ``prior_tokens`` the warm-up shrink depends on how many estimated tokens the
    observations cover, not on how many there are."""
    cal = Calibrator(prior_tokens=1000)
    cal.observe(1000, 2000)
    assert cal.factor == pytest.approx(1.5)  # a prior worth as much as this observation
    small = Calibrator(prior_tokens=1000)
    small.observe(50, 100)
    assert small.factor == pytest.approx(1 + 50 / 1050)
    large = Calibrator(prior_tokens=1000)
    large.observe(9000, 4500)
    assert large.factor == pytest.approx(1 - 0.5 * 0.9)
    for _ in range(2):
        large.observe(100, 50)
    assert large.factor == pytest.approx(0.5)  # warm-up over: the plain median


def test_evidence_weighted_calibrator_is_robust_to_one_outlier() -> None:
    cal = Calibrator(prior_tokens=600)
    for _ in range(6):
        cal.observe(1000, 1300)
    cal.observe(100_000, 490_000)  # a huge mismatched pair weighs as one rank, not by its size
    assert cal.factor == pytest.approx(1.3)


def test_factor_follows_new_observations() -> None:
    cal = Calibrator()
    for _ in range(3):
        cal.observe(1000, 1500)
    assert cal.factor == pytest.approx(1.5)
    for _ in range(3):
        cal.observe(1000, 1000)
    assert cal.factor == pytest.approx(1.25)  # the memoised factor was recomputed


def test_prior_tokens_must_not_be_negative() -> None:
    with pytest.raises(ValueError):
        Calibrator(prior_tokens=-1)
