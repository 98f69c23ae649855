"""Team-chat and issue-tracker notation read as English.

People who live in trackers and chat rooms write a correction the way their tools show one: a
sed-style substitution ("s/Monday/Friday/"), a strike-through ("~~Monday~~ Friday"), a field line
with an arrow ("deadline: Monday -> Friday"), an "edit:" follow-up; they write "=" for "is",
address a room ("@here", "hi all") and mention people with "@". The tracker's cues
(:mod:`.lexicon`) are written for English prose, so :func:`read_notation` rewrites the notation into
the English it stands for before anything else reads a message:

* ``s/OLD/NEW/`` → ``NEW (was OLD)``; ``~~OLD~~ NEW`` → ``(was OLD) NEW``; ``field: OLD -> NEW`` →
  ``field: (was OLD) NEW`` — the old value named as replaced, as "(was X)" names it in prose;
* an "edit:" or "typo:" heading is a correction ("Correction: …");
* " = " between words is "is";
* "@here", "@channel", "@all" address the room and are dropped; "@Name" is the name;
* a greeting to a group opening a message ("hi all", "morning team,") addresses, it says nothing;
* a parenthesis that copies someone in or names the source of a correction ("(cc Dana)", "(HR
  told me)") is an aside about the message, not part of what it states;
* a value swapped out ("swap X out, put Y in") is the old one, named as replaced: "(was X) Y"; one
  put in for another ("Put Dana in for Tom as the lead") replaces it: "Dana instead of Tom …";
* an arrow after a question points to its answer ("when? -> Friday"); "Lagos-based" is "based in
  Lagos";
* a run of words typed in capitals ("IN CODE REVIEW", "BLOCKED"), as a tracker shows a column or a
  label, is read as ordinary words; a lone capital word of up to three letters ("PO", "EUR", "QA")
  is an acronym and left alone.

Everything here is notation, not vocabulary: no attribute, value or name of any session.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Final

SUBSTITUTION: Final = re.compile(r"(?<![\w/])s/([^/\n]{1,60})/([^/\n]{1,60})/?(?![\w/])")
"""A sed-style substitution: ``s/old/new/`` (the closing slash optional)."""

STRIKE: Final = re.compile(r"~~([^~\n]{1,60})~~\s*")
"""A strike-through: what is struck out is the old value, what follows it the new one."""

FIELD_ARROW: Final = re.compile(r"(:\s*)([^:\n>]{1,60}?)\s*(?:->|→|=>|⇒)\s*(?=\S)")
"""A field line ``label: old -> new``: the value before the arrow is replaced by the one after it."""

FINITE_VERB: Final = re.compile(
    r"\b(?:is|are|was|were|am|has|have|had|got|gets|went|goes|did|does|said|says|made|makes|took|takes)\b"
)
"""A finite verb: what stands before an arrow with one in it is a clause ("X got promoted -> Y"),
not a field's old value."""

BRACKET_LABEL: Final = re.compile(r"^\s*\[([^\[\]\n]{1,40})\]\s*(?=\S)")
"""A bracketed label opening a message ("[availability] …"), as a tracker shows a field: "label: …"."""

EDIT_HEADING: Final = re.compile(r"(?i)(^|(?<=[.!?:]\s))(?:edit(?:ed)?|upd|typo(?:\s+above)?|fix)\s*:\s*")
"""An "edit:" follow-up: a correction of what the message before said."""

EQUALS: Final = re.compile(r"(?<=\w|[)\]%])\s+=\s+(?=[\w@$€£(\[])")
"""" = " between words: "is"."""

ROOM_MENTION: Final = re.compile(r"(?i)(?<![\w@])@(?:here|channel|all|everyone|team|room)\b[\s,:]*")
"""A mention of the whole room: addressing, not content."""

MENTION: Final = re.compile(r"(?<![\w@])@(?=[A-Za-z])")
""""@Name": the name."""

GROUP_GREETING: Final = re.compile(
    r"(?i)^\W*(?:(?:good\s+)?(?:morning|afternoon|evening)|hi|hello|hey|hiya|yo|greetings)"
    r"\s+(?:all|everyone|everybody|team|folks|guys|people|y'all|you all|both)\b[^\w@]*"
    r"|^\W*(?:team|folks|all|everyone|guys)\s*[,:!]\s*"
)
"""A greeting to a group opening a message ("hi all", "morning team ☕", "team,")."""

ASIDE_PARENTHESIS: Final = re.compile(
    r" ?\((?:cc|fyi|bcc)\b[^()]*\)| ?\([^()]{0,40}\b(?:told|tells|informed|confirmed it to) (?:me|us)\s*\)",
    re.IGNORECASE,
)
"""A parenthesis copying someone in or naming who passed the correction on."""

CAPITALS: Final = re.compile(r"(?<![\w'-])[A-Z][A-Z0-9'-]*[A-Z0-9](?![\w'-])")
"""A word typed in capitals (two characters or more)."""

ANSWER_ARROW: Final = re.compile(r"\?\s*(?:->|→|=>|⇒)\s*")
"""An arrow after a question points to its answer ("when does it ship? -> Friday")."""

BASED: Final = re.compile(r"(?<![\w-])([A-Z][\w]*(?: [A-Z][\w]*)?)-based\b")
""""Lagos-based": based in Lagos."""

SWAP_OUT: Final = re.compile(
    r"(?i)\bswap(?:ped)?\s+([^,.;:\n]{1,40}?)\s+out\b,?\s*(?:and\s+)?(?:put\s+)?(?:in\s+)?"
)
"""A value swapped out ("swap X out, put Y in"): the old value, named as replaced."""
PUT_IN_FOR: Final = re.compile(r"(?i)\bput\s+([^,.;:\n]{1,40}?)\s+in\s+for\s+")
"""One put in for another ("Put Dana in for Tom as the lead"): the other is the old value."""
_TRAILING_IN: Final = re.compile(r"[ \t]in(?=[.;!]|$)")

_SPACE: Final = re.compile(r"(?<![ \t])[ \t]+")


def _old(value: str) -> str:
    return value.strip().lstrip("@")


def _substitute(match: re.Match[str]) -> str:
    return f"{match.group(2).strip().lstrip('@')} (was {_old(match.group(1))})"


def _field(match: re.Match[str]) -> str:
    if FINITE_VERB.search(match.group(2)):
        return match.group(0)
    return f"{match.group(1)}(was {_old(match.group(2))}) "


def _bracket_label(match: re.Match[str]) -> str:
    """A one-word bracketed label is a field name; a longer one ("[Kelp epic]") names a subject."""
    label = match.group(1).strip()
    return f"{label}: " if " " not in label else match.group(0)


def _lower_capitals(text: str) -> str:
    """Runs of words typed in capitals read as ordinary words; a lone short one is an acronym."""
    matches = list(CAPITALS.finditer(text))
    if not matches:
        return text
    out: list[str] = []
    pos = 0
    for i, match in enumerate(matches):
        before = matches[i - 1] if i else None
        after = matches[i + 1] if i + 1 < len(matches) else None
        in_run = (before is not None and text[before.end() : match.start()] == " ") or (
            after is not None and text[match.end() : after.start()] == " "
        )
        word = match.group(0)
        if in_run or len(word) > 3:
            out.append(text[pos : match.start()])
            out.append(word.lower())
            pos = match.end()
    out.append(text[pos:])
    return "".join(out)


@lru_cache(maxsize=65_536)
def read_notation(text: str) -> str:
    """``text`` with tracker and chat notation written out as English (see the module docstring).

    Args:
        text: A message.

    Returns:
        The message as English prose reads it (the same text when there is no notation in it).
    """
    if text.isupper():  # a message typed all in capitals is shouted prose, not labels
        text = text.lower()
    out = GROUP_GREETING.sub("", text)
    out = ASIDE_PARENTHESIS.sub("", out)
    if "/" in out:
        out = SUBSTITUTION.sub(_substitute, out)
    if "~~" in out:
        out = STRIKE.sub(lambda m: f"(was {_old(m.group(1))}) ", out)
    if ">" in out or "→" in out or "⇒" in out:
        out = FIELD_ARROW.sub(_field, ANSWER_ARROW.sub("? ", out))
    if "-based" in out:
        out = BASED.sub(r"based in \1", out)
    if "@" in out:
        out = MENTION.sub("", ROOM_MENTION.sub("", out))
    if out.lstrip().startswith("["):
        out = BRACKET_LABEL.sub(_bracket_label, out)
    if "=" in out:
        out = EQUALS.sub(" is ", out)
    if " out" in out or " in for " in out:
        swapped = SWAP_OUT.sub(lambda m: f"(was {m.group(1)}) ", out)
        if swapped != out:
            swapped = _TRAILING_IN.sub("", swapped)
        out = PUT_IN_FOR.sub(lambda m: f"{m.group(1)} instead of ", swapped)
    out = EDIT_HEADING.sub(lambda m: m.group(1) + "Correction: ", out)
    out = _lower_capitals(out)
    if out == text:
        return text
    return _SPACE.sub(" ", out).strip()
