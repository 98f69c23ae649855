"""Dictated English read as written English: fillers, spoken punctuation, self-repairs, spoken numbers.

A message sent as speech-to-text came out has no punctuation but what the speaker said aloud
("period", "new line"), carries the fillers of speech ("um", "uh", "you know", "like"), repeats a
word while the speaker restarts ("the the"), repairs itself mid-sentence ("on Tuesday, no wait,
Thursday": the later value is the one meant) and spells numbers as they are said ("twenty five
grand", "the fourteenth of may", "half past one"). The tracker's cues are written for typed
English, so :func:`read_dictation` turns those into what a typist would have written. Everything
here is a property of spoken English, not of any one speaker or schema:

* hesitation fillers carry no content and mark a pause, so a filler right after an opening
  question word ("how much does X have now uh $12,000") is where the question ends and its answer
  starts: it becomes a question mark there, elsewhere it is left out;
* spoken punctuation ("period", "full stop", "comma", "new line", "question mark") is the mark;
* a word said twice in a row is one word; an edit term ("no wait", "sorry", "I mean", "or rather")
  between two phrases starting with the same word withdraws the first ("on uh sorry on Friday");
  between two values it replaces the first ("twenty grand no wait thirty grand");
* a run of number words is a number ("a hundred and ten thousand" → 110,000; "grand" is thousand
  money), an ordinal next to a month or after "the" is a day ("march ninth" → march 9th), and a
  clock time said in words ("half past one") is a clock time; a lone number word ("two kids") is
  left as written.

Every pattern here is linear in the text's length: alternations of literal words and bounded
whitespace, never a quantified group that can match the same text two ways.
"""

from __future__ import annotations

import re
from typing import Final

_UNITS: Final[dict[str, int]] = {
    "zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
    "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15,
    "sixteen": 16, "seventeen": 17, "eighteen": 18, "nineteen": 19,
}
_TENS: Final[dict[str, int]] = {
    "twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80,
    "ninety": 90,
}
_SCALES: Final[dict[str, int]] = {"hundred": 100, "thousand": 1_000, "million": 1_000_000}
_ORDINALS: Final[dict[str, int]] = {
    "first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7, "eighth": 8,
    "ninth": 9, "tenth": 10, "eleventh": 11, "twelfth": 12, "thirteenth": 13, "fourteenth": 14,
    "fifteenth": 15, "sixteenth": 16, "seventeenth": 17, "eighteenth": 18, "nineteenth": 19,
    "twentieth": 20, "thirtieth": 30,
}
_NUMBER_WORDS: Final = frozenset(_UNITS) | frozenset(_TENS) | frozenset(_SCALES)
_MONTHS: Final = frozenset(
    [
        "january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
        "november", "december",
    ]
)
_WEEKDAYS: Final = frozenset(["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"])
_MONEY_AFTER: Final = frozenset({"dollars", "euros", "euro", "pounds", "bucks", "k", "grand", "quid"})
_TIME_BEFORE: Final = frozenset({
    "at", "before", "after", "until", "till", "by", "around", "between", "and", "to",
})
_NOT_COUNTED: Final = frozenset({
    "the", "a", "an", "me", "us", "you", "them", "him", "her", "it", "my", "our", "your", "their", "his",
    "this", "that", "these", "those", "anything", "everything", "everyone", "anyone", "all", "now",
})
"""Words that "four" cannot count: before them (or before a name), the recogniser's "four" is the
preposition "for"."""
_DAY_END: Final = frozenset({
    "", "of", "and", "or", "so", "now", "instead", "then", "it", "is", "was", "but", "that", "not",
    "anymore", "thanks", "period", "okay", "um", "uh",
})
"""Words after which "the nineteenth" ends as a day of the month ("the nineteenth instead")."""

FILLERS: Final = re.compile(
    r"(?<![\w'-])(?:um+|uh+|uhm+|erm+|er|ah+|hmm+|mhm)(?![\w'-])[ \t]*,?", re.IGNORECASE
)
"""Hesitation fillers: they say nothing."""
_YOU_KNOW: Final = re.compile(
    r"(?<![\w'-])(?<!so )you know(?![\w'-])"
    r"(?!\s+(?:what|that|how|who|where|when|why|if|whether|about|him|her|them|it)\b)",
    re.IGNORECASE,
)
"""The discourse filler "you know" (not "you know what I mean", "you know him")."""
_LIKE: Final = re.compile(
    r"(?<![\w'-])(is|are|to|at|on|'s|'re|about|around|was|were) like (?=\w)", re.IGNORECASE
)
"""The filler "like" before a value ("it's like sixty k", "down to like $7,500"); "I like" is the verb."""
_SPOKEN_MARK: Final = re.compile(
    r"(?<![ \t])[ \t]*(?<![\w'-])(?:(period|full stop)(?![\w'-])(?!\s+of\b)|(comma)(?![\w'-])"
    r"|(question mark)(?![\w'-])"
    r"|(new (?:line|paragraph))(?![\w'-]))",
    re.IGNORECASE,
)
"""Punctuation said aloud ("... at the hall period")."""
_ARTEFACT: Final = re.compile(
    r"\[(?:inaudible|unintelligible|crosstalk|silence|noise|laughs?)\][ \t]*", re.IGNORECASE
)
"""A recogniser's marker for what it could not hear."""
_DICTATION_END: Final = re.compile(
    r"(?:(?<![ \t,])[ \t,]+|^)(?:so yeah|that's it|thanks|thank you|send|end of message)[ \t.!]*$",
    re.IGNORECASE,
)
"""A spoken sign-off closing a dictated message ("… so yeah", "… send")."""
_WORD: Final = re.compile(r"[A-Za-z]+(?:'[a-z]+)?|\d[\d,.:]*|[^\sA-Za-z\d]")
_QUESTION_OPENING: Final = re.compile(
    r"^\s*(?:(?:okay|ok|so|right|hey|and)\b[\s,]*){0,3}"
    r"(?:how much|how many|how|what's|what|where's|where|when's|when|who's|who|which)\b",
    re.IGNORECASE,
)
_INVERTED: Final = re.compile(
    r"^\s*(?:(?:okay|ok|so|right|hey|and)\b[\s,]*){0,3}(?:is|are|was|were|does|did|do|has)\s+(?!not\b)\w",
    re.IGNORECASE,
)
"""A sentence opening with an auxiliary verb before its subject ("is Kelp still on Monday or did
that change"): subject-auxiliary inversion makes it a question, said without its question mark."""
_FILLER_PAUSE: Final = re.compile(
    r"(?<![ \t])[ \t]+(?:um+|uh+|uhm+|erm+|er)(?![\w'-])[ \t]*(?:,[ \t]*)?", re.IGNORECASE
)
_EDIT_TERM: Final = re.compile(
    r"(?:,\s*)?\b(no wait|wait no|or rather|no sorry|sorry|i mean)\b,?\s+", re.IGNORECASE
)
"""The edit term of a self-repair: what comes after it replaces what came before."""
_REPAIR_WINDOW: Final = 6
_VALUE_EDIT_TERMS: Final = frozenset({"no wait", "wait no", "or rather", "no sorry"})
"""Edit terms that withdraw the word before them even when the repair starts with another word
("twenty grand no wait thirty"); "sorry" and "I mean" only repair a restarted phrase."""


def _number(words: list[str]) -> int | None:
    """The value of a run of number words ("a hundred and ten thousand" → 110000)."""
    total = current = 0
    seen = False
    for word in words:
        if word in ("a", "and", "-"):
            continue
        if word in _UNITS:
            current += _UNITS[word]
        elif word in _TENS:
            current += _TENS[word]
        elif word == "hundred":
            current = max(current, 1) * 100
        elif word in ("thousand", "million"):
            total += max(current, 1) * _SCALES[word]
            current = 0
        else:
            return None
        seen = True
    return total + current if seen else None


def _numbers(text: str) -> str:
    """Spoken numbers, days and clock times as a typist writes them."""
    matches = list(_WORD.finditer(text))
    tokens = [m.group(0) for m in matches]
    lower = [t.lower() for t in tokens]
    if not any(t in _NUMBER_WORDS or t in _ORDINALS for t in lower):
        return text
    out: list[str] = []
    last = 0

    def emit(first: int, end: int, replacement: str) -> None:
        nonlocal last
        out.append(text[last : matches[first].start()])
        out.append(replacement)
        last = matches[end - 1].end()

    i = 0
    n = len(tokens)
    while i < n:
        word = lower[i]
        before = lower[i - 1] if i else ""
        after = lower[i + 1] if i + 1 < n else ""
        if word in _ORDINALS:
            month_near = after in _MONTHS or (after == "of" and i + 2 < n and lower[i + 2] in _MONTHS)
            month_near = month_near or before in _MONTHS
            day_after_the = before == "the" and (
                after in _DAY_END or not after.isalpha() or after in _WEEKDAYS
            )
            if month_near or day_after_the or (before == "the" and i >= 2 and lower[i - 2] in _WEEKDAYS):
                value = _ORDINALS[word]
                emit(i, i + 1, f"{value}{_suffix(value)}")
                i += 1
                continue
        if word in _TENS and after in _ORDINALS and _ORDINALS[after] < 10:
            value = _TENS[word] + _ORDINALS[after]  # "twenty first"
            emit(i, i + 2, f"{value}{_suffix(value)}")
            i += 2
            continue
        if word == "half" and after == "past" and i + 2 < n and lower[i + 2] in _UNITS:
            emit(i, i + 3, f"{_UNITS[lower[i + 2]]}:30")
            i += 3
            continue
        if word == "four" and (after in _NOT_COUNTED or (i + 1 < n and tokens[i + 1][:1].isupper())):
            emit(i, i + 1, "for" if tokens[i].islower() else "For")
            i += 1
            continue
        if word in _NUMBER_WORDS or (word == "a" and after in _SCALES):
            j = i
            while j < n and (
                lower[j] in _NUMBER_WORDS
                or (lower[j] == "a" and j == i)
                or (lower[j] == "and" and j > i and j + 1 < n and lower[j + 1] in _NUMBER_WORDS
                    and lower[j - 1] in _SCALES)
                # a hyphenated compound ("twenty-six thousand")
                or (lower[j] == "-" and j > i and lower[j - 1] in _TENS and j + 1 < n
                    and lower[j + 1] in _UNITS and matches[j].start() == matches[j - 1].end()
                    and matches[j + 1].start() == matches[j].end())
            ):
                j += 1
            run = lower[i:j]
            amount = _number(run)
            unit = lower[j] if j < n else ""
            counted = [w for w in run if w not in ("a", "and", "-")]
            spoken_value = len(counted) >= 2 or unit in _MONEY_AFTER or (
                before in _TIME_BEFORE and amount is not None and amount <= 12
            )
            if amount is not None and counted and spoken_value:
                if unit == "grand":
                    emit(i, j + 1, f"${amount * 1000:,}")
                    j += 1
                elif unit == "k":
                    emit(i, j + 1, f"{amount}k")
                    j += 1
                else:
                    emit(i, j, f"{amount:,}")
                i = j
                continue
        i += 1
    out.append(text[last:])
    return "".join(out)


def _suffix(value: int) -> str:
    if value % 100 in (11, 12, 13):
        return "th"
    return {1: "st", 2: "nd", 3: "rd"}.get(value % 10, "th")


def _repairs(text: str) -> str:
    """Self-repairs: the phrase before an edit term, withdrawn by the phrase after it."""
    if not _EDIT_TERM.search(text):
        return text
    out = text
    for _ in range(8):  # a bounded number of repairs per message
        match = _EDIT_TERM.search(out)
        if match is None:
            break
        head = out[: match.start()].split()
        tail = out[match.end() :]
        first = tail.split(maxsplit=1)[0].lower() if tail.split() else ""
        window = [w.lower().strip(",.") for w in head[-_REPAIR_WINDOW:]]
        if first and first in window:
            cut = len(head) - len(window) + (len(window) - 1 - window[::-1].index(first))
            out = " ".join(head[:cut]) + (" " if cut else "") + tail
        elif head and match.group(1).lower() in _VALUE_EDIT_TERMS:
            # between two values ("twenty grand no wait thirty grand"): the word before the edit
            # term is what is repaired, with the words of its value joined to it
            out = " ".join(head[:-1]) + (" " if len(head) > 1 else "") + tail
        else:
            break
    return out


def read_dictation(text: str) -> str:
    """``text`` as a typist would have written it (the same text when it has nothing dictated).

    Args:
        text: A message.

    Returns:
        The message with fillers, spoken punctuation and artefacts resolved, repeated words and
        self-repairs collapsed and spoken numbers written as figures.
    """
    if "[" in text:
        text = _ARTEFACT.sub("", text)
    text = _DICTATION_END.sub("", text)
    opening = _QUESTION_OPENING.match(text)
    if opening is None and "?" not in text and "." not in text and _INVERTED.match(FILLERS.sub("", text)):
        text = text.rstrip() + "?"
    elif opening is not None and "?" not in text:
        pause = _FILLER_PAUSE.search(text, opening.end())
        if pause is not None:
            text = text[: pause.start()] + "? " + text[pause.end() :]
    text = FILLERS.sub("", text)
    text = _YOU_KNOW.sub("", text)
    text = _LIKE.sub(r"\1 ", text)
    text = _SPOKEN_MARK.sub(_mark, text)
    text = _DICTATION_END.sub("", text)
    text = _repairs(text)
    text = _numbers(text)
    text = _doubled(text)
    return re.sub(r"[ \t]{2,}", " ", text).strip(" \t,")


def _mark(match: re.Match[str]) -> str:
    if match.group(1):
        return "."
    if match.group(2):
        return ","
    if match.group(3):
        return "?"
    return ".\n"


def _doubled(text: str) -> str:
    """A word said twice in a row ("the the launch") is one word."""
    words = text.split(" ")
    out = [
        w for i, w in enumerate(words) if not (i and w and w.lower() == words[i - 1].lower() and w.isalpha())
    ]
    return " ".join(out)
