"""The fast paths of ``ProfileEstimator.count`` give exactly the counts of the previous algorithm.

``count`` sums a text's ASCII rates and run rates in one stream of character pairs, sums the
rates of a mostly-ASCII text's two-byte characters by their lead bytes, and classifies other
non-ASCII characters through a composed half-block table (see ``core/tokens.py``). Two
references check it, bit for bit:

* :func:`previous_count`, the algorithm it replaced (a stream of characters plus a stream of
  runs, then the fine-class stream), kept here verbatim over the same compiled tables;
* :func:`definition_count`, the linear model written out one character at a time.
"""

from __future__ import annotations

import dataclasses
import math
import string
import zlib
from types import MappingProxyType

import pytest
from ctxscope.core import scripts, tokens
from ctxscope.core.tokens import PROFILES, UNIT, Profile, ProfileEstimator
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.conftest import shared_path

NAMES = sorted(PROFILES)

HOSTILE = st.text(
    alphabet=st.one_of(
        st.sampled_from(string.printable),
        st.sampled_from("éüñçĥšžłőəɛŋ ́Привет мир Ӑӕ Γειά שלום مرحبا 中文字 ひらがな 한국어 नमस्ते ไทย"),
        st.sampled_from("—“”…→│✓─\u200d\ufeff\ufffd\ue000😀🇺🚀\U00010000\U0010ffff"),
        st.characters(codec="utf-8"),
        st.characters(min_codepoint=0xD800, max_codepoint=0xDFFF),  # lone surrogates
        st.characters(max_codepoint=0x1F),  # control characters
    ),
    max_size=300,
)


def _byte_sum(data: bytes, chunk: int) -> int:
    total = 0
    for start in range(0, len(data), chunk):
        total += (zlib.adler32(data[start : start + chunk]) & 0xFFFF) - 1
    return total


def previous_count(estimator: ProfileEstimator, text: str) -> int:
    """The count before the pair stream, the lead-byte sum and the composed tables."""
    c = estimator._c
    if not text:
        return 0
    data = text.encode("utf-8", "surrogatepass")
    size = len(data)
    single = data.translate(c.single)
    flags = int.from_bytes(data.translate(tokens._FLAGS), "little")
    runs = (flags & (flags >> 8)).to_bytes(size, "little").translate(c.run)
    units = _byte_sum(single, c.single_chunk) + _byte_sum(runs, c.run_chunk) - c.run_offset * size
    if size != len(text):
        if (size - len(text)) * 4 < len(text):
            data = data.translate(None, bytes(range(0x80)))
            text = data.decode("utf-8", "surrogatepass")
        stream = scripts.fine_class_stream(text)
        units += _byte_sum(stream.translate(c.script), c.script_chunk)
        astral, emoji, lone = tokens._surrogates(text, data, stream)
        units += astral * c.astral_units + emoji * c.emoji_units + lone * c.lone_units
    return max(0, -(-units // UNIT))


def definition_count(profile: Profile, text: str) -> int:
    """The linear model, one character at a time: rates, run rates, script rates, emoji."""

    def units(rate: float) -> int:
        return round(rate * UNIT)

    total = 0
    previous = ""
    for char in text:
        code = ord(char)
        if code < 0x80:
            kind = tokens._CLASS_OF_BYTE[code]
            rate = profile.letter_rates.get(char, profile.ascii_rates[kind]) if kind == "L" else None
            total += units(profile.ascii_rates[kind] if rate is None else rate)
            if kind == previous:
                total += units(profile.run_rates.get(kind, 0.0))
            previous = kind
            continue
        previous = ""
        if 0xD800 <= code < 0xE000:
            total += units(profile.script_rates["rare"])  # a lone surrogate
        elif 0x1F000 <= code < 0x20000:
            total += units(profile.emoji_rate)
        else:
            total += units(profile.script_rates.get(scripts.fine_class_of(char), 0.0))
    return max(0, math.ceil(total / UNIT))


def fresh(name: str) -> ProfileEstimator:
    """An estimator with an empty memo, so every count is computed."""
    return ProfileEstimator(PROFILES[name])


@pytest.mark.shared
@pytest.mark.parametrize("name", NAMES)
def test_token_truth_samples_count_as_before(name: str) -> None:
    estimator = fresh(name)
    samples = sorted(shared_path("token-truth", "samples").glob("*.txt"))
    assert samples
    for path in samples:
        text = path.read_text(encoding="utf-8")
        for piece in (text, text[:5000], text[:CHUNKY], text[-777:]):
            assert estimator.count(piece) == previous_count(estimator, piece), (path.name, len(piece))
        # Line by line too: many short texts, as a log holds them (the memo is cleared).
        estimator = fresh(name)
        for line in text.splitlines()[:400]:
            assert estimator.count(line) == previous_count(estimator, line), (path.name, line[:40])


CHUNKY = 65_536 + 17
"""Longer than every adler32 chunk, and not a multiple of one."""


@settings(max_examples=300, deadline=None)
@given(HOSTILE)
def test_random_and_hostile_strings_count_as_before(text: str) -> None:
    for name in NAMES:
        estimator = fresh(name)
        expected = previous_count(estimator, text)
        assert estimator.count(text) == expected, name
        assert estimator.count(text) == expected, name  # from the memo
        assert definition_count(PROFILES[name], text) == expected, name


@settings(max_examples=60, deadline=None)
@given(HOSTILE, st.integers(min_value=1, max_value=400))
def test_long_repetitions_cross_every_chunk_boundary(text: str, times: int) -> None:
    text = (text or "x") * times
    for name in NAMES:
        estimator = fresh(name)
        assert estimator.count(text) == previous_count(estimator, text), name


@pytest.mark.parametrize("name", NAMES)
def test_mostly_ascii_texts_with_two_byte_and_wider_characters(name: str) -> None:
    estimator = fresh(name)
    code = "def handle(request):\n    return {'status': 200}\n" * 40
    for extra in ("é", "Привет", "é→", "Ωμέγα ✓", "😀", "\ud800", "한", "ß" * 600):
        for text in (code + extra, extra + code, code[:100] + extra + code):
            assert estimator.count(text) == previous_count(estimator, text), (name, extra)
            assert estimator.count(text) == definition_count(PROFILES[name], text), (name, extra)


def test_the_built_in_profiles_use_the_pair_stream() -> None:
    for name in NAMES:
        compiled = fresh(name)._c
        assert compiled.code is not None and compiled.pair is not None, name


def test_a_profile_with_too_many_distinct_rates_falls_back_exactly() -> None:
    """A profile whose 26 letters all have their own rate has more than 31 (class, rate) kinds
    of ASCII character: it sums characters and runs in two streams, with the same result."""
    claude = PROFILES["claude"]
    letters = {letter: 0.25 + i / UNIT for i, letter in enumerate(string.ascii_lowercase)}
    profile = dataclasses.replace(claude, name="many-rates", letter_rates=MappingProxyType(letters))
    estimator = ProfileEstimator(profile)
    assert estimator._c.pair is None
    texts = ["", "a", "the quick brown fox jumps over the lazy dog", "ЖЖЖ abc 😀", "zz  99\n\n" * 3000]
    for text in texts:
        assert estimator.count(text) == previous_count(estimator, text) == definition_count(profile, text)
        assert estimator.breakdown(text).tokens == estimator.count(text)
