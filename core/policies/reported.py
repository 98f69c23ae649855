"""Relayed news read for what it states: the frame of a report told on by the speaker.

Someone passing news on marks how it reached them: a parenthesis ("(as relayed to me)",
"(second-hand)"), a closing phrase ("— so I was told.", "…, I'm told.", "…, I gather.", "…, as I
understand it."), a closing source line ("Source: the secretary."), a lead-in set off by a dash
("From the minutes — …"). These say where the statement comes from, not that it is doubted (doubt
has words of its own: "rumour", "unconfirmed", "allegedly"), and the speaker they name is the
statement's hearer, not its subject: :func:`read_reported` leaves the frame out (a dash lead-in
becomes a heading, "From the minutes: …"), as :mod:`.tracker_notation` leaves out "(HR told me)".

Everything here is the grammar of reporting, not vocabulary: no attribute, value or name of any
session.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Final

SOURCE_PARENTHESIS: Final = re.compile(
    r"(?<!\s)\s*\((?:as\s+|that\s+was\s+)?(?:relayed|passed\s+on|told|reported|forwarded|given)\s+(?:to\s+)?(?:me|us)\s*\)"
    r"|(?<!\s)\s*\((?:second|third)[- ]hand\)",
    re.IGNORECASE,
)
"""A parenthesis saying how the news reached the speaker: "(as relayed to me)", "(second-hand)"."""

SOURCE_CLOSING: Final = re.compile(
    r"(?<!\s)\s*(?:[—–]|-{1,2}|,)\s*(?:so|as|or so)\s+(?:i|we)\s+(?:was|were|am|'m|are|'re)\s+told"
    r"(?=\s*[.!;]|\s*$)"
    r"|,\s*(?:i'm|i am|we're|we are)\s+told(?=\s*[.!;]|\s*$)"
    r"|,\s*(?:i|we)\s+(?:gather|hear|understand)(?=\s*[.!;]|\s*$)"
    r"|,\s*as\s+(?:i|we)\s+(?:understand|hear)\s+it(?=\s*[.!;]|\s*$)",
    re.IGNORECASE,
)
"""A closing phrase naming the report ("— so I was told", "…, I'm told", "…, I gather", "…, as I
understand it"): the sentence before it is the statement."""

SOURCE_LINE: Final = re.compile(
    r"(?:^|(?<=[.!?]))(?<!\s)\s*source\s*:\s*[^.!?:]{1,40}[.!?]?\s*$", re.IGNORECASE
)
"""A closing line naming the source ("Source: the secretary.")."""

AMENDED_ENTRY: Final = re.compile(
    r"(?:^|(?<=: ))(?:agenda\s+)?(?:item|point|paragraph|section|clause|motion|entry)\s+\d+[a-z]?\s+of\s+"
    r"[^:.;!?]{1,40}?\s+(?:is|are|has been|have been|stands|was|were)\s+"
    r"(?:amended|corrected|revised|changed|altered)(?:\s+to\s+read)?\s*:\s*",
    re.IGNORECASE,
)
"""An amendment of a record's entry ("Item 2 of last week's minutes is amended to read: …"): a
correction heading ("Correction: …"); the entry's number and the record's date say where, not
what."""

DASH_LEAD_IN: Final = re.compile(r"^(\W*[A-Za-z][A-Za-z' ]{0,30}?)\s+[—–]\s+(?=[A-Z])")
"""A short lead-in set off by a dash before a capitalised sentence ("From the minutes — The chair
…"): a heading, as "From the minutes: …" is."""


@lru_cache(maxsize=65_536)
def read_reported(text: str) -> str:
    """``text`` without the frame of a relayed report (see the module docstring).

    Args:
        text: A message.

    Returns:
        The message as a statement (the same text when it has no frame).
    """
    out = SOURCE_LINE.sub("", text)
    out = SOURCE_PARENTHESIS.sub("", out)
    out = SOURCE_CLOSING.sub("", out)
    out = DASH_LEAD_IN.sub(r"\1: ", out)
    out = AMENDED_ENTRY.sub("Correction: ", out)
    return out if out != text else text
