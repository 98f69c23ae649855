"""The one short form of a token count, shared by the dashboard and the status line."""

from ctxscope.core.short_form import tokens


def test_token_units_are_chosen_after_rounding() -> None:
    """No ``100.0k``, ``1000k`` or ``1000000.00M``: the unit moves up when the rounded figure would."""
    assert tokens(99_949) == "99.9k"
    assert tokens(99_950) == "100k"
    assert tokens(999_499) == "999k"
    assert tokens(999_999) == "1.00M"
    assert tokens(999_995_000) == "1.00B"
    assert tokens(10**12) == "1.00T"
    assert tokens(-2_500_000_000) == "-2.50B"
