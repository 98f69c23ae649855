"""Chat English read as written English: abbreviations, dropped apostrophes, transposed letters.

People type fast in chat: "pls", "w/", "thx", "prev", "dont", "teh". The tracker's cues
(:mod:`.lexicon`) are written for the full forms, so a message is read through :func:`normalise`
first. Everything here is general chat usage, not any one author's: the common abbreviations of
English chat and e-mail, the contractions typed without their apostrophe, and a short function
word typed with two neighbouring letters swapped ("teh", "adn", "taht").
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Final

from .coreference import resolve_references
from .letters import letter_body
from .markdown import read_markdown
from .reported import read_reported
from .speech import read_dictation
from .texting import read_texts
from .tracker_notation import read_notation

ABBREVIATIONS: Final[dict[str, str]] = {
    "pls": "please", "plz": "please", "plse": "please", "thx": "thanks", "thnx": "thanks", "tx": "thanks",
    "ty": "thanks", "tyvm": "thanks", "w/": "with", "w/o": "without", "b/c": "because", "bc": "because",
    "cuz": "because", "coz": "because", "bcoz": "because", "abt": "about", "prev": "previously",
    "ex": "formerly", "smth": "something", "sth": "something", "smthg": "something", "ppl": "people",
    "u": "you", "ur": "your", "b4": "before", "tmrw": "tomorrow", "tmr": "tomorrow", "tmw": "tomorrow",
    "2moro": "tomorrow", "rn": "now", "atm": "at the moment", "nvm": "never mind",
    "iirc": "if i remember correctly", "idk": "i do not know", "dunno": "do not know", "wanna": "want to",
    "gotta": "have to", "msg": "message", "mtg": "meeting", "mgr": "manager", "dept": "department",
    "approx": "approximately", "asap": "as soon as possible", "pplz": "people", "yr": "year",
    "wk": "week", "wks": "weeks", "mo": "month", "mos": "months", "hrs": "hours", "hr": "hour",
    "proj": "project", "bf": "boyfriend", "gf": "girlfriend",
    "fyi": "", "btw": "", "tbh": "", "imo": "", "imho": "",
    "afaik": "", "afaict": "", "lol": "", "ps": "", "pps": "", "nb": "",
}
"""Chat abbreviations and what they stand for; an empty expansion is an aside that carries no
content ("fyi", "btw", "lol") and is dropped with the punctuation that sets it off."""

CONTRACTIONS: Final = frozenset({
    "dont", "doesnt", "didnt", "cant", "couldnt", "wont", "wouldnt", "shouldnt", "isnt", "arent",
    "wasnt", "werent", "havent", "hasnt", "hadnt", "mustnt", "neednt", "im", "ive", "youre", "youve",
    "theyre", "theyve", "weve", "thats", "whats", "wheres", "whos", "theres", "heres",
})
"""Contractions typed without their apostrophe that cannot be another word ("its", "were", "well",
"lets" and "id" are words of their own, so they are left alone)."""

TYPED_OFTEN: Final = ("the", "and", "that", "with", "this", "have", "from", "they", "what", "your", "there")
"""The function words most often typed with two neighbouring letters swapped."""
REAL_SWAPS: Final = frozenset({"form", "three"})
"""Swaps of those that are words of their own."""

_CHAT_WORD: Final = re.compile(r"(?<![\w/'’-])([A-Za-z][A-Za-z0-9]*(?:/[A-Za-z]*)?)(?![\w'’-])")
_VOWEL: Final = re.compile(r"[aeiouy]")
_ASIDE: Final = "\x00"
_ASIDE_OPENING: Final = re.compile(r"(^|[.!?(]\s*)\x00[\s,:;-]*")
_ASIDE_INSIDE: Final = re.compile(r"(?<![ \t])[ \t]*(?:,[ \t]*)?\x00")
"""The aside marker with the comma and blanks before it. It starts only where a run of blanks
starts, and its two runs of blanks are separated by the comma, so a long run of blanks with no
marker after it is scanned once, not once per blank (nor once per way of splitting it)."""


def _with_apostrophe(word: str) -> str:
    lower = word.lower()
    if lower in ("im", "ive"):
        return "I'm" if lower == "im" else "I've"
    cut = -2 if lower.endswith(("re", "ve")) else -1
    return word[:cut] + "'" + word[cut:]


def _swaps(word: str) -> list[str]:
    return [word[:i] + word[i + 1] + word[i] + word[i + 2 :] for i in range(len(word) - 1)]


SWAPPED: Final[dict[str, str]] = {
    swap: word for word in TYPED_OFTEN for swap in _swaps(word) if swap != word and swap not in REAL_SWAPS
}
"""Each of :data:`TYPED_OFTEN` with two neighbouring letters swapped ("teh" → "the")."""


def _opens_sentence(text: str, start: int) -> bool:
    """Whether the word at ``start`` opens a sentence; looks back over the blanks before it only
    (copying everything before it, once per word, was quadratic in the message's length)."""
    j = start
    while j > 0 and text[j - 1].isspace():
        j -= 1
    return j == 0 or text[j - 1] in ".!?:;(\n"


def _expand(match: re.Match[str]) -> str:
    word = match.group(1)
    lower = word.lower()
    text = match.string
    if word[:1].isupper() and not word.isupper() and not _opens_sentence(text, match.start()) and (
        _VOWEL.search(lower)
    ):
        return word  # capitalised mid-sentence: a name ("Mo", "Ty"); "Ppl", "Pls" have no vowel to be one
    capital = word[:1].isupper()
    expansion = ABBREVIATIONS.get(lower, SWAPPED.get(lower))
    if expansion and len(word) > 1 and word.isupper() and " " not in expansion:
        return word  # typed in capitals, an acronym ("HR told us" is not "hour"); "IDK", "FYI" still read
    if expansion is not None:
        if not expansion:
            return _ASIDE
        return expansion.capitalize() if capital else expansion
    if lower in CONTRACTIONS:
        return _with_apostrophe(word)
    return word


@lru_cache(maxsize=65_536)
def normalise(text: str) -> str:
    """``text`` with chat abbreviations spelt out, apostrophes of contractions restored and
    transposed function words put right; asides that carry nothing ("fyi", "lol") left out; and,
    last, its anaphors read as what they refer to (:mod:`.coreference`).

    Args:
        text: A message.

    Returns:
        The message as the tracker's cues read it (the same text when there is nothing to do).
    """
    text = read_notation(read_reported(read_texts(read_markdown(text))))
    expanded = _CHAT_WORD.sub(_expand, text)
    if expanded != text:
        expanded = _ASIDE_INSIDE.sub("", _ASIDE_OPENING.sub(r"\1", expanded))
    return resolve_references(letter_body(read_dictation(expanded)))
