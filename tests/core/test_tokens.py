"""Token estimators: the public API, the documented rules, properties, script classes, calibration."""

from __future__ import annotations

import math
import string

import pytest
from ctxscope.core import scripts, tokens
from ctxscope.core.tokens import (
    DEFAULT_ESTIMATOR,
    ESTIMATOR_NAMES,
    PAIR_OFFSET,
    PROFILES,
    SCRIPT_CLASSES,
    UNIT,
    Estimator,
    ScriptBreakdown,
    available_estimators,
    breakdown,
    estimate_tokens,
    features,
    get_estimator,
)
from hypothesis import given, settings
from hypothesis import strategies as st

ALL = ESTIMATOR_NAMES

# Text that exercises every path: ASCII classes, runs, accented Latin, Cyrillic, CJK, Hangul,
# emoji (astral), lone surrogates, control characters.
TEXTS = st.text(
    alphabet=st.one_of(
        st.sampled_from(string.printable),
        st.sampled_from("éüñçĥšžłőəɛŋ ́Привет мир Ӑӕ Γειά 中文字 ひらがな 한국어 ﷲ नमस्ते ไทย —“”…→😀🇺"),
        st.characters(codec="utf-8"),
        st.characters(min_codepoint=0xD800, max_codepoint=0xDFFF),
    ),
    max_size=60,
)


def test_names_and_default() -> None:
    assert DEFAULT_ESTIMATOR == "claude"
    assert ESTIMATOR_NAMES[:4] == ("claude", "openai", "mythex", "chars4")
    assert set(ESTIMATOR_NAMES) <= set(available_estimators())
    for name in ALL:
        est = get_estimator(name)
        assert isinstance(est, Estimator)
        assert est.name == name
        assert get_estimator(name) is est  # instances are shared
    assert get_estimator().name == DEFAULT_ESTIMATOR


def test_unknown_estimator_names_the_known_ones() -> None:
    with pytest.raises(ValueError, match=r"unknown estimator 'nope'.*claude, openai, mythex, chars4"):
        get_estimator("nope")


def test_estimate_tokens_matches_the_estimator() -> None:
    text = "Hello, world! Привет, мир! 你好世界"
    for name in ALL:
        assert estimate_tokens(text, name) == get_estimator(name).count(text)
    assert estimate_tokens(text) == get_estimator("claude").count(text)


def test_chars4_is_the_old_rule() -> None:
    est = get_estimator("chars4")
    assert [est.count("a" * n) for n in range(6)] == [0, 1, 1, 1, 1, 2]
    assert est.count("你好世界你") == 2  # code points, not bytes
    assert est.count("😀" * 8) == 2


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("", 0),
        ("abcd", 1),  # ASCII: 4 characters per token
        ("abcde", 2),  # rounded up once, over the whole text
        ("你好", 2),  # CJK ideographs: 1 each
        ("ひらがな", 4),  # kana
        ("한국어", 3),  # Hangul
        ("Привет", 3),  # everything else: 2 characters per token
        ("é", 1),
        ("😀😀", 1),
        ("ab 你好 Привет", 6),  # 3 ASCII (0.75) + 2 CJK + 6 other (3) -> ceil(5.75)
    ],
)
def test_mythex_is_the_documented_rule_per_character(text: str, expected: int) -> None:
    assert get_estimator("mythex").count(text) == expected


@settings(max_examples=300, deadline=None)
@given(TEXTS)
def test_mythex_formula(text: str) -> None:
    ascii_chars = sum(ord(c) < 0x80 for c in text)
    cjk = sum(scripts.fine_class_of(c) in scripts.MYTHEX_CJK for c in text)
    other = len(text) - ascii_chars - cjk
    assert get_estimator("mythex").count(text) == math.ceil(ascii_chars / 4 + cjk + other / 2 - 1e-9)


@settings(max_examples=300, deadline=None)
@given(TEXTS)
def test_properties_empty_nonnegative_deterministic(text: str) -> None:
    for name in ALL:
        est = get_estimator(name)
        assert est.count("") == 0
        first = est.count(text)
        assert first >= 0
        assert est.count(text) == first
        assert est.count(str(text)) == first
        if text:
            assert first >= 1


@settings(max_examples=300, deadline=None)
@given(TEXTS, TEXTS)
def test_near_additive_under_concatenation(a: str, b: str) -> None:
    # A profile is a sum over bytes and adjacent pairs: joining two texts replaces the end of one
    # and the start of the other by one pair (three pair rates) and rounds once more -- unless the
    # UTF-8 cap applies to one of them.
    for name in ALL:
        est = get_estimator(name)
        whole, parts = est.count(a + b), est.count(a) + est.count(b)
        if name in PROFILES:
            if not a or not b or any(
                est.count(t) == len(t.encode("utf-8", "surrogatepass")) for t in (a, b, a + b)
            ):
                continue  # the UTF-8 cap applies to one of them
            bound = 3 * max(abs(u) for u in PROFILES[name].pair_units) / UNIT + 2
        else:
            bound = 1
        assert abs(whole - parts) <= bound, name


@settings(max_examples=300, deadline=None)
@given(TEXTS)
def test_profiles_never_count_more_tokens_than_utf8_bytes(text: str) -> None:
    for name in PROFILES:
        assert get_estimator(name).count(text) <= len(text.encode("utf-8", "surrogatepass"))


def test_a_run_of_one_mark_is_cheap() -> None:
    # exact o200k: 16 tokens; the profiles used to say 2,670
    for name in ("claude", "openai"):
        assert get_estimator(name).count("=" * 1000) < 1000, name


@settings(max_examples=200, deadline=None)
@given(TEXTS)
def test_breakdown_adds_up(text: str) -> None:
    for name in ALL:
        result = breakdown(text, name)
        assert isinstance(result, ScriptBreakdown)
        assert result.estimator == name
        assert tuple(result.by_script) == scripts.DISPLAY_CLASSES
        assert result.tokens == get_estimator(name).count(text)
        assert result.chars == len(text)
        assert result.chars4 == math.ceil(len(text) / 4)
        assert sum(c.tokens for c in result.by_script.values()) == result.tokens
        assert sum(c.chars for c in result.by_script.values()) == len(text)
        assert all(c.chars >= 0 and c.tokens >= 0 for c in result.by_script.values())


def test_breakdown_classes() -> None:
    result = breakdown("Hello Привет Γειά 你好 한국 é 😀 नमस्ते", "claude")
    chars = {name: c.chars for name, c in result.by_script.items()}
    assert chars["cyrillic"] == 6
    assert chars["greek"] == 4
    assert chars["cjk"] == 2
    assert chars["hangul"] == 2
    assert chars["latin_accented"] == 1
    assert chars["emoji_symbols"] == 1
    assert chars["indic"] == 6
    assert chars["ascii"] == len("Hello     ") + 2
    data = result.to_dict()
    assert set(data) >= {"tokens", "chars", "estimator", "chars4", "by_script"}
    assert data["by_script"]["cyrillic"] == {"chars": 6, "tokens": result.by_script["cyrillic"].tokens}
    assert [row[0] for row in result.rows()] == [
        "ascii", "latin_accented", "cyrillic", "greek", "indic", "cjk", "hangul", "emoji_symbols",
    ]


@settings(max_examples=200, deadline=None)
@given(st.characters(codec="utf-8") | st.characters(min_codepoint=0xD800, max_codepoint=0xDFFF))
def test_class_stream_agrees_with_the_table(char: str) -> None:
    stream = scripts.fine_class_stream(char)
    names = [scripts.STREAM_CLASSES[b] for b in stream]
    if ord(char) >= 0x10000:
        assert names == ["astral", "lowsur"]
    else:
        assert names == [scripts.fine_class_of(char)]


def test_every_fine_class_has_a_display_class() -> None:
    assert set(scripts.DISPLAY_OF) == {scripts.ASCII_CLASS, *scripts.FINE_CLASSES}
    assert set(scripts.DISPLAY_OF.values()) == set(scripts.DISPLAY_CLASSES)


@pytest.mark.parametrize("name", sorted(PROFILES))
def test_profiles_are_well_formed(name: str) -> None:
    profile = PROFILES[name]
    assert len(profile.pair_units) == len(profile.byte_units) == 256
    assert all(-PAIR_OFFSET <= u <= 255 - PAIR_OFFSET for u in profile.pair_units)
    assert all(0 <= u <= 255 for u in profile.byte_units)
    assert all(profile.byte_units[b] == 0 for b in range(0x80, 0xC0))  # continuation bytes
    assert set(profile.script_units) <= set(SCRIPT_CLASSES)
    assert all(0 <= u <= 255 for u in profile.script_units.values())


@settings(max_examples=200, deadline=None)
@given(TEXTS)
def test_profiles_are_the_documented_linear_model(text: str) -> None:
    counts = features(text)
    size = len(text.encode("utf-8", "surrogatepass"))
    for name, profile in PROFILES.items():
        units = 0
        for key, n in counts.items():
            if key[0] == "p":
                code = tokens.SELF_KINDS.index(key[1]) << 4 | tokens.PREV_KINDS.index(key[2])
                units += profile.pair_units[code] * n
            elif key[0] == "b":
                units += profile.byte_units[int(key[1:], 16)] * n
            else:
                units += profile.script_units.get(key[1:], 0) * n
        expected = min(size, max(1, math.ceil(units / UNIT))) if text else 0
        assert get_estimator(name).count(text) == expected, name


def test_mostly_ascii_text_rates_its_few_other_characters_like_any_text() -> None:
    """A file as Claude Code's Read tool returns it (mostly ASCII, an arrow a line, some CJK and a
    lone surrogate) takes the short path that classifies only its other characters: same model."""
    lines = [f"{n:>6}\u2192 return parse(line)" + " # 注 \ud800" * (n % 10 == 0) for n in range(1, 400)]
    text = "\n".join(lines)
    data = text.encode("utf-8", "surrogatepass")
    assert len(data) - len(text) < len(text) >> 3  # the short path
    for name, profile in PROFILES.items():
        units = 0
        for key, n in features(text).items():
            if key[0] == "p":
                code = tokens.SELF_KINDS.index(key[1]) << 4 | tokens.PREV_KINDS.index(key[2])
                units += profile.pair_units[code] * n
            elif key[0] == "b":
                units += profile.byte_units[int(key[1:], 16)] * n
            else:
                units += profile.script_units.get(key[1:], 0) * n
        assert get_estimator(name).count(text) == min(len(data), math.ceil(units / UNIT)), name


# Texts whose true counts were measured once with the real tokenizers (Claude 4.7+ content tokens
# via ctok, which reproduces Claude's count_tokens exactly; o200k via tiktoken). Dense content is
# where character rules under-count; a profile must not.
KNOWN = {
    "digits": ("3.14159265358979, 2.71828182845904, " * 25, 451, 450),
    "english": ("It was the best of times, it was the worst of times, and we all went home. " * 20, 421, 401),
    "hex": (" ".join(f"{(i * 2654435761) % (1 << 64):016x}" for i in range(60)), 573, 529),
    "json": ('{"id": 12345, "name": "widget", "tags": ["a", "b"], "price": 9.99}\n' * 20, 719, 600),
    "indent": ("    if x:\n        return y\n" * 40, 359, 320),
    "uuid": (" ".join(f"{(i * 0x9E3779B97F4A7C15) % (1 << 128):032x}" for i in range(20)), 341, 317),
    "russian": ("Съешь же ещё этих мягких французских булок, да выпей чаю. " * 20, 521, 381),
    "emoji": ("ship it 🚀 thanks 🙏 " * 40, 640, 281),
    # short status lines of agent tool output (test runners, CI, checklists, spinners): the openai
    # profile used to give the first two 215 and 236, and the spinner 501
    "all_passed": ("\u2705 All tests passed\n" * 50, 450, 250),
    "cross_error": ("\u274c error\n" * 100, 500, 400),
    "cross_failed": ("\u2717 failed\n" * 100, 600, 400),
    "braille_spinner": ("\u280b\u2819\u2839\u2838\u283c\u2834\u2826\u2827\u2807\u280f" * 50, 1501, 1500),
}


@pytest.mark.parametrize("kind", sorted(KNOWN))
def test_profiles_do_not_under_count_known_texts(kind: str) -> None:
    text, claude, o200k = KNOWN[kind]
    assert get_estimator("claude").count(text) >= 0.95 * claude
    assert get_estimator("openai").count(text) >= 0.95 * o200k
    # ...and stay within a factor of two (measured: emoji with o200k 2.09, one token for most
    # emoji, but the rarer characters beyond the BMP that share their UTF-8 lead byte cost 3-4)
    assert get_estimator("claude").count(text) <= 2 * claude
    assert get_estimator("openai").count(text) <= (2.1 if kind == "emoji" else 2) * o200k


def test_character_rules_under_count_dense_content() -> None:
    text, claude, _ = KNOWN["hex"]
    assert get_estimator("chars4").count(text) < 0.5 * claude
    assert get_estimator("mythex").count(text) < 0.5 * claude
