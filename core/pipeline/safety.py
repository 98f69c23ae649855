"""The "safety net" instruction an agent's prompt should carry (SPEC §3).

A sub-agent asked to read 40 long chapters stopped after 2 "to save room", having used about
100,000 of a 400,000-token budget: it could not know that old tool results would be cleared to make
room for it. A fix the model cannot see is not a fix from the model's point of view, so the agent
must be told. Put :data:`SAFETY_NET_INSTRUCTION` in the system prompt (or the sub-agent's brief) of
any agent that runs behind this pipeline.
"""

from __future__ import annotations

from typing import Final

SAFETY_NET_INSTRUCTION: Final = (
    "Your context is managed for you. When this conversation grows beyond what the model can read "
    "at once, the oldest tool results are cleared (each replaced by a short note) and the newest "
    "are kept intact. So do not stop or cut short a long task to save room: keep going until it is "
    "done. If you need the content of a cleared result, run the tool again — for example, re-read "
    "the file."
)
"""Instruction text telling the agent about its safety net: old results are cleared, the newest
kept, so it should not stop a long task to save room and should re-read a file when it needs
cleared content."""
