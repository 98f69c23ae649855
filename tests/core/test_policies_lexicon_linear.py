"""The clause-bounded searches of lexicon.py give the answers they gave when they were quadratic,
in work linear in the text.

Three searches read from every match to a far clause end: the past tense about today of
``EPISODIC`` (``was…[^.;!?]*…today``), the "from X to" lookahead of ``OLD_VALUE`` and
``EXPLICIT_OLD_VALUE`` (``from(?=\\s[^.;,!?]*\\bto\\b)``) and the clause end of every negator in
``negated_spans``; so did ``UPDATE_MARKER``'s "from X to" (``\\bfrom\\b[^.;]*\\bto\\b``),
the spans' masking and claims.py's test for a denied change. The old
implementations are kept here verbatim and compared with the new ones on seeded random texts of
the relevant words and marks and on the messages of generated sessions (every wording but the
held-out one). The work is counted, not timed: each regular expression the new code calls is
wrapped to add up the characters between where its search starts and where its answer ends (the
text left to read when there is none), and that sum stays within a few times the length of a
250 KB hostile message, and doubles when the message doubles.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator, Sequence
from typing import Any

import pytest
from ctxscope.core.policies import claims, lexicon
from ctxscope.core.policies.generator import generate
from ctxscope.core.policies.lexicon import (
    _CLAUSE_END,
    CANCELLED,
    CHANGE_VERB,
    EXPLICIT_OLD_VALUE,
    FROM_VALUE,
    NEGATOR,
    OLD_VALUE,
    RETRACTION_CUE,
    UPDATE_MARKER,
    _withdrawal_end,
    _withdrawn_object,
    correction,
)
from ctxscope.core.policies.seedshape import generate_seed_shape

# -- the old implementations, verbatim ----------------------------------------------------------

OLD_EPISODIC = lexicon._rx(
    r"\byesterday\b|\blast (?:week|year|night|month|time|monday|tuesday|wednesday|thursday|friday"
    r"|saturday|sunday|weekend|quarter)\b(?!\s+(?:of|in)\b)"
    r"|\bthis morning\b|\bearlier today\b|\bthe other day\b"
    # an event of today ("expected at the embassy this evening"): an episode, not a standing fact
    r"|\bthis (?:afternoon|evening)\b|\btonight\b"
    r"|\b(?:a|one|two|three|few|couple of|\d+)\s+(?:\w+\s+)?(?:days|weeks|months|years) ago\b"
    r"|\bover the weekend\b"
    # a past tense about today ("Lunch with Mo was fun today"): an episode of the day
    r"|\b(?:was|were)\b[^.;!?]*\b(?:today|tonight)\b"
)


def old_negated_spans(text: str, patterns: Sequence[re.Pattern[str]] = ()) -> list[tuple[int, int]]:
    """Spans that name a value being negated or replaced."""
    spans: list[tuple[int, int]] = []
    for pattern in patterns or (NEGATOR, OLD_VALUE):
        for match in pattern.finditer(text):
            start = match.end()
            end_match = _CLAUSE_END.search(text, start)
            end = end_match.start() if end_match else len(text)
            if pattern is OLD_VALUE or pattern is EXPLICIT_OLD_VALUE or pattern is FROM_VALUE:
                # an old value is a short noun phrase: up to four words (or the "to" of "from X to Y")
                words = list(re.finditer(r"\S+", text[start:end]))[:4]
                stop = next((w for w in words if w.group(0).lower() in ("to", "for", "with")), None)
                if stop is not None:
                    end = start + stop.start()
                elif words:
                    end = start + words[-1].end()
            spans.append((match.start(), end))
    return spans


def old_mask(text: str, spans: Any) -> str:
    chars = list(text)
    for start, end in spans:
        for i in range(start, min(end, len(chars))):
            chars[i] = " "
    return "".join(chars)


def old_withdrawn_spans(text: str) -> list[tuple[int, int, bool]]:
    spans: list[tuple[int, int, bool]] = []
    for match in CANCELLED.finditer(text):
        start = max(text.rfind(mark, 0, match.start()) for mark in ",;:(.!?") + 1
        spans.append((start, match.start(), start > 0 and text[start - 1] == "("))
    for sentence_match in re.finditer(r"[^.!?]+[.!?]*", text):
        sentence = sentence_match.group(0)
        cue = RETRACTION_CUE.search(sentence)
        if cue is not None and correction(sentence):
            offset = sentence_match.start()
            start, end = _withdrawn_object(sentence, cue)
            spans.append((offset + start, offset + end, False))
            if end == cue.start():  # it points back: its own clause says nothing ("scratch what I said")
                bounds = _withdrawal_end(sentence, cue)  # (policies13: a bare "never mind" ends there)
                stop = bounds[0] if bounds else cue.end()
                spans.append((offset + cue.start(), offset + stop, True))
    return spans


def old_change_denied(body: str) -> bool:
    return any(CHANGE_VERB.search(body[a:b]) for a, b in old_negated_spans(body, (NEGATOR,)))


# -- texts -----------------------------------------------------------------------------------------

PIECES = (
    "was", "were", "Was", "WERE", "today", "Today", "tonight", "todays", "wasn't", "from", "From", "FROM",
    "to", "To", "too", "into", "for", "with", "not", "n't", "don't", "no", "No", "no longer", "no more",
    "never again", "not just", "nope", "instead of", "rather than", "used to", "down from", "up from",
    "previously", "(was", ", was", "was recorded as", "were listed under the", "but now", "but", "and",
    "so", "it's", "anymore", "moving", "switched", "cancelled", "yesterday", "last week", "last week of",
    "this morning", "two days ago", "is off", "fell through", "is over", "didn't happen", "Kelp",
    "Monday", "Tom", "$40k", "the", "a", "now", "here", "then", "the start", "scratch that", "forget it",
    "ignore that", "never mind", "it is", "->", " - ", "—", "→", "from now on", "from here on", "new",
    "changed", "now",
)
MARKS = (".", ";", ",", "!", "?", ":", "(", ")", "\n", "")


def random_text(rng: random.Random) -> str:
    out = []
    for _ in range(rng.randint(0, 40)):
        out.append(rng.choice(PIECES) if rng.random() < 0.8 else rng.choice(MARKS))
        out.append(rng.choice((" ", " ", " ", "", "  ", "\n", "\t")))
    return "".join(out)


def random_texts() -> list[str]:
    rng = random.Random(20261203)
    return [random_text(rng) for _ in range(6000)]


WORDINGS = ("standard", "heldout", "blind2", "blind3", "blind4", "blind5", "blind6", "blind7", "seed-shape")


def session_texts() -> Iterator[tuple[str, str]]:
    for wording in WORDINGS:
        seen: set[str] = set()
        bench = generate_seed_shape(3000, 7) if wording == "seed-shape" else generate(3000, 7, wording)
        for message in bench.messages:
            if message.content not in seen:
                seen.add(message.content)
                yield wording, message.content


def _span(match: re.Match[str] | None) -> tuple[int, int] | None:
    return match.span() if match is not None else None


def _same(text: str) -> None:
    assert lexicon.episodic_span(text) == _span(OLD_EPISODIC.search(text)), text
    assert lexicon.marker_span(text) == _span(UPDATE_MARKER.search(text)), text
    for pattern in (OLD_VALUE, EXPLICIT_OLD_VALUE):
        assert [m.span() for m in lexicon.old_value_matches(pattern, text)] == [
            m.span() for m in pattern.finditer(text)
        ], text
        assert _span(lexicon.old_value_search(pattern, text)) == _span(pattern.search(text)), text
    for patterns in (
        (), (NEGATOR,), (NEGATOR, OLD_VALUE), (NEGATOR, OLD_VALUE, FROM_VALUE), (EXPLICIT_OLD_VALUE,)
    ):
        new = lexicon.negated_spans(text, patterns)
        assert new == old_negated_spans(text, patterns), (text, patterns)
        assert lexicon.mask(text, new) == old_mask(text, new), text
    assert lexicon.withdrawn_spans(text) == old_withdrawn_spans(text), text
    negations = lexicon.negated_spans(text, (NEGATOR,))
    assert claims._change_denied(text, negations) == old_change_denied(text), text


def test_random_texts_read_as_before() -> None:
    texts = random_texts()
    assert sum(OLD_EPISODIC.search(t) is not None and "today" in t.lower() for t in texts) > 100
    assert sum(bool(list(OLD_VALUE.finditer(t))) for t in texts) > 1000
    assert sum(bool(re.search(r"\bfrom\b[^.;]*\bto\b", t, re.I)) for t in texts) > 300
    for text in texts:
        _same(text)


def test_session_messages_read_as_before() -> None:
    count = 0
    for _wording, text in session_texts():
        _same(text)
        count += 1
    assert count > 1000


def test_mask_merges_spans_as_the_loop_did() -> None:
    rng = random.Random(5)
    for _ in range(3000):
        text = "".join(rng.choice("ab .") for _ in range(rng.randint(0, 30)))
        spans = [(rng.randint(-3, 35), rng.randint(-3, 40)) for _ in range(rng.randint(0, 6))]
        spans = [(a, b) for a, b in spans if a >= -len(text)]
        assert lexicon.mask(text, spans) == old_mask(text, spans)


# -- linear work -----------------------------------------------------------------------------------


class _Counting:
    """A compiled pattern that adds up the characters each of its searches covers: from where the
    search starts to where its answer ends, or to the end of the text when it finds nothing."""

    read = 0

    def __init__(self, pattern: re.Pattern[str]) -> None:
        self.pattern = pattern

    @staticmethod
    def _end(text: str, endpos: int | None) -> int:
        return len(text) if endpos is None else min(endpos, len(text))

    def search(self, text: str, pos: int = 0, endpos: int | None = None) -> re.Match[str] | None:
        found = self.pattern.search(text, pos, self._end(text, endpos))
        _Counting.read += max(0, (found.end() if found else self._end(text, endpos)) - pos)
        return found

    def finditer(self, text: str, pos: int = 0, endpos: int | None = None) -> Iterator[re.Match[str]]:
        """Charged as it is read: to each match's end, and to the end of the text once exhausted."""
        at = pos
        for found in self.pattern.finditer(text, pos, self._end(text, endpos)):
            _Counting.read += max(0, found.end() - at)
            at = max(at, found.end())
            yield found
        _Counting.read += max(0, self._end(text, endpos) - at)


def _count(monkeypatch: pytest.MonkeyPatch, names: Sequence[str]) -> None:
    for name in names:
        monkeypatch.setattr(lexicon, name, _Counting(getattr(lexicon, name)))
    for key, pattern in list(lexicon._LINEAR_FROM_TO.items()):
        monkeypatch.setitem(lexicon._LINEAR_FROM_TO, key, _Counting(pattern))  # type: ignore[arg-type]


BIG = 250_000
COUNTED = ("EPISODIC", "_PAST_TENSE", "_TODAY", "_EPISODE_BREAK", "_TO", "_FROM_TO_STOP", "_NON_SPACE",
           "_CLAUSE_END_AT", "_CANCELLED_CLAUSE_MARK", "_UPDATE_MARKER_BASE", "_FROM", "_CLAUSE_TO",
           "_UPDATE_BREAK")
HOSTILE = {
    "episodic": ("was ", lambda t: lexicon.episodic_span(t)),
    "episodic-today-late": ("was were ", lambda t: lexicon.episodic_span(t + ". today")),
    "update-from-to": ("from ", lambda t: lexicon.update_marker_span(t)),
    "update-from-to-late": ("from x ", lambda t: lexicon.update_marker_span(t + "; to")),
    "old-value": ("from ", lambda t: list(lexicon.old_value_matches(OLD_VALUE, t))),
    "explicit-old-value": ("from ", lambda t: lexicon.old_value_search(EXPLICIT_OLD_VALUE, t)),
    "from-to-far": ("from x ", lambda t: list(lexicon.old_value_matches(OLD_VALUE, t + ", to"))),
    "negators": ("not ", lambda t: lexicon.negated_spans(t)),
    "negators-mixed": ("not from a ", lambda t: lexicon.negated_spans(t, (NEGATOR, OLD_VALUE, FROM_VALUE))),
    "cancelled": ("x is off ", lambda t: lexicon.withdrawn_spans(t)),
}


@pytest.mark.parametrize("name", list(HOSTILE))
def test_hostile_message_costs_linear_work(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    unit, run = HOSTILE[name]
    _count(monkeypatch, COUNTED)
    reads = []
    for size in (BIG // 2, BIG):
        text = unit * (size // len(unit))
        _Counting.read = 0
        run(text)
        reads.append(_Counting.read)
        assert _Counting.read <= 8 * len(text), (size, _Counting.read)
    assert reads[1] <= 2.2 * reads[0]


def test_work_counter_sees_the_old_quadratic_read() -> None:
    """Not vacuous: the old negated_spans, counted the same way, reads the clause once per negator."""
    counted = _Counting(_CLAUSE_END)
    text = "not " * 2000
    _Counting.read = 0
    for match in NEGATOR.finditer(text):
        counted.search(text, match.end())  # what old_negated_spans did for each negator
    assert _Counting.read > 500 * len(text)  # about n²/2


def test_change_denied_reads_each_clause_once() -> None:
    text = "not " * (BIG // 4)
    seen = [(a, b) for a, b in lexicon.negated_spans(text, (NEGATOR,))]
    assert len({b for _a, b in seen}) == 1  # one clause: only its first span is searched
    assert not claims._change_denied(text, seen)
    moving = text + "moving"
    assert claims._change_denied(moving, lexicon.negated_spans(moving, (NEGATOR,)))
