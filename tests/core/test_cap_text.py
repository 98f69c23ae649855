"""Direct tests of ``cap_text``: the capped text always fits with its mark, whatever the estimator's
counts do with length, and the search costs O(log n) counts."""

from __future__ import annotations

from ctxscope.core.pipeline.summarize import cap_text
from ctxscope.core.tokens import ScriptBreakdown

from .pipeline_support import EST


class CountingEstimator:
    """A real estimator, or a fake rule, that counts how often it is asked."""

    def __init__(self, rule: object = None) -> None:
        self.rule = rule
        self.calls = 0

    @property
    def name(self) -> str:
        return "counting"

    def count(self, text: str) -> int:
        self.calls += 1
        if self.rule is None:
            return EST.count(text)
        return self.rule(text)  # type: ignore[operator,no-any-return]

    def breakdown(self, text: str) -> ScriptBreakdown:
        return EST.breakdown(text)


def zigzag(text: str) -> int:
    """Counts that go up and down with length: a prefix can count more than a longer one."""
    n = len(text)
    return 0 if n == 0 else n + (7 if n % 3 == 0 else 0) - (5 if n % 5 == 0 else 0)


def assert_capped(text: str, out: str, max_tokens: int, est: CountingEstimator) -> None:
    assert est.count(out) <= max_tokens
    if out and out != text:
        assert out.endswith("…")
        assert text.startswith(out[:-1])


def test_non_monotone_counts_still_give_a_text_that_fits() -> None:
    text = "abcdefghij" * 30 + "\n" + "klmnopqrst" * 30
    for max_tokens in range(0, len(text) + 10):
        est = CountingEstimator(zigzag)
        out = cap_text(text, max_tokens, est)
        assert_capped(text, out, max_tokens, est)
        if max_tokens >= 20:  # room for something: the cut keeps text, not just the mark
            assert len(out) > 1


def test_a_prefix_that_counts_less_than_its_mark_alone() -> None:
    # the mark is expensive, the text cheap: only "…" is dear, so any cut costs at least 10
    def dear_mark(text: str) -> int:
        return len(text.replace("…", "")) + (10 if "…" in text else 0)

    text = "x" * 50
    assert cap_text(text, 9, CountingEstimator(dear_mark)) == ""
    assert cap_text(text, 10, CountingEstimator(dear_mark)) == "…"
    assert cap_text(text, 30, CountingEstimator(dear_mark)) == "x" * 20 + "…"


def test_max_tokens_zero_and_one() -> None:
    text = "Some words that will not fit in one token at all."
    assert cap_text(text, 0, CountingEstimator()) == ""
    assert EST.count("…") > 1  # the real estimator counts the mark's UTF-8 bytes: nothing fits
    assert cap_text(text, 1, CountingEstimator()) == ""
    assert cap_text(text, 0, CountingEstimator(len)) == ""
    assert cap_text(text, 1, CountingEstimator(len)) == "…"  # one character: only the mark
    assert cap_text(text, 2, CountingEstimator(len)) == "S…"


def test_empty_text_and_text_that_fits_are_returned_whole_after_one_count() -> None:
    for text, max_tokens in (("", 0), ("", 5), ("short line\nand another", 1000)):
        est = CountingEstimator()
        assert cap_text(text, max_tokens, est) == text
        assert est.calls == 1


def test_cuts_at_a_line_break_in_the_second_half() -> None:
    text = "first line of words\n" * 40
    est = CountingEstimator()
    out = cap_text(text, 60, est)
    assert_capped(text, out, 60, est)
    assert out.endswith("words…")  # the cut is at a line break, the break itself dropped


def test_the_number_of_counts_grows_with_log_n() -> None:
    for n in (10, 1_000, 100_000, 1_000_000):
        text = ("a line of text\n" * (n // 15 + 1))[:n]
        for max_tokens in (0, 1, n // 100, n // 8):
            est = CountingEstimator(len)
            out = cap_text(text, max_tokens, est)
            calls = est.calls
            assert_capped(text, out, max_tokens, est)
            # one for the whole text, at most bit_length(n) + 1 in the search, one for the line
            # break, one for the bare mark
            assert calls <= n.bit_length() + 4, (n, max_tokens, calls)
