"""Texts typed on a phone read as written English: one line is one text.

Someone texting sends a statement as a run of short texts, and a message collected from them keeps
a text per line. Two conventions of that register are read here, neither of them any one writer's:

* a correction sent as the next text, a star before the word meant ("lanch" / "\\*launch"): the
  word of the line before it that is spelt most like the starred word is replaced by it, and the
  star's line is left out (also when it only repeats a word already there: "\\*Oslo not the other
  one" confirms the spelling, it states nothing new);
* a first text of a few words followed by more ("ok so" / "…", "before I forget" / "…") is a
  lead-in, as "Update: …" is: it is read as a heading before a colon, so its "I" is not the
  subject of what follows.

A line break also ends a clause where :mod:`.lexicon` reads clauses (what a negation or a
withdrawal covers), since the next text is a new utterance; that is the lexicon's.

Every pattern here is linear in the text's length.
"""

from __future__ import annotations

import re
from difflib import SequenceMatcher
from typing import Final

STAR_LINE: Final = re.compile(r"^[ \t]*\*(\w[^\n*]*)$")
"""A line opening with a star before a word: the correction of a word of the line before."""
_WORD: Final = re.compile(r"(?<![\w'’])[\w'’]+")
EMPHASIS_MID: Final = re.compile(r"!!+[ \t]+(?=[a-z])")
"""Repeated exclamation marks before a word in lower case: emphasis inside a sentence that goes on
("X promoted!!! sales lead now"), read as a comma."""
SIMILAR: Final = 0.6
"""How alike (difflib's ratio) a word and its starred correction are at least."""
LEAD_IN_WORDS: Final = 3
"""Most words of a first text read as a lead-in."""
_LEAD_IN: Final = re.compile(
    r"^[ \t]*([^\W\d_][\w'’]*(?:[ \t]+(?-i:(?![A-Z]))[^\W\d_][\w'’]*){0,2})[ \t]*\n(?=[ \t]*\w)"
)
"""A first line of one to three words, no punctuation and no name after its first word, with a
text after it."""


def _corrected(line: str, starred: str) -> str | None:
    """``line`` with the word spelt most like the first word of ``starred`` replaced by it (None
    when no word is alike; ``line`` itself when the word is already there)."""
    target = _WORD.match(starred)
    if target is None:
        return None
    meant = target.group(0)
    best: tuple[float, re.Match[str]] | None = None
    for word in _WORD.finditer(line):
        ratio = SequenceMatcher(None, word.group(0).lower(), meant.lower()).ratio()
        if ratio >= SIMILAR and (best is None or ratio > best[0]):
            best = (ratio, word)
    if best is None:
        return None
    word = best[1]
    return line[: word.start()] + meant + line[word.end() :]


def read_texts(text: str) -> str:
    """``text`` with star corrections applied and a short first text read as a lead-in.

    Args:
        text: A message.

    Returns:
        The message as the tracker reads it (the same text when there is nothing to do).
    """
    if "!!" in text:
        text = EMPHASIS_MID.sub(", ", text)
    if "\n" not in text:
        return text
    if "*" in text:
        lines: list[str] = []
        for line in text.split("\n"):
            star = STAR_LINE.match(line)
            fixed = _corrected(lines[-1], star.group(1)) if star and lines else None
            if fixed is None:
                lines.append(line)
            else:
                lines[-1] = fixed
        text = "\n".join(lines)
    return _LEAD_IN.sub(r"\1: ", text, count=1)
