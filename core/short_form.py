"""Short forms of figures for narrow places (the dashboard's cells, Claude Code's status line).

One formatter, so the dashboard and the status line print the same count the same way.
"""

from __future__ import annotations


def tokens(value: int | None) -> str:
    """A token count in a short form: ``812``, ``12.4k``, ``1.21M``, ``3.40B`` (``—`` when unknown).

    The unit is chosen after rounding, so 999,999 reads ``1.00M``, never ``1000k``.
    """
    if value is None:
        return "—"
    sign = "-" if value < 0 else ""
    value = abs(value)
    if value < 1000:
        return f"{sign}{value}"
    if round(value / 1000, 1) < 100:
        return f"{sign}{value / 1000:.1f}k"
    if round(value / 1000) < 1000:
        return f"{sign}{value / 1000:.0f}k"
    for scale, unit in ((10**6, "M"), (10**9, "B")):
        if round(value / scale, 2) < 1000:
            return f"{sign}{value / scale:.2f}{unit}"
    return f"{sign}{value / 10**12:.2f}T"
