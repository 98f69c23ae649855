"""The two lenses a snapshot can be taken through, in a module of their own so that the command
line can offer them (``--lens``) without importing the snapshot records."""

from __future__ import annotations

from typing import Final, Literal

Lens = Literal["recorded", "pipeline"]
"""Which figures a snapshot holds: ``recorded`` (what the agent sent and did) or ``pipeline``
(what ctxscope's pipeline would send for the same history: the what-if)."""
LENSES: Final[tuple[Lens, ...]] = ("recorded", "pipeline")
