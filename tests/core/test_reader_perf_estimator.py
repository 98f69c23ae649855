"""``ProfileEstimator.count`` (one shift, three translate tables, adler32 sums) is the documented
linear model, bit for bit, and its memo is safe to share between threads.

:func:`definition_count` writes the model out one byte and one character at a time: the rate of
every pair of adjacent UTF-8 bytes (kind, kind before; the start and the end of the text are pairs
too), the rate of every ASCII character and UTF-8 lead byte, the script rate of every character at
U+0800 and above in the BMP, rounded up once and capped at the UTF-8 length.
"""

from __future__ import annotations

import math
import string
import threading

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
        st.sampled_from("Հայերեն ქართული አማርኛ தமிழ் ꕙꔤ ꦗꦮ"),
        st.sampled_from("—“”…→│✓─\u200d\ufeff\ufffd\ue000😀🇺🚀\U00010000\U0010ffff"),
        st.characters(codec="utf-8"),
        st.characters(min_codepoint=0xD800, max_codepoint=0xDFFF),  # lone surrogates
        st.characters(max_codepoint=0x1F),  # control characters
    ),
    max_size=300,
)


def definition_count(profile: Profile, text: str) -> int:
    """The linear model, one byte and one character at a time."""
    if not text:
        return 0
    data = text.encode("utf-8", "surrogatepass")
    total = 0
    before = tokens.PREV_KINDS.index("^")
    for byte in data:
        kind, prev = tokens._PAIR_CODE[byte] & 15, tokens._PAIR_CODE[byte] >> 4
        total += profile.pair_units[kind << 4 | before] + profile.byte_units[byte]
        before = prev
    total += profile.pair_units[tokens.SELF_KINDS.index("$") << 4 | before]
    for char in text:
        if 0x800 <= ord(char) < 0x10000:
            total += profile.script_units.get(scripts.fine_class_of(char), 0)
    return min(len(data), max(1, math.ceil(total / UNIT)))


def fresh(name: str) -> ProfileEstimator:
    """An estimator with an empty memo, so every count is computed."""
    return ProfileEstimator(PROFILES[name])


CHUNKY = 65_536 + 17
"""Longer than every adler32 chunk, and not a multiple of one."""


@pytest.mark.shared
@pytest.mark.parametrize("name", NAMES)
def test_token_truth_samples_count_as_defined(name: str) -> None:
    samples = sorted(shared_path("token-truth", "samples").glob("*.txt"))
    assert samples
    profile = PROFILES[name]
    for path in samples:
        text = path.read_text(encoding="utf-8")
        estimator = fresh(name)
        for piece in (text[:5000], text[:CHUNKY], text[-777:]):
            assert estimator.count(piece) == definition_count(profile, piece), (path.name, len(piece))
        for line in text.splitlines()[:200]:  # many short texts, as a log holds them
            assert estimator.count(line) == definition_count(profile, line), (path.name, line[:40])


@settings(max_examples=300, deadline=None)
@given(HOSTILE)
def test_random_and_hostile_strings_count_as_defined(text: str) -> None:
    for name in NAMES:
        estimator = fresh(name)
        expected = definition_count(PROFILES[name], text)
        assert estimator.count(text) == expected, name
        assert estimator.count(text) == expected, name  # from the memo
        assert estimator.breakdown(text).tokens == expected, name


@settings(max_examples=40, deadline=None)
@given(HOSTILE, st.integers(min_value=1, max_value=400))
def test_long_repetitions_cross_every_chunk_boundary(text: str, times: int) -> None:
    text = (text or "x") * times
    for name in NAMES:
        assert fresh(name).count(text) == definition_count(PROFILES[name], text), name


@pytest.mark.parametrize("name", NAMES)
def test_mostly_ascii_texts_with_two_byte_and_wider_characters(name: str) -> None:
    estimator = fresh(name)
    code = "def handle(request):\n    return {'status': 200}\n" * 40
    for extra in ("é", "Привет", "é→", "Ωμέγα ✓", "😀", "\ud800", "한", "ß" * 600, "→" * 3000):
        for text in (code + extra, extra + code, code[:100] + extra + code):
            assert estimator.count(text) == definition_count(PROFILES[name], text), (name, extra)


def test_the_memo_is_safe_to_share_between_threads() -> None:
    """Two threads counting the same texts through one estimator (its memo filling and being
    forgotten as it goes) get the figures of a fresh single-threaded estimator."""
    texts = [f"line {i} of a log: {'Привет ' * (i % 7)}{'x' * (i % 900)}" for i in range(3000)]
    expected = [fresh("claude").count(t) for t in texts]
    shared = fresh("claude")
    results: dict[int, list[int]] = {}

    def work(slot: int) -> None:
        results[slot] = [shared.count(t) for _ in range(3) for t in texts]

    workers = [threading.Thread(target=work, args=(slot,)) for slot in range(2)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    assert results[0] == expected * 3 and results[1] == expected * 3
    assert shared._cached_chars <= tokens.CACHE_CHARS
