"""The texts the pipeline puts into a request (and the one it shows the user instead of one).

They are constants so that the same wording appears in every request: a note that changed from
call to call would change the request's prefix and defeat the provider's prefix cache.
"""

from __future__ import annotations

from typing import Final

CLEARED_NOTE: Final = (
    "[This tool result was cleared to keep the conversation within the model's context. "
    "Run the tool again if you need its content.]"
)
"""Stage 2 replaces the content of an old tool result with this note (SPEC §3)."""

TRIM_NOTE: Final = (
    "[Earlier conversation was trimmed to keep it within the model's context. "
    "The newest complete turns follow.]"
)
"""Turn fitting, the guard and the legacy strategy put this note after the first message."""

SUMMARY_HEADER: Final = (
    "[Summary of the earlier conversation, which was compacted to fit the model's context]"
)
"""First line of the summary message stage 3 sends in place of the older turns."""

REFUSAL_MESSAGE: Final = (
    "This conversation has grown too long for the model to read in one go. Start a new chat for "
    "the next step — everything built so far is kept."
)
"""What the user sees when even the minimum recent history cannot fit the hard limit (SPEC §3).

It is the user's to handle, not an incident: no alert is raised.
"""
