"""Small text helpers shared by the policies: word splitting, stop words, light stemming.

Everything here is deterministic, pure and ASCII-tolerant (non-Latin words are kept whole).
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Final

WORD_RE: Final = re.compile(r"[A-Za-z0-9\u00c0-\uffff][A-Za-z0-9'\u00c0-\uffff$-]*")
"""A word: letters and digits with inner apostrophes, hyphens and dollar signs."""

def _word_set(text: str) -> frozenset[str]:
    return frozenset(text.split())


STOP_WORDS: Final[frozenset[str]] = _word_set(
    """
    a an and are as at be been being but by can could did do does doing for from had has have
    having he her here hers him his how i i'm i've i'd i'll if in into is it it's its just let me
    more most my myself no nor not of off on once only or other our ours out over own same she
    should so some such than that that's the their them then there these they this those through
    to too under until up very was we we're we've were what when where which while who whom why
    will with would you you're your yours also about again any all am because before after both
    each few further get got gonna go going ok okay oh yeah yes hey hi re s t ll ve d m
    """
)
"""Words that carry no topic (English function words and fillers)."""


def words(text: str) -> list[str]:
    """Lower-cased words of ``text`` in order.

    Args:
        text: Any text.

    Returns:
        The words, lower-cased, trailing apostrophes and hyphens removed.
    """
    return [w.lower().strip("'-") for w in WORD_RE.findall(text) if w.strip("'-")]


@lru_cache(maxsize=8192)
def stem(word: str) -> str:
    """A very light English stemmer (plural and verb endings), enough for lexical matching.

    Args:
        word: A lower-cased word.

    Returns:
        The word without a common inflectional ending.
    """
    if len(word) <= 4 or not word.isalpha():
        return word
    for suffix, keep in (("ies", "y"), ("ing", ""), ("ed", ""), ("es", ""), ("s", "")):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            if suffix == "s" and word.endswith("ss"):
                return word
            return word[: len(word) - len(suffix)] + keep
    return word


def terms(text: str) -> list[str]:
    """Index terms of ``text``: stemmed words that are not stop words.

    Args:
        text: Any text.

    Returns:
        The terms in order, with repeats.
    """
    return [stem(w) for w in words(text) if w not in STOP_WORDS]


def first_sentence(text: str, max_words: int = 30) -> str:
    """The first sentence of ``text``, cut to ``max_words`` words.

    Args:
        text: Any text.
        max_words: Most words to keep.

    Returns:
        A single line.
    """
    flat = " ".join(text.split())
    match = re.search(r"(?<=[.!?])\s", flat)
    sentence = flat[: match.start()] if match else flat
    parts = sentence.split(" ")
    if len(parts) > max_words:
        sentence = " ".join(parts[:max_words]) + " …"
    return sentence
