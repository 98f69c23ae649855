"""Coreference within a message: an anaphor read as what it refers to.

A message often names its subject in one clause and says something about it in the next through a
word that refers back. English does this in a few general ways, and each is read here as the
phrase it stands for, so that the tracker's cues (:mod:`.lexicon`, :mod:`.claims`) see the
subject beside the value:

* "the former" / "the latter" refer to the first and the second of a pair just named ("A and B",
  "of A and B", "between A and B"): "Of the lift and Atlas, the latter moved" → "… Atlas moved";
* a subject pronoun opening a clause ("It", "They"; "That one", "This one") refers to the one
  name the clause or sentence before it named inside it (not a name the speaker addresses, "Thanks,
  Gina!", nor one of a pair): "Got a note about Rosa. They've taken the lead post." → "Rosa has
  taken the lead post." ("He" and "She" are left alone: a name does not say whether it is a
  person's, and a person named beside a project is as often not the one meant);
* "the same" used as a pronoun (the subject or object of a verb, as Indian and Nigerian English
  use it: "Regarding Atlas, the same launches on Friday") refers to the nearest name before it;
  "the same as", "the same goes for" and "the same" before a noun ("the same day") are no anaphor.

Only capitalised names (a capitalised word after the first of its sentence) are taken as referents
of the pronouns: a message typed in lower case is left as it is. An anaphor with no referent, or
with two candidates, is left as it is. Nothing here knows any attribute or value.
"""

from __future__ import annotations

import re
from typing import Final

_CLAUSE: Final = re.compile(r"((?<=[.!?;:])\s+|(?<=,)\s+(?=so\b|and\b|but\b))")
"""Where a clause that may open with an anaphor begins (after a sentence or clause mark)."""

_PAIR: Final = re.compile(
    r"(?:^|(?<=[.!?;:,(])\s*|\b(?:of|between|both|about|with|regarding|for)\s+)"
    r"(?P<first>(?:[\w'’-]+\s+){0,3}?[\w'’-]+)\s+(?:and|or)\s+"
    r"(?P<second>(?:[\w'’-]+\s+){0,3}?[\w'’-]+?)"
    r"(?=\s*[,;:.!?)]|\s+(?:were|are|was|is|have|has|had|will|would|can|could|both|both)\b)",
    re.IGNORECASE,
)
"""A pair of noun phrases ("A and B", "of A and B"), each at most four words."""

_FORMER_LATTER: Final = re.compile(r"\b(?P<the>[Tt]he) (?P<which>former|latter)\b(?P<pos>'s|’s)?")

_PRONOUN: Final = re.compile(
    r"^(?P<lead>(?:(?:so|and|but|well|turns out|it turns out)\s*,?\s+)?)"
    r"(?P<pronoun>it|they|that one|this one)"
    r"(?P<verb>'s|’s|'re|’re|'ve|’ve|'ll|’ll|'d|’d|(?=\s+[a-z]))",
    re.IGNORECASE,
)
"""A clause opening with a subject pronoun and its verb."""

_EXPLETIVE: Final = re.compile(
    r"\bthat\b|\b(?:seems?|seemed|appears?|appeared|turns? out|turned out|looks? like|means?)\b",
    re.IGNORECASE,
)
"""An "it" with nothing to refer to: "It seems…", "It is denied that…", "It turns out…"."""

_PAIRED: Final = re.compile(r"\b[A-Z][\w'’-]*\s+(?:and|or|&)\s+[A-Z]")
"""Two names joined ("Ana and Bo"): a pronoun after them refers to both, or is unclear."""

_CONTRACTION: Final = {"'s": " is", "'re": " is", "'ve": " has", "'ll": " will", "'d": " would"}
"""A contraction after a pronoun, spelt out after the name put in its place (agreement is not
the point: the name is)."""

_THE_SAME: Final = re.compile(
    r"\b(?P<the>[Tt]he) same\b(?=\s*[.!?;,]|\s*$|\s+(?:is|are|was|were|has|have|had|will|would|shall"
    r"|should|can|could|may|might|must)\b|\s+[a-z]+s\s+(?:on|to|at|in|from|for|by)\b)"
)
""""The same" as a pronoun: before a finite verb or at a clause end, not before a noun."""

_NAME: Final = re.compile(r"(?<![\w'’])(?:[A-Z][\w'’-]*(?:\s+[A-Z][\w'’-]*)*)")
_SENTENCE_START: Final = re.compile(r"(?:^|(?<=[.!?;:])\s+|(?<=[.!?;:]))\s*")
OPENER: Final = re.compile(
    # what capitalisation cannot tell from a name at a sentence's start: the closed classes
    # (pronouns, determiners, prepositions, conjunctions, greetings) and verbs in the past or
    # in -ing, the usual openers of a chat sentence with its subject left out
    r"(?:i|i'm|i've|i'd|i'll|we|you|they|he|she|it|my|our|your|the|a|an|this|that|these|those|so|and|but"
    r"|or|if|as|re|of|on|in|at|to|for|from|with|about|after|before|by|since|until|just|quick|small|also"
    r"|please|thanks|cheers|hi|hello|hey|dear|note|update|fyi|ok|okay|yes|no|well|oh|right|good|great"
    r"|got|had|did|made|took|saw|met|ran|sat|went|came|caught|found|heard|told|gave|left|spent|kept"
    r"|[a-z]+ed|[a-z]+ing|[a-z]+ly)",
    re.IGNORECASE,
)


def _names(text: str) -> list[tuple[int, str, bool]]:
    """Capitalised runs of ``text``: position, text and whether it opens its sentence ("I" aside;
    a sentence's first word only when it is no usual opener, :data:`OPENER`). A name the speaker
    addresses ("Thanks, Gina!", "Hey Sam!", "Wow, Sam, …") is no referent and is left out."""
    starts = {m.end() for m in _SENTENCE_START.finditer(text)}
    found = []
    for match in _NAME.finditer(text):
        name, at = match.group(0), match.start()
        opening = at in starts
        if opening:
            first, _, rest = name.partition(" ")
            if OPENER.fullmatch(first):
                if not rest:
                    continue
                name, at, opening = rest, at + len(first) + 1, False
        if _VOCATIVE_AFTER.match(text, match.end()) and (
            opening or _VOCATIVE_BEFORE.search(text, max(0, at - 30), at)
        ):
            continue
        name = name[:-2] if name.endswith(("'s", "’s")) else name
        if name not in ("I", "I'm", "I've", "I'd", "I'll"):
            found.append((at, name, opening))
    return found


_VOCATIVE_BEFORE: Final = re.compile(
    r"(?:,|\b(?:hey|hi|hello|dear|thanks|thank you|cheers|bye|morning|evening|congrats|yo|oh|wow|yeah|well))"
    r"\s*$",
    re.IGNORECASE,
)
_VOCATIVE_AFTER: Final = re.compile(r"\s*[,.!?]")
"""A name between a greeting (or a comma) and a mark is addressed, not spoken of."""


def _former_latter(text: str) -> str:
    out: list[str] = []
    done = 0
    for match in _FORMER_LATTER.finditer(text):
        pairs = list(_PAIR.finditer(text, 0, match.start()))
        if not pairs:
            continue
        pair = pairs[-1]
        referent = pair.group("first" if match.group("which") == "former" else "second")
        if referent.lower() in ("the former", "the latter"):
            continue
        out.append(text[done : match.start()])
        out.append(referent + (match.group("pos") or ""))
        done = match.end()
    return "".join(out) + text[done:] if out else text


def _pronouns(text: str) -> str:
    pieces = _CLAUSE.split(text)  # clause, mark, clause, mark, …
    for index in range(2, len(pieces), 2):
        match = _PRONOUN.match(pieces[index])
        if match is None:
            continue
        if match.group("pronoun").lower() == "it" and _EXPLETIVE.search(pieces[index]):
            continue
        before = pieces[index - 2]
        # one name inside the clause before (one opening it may be a capitalised word), not
        # one of a pair: "They" after "Ana and Bo" is both
        inside = {n for _at, n, opening in _names(before) if not opening}
        if len(inside) != 1 or _PAIRED.search(before):
            continue
        verb = match.group("verb").replace("’", "'")
        pieces[index] = match.group("lead") + inside.pop() + _CONTRACTION.get(verb, verb) + pieces[
            index
        ][match.end() :]
    return "".join(pieces)


def _the_same(text: str) -> str:
    out: list[str] = []
    done = 0
    names = _names(text)
    for match in _THE_SAME.finditer(text):
        # the nearest name before it, one inside a sentence before one that opens it ("Rubbish;")
        before = sorted((not opening, at, n) for at, n, opening in names if at < match.start())
        if not before or text[match.end() :].lstrip().startswith("goes"):
            continue
        out.append(text[done : match.start()])
        out.append(before[-1][2])
        done = match.end()
    return "".join(out) + text[done:] if out else text


def resolve_references(text: str) -> str:
    """``text`` with its anaphors read as what they refer to (see the module doc).

    Args:
        text: A message (after the chat, dictation and letter readings).

    Returns:
        The message, each resolved anaphor replaced by its referent (the same text when none is).
    """
    return _pronouns(_the_same(_former_latter(text)))
