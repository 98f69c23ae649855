"""Token estimation: named estimators, per-script breakdowns and calibration.

Limits and costs are counted in tokens, and ``characters / 4`` is an English-only assumption:
Russian runs at about 2.2 characters per token, Chinese and Japanese at about 1, JSON, CSV of
numbers and base64 far below 4. This module offers:

* ``chars4`` -- the old rule, ``ceil(chars / 4)``;
* ``mythex`` -- the documented per-script rule, applied per character: ASCII 4 characters per
  token, CJK (ideographs, kana, Hangul, CJK punctuation and full-width forms) 1, every other
  character 2, summed over the text and rounded up once;
* ``claude`` (the default) and ``openai`` -- *profiles*: linear models fitted, with a safety
  margin, against the current Claude tokenizer and OpenAI's ``o200k_base``. They are built so as
  not to under-count (under-counting lets a request overflow the window);
* ``exact-o200k`` and ``exact-cl100k`` when the optional backend is installed
  (``pip install 'ctxscope[exact]'``, see :mod:`ctxscope.core.exact`).

How a profile counts (``docs/tokens.md`` has the derivation and the accuracy tables): a token
estimate is a sum of per-character and per-pair rates,

* one rate per ASCII character class (space, newline, other control, punctuation, digit,
  upper-case letter) and one per lower-case letter (the tokenizers' vocabularies favour English,
  so the letters of English are cheap and ``k``, ``w``, ``y``, ``z``... are not);
* one rate per *continuation* of a class (a space after a space, a digit after a digit, a letter
  after a letter, ...): runs of spaces, digits or letters cost less per character than their
  first character, runs of punctuation may cost more;
* one rate per non-ASCII *script class* (:mod:`ctxscope.core.scripts`), plus an emoji rate.

Every rate is a whole number of 1/64 token, so each part of the sum is a byte sum of a
``bytes.translate`` output. Byte sums are taken with :func:`zlib.adler32` over chunks small
enough that its low half (``1 + sum mod 65521``) is exact. The ASCII rates and the continuation
rates are one such sum: each byte is coded as its class and its *kind* (class and rate), the
codes are shifted by three bits as one big integer so that every byte holds the class of the
one before it and its own kind, and one table gives the rate of that pair
(:func:`_pair_tables`). Non-ASCII characters are classified from their UTF-16 code units
(:mod:`ctxscope.core.scripts`); a mostly-ASCII text has them classified alone, by their UTF-8
lead byte when they are all two bytes long. Nothing loops over characters in Python, so a profile
runs at hundreds of MB/s on ASCII text.

Because the estimate is a sum over characters and adjacent pairs, it is additive: the estimate of
``a + b`` differs from the sum of the two estimates by at most the pair at the join plus rounding.
"""

from __future__ import annotations

import math
import zlib
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Final, Protocol, runtime_checkable

from .calibration import Calibrator
from .scripts import (
    ASCII_CLASS,
    DISPLAY_CLASSES,
    DISPLAY_OF,
    FINE_CLASSES,
    HALF_BLOCK_CLASS,
    MYTHEX_CJK,
    STREAM_CLASSES,
    STREAM_INDEX,
    fine_class_of,
    fine_class_stream,
    half_block_stream,
)

__all__ = [
    "ASCII_CLASSES",
    "DEFAULT_ESTIMATOR",
    "ESTIMATOR_NAMES",
    "EXACT_ESTIMATOR_NAMES",
    "PROFILES",
    "UNIT",
    "Calibrator",
    "Chars4Estimator",
    "Estimator",
    "Profile",
    "ProfileEstimator",
    "ScriptBreakdown",
    "ScriptCount",
    "available_estimators",
    "breakdown",
    "estimate_tokens",
    "features",
    "get_estimator",
]

#: The estimator used when none is named.
DEFAULT_ESTIMATOR: Final = "claude"

#: Built-in estimators, always available.
ESTIMATOR_NAMES: Final[tuple[str, ...]] = ("claude", "openai", "mythex", "chars4")

#: Exact estimators, available when the optional backend is installed.
EXACT_ESTIMATOR_NAMES: Final[tuple[str, ...]] = ("exact-o200k", "exact-cl100k")

#: Rates are whole multiples of ``1 / UNIT`` token.
UNIT: Final = 64

#: ASCII character classes, in the order of their flag bits: space, newline, tab and other control
#: characters, punctuation, digit, lower-case letter, upper-case letter. Bit 7 marks a non-ASCII byte.
ASCII_CLASSES: Final[str] = "SNTPDLU"

_NON_ASCII_FLAG: Final = 1 << 7


def _ascii_class(byte: int) -> str:
    """The ASCII class letter of a byte below 0x80."""
    char = chr(byte)
    if char == " ":
        return "S"
    if char == "\n":
        return "N"
    if byte < 0x20 or byte == 0x7F:
        return "T"
    if "a" <= char <= "z":
        return "L"
    if "A" <= char <= "Z":
        return "U"
    if "0" <= char <= "9":
        return "D"
    return "P"


#: Class letter of every ASCII byte.
_CLASS_OF_BYTE: Final[tuple[str, ...]] = tuple(_ascii_class(b) for b in range(0x80))

#: ``bytes.translate`` table: a UTF-8 byte to its one-hot class flag.
_FLAGS: Final[bytes] = bytes(
    (1 << ASCII_CLASSES.index(_CLASS_OF_BYTE[b])) if b < 0x80 else _NON_ASCII_FLAG for b in range(256)
)

#: Byte holding the ``astral`` class in the fine-class stream.
_ASTRAL_BYTE: Final = bytes([STREAM_INDEX["astral"]])
_LOWSUR_BYTE: Final = bytes([STREAM_INDEX["lowsur"]])
#: UTF-8 prefix of U+1F000-U+1FFFF: emoji, pictographs, playing cards, ...
_EMOJI_PREFIX: Final = b"\xf0\x9f"
#: UTF-8 lead byte of U+D000-U+DFFF: Hangul, and the lone surrogates ``surrogatepass`` encodes.
_SURROGATE_LEAD: Final = b"\xed"
#: Every ASCII byte (deleted from a text's UTF-8 to find its non-ASCII characters).
_ASCII_BYTES: Final = bytes(range(0x80))

_adler32: Final = zlib.adler32

#: :meth:`ProfileEstimator.count` memoises texts of at most this many characters...
CACHE_TEXT_CHARS: Final = 1 << 13
#: ... up to this many characters in all (then it starts afresh), so memory stays bounded.
CACHE_CHARS: Final = 1 << 20


# --------------------------------------------------------------------------------------------
# Results


@dataclass(frozen=True)
class ScriptCount:
    """Characters of one script class in a text and the tokens the estimator gives them."""

    chars: int
    """Characters (code points) of this class."""
    tokens: int
    """Tokens attributed to them (the classes of one breakdown add up to its total)."""


@dataclass(frozen=True)
class ScriptBreakdown:
    """A text's token estimate split by writing script, with what ``chars / 4`` would have said."""

    estimator: str
    """Name of the estimator that produced the figures."""
    chars: int
    """Characters (code points) in the text."""
    tokens: int
    """The estimate, equal to ``get_estimator(estimator).count(text)``."""
    chars4: int
    """What the old ``ceil(chars / 4)`` rule says."""
    by_script: Mapping[str, ScriptCount]
    """One entry per display class (:data:`~ctxscope.core.scripts.DISPLAY_CLASSES`), in order."""

    def rows(self) -> list[tuple[str, int, int]]:
        """``(class, chars, tokens)`` for the classes present in the text."""
        return [(name, c.chars, c.tokens) for name, c in self.by_script.items() if c.chars or c.tokens]

    def to_dict(self) -> dict[str, object]:
        """A JSON-ready dict (the shape ``ctxscope estimate --json`` prints)."""
        return {
            "estimator": self.estimator,
            "chars": self.chars,
            "tokens": self.tokens,
            "chars4": self.chars4,
            "by_script": {
                name: {"chars": c.chars, "tokens": c.tokens} for name, c in self.by_script.items()
            },
        }


@runtime_checkable
class Estimator(Protocol):
    """Anything that turns text into a token estimate."""

    @property
    def name(self) -> str:
        """The estimator's registered name."""
        ...

    def count(self, text: str) -> int:
        """Token estimate of ``text``: 0 for ``""``, never negative, deterministic."""
        ...

    def breakdown(self, text: str) -> ScriptBreakdown:
        """The estimate of ``text`` split by script class."""
        ...


# --------------------------------------------------------------------------------------------
# Profiles


@dataclass(frozen=True)
class Profile:
    """The rates of a linear token estimator, in tokens (rounded to ``1 / UNIT`` when compiled).

    Attributes:
        name: Registered estimator name.
        description: One line for ``--help`` and documentation.
        ascii_rates: Rate per ASCII class letter (:data:`ASCII_CLASSES`).
        letter_rates: Rate per lower-case letter ``a``-``z``, overriding ``ascii_rates["L"]`` (the
            tokenizers' vocabularies favour English, so letters frequent in English are cheap and
            letters frequent in less-resourced orthographies, like ``k``, ``w``, ``y``, are not).
        run_rates: Rate per continuation of an ASCII class (a character of class ``k`` right after
            one of the same class), keyed by the class letter; may be negative, but
            ``ascii_rates[k] + run_rates[k]`` never is.
        script_rates: Rate per non-ASCII fine class (:data:`~ctxscope.core.scripts.FINE_CLASSES`);
            ``astral`` is the rate of a character beyond the BMP, ``rare`` also that of a lone
            surrogate.
        emoji_rate: Rate of a character in U+1F000-U+1FFFF (instead of the ``astral`` rate).
    """

    name: str
    description: str
    ascii_rates: Mapping[str, float]
    letter_rates: Mapping[str, float]
    run_rates: Mapping[str, float]
    script_rates: Mapping[str, float]
    emoji_rate: float


def _units(rate: float) -> int:
    """A rate in tokens as whole ``1 / UNIT`` units, rounded to nearest."""
    return round(rate * UNIT)


@dataclass(frozen=True)
class _Compiled:
    """``bytes.translate`` tables and chunk sizes of a profile."""

    single: bytes
    single_chunk: int
    run: bytes
    run_chunk: int
    run_offset: int
    code: bytes | None
    """Per byte: its ASCII class (1-7; 0 for a non-ASCII byte) times 32, plus the number of its
    (class, rate) kind (1-31; 0 for a non-ASCII byte); see :func:`_pair_tables`."""
    pair: bytes | None
    """Units of a pair of adjacent characters, by (class of the first, kind of the second)."""
    pair_chunk: int
    script: bytes
    script_chunk: int
    half_block_script: bytes
    """Units of each byte value of :func:`~ctxscope.core.scripts.half_block_stream` (``script``
    composed with :data:`~ctxscope.core.scripts.HALF_BLOCK_CLASS`)."""
    lead_script: bytes
    """Units of a two-byte UTF-8 character (U+0080-U+07FF), by its lead byte; 0 for other bytes."""
    lead_chunk: int
    astral_units: int
    emoji_units: int
    lone_units: int
    ascii_units: Mapping[str, int]
    run_units: Mapping[str, int]
    script_units: Mapping[str, int]


def _chunk(table: bytes) -> int:
    """Largest chunk whose byte sum under ``table`` cannot reach adler32's modulus."""
    return max(1, 65519 // max(1, max(table)))


def _pair_tables(single: bytes, run_units: Mapping[str, int]) -> tuple[bytes, bytes] | None:
    """The tables that sum a text's ASCII rates and run rates in one stream (see
    :meth:`ProfileEstimator.count`), or None for a profile with more than 31 distinct
    (class, rate) kinds of ASCII character, or where a rate plus a run rate is not a byte value
    (such a profile is summed in two streams, with the same result).

    Each byte becomes ``class << 5 | kind`` (:attr:`_Compiled.code`). Shifted left by three bits
    as one big integer, byte ``i`` of the result holds the class of byte ``i - 1`` in its low
    three bits and the kind of byte ``i`` in its high five: all that the rate of byte ``i`` and
    the run rate of the pair ``(i - 1, i)`` depend on (:attr:`_Compiled.pair`).
    """
    kinds = sorted({(_CLASS_OF_BYTE[b], single[b]) for b in range(0x80)})
    if len(kinds) > 31:
        return None
    code = bytearray(256)
    pair = bytearray(256)
    for number, (letter, units) in enumerate(kinds, 1):
        cls = ASCII_CLASSES.index(letter) + 1
        for b in range(0x80):
            if _CLASS_OF_BYTE[b] == letter and single[b] == units:
                code[b] = cls << 5 | number
        for before in range(8):
            value = units + (run_units[letter] if before == cls else 0)
            if not 0 <= value <= 255:
                return None
            pair[number << 3 | before] = value
    return bytes(code), bytes(pair)


def _compile(profile: Profile) -> _Compiled:
    """Turn a profile's rates into translate tables."""
    ascii_units = {k: _units(profile.ascii_rates[k]) for k in ASCII_CLASSES}
    single = bytearray(ascii_units[_CLASS_OF_BYTE[b]] if b < 0x80 else 0 for b in range(256))
    for letter, rate in profile.letter_rates.items():
        single[ord(letter)] = _units(rate)
    run_units = {k: _units(profile.run_rates.get(k, 0.0)) for k in ASCII_CLASSES}
    offset = max(0, -min(run_units.values()))
    run = bytearray([offset] * 256)
    for bit, k in enumerate(ASCII_CLASSES):
        run[1 << bit] = offset + run_units[k]
    script_units: dict[str, int] = {}
    for name in FINE_CLASSES:
        script_units[name] = _units(profile.script_rates.get(name, 0.0))
    script = bytearray(256)
    for name in FINE_CLASSES:
        if name not in ("astral", "lowsur"):  # surrogates are counted by _surrogates()
            script[STREAM_INDEX[name]] = script_units[name]
    for table in (bytes(single), bytes(run), bytes(script)):
        if max(table) > 255:  # pragma: no cover - profiles are validated by tests
            raise ValueError(f"profile {profile.name}: a rate does not fit in a byte")
    code, pair = _pair_tables(bytes(single), run_units) or (None, None)
    lead_script = bytes(
        script_units[fine_class_of(chr((b & 0x1F) << 6))] if 0xC2 <= b <= 0xDF else 0 for b in range(256)
    )
    return _Compiled(
        single=bytes(single),
        single_chunk=_chunk(bytes(single)),
        run=bytes(run),
        run_chunk=_chunk(bytes(run)),
        run_offset=offset,
        code=code,
        pair=pair,
        pair_chunk=_chunk(pair) if pair is not None else 0,
        script=bytes(script),
        script_chunk=_chunk(bytes(script)),
        half_block_script=HALF_BLOCK_CLASS.translate(bytes(script)),
        lead_script=lead_script,
        lead_chunk=_chunk(lead_script),
        astral_units=script_units["astral"],
        emoji_units=_units(profile.emoji_rate),
        lone_units=script_units["rare"],
        ascii_units=MappingProxyType(ascii_units),
        run_units=MappingProxyType(run_units),
        script_units=MappingProxyType(script_units),
    )


def _byte_sum(data: bytes, chunk: int) -> int:
    """Sum of the bytes of ``data``, at C speed (adler32 over chunks that cannot overflow)."""
    size = len(data)
    if size <= chunk:
        return (_adler32(data) & 0xFFFF) - 1
    view = memoryview(data)
    total = 0
    for start in range(0, size, chunk):
        total += _adler32(view[start : start + chunk]) & 0xFFFF
    return total - (size + chunk - 1) // chunk


def _run_stream(data: bytes) -> bytes:
    """Per byte of ``data``: its class flag if the next byte has the same class, else 0."""
    flags = int.from_bytes(data.translate(_FLAGS), "little")
    return (flags & (flags >> 8)).to_bytes(len(data), "little")


def _apportion(total: int, shares: Mapping[str, float]) -> dict[str, int]:
    """Split ``total`` into integers proportional to ``shares`` (largest remainder)."""
    weight = sum(v for v in shares.values() if v > 0)
    if total <= 0 or weight <= 0:
        return dict.fromkeys(shares, 0)
    exact = {k: total * max(0.0, v) / weight for k, v in shares.items()}
    result = {k: math.floor(v) for k, v in exact.items()}
    left = total - sum(result.values())
    for k in sorted(exact, key=lambda k: (result[k] - exact[k], k))[:left]:
        result[k] += 1
    return result


def _surrogates(text: str, data: bytes, stream: bytes) -> tuple[int, int, int]:
    """(characters beyond the BMP other than emoji, emoji, lone surrogates) of a non-ASCII text.

    A character beyond the BMP is two UTF-16 code units (a high and a low surrogate), so the
    stream is longer than the text by the number of such characters; ``str`` can also hold lone
    surrogates, which are the surrogate units left over.
    """
    pairs = len(stream) - len(text)
    if not pairs and stream.find(_ASTRAL_BYTE) < 0 and stream.find(_LOWSUR_BYTE) < 0:
        return 0, 0, 0
    lone = stream.count(_ASTRAL_BYTE) + stream.count(_LOWSUR_BYTE) - 2 * pairs
    emoji = data.count(_EMOJI_PREFIX) if pairs else 0
    return pairs - emoji, emoji, lone


def _display_chars(text: str, stream: bytes | None) -> dict[str, int]:
    """Characters per display class (emoji under ``emoji_symbols``, lone surrogates under ``other``)."""
    chars = dict.fromkeys(DISPLAY_CLASSES, 0)
    if stream is None:
        chars["ascii"] = len(text)
        return chars
    for index, n in Counter(stream).items():
        name = STREAM_CLASSES[index]
        if name not in ("astral", "lowsur"):
            chars[DISPLAY_OF[name]] += n
    astral, emoji, lone = _surrogates(text, text.encode("utf-8", "surrogatepass"), stream)
    chars["other"] += astral + lone
    chars["emoji_symbols"] += emoji
    return chars


class ProfileEstimator:
    """An estimator computing a :class:`Profile`'s linear model (see the module docstring)."""

    __slots__ = (
        "_c",
        "_cache",
        "_cached_chars",
        "_code",
        "_pair",
        "_pair_chunk",
        "name",
        "profile",
    )

    def __init__(self, profile: Profile) -> None:
        """Compile ``profile`` into lookup tables.

        Args:
            profile: The rates.
        """
        self.profile = profile
        self.name = profile.name
        """The profile's name."""
        self._c = c = _compile(profile)
        # The hot path's tables, one attribute lookup each.
        self._code, self._pair, self._pair_chunk = c.code, c.pair, c.pair_chunk
        self._cache: dict[str, int] = {}
        """Estimates of recent texts (see :meth:`count`)."""
        self._cached_chars = 0

    def __repr__(self) -> str:
        return f"ProfileEstimator({self.profile.name!r})"

    def _ascii_units(self, data: bytes) -> int:
        """Units of the ASCII characters of a text and of their runs (``data``: its UTF-8).

        One stream of pairs when the profile has pair tables (see :func:`_pair_tables`), else a
        stream of characters and one of runs (the class flags of the text ``AND`` themselves
        shifted by one byte).
        """
        c = self._c
        if c.code is not None and c.pair is not None:
            pairs = (int.from_bytes(data.translate(c.code), "little") << 3).to_bytes(len(data) + 1, "little")
            return _byte_sum(pairs.translate(c.pair), c.pair_chunk)
        units = _byte_sum(data.translate(c.single), c.single_chunk)
        return units + _byte_sum(_run_stream(data).translate(c.run), c.run_chunk) - c.run_offset * len(data)

    def _units(self, text: str) -> tuple[int, int, bytes | None]:
        """(ASCII units, script units, fine-class stream or ``None`` for ASCII text)."""
        c = self._c
        data = text.encode("utf-8", "surrogatepass")
        size = len(data)
        ascii_units = self._ascii_units(data)
        if size == len(text):
            return ascii_units, 0, None
        stream = fine_class_stream(text)
        script_units = _byte_sum(stream.translate(c.script), c.script_chunk)
        astral, emoji, lone = _surrogates(text, data, stream)
        script_units += astral * c.astral_units + emoji * c.emoji_units + lone * c.lone_units
        return ascii_units, script_units, stream

    def count(self, text: str) -> int:
        """Token estimate of ``text``.

        Estimates are memoised per text (agent logs repeat system prompts, tool definitions,
        tool names and file contents): up to :data:`CACHE_CHARS` characters of texts of at most
        :data:`CACHE_TEXT_CHARS` each, forgotten all at once when full.

        Args:
            text: Any string.

        Returns:
            The estimate: 0 for ``""``, never negative, deterministic.
        """
        length = len(text)
        if length <= CACHE_TEXT_CHARS:
            if not length:
                return 0
            found = self._cache.get(text)
            if found is not None:
                return found
        data = text.encode("utf-8", "surrogatepass")
        size = len(data)
        code, pair = self._code, self._pair
        if code is not None and pair is not None:  # _ascii_units inlined: the hot path
            pairs = (int.from_bytes(data.translate(code), "little") << 3).to_bytes(size + 1, "little")
            if size < self._pair_chunk:
                units = (_adler32(pairs.translate(pair)) & 0xFFFF) - 1
            else:
                units = _byte_sum(pairs.translate(pair), self._pair_chunk)
        else:
            units = self._ascii_units(data)
        if size != length:
            units += self._script_units(text, data)
        result = max(0, -(-units // UNIT))
        if length <= CACHE_TEXT_CHARS:
            if self._cached_chars + length > CACHE_CHARS:
                self._cache.clear()
                self._cached_chars = 0
            self._cache[text] = result
            self._cached_chars += length
        return result

    def _script_units(self, text: str, data: bytes) -> int:
        """Units of the non-ASCII characters of ``text`` (``data`` is its UTF-8 encoding).

        ASCII characters weigh nothing here, so a text that is mostly ASCII (source code with a
        few arrows or box-drawing characters) has its non-ASCII characters classified alone.
        """
        c = self._c
        if (len(data) - len(text)) * 4 < len(text):
            rest = data.translate(None, _ASCII_BYTES)
            if len(rest) == 2 * (len(text) - len(data) + len(rest)):
                # Every non-ASCII character is two bytes long (U+0080-U+07FF: accented Latin,
                # Greek, Cyrillic, Hebrew, Arabic, ...): its lead byte names its class.
                return _byte_sum(rest.translate(c.lead_script), c.lead_chunk)
            data = rest
            text = rest.decode("utf-8", "surrogatepass")
        halves = half_block_stream(text)
        units = _byte_sum(halves.translate(c.half_block_script), c.script_chunk)
        if len(halves) == len(text) and _SURROGATE_LEAD not in data:
            return units  # no character beyond the BMP, no lone surrogate
        astral, emoji, lone = _surrogates(text, data, halves.translate(HALF_BLOCK_CLASS))
        return units + astral * c.astral_units + emoji * c.emoji_units + lone * c.lone_units

    def breakdown(self, text: str) -> ScriptBreakdown:
        """The estimate of ``text`` split by display class.

        Args:
            text: Any string.

        Returns:
            A breakdown whose class tokens add up to :meth:`count`.
        """
        total = self.count(text)
        shares = dict.fromkeys(DISPLAY_CLASSES, 0.0)
        stream: bytes | None = None
        if text:
            ascii_units, _, stream = self._units(text)
            shares["ascii"] = float(max(0, ascii_units))
            if stream is not None:
                c = self._c
                for index, n in Counter(stream).items():
                    name = STREAM_CLASSES[index]
                    if name not in (ASCII_CLASS, "astral", "lowsur"):
                        shares[DISPLAY_OF[name]] += n * c.script_units[name]
                astral, emoji, lone = _surrogates(text, text.encode("utf-8", "surrogatepass"), stream)
                shares["other"] += astral * c.astral_units + lone * c.lone_units
                shares["emoji_symbols"] += emoji * c.emoji_units
        chars = _display_chars(text, stream)
        tokens = _apportion(total, shares)
        return ScriptBreakdown(
            estimator=self.name,
            chars=len(text),
            tokens=total,
            chars4=math.ceil(len(text) / 4),
            by_script=MappingProxyType({k: ScriptCount(chars[k], tokens[k]) for k in DISPLAY_CLASSES}),
        )


class Chars4Estimator:
    """The old rule: ``ceil(characters / 4)`` (characters are code points)."""

    __slots__ = ()

    @property
    def name(self) -> str:
        """Always ``chars4``."""
        return "chars4"

    def __repr__(self) -> str:
        return "Chars4Estimator()"

    def count(self, text: str) -> int:
        """``ceil(len(text) / 4)``.

        Args:
            text: Any string.

        Returns:
            The estimate.
        """
        return -(-len(text) // 4)

    def breakdown(self, text: str) -> ScriptBreakdown:
        """Characters per display class, with the total split in proportion to them.

        Args:
            text: Any string.

        Returns:
            The breakdown.
        """
        stream = None if text.isascii() else fine_class_stream(text)
        chars = _display_chars(text, stream)
        total = self.count(text)
        tokens = _apportion(total, {k: float(v) for k, v in chars.items()})
        return ScriptBreakdown(
            estimator=self.name,
            chars=len(text),
            tokens=total,
            chars4=total,
            by_script=MappingProxyType({k: ScriptCount(chars[k], tokens[k]) for k in DISPLAY_CLASSES}),
        )


def features(text: str) -> dict[str, int]:
    """The counts a profile multiplies by its rates (for fitting and explaining estimates).

    Keys: ``c`` + an ASCII class letter (characters of that class), ``l`` + a lower-case letter
    (occurrences of that letter), ``r`` + a class letter (continuations of that class), each fine
    class name but ``lowsur`` (characters; ``astral`` excludes emoji, ``rare`` includes lone
    surrogates) and ``emoji``.

    Args:
        text: Any string.

    Returns:
        The counts; a profile's estimate is ``ceil(sum(rate * count))`` with rates in ``1/UNIT``.
    """
    data = text.encode("utf-8", "surrogatepass")
    flags = data.translate(_FLAGS)
    runs = _run_stream(data)
    counts: dict[str, int] = {}
    for bit, k in enumerate(ASCII_CLASSES):
        flag = bytes([1 << bit])
        counts["c" + k] = flags.count(flag)
        counts["r" + k] = runs.count(flag)
    for letter in "abcdefghijklmnopqrstuvwxyz":
        counts["l" + letter] = data.count(letter.encode())
    stream = b"" if len(data) == len(text) else fine_class_stream(text)
    for name in FINE_CLASSES:
        counts[name] = stream.count(bytes([STREAM_INDEX[name]])) if stream else 0
    del counts["lowsur"]
    counts["astral"], counts["emoji"], lone = _surrogates(text, data, stream) if stream else (0, 0, 0)
    counts["rare"] += lone
    return counts


# --------------------------------------------------------------------------------------------
# The built-in profiles. Rates below were produced by ``bench/fit_tokens.py`` (see docs/tokens.md).

_MYTHEX_SCRIPT: Final[dict[str, float]] = {
    name: (1.0 if name in MYTHEX_CJK else 0.5) for name in FINE_CLASSES if name != "lowsur"
}

MYTHEX: Final = Profile(
    name="mythex",
    description="documented rule: ASCII 4 chars/token, CJK 1, everything else 2 (per character)",
    ascii_rates=MappingProxyType(dict.fromkeys(ASCII_CLASSES, 0.25)),
    letter_rates=MappingProxyType({}),
    run_rates=MappingProxyType({}),
    script_rates=MappingProxyType(_MYTHEX_SCRIPT),
    emoji_rate=0.5,
)

# BEGIN FITTED PROFILES (generated by bench/fit_tokens.py)
CLAUDE: Final = Profile(
    name="claude",
    description="fitted to the current Claude tokenizer (Opus 4.7 and later), with a safety margin",
    ascii_rates=MappingProxyType(
        {
            "S": 0.484375,
            "N": 0.9375,
            "T": 1.35938,
            "P": 0.765625,
            "D": 1.46875,
            "L": 1.70312,
            "U": 1.15625,
        }
    ),
    letter_rates=MappingProxyType(
        {
            "a": 1.21875,
            "b": 0.734375,
            "c": 0.1875,
            "d": 0.65625,
            "e": 0.25,
            "f": 0.765625,
            "g": 1.26562,
            "h": 0.921875,
            "i": 0.71875,
            "j": 1,
            "k": 1.42188,
            "l": 0.28125,
            "m": 0.5625,
            "n": 0.234375,
            "o": 0.375,
            "p": 0.1875,
            "q": 1.60938,
            "r": 0.4375,
            "s": 0.1875,
            "t": 0.1875,
            "u": 0.734375,
            "v": 0.1875,
            "w": 1.70312,
            "x": 1.23438,
            "y": 1.375,
            "z": 1.3125,
        }
    ),
    run_rates=MappingProxyType(
        {
            "S": -0.4375,
            "N": -0.9375,
            "T": -1.3125,
            "P": 1.90625,
            "D": -1.125,
            "L": -0.078125,
            "U": -0.171875,
        }
    ),
    script_rates=MappingProxyType(
        {
            "lat1": 1.9375,
            "latA": 1.46875,
            "latB": 2.90625,
            "ipa": 3.25,
            "comb": 3.90625,
            "grk": 0.75,
            "cyr": 0.53125,
            "cyrx": 3.90625,
            "armn": 0.6875,
            "hebr": 0.890625,
            "arab": 1.09375,
            "syrc": 2.5,
            "thaa": 1.14062,
            "deva": 0.921875,
            "beng": 1.26562,
            "guru": 2.54688,
            "gujr": 1.07812,
            "orya": 1.89062,
            "taml": 0.953125,
            "telu": 1.01562,
            "knda": 2.10938,
            "mlym": 1.29688,
            "sinh": 1.10938,
            "thai": 1,
            "lao": 1.46875,
            "tibt": 1.4375,
            "mymr": 1.21875,
            "geor": 0.75,
            "jamo": 3.90625,
            "ethi": 3.90625,
            "cher": 3.5625,
            "ucas": 3.57812,
            "khmr": 1.21875,
            "mong": 3.90625,
            "latX": 1.34375,
            "gpunc": 1.60938,
            "sym": 2.9375,
            "cjkp": 1.76562,
            "kana": 0.875,
            "cjk": 1.14062,
            "hang": 1.29688,
            "pua": 0.25,
            "pres": 1.48438,
            "fullw": 3.90625,
            "rare": 3.90625,
            "astral": 5.39062,
        }
    ),
    emoji_rate=3.5,
)

OPENAI: Final = Profile(
    name="openai",
    description="fitted to OpenAI's o200k_base encoding, with a safety margin",
    ascii_rates=MappingProxyType(
        {
            "S": 0.234375,
            "N": 1.39062,
            "T": 0.6875,
            "P": 0.421875,
            "D": 1.79688,
            "L": 2.17188,
            "U": 0.640625,
        }
    ),
    letter_rates=MappingProxyType(
        {
            "a": 0.828125,
            "b": 0.265625,
            "c": 0.265625,
            "d": 0.34375,
            "e": 0.296875,
            "f": 0.40625,
            "g": 0.265625,
            "h": 0.265625,
            "i": 0.4375,
            "j": 1.32812,
            "k": 1.14062,
            "l": 0.265625,
            "m": 0.265625,
            "n": 0.34375,
            "o": 0.609375,
            "p": 0.28125,
            "q": 1.40625,
            "r": 0.265625,
            "s": 0.265625,
            "t": 0.265625,
            "u": 0.625,
            "v": 0.265625,
            "w": 1.10938,
            "x": 1.3125,
            "y": 1.53125,
            "z": 2.17188,
        }
    ),
    run_rates=MappingProxyType(
        {
            "S": 0.015625,
            "N": -1.375,
            "T": -0.640625,
            "P": 0.234375,
            "D": -1.46875,
            "L": -0.15625,
            "U": -0.15625,
        }
    ),
    script_rates=MappingProxyType(
        {
            "lat1": 1.29688,
            "latA": 1.79688,
            "latB": 2.23438,
            "ipa": 0.609375,
            "comb": 3.64062,
            "grk": 0.390625,
            "cyr": 0.359375,
            "cyrx": 3.90625,
            "armn": 0.328125,
            "hebr": 0.484375,
            "arab": 0.53125,
            "syrc": 2.21875,
            "thaa": 2.15625,
            "deva": 0.453125,
            "beng": 0.46875,
            "guru": 0.625,
            "gujr": 0.4375,
            "orya": 1.15625,
            "taml": 0.390625,
            "telu": 0.5,
            "knda": 0.4375,
            "mlym": 0.375,
            "sinh": 0.59375,
            "thai": 0.4375,
            "lao": 1.9375,
            "tibt": 1.60938,
            "mymr": 0.578125,
            "geor": 0.34375,
            "jamo": 3.90625,
            "ethi": 3.90625,
            "cher": 3.26562,
            "ucas": 3.25,
            "khmr": 0.640625,
            "mong": 3.90625,
            "latX": 0.25,
            "gpunc": 1.26562,
            "sym": 2.85938,
            "cjkp": 1.4375,
            "kana": 0.875,
            "cjk": 0.859375,
            "hang": 0.734375,
            "pua": 2.32812,
            "pres": 1.23438,
            "fullw": 1.375,
            "rare": 3.10938,
            "astral": 5.125,
        }
    ),
    emoji_rate=2.15625,
)
# END FITTED PROFILES

#: Built-in profiles by name.
PROFILES: Final[Mapping[str, Profile]] = MappingProxyType(
    {p.name: p for p in (CLAUDE, OPENAI, MYTHEX)}
)


# --------------------------------------------------------------------------------------------
# Registry


@dataclass
class _Registry:
    """Estimator instances, created on first use."""

    instances: dict[str, Estimator] = field(default_factory=dict)


_REGISTRY: Final = _Registry()


def available_estimators() -> tuple[str, ...]:
    """Names :func:`get_estimator` accepts here: the built-ins, plus exact ones if installed."""
    from .exact import exact_available

    return ESTIMATOR_NAMES + (EXACT_ESTIMATOR_NAMES if exact_available() else ())


def get_estimator(name: str = DEFAULT_ESTIMATOR) -> Estimator:
    """The estimator registered under ``name`` (instances are shared).

    Args:
        name: One of :data:`ESTIMATOR_NAMES`, or of :data:`EXACT_ESTIMATOR_NAMES` when the
            optional exact backend is installed.

    Returns:
        The estimator.

    Raises:
        ValueError: For an unknown name (the message lists the known ones), or an exact estimator
            whose backend is not installed (the message says how to install it).
    """
    found = _REGISTRY.instances.get(name)
    if found is not None:
        return found
    estimator: Estimator
    if name == "chars4":
        estimator = Chars4Estimator()
    elif name in PROFILES:
        estimator = ProfileEstimator(PROFILES[name])
    elif name in EXACT_ESTIMATOR_NAMES:
        from .exact import ExactEstimator

        estimator = ExactEstimator(name)
    else:
        known = ", ".join(ESTIMATOR_NAMES + EXACT_ESTIMATOR_NAMES)
        raise ValueError(f"unknown estimator {name!r}; known estimators: {known}")
    _REGISTRY.instances[name] = estimator
    return estimator


def estimate_tokens(text: str, estimator: str = DEFAULT_ESTIMATOR) -> int:
    """Token estimate of ``text`` with the named estimator.

    Args:
        text: Any string.
        estimator: Estimator name (default ``claude``).

    Returns:
        The estimate.
    """
    return get_estimator(estimator).count(text)


def breakdown(text: str, estimator: str = DEFAULT_ESTIMATOR) -> ScriptBreakdown:
    """Per-script breakdown of ``text`` with the named estimator.

    Args:
        text: Any string.
        estimator: Estimator name (default ``claude``).

    Returns:
        The breakdown.
    """
    return get_estimator(estimator).breakdown(text)
