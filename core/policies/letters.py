"""The frame of a letter or an e-mail, set aside from what it says.

Formal mail wraps its statement in formulae that say nothing about the matter: a salutation
("Dear colleagues,", "Good afternoon."), a valediction ("Kind regards.", "Yours sincerely.",
"Many thanks in advance.", "Please acknowledge receipt."), a signature under it, and, in a reply,
the earlier mail quoted ("> …" lines, or everything after "-----Original Message-----" or
"On Monday, Ilse wrote:"), and a signature on a line of its own after a dash or "Sent from my
…". Quoted text was said before, by someone, and is not a new statement;
a salutation's capitalised words are not names ("Dear colleagues, Correction: …" opens the body
with "Correction"), nor is the capitalised opening of a formula run on after a value ("…
the Orangery Please acknowledge receipt"). :func:`letter_body` keeps the body alone. These are the
conventions of English correspondence, not of any one writer.

Every pattern here is linear in the text's length: literal alternations, a bounded run of words
and single character classes, never a quantified group that can match the same text two ways.
"""

from __future__ import annotations

import re
from typing import Final

from .coreference import OPENER

SALUTATION: Final = re.compile(
    r"^[ \t]*(?:(?:dear|hello|hi|hey|greetings)(?:[ \t]+[\w'-]+){0,3}[ \t]*,"
    r"|good (?:morning|afternoon|evening|day)[ \t]*(?:(?:all|everyone|team|colleagues)[ \t]*)?[.,!]"
    r"|to whom it may concern[ \t]*[,:]|all,)[ \t]*",
    re.IGNORECASE,
)
"""A salutation opening a mail ("Dear colleagues,", "Good afternoon.", "Hi all,")."""

_VALEDICTION_WORDS: Final = (
    r"(?:kind|best|warm|warmest|with kind|with best|many)?[ \t]*regards|yours (?:sincerely|faithfully|truly)"
    r"|sincerely(?: yours)?|best wishes|all the best|(?:many )?thanks in advance|many thanks"
    r"|with thanks|thanking you in advance|please acknowledge receipt|respectfully(?: yours)?"
)
VALEDICTION: Final = re.compile(
    r"(?:^|(?<=[.!?\n])|(?<=[.!?\n][ \t])|(?<=[\w)][ \t]))(?:" + _VALEDICTION_WORDS + r")[.,!]?"
    r"(?:[ \t]*\n[^\n]{0,60}|[ \t]*)$",
    re.IGNORECASE,
)
"""A valediction closing a mail, with the signature line under it, if any ("Kind regards.\nIlse")."""

ORIGINAL_MESSAGE: Final = re.compile(
    r"^-{2,}[ \t]*(?:original message|forwarded message)[ \t]*-{2,}"
    r"|^on [^\n]{1,120}wrote:[ \t]*$|^from:[ \t][^\n]*$",
    re.IGNORECASE | re.MULTILINE,
)
"""Where a reply's quoted earlier mail begins: everything from there on was said before."""
SIGNATURE: Final = re.compile(
    r"\n[ \t]*(?:--|—|–)[ \t]*[^\n]{0,80}$|\n[ \t]*sent from my\b[^\n]{0,80}$", re.IGNORECASE
)
"""A signature closing a mail on a line of its own: after the signature delimiter, a dash opening
the last line ("-- ", "— sent from my phone, pardon the formatting"), or a device's "Sent from my
…" line."""
_QUOTED_LINE: Final = re.compile(r"^[ \t]*>[^\n]*(?:\n|$)", re.MULTILINE)
"""A line quoted from an earlier mail ("> The venue is the Orangery.")."""
_QUOTED_SUBJECT: Final = re.compile(
    r"^[ \t]{0,8}>[ \t]{0,8}((?-i:[A-Z][\w'-]{0,40}(?:[ \t][A-Z][\w'-]{0,40}){0,3}))(?=[ \t:,]|'s\b)"
)
"""The capitalised name opening a quoted line: the subject of the statement quoted."""


def letter_body(text: str) -> str:
    """``text`` without its salutation, valediction, signature and quoted earlier mail.

    Args:
        text: A message.

    Returns:
        What the message itself says (the same text when it has no such frame).
    """
    if ">" in text:
        quoted = _QUOTED_LINE.findall(text)
        text = _QUOTED_LINE.sub("", text)
        topic = _QUOTED_SUBJECT.match(quoted[0]) if quoted and text.strip() else None
        if topic is not None and topic.group(1) not in text and not OPENER.fullmatch(
            topic.group(1).split()[0]
        ):
            # the reply speaks of what the quoted statement was about ("> Atlas launches Friday" /
            # "Scratch that — it's Monday now."): its subject is the reply's topic
            text = f"Re {topic.group(1)}: {text.lstrip()}"
    original = ORIGINAL_MESSAGE.search(text)
    if original is not None and original.start() > 0:
        text = text[: original.start()]
    salutation = SALUTATION.match(text)
    if salutation is not None and salutation.end() < len(text):
        rest = text[salutation.end() :]
        text = rest[:1].upper() + rest[1:] if text[:1].isupper() else rest
    signature = SIGNATURE.search(text) if "\n" in text else None
    if signature is not None and text[: signature.start()].strip():
        text = text[: signature.start()].rstrip()
    valediction = VALEDICTION.search(text)
    if valediction is not None and valediction.start() > 0:
        text = text[: valediction.start()].rstrip()
    return text
