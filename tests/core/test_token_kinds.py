"""The byte-kind tables of bench/fit_tokens.py --kinds (bench/token_kinds.py)."""

from __future__ import annotations

import pytest
from ctxscope.core import tokens

from .bench_support import load_bench

TEXTS = [
    "a",
    "Hello, world!\n",
    "def snake_case(x):\n    return x + 1\n",
    "Ia ora na, e te mau hoa! Aue.",
    "Привет, мир! naïve café",
    "日本語のテキスト → ok ✓ 🚀",
    "\t\u0000 mixed\r\nend é",
]


kinds = load_bench("token_kinds")


def test_shipped_kinds_are_the_runtime_features() -> None:
    shipped = kinds.kinds_named("shipped")
    for text in TEXTS:
        assert shipped.features(text) == tokens.features(text)
    assert shipped.edge("pL^") and shipped.edge("p$L") and not shipped.edge("pLS")


@pytest.mark.parametrize("text", TEXTS)
def test_vowel_kinds_count_every_pair_and_keep_the_other_features(text: str) -> None:
    vowels = kinds.kinds_named("vowels")
    got = vowels.features(text)
    pairs = {n: v for n, v in got.items() if n[0] == "p"}
    assert sum(pairs.values()) == len(text.encode("utf-8", "surrogatepass")) + 1
    assert {n: v for n, v in got.items() if n[0] != "p"} == {
        n: v for n, v in tokens.features(text).items() if n[0] != "p"
    }
    assert all(n[1] in vowels.self_kinds and n[2] in vowels.prev_kinds for n in pairs)


def test_vowel_kinds_rate_vowels_apart_and_read_the_edges() -> None:
    vowels = kinds.kinds_named("vowels")
    assert vowels.features("aa") == {"b61": 2, "pVN": 1, "pVv": 1, "pcv": 1}
    # the start reads as after a newline; an end after ASCII is an edge pair (rate 0)
    assert vowels.features("\nt")["pLN"] == 1 and vowels.features("t")["pLN"] == 1
    assert vowels.edge("pcv") and vowels.edge("pcS")
    # an end after a non-ASCII character is a continuation pair, rated like one
    assert vowels.features("é") == {"bc3": 1, "plN": 1, "pcx": 1, "pcc": 1}
    assert not vowels.edge("pcc") and not vowels.edge("pcx")
    assert vowels.features("") == {}


def test_unknown_kinds_are_refused() -> None:
    with pytest.raises(ValueError, match="shipped, vowels"):
        kinds.kinds_named("letters")
