"""Token estimation: named estimators, per-script breakdowns and calibration.

Limits and costs are counted in tokens, and ``characters / 4`` is an English-only assumption:
Russian runs at about 2.2 characters per token, Chinese and Japanese at about 1, JSON, CSV of
numbers and base64 far below 4. This module offers:

* ``chars4`` -- the old rule, ``ceil(chars / 4)``;
* ``mythex`` -- the documented per-script rule, applied per character: ASCII 4 characters per
  token, CJK (ideographs, kana, Hangul, CJK punctuation and full-width forms) 1, every other
  character 2, summed over the text and rounded up once;
* ``claude`` (the default) and ``openai`` -- *profiles*: linear models fitted, with a safety
  margin, against the current Claude tokenizer and OpenAI's ``o200k_base``
  (:mod:`ctxscope.core._token_profiles`, written by ``bench/fit_tokens.py``). They are built so
  as not to under-count (under-counting lets a request overflow the window);
* ``exact-o200k``, ``exact-cl100k`` and (on Python >= 3.12) ``exact-claude`` when the optional
  backend is installed (``pip install 'ctxscope[exact]'``, see :mod:`ctxscope.core.exact`).

How a profile counts (``docs/tokens.md`` has the derivation and the accuracy tables): the estimate
is ``ceil`` of a sum of three kinds of rates, capped at the text's UTF-8 length (a byte-level BPE
never produces more tokens than bytes):

* a **pair rate** for every pair of adjacent UTF-8 bytes, by the *kind* of the byte
  (:data:`SELF_KINDS`: space, newline, letter, digit, punctuation, UTF-8 lead byte by script
  group, ...) and the *kind of the byte before it* (:data:`PREV_KINDS`: finer for punctuation
  and letters). This is where word starts live: a letter after a space, a Georgian or Hangul
  lead byte after a space, a word after ``_`` or ``/`` (identifiers, paths), a capital after a
  lower-case letter, a run of digits or of punctuation, the start and end of the text;
* a **byte rate** for every ASCII character and every UTF-8 lead byte (so a two-byte character,
  Latin accents, Greek, Cyrillic, Armenian, Hebrew, Arabic, is rated by its 64-code-point block);
* a **script rate** for characters at U+0800 and above, by fine class
  (:mod:`ctxscope.core.scripts`).

Every rate is a whole number of 1/64 token, so each part of the sum is the byte sum of one
``bytes.translate`` output, taken with :func:`zlib.adler32` over chunks small enough that its low
half (``1 + sum mod 65521``) is exact. The pairs come from one shift: every byte is coded as
``prev kind << 4 | kind``, the codes are read as one big integer and shifted by four bits, so
that byte ``i`` holds its own kind and the previous byte's. Script classes come from the text's
UTF-16 code units (:func:`~ctxscope.core.scripts.half_block_stream`), only when the text has
characters at U+0800 or above. Nothing loops over characters in Python.

Because the estimate is a sum over bytes and adjacent pairs, it is additive: the estimate of
``a + b`` differs from the sum of the two estimates by at most the pairs at the join plus
rounding (and the byte cap, for very short texts).
"""

from __future__ import annotations

import math
import threading
import zlib
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Final, Protocol, runtime_checkable

from . import _token_profiles
from .calibration import Calibrator
from .scripts import (
    ASCII_CLASS,
    BLOCKS,
    DISPLAY_CLASSES,
    DISPLAY_OF,
    FINE_CLASSES,
    HALF_BLOCK_CLASS,
    MYTHEX_CJK,
    STREAM_CLASSES,
    STREAM_INDEX,
    fine_class_stream,
    half_block_stream,
)

__all__ = [
    "DEFAULT_ESTIMATOR",
    "ESTIMATOR_NAMES",
    "EXACT_ESTIMATOR_NAMES",
    "PREV_KINDS",
    "PROFILES",
    "SCRIPT_CLASSES",
    "SELF_KINDS",
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
EXACT_ESTIMATOR_NAMES: Final[tuple[str, ...]] = ("exact-o200k", "exact-cl100k", "exact-claude")

#: Rates are whole multiples of ``1 / UNIT`` token.
UNIT: Final = 64

#: Pair rates are stored plus this many units, so that a negative rate fits in a byte.
PAIR_OFFSET: Final = 64

#: :meth:`ProfileEstimator.count` memoises texts of at most this many characters...
CACHE_TEXT_CHARS: Final = 1 << 13
#: ... up to this many characters in all (then it starts afresh), so memory stays bounded.
CACHE_CHARS: Final = 1 << 20

_adler32: Final = zlib.adler32


# --------------------------------------------------------------------------------------------
# Byte kinds


def _ascii_kind(byte: int) -> str:
    char = chr(byte)
    if char == " ":
        return "S"
    if char == "\n":
        return "N"
    if byte < 0x20 or byte == 0x7F:
        return "T"
    if char.isdigit():
        return "D"
    if "A" <= char <= "Z":
        return "U"
    if "a" <= char <= "z":
        return "L"
    return "P"


def _lead_kind(byte: int) -> str:
    """The script group a UTF-8 lead byte (or continuation byte) starts."""
    if byte < 0xC0:
        return "c"  # continuation byte
    if byte <= 0xCA:
        return "l"  # U+0080-02BF Latin-1, Latin Extended, IPA
    if 0xD4 <= byte <= 0xD6:
        return "a"  # U+0500-05BF mostly Armenian
    if byte <= 0xDF:
        return "g"  # Greek, Cyrillic, Hebrew, Arabic, Syriac, Thaana
    if byte == 0xE0:
        return "i"  # U+0800-0FFF Indic, Thai, Lao, Tibetan
    if byte == 0xE1 or 0xEA <= byte <= 0xED:
        return "k"  # Myanmar, Georgian, Ethiopic, Khmer, ..., Vai, Yi, Hangul
    if byte <= 0xEF:
        return "h"  # punctuation, symbols, CJK, private use, full-width forms
    return "e"  # four-byte: emoji and everything beyond the BMP


#: Kinds of a byte in its pair, in the order of their 4-bit codes: ``$`` (the end of the text),
#: ``c`` continuation byte, lead bytes by script group (``l`` Latin, ``g`` Greek/Cyrillic/Hebrew/
#: Arabic, ``a`` Armenian, ``i`` Indic/Thai, ``k`` Georgian/Ethiopic/Hangul/..., ``h`` symbols and
#: CJK, ``e`` four-byte), then ``S`` space, ``N`` newline, ``T`` tab and control, ``D`` digit,
#: ``U`` upper-case, ``L`` lower-case letter, ``P`` punctuation.
SELF_KINDS: Final = "$clgaikheSNTDULP"

#: Kinds of the byte before, in the order of their 4-bit codes: ``^`` (the start of the text),
#: ``c`` continuation byte, ``x`` lead byte, ``S``, ``N``, ``T``, ``D``, ``U``, ``e`` a common
#: English letter, ``z`` another lower-case letter, then punctuation: ``_``, ``-``, ``.``
#: (``. / :``), ``,`` (``, ;``), ``(`` (brackets and quotes) and ``+`` (every other mark).
PREV_KINDS: Final = "^cxSNTDUez_-.,(+"

_COMMON_LETTERS: Final = frozenset("etaoinsrhldcum")


def _self_kind(byte: int) -> str:
    return _ascii_kind(byte) if byte < 0x80 else _lead_kind(byte)


def _prev_kind(byte: int) -> str:
    if byte >= 0x80:
        return "c" if byte < 0xC0 else "x"
    kind, char = _ascii_kind(byte), chr(byte)
    if kind == "L":
        return "e" if char in _COMMON_LETTERS else "z"
    if kind != "P":
        return kind
    if char in "_-":
        return char
    if char in "./:":
        return "."
    if char in ",;":
        return ","
    if char in "()[]{}<>\"'`":
        return "("
    return "+"


#: Per input byte: the code whose four-bit shift makes the pair stream (see the module docs).
_PAIR_CODE: Final[bytes] = bytes(
    PREV_KINDS.index(_prev_kind(b)) << 4 | SELF_KINDS.index(_self_kind(b)) for b in range(256)
)

#: Pair-stream bytes an ASCII text can give: pairs of ASCII bytes, its start and its end.
_ASCII_PAIR_CODES: Final = sorted(
    {(_PAIR_CODE[b] & 15) << 4 | _PAIR_CODE[a] >> 4 for a in range(0x80) for b in range(0x80)}
    | {(_PAIR_CODE[b] & 15) << 4 for b in range(0x80)}
    | {_PAIR_CODE[a] >> 4 for a in range(0x80)}
)

#: ``bytes.translate`` tables: 0xFF for an ASCII byte, 0 for another; and every non-ASCII byte.
_ASCII_MASK: Final = bytes(0xFF if b < 0x80 else 0 for b in range(256))
_NON_ASCII_BYTES: Final = bytes(range(0x80, 0x100))
_ASCII_BYTES: Final = bytes(range(0x80))

#: Every byte but the lead bytes of three-byte characters (U+0800-U+FFFF), deleted to count those.
_NOT_LEAD3: Final = bytes(b for b in range(256) if not 0xE0 <= b <= 0xEF)

#: Fine classes of characters at U+0800 and above, the ones with a script rate.
SCRIPT_CLASSES: Final[tuple[str, ...]] = tuple(
    name for name in FINE_CLASSES
    if name not in ("astral", "lowsur")
    and all(start >= 0x800 for start, _, cls in BLOCKS if cls == name)
)


def pair_name(code: int) -> str:
    """``kind + prev kind`` of a pair-stream byte (feature names in :func:`features`)."""
    return SELF_KINDS[code >> 4] + PREV_KINDS[code & 15]


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
    """A text's token count split by writing script, with what ``chars / 4`` would have said."""

    estimator: str
    """Name of the estimator that produced the figures."""
    chars: int
    """Characters (code points) in the text."""
    tokens: int
    """The count, equal to ``get_estimator(estimator).count(text)``."""
    chars4: int
    """What the old ``ceil(chars / 4)`` rule says."""
    by_script: Mapping[str, ScriptCount]
    """One entry per display class (:data:`~ctxscope.core.scripts.DISPLAY_CLASSES`), in order."""
    exact: bool = False
    """Whether ``tokens`` is a tokenizer's count rather than an estimate."""
    exact_counts: Mapping[str, int] = field(default_factory=lambda: MappingProxyType({}))
    """The real tokenizers' counts of the same text, by exact estimator name: empty unless asked
    for (:func:`~ctxscope.core.exact.with_exact_counts`) where the exact extra is installed."""

    def rows(self) -> list[tuple[str, int, int]]:
        """``(class, chars, tokens)`` for the classes present in the text."""
        return [(name, c.chars, c.tokens) for name, c in self.by_script.items() if c.chars or c.tokens]

    def to_dict(self) -> dict[str, object]:
        """A JSON-ready dict (the shape ``ctxscope estimate --json`` prints)."""
        return {
            "estimator": self.estimator,
            "exact": self.exact,
            "chars": self.chars,
            "tokens": self.tokens,
            "chars4": self.chars4,
            "by_script": {
                name: {"chars": c.chars, "tokens": c.tokens} for name, c in self.by_script.items()
            },
            "exact_counts": dict(self.exact_counts),
        }


def display_chars(text: str) -> dict[str, int]:
    """Characters of ``text`` per display class (emoji under ``emoji_symbols``)."""
    chars = dict.fromkeys(DISPLAY_CLASSES, 0)
    if text.isascii():
        chars["ascii"] = len(text)
        return chars
    stream = fine_class_stream(text)
    for index, n in Counter(stream).items():
        chars[DISPLAY_OF[STREAM_CLASSES[index]]] += n
    pairs = len(stream) - len(text)  # a character beyond the BMP is two code units
    emoji = text.encode("utf-8", "surrogatepass").count(b"\xf0\x9f")
    chars["other"] -= pairs + emoji
    chars["emoji_symbols"] += emoji
    return chars


def make_breakdown(
    name: str, text: str, total: int, shares: Mapping[str, float], *, exact: bool = False
) -> ScriptBreakdown:
    """A breakdown of ``text`` whose ``total`` is split over display classes by ``shares``.

    The one constructor every estimator uses: characters are counted per display class here, the
    total is apportioned by largest remainder (classes add up to it).
    """
    chars = display_chars(text)
    weight = sum(v for v in shares.values() if v > 0)
    if weight <= 0:  # no class has a positive share: split by characters
        shares, weight = {k: float(v) for k, v in chars.items()}, float(len(text))
    tokens = dict.fromkeys(DISPLAY_CLASSES, 0)
    if total > 0 and weight > 0:
        share = {k: total * max(0.0, shares.get(k, 0.0)) / weight for k in DISPLAY_CLASSES}
        tokens = {k: math.floor(v) for k, v in share.items()}
        left = total - sum(tokens.values())
        for k in sorted(share, key=lambda k: (tokens[k] - share[k], k))[:left]:
            tokens[k] += 1
    return ScriptBreakdown(
        estimator=name,
        chars=len(text),
        tokens=total,
        chars4=math.ceil(len(text) / 4),
        by_script=MappingProxyType({k: ScriptCount(chars[k], tokens[k]) for k in DISPLAY_CLASSES}),
        exact=exact,
    )


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
    """The rates of a linear token estimator, in whole ``1 / UNIT`` token units.

    Attributes:
        name: Registered estimator name.
        description: One line for ``--help`` and documentation.
        pair_units: 256 rates, one per pair-stream byte ``kind << 4 | prev kind``
            (:data:`SELF_KINDS`, :data:`PREV_KINDS`); between ``-PAIR_OFFSET`` and
            ``255 - PAIR_OFFSET``.
        byte_units: 256 rates, one per byte value: ASCII characters and UTF-8 lead bytes
            (continuation bytes carry 0); between 0 and 255.
        script_units: Rate per fine class of :data:`SCRIPT_CLASSES` (characters at U+0800 and
            above), between 0 and 255.
    """

    name: str
    description: str
    pair_units: tuple[int, ...]
    byte_units: tuple[int, ...]
    script_units: Mapping[str, int]


def _chunk(table: bytes) -> int:
    """Largest chunk whose byte sum under ``table`` cannot reach adler32's modulus."""
    return max(1, 65519 // max(1, max(table)))


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


@dataclass(frozen=True, slots=True)
class _Sums:
    """How the hot path sums a text's two rated streams: in chunks small enough for adler32."""

    pair: int
    """Bytes of the pair stream per chunk."""
    byte: int
    """Bytes of the byte stream per chunk."""
    small: int
    """Texts shorter than this need one chunk per stream."""

    @classmethod
    def of(cls, pair_rates: bytes, byte_rates: bytes) -> _Sums:
        """The chunks for streams of these rates (the ones a text can meet)."""
        pair, byte = _chunk(pair_rates), _chunk(byte_rates)
        return cls(pair, byte, min(pair, byte) - 1)


class ProfileEstimator:
    """An estimator computing a :class:`Profile`'s linear model (see the module docstring).

    Safe to share between threads: the memo of recent estimates is guarded by a lock.
    """

    __slots__ = (
        "_ascii_sums",
        "_byte",
        "_cache",
        "_cached_chars",
        "_lock",
        "_pair",
        "_script",
        "_script_chunk",
        "_sums",
        "name",
        "profile",
    )

    def __init__(self, profile: Profile) -> None:
        """Compile ``profile`` into ``bytes.translate`` tables.

        Args:
            profile: The rates.

        Raises:
            ValueError: A rate does not fit its table.
        """
        self.profile = profile
        self.name = profile.name
        """The profile's name."""
        try:
            self._pair = bytes(u + PAIR_OFFSET for u in profile.pair_units)
            self._byte = bytes(profile.byte_units)
            script = bytearray(len(STREAM_CLASSES))
            for cls, units in profile.script_units.items():
                script[STREAM_INDEX[cls]] = units
            self._script = HALF_BLOCK_CLASS.translate(bytes(script).ljust(256, b"\0"))
        except ValueError:
            raise ValueError(f"profile {profile.name}: a rate does not fit in a byte") from None
        self._sums = _Sums.of(self._pair, self._byte)
        """Chunks of the byte sums of any text; an ASCII text meets fewer rates, often lower ones."""
        self._ascii_sums = _Sums.of(bytes(self._pair[code] for code in _ASCII_PAIR_CODES), self._byte[:0x80])
        self._script_chunk = _chunk(self._script)
        self._cache: dict[str, int] = {}
        """Estimates of recent texts (see :meth:`count`)."""
        self._cached_chars = 0
        self._lock = threading.Lock()

    def __repr__(self) -> str:
        return f"ProfileEstimator({self.profile.name!r})"

    def _units(self, text: str, data: bytes) -> int:
        """The sum of the rates of ``text`` (``data`` is its UTF-8), in units: the hot path."""
        size, length = len(data), len(text)
        sums = self._ascii_sums if size == length else self._sums
        pairs = (int.from_bytes(data.translate(_PAIR_CODE), "little") << 4).to_bytes(size + 1, "little")
        if size < sums.small:
            units = (_adler32(pairs.translate(self._pair)) & 0xFFFF) - 2
            units += _adler32(data.translate(self._byte)) & 0xFFFF
        else:
            units = _byte_sum(pairs.translate(self._pair), sums.pair)
            units += _byte_sum(data.translate(self._byte), sums.byte)
        units -= PAIR_OFFSET * (size + 1)
        if size != length:
            if size - length < length >> 3:  # mostly ASCII (no script rate): classify the rest only
                wide = data.translate(None, _ASCII_BYTES)
                if wide.translate(None, _NOT_LEAD3):
                    text = wide.decode("utf-8", "surrogatepass")
                else:
                    return units
            elif not data.translate(None, _NOT_LEAD3):
                return units
            units += _byte_sum(half_block_stream(text).translate(self._script), self._script_chunk)
        return units

    def count(self, text: str) -> int:
        """Token estimate of ``text``.

        Estimates are memoised per text (agent logs repeat system prompts, tool definitions,
        tool names and file contents): up to :data:`CACHE_CHARS` characters of texts of at most
        :data:`CACHE_TEXT_CHARS` each, forgotten all at once when full.

        Args:
            text: Any string.

        Returns:
            The estimate: 0 for ``""``, never negative, never more than the UTF-8 bytes of
            ``text``, deterministic.
        """
        length = len(text)
        if length <= CACHE_TEXT_CHARS:
            if not length:
                return 0
            found = self._cache.get(text)
            if found is not None:
                return found
        data = text.encode("utf-8", "surrogatepass")
        result = min(len(data), max(1, -(-self._units(text, data) // UNIT)))
        if length <= CACHE_TEXT_CHARS:
            with self._lock:
                if self._cached_chars + length > CACHE_CHARS:
                    self._cache = {}
                    self._cached_chars = 0
                self._cache[text] = result
                self._cached_chars += length
        return result

    def breakdown(self, text: str) -> ScriptBreakdown:
        """The estimate of ``text`` split by display class.

        The ASCII class gets the rates of the ASCII bytes (with their pairs, and the end of the
        text); the other classes share the rest in proportion to their characters' byte and
        script rates.

        Args:
            text: Any string.

        Returns:
            A breakdown whose class tokens add up to :meth:`count`.
        """
        shares = dict.fromkeys(DISPLAY_CLASSES, 0.0)
        if text.isascii():
            shares["ascii"] = 1.0
        elif text:
            data = text.encode("utf-8", "surrogatepass")
            size = len(data)
            pairs = (int.from_bytes(data.translate(_PAIR_CODE), "little") << 4).to_bytes(size + 1, "little")
            mask = int.from_bytes(data.translate(_ASCII_MASK) + b"\xff", "little")
            rated = int.from_bytes(pairs.translate(self._pair), "little") & mask
            rated_pairs = rated.to_bytes(size + 1, "little")
            ascii_bytes = data.translate(None, _NON_ASCII_BYTES)
            ascii_units = _byte_sum(rated_pairs, self._sums.pair) - PAIR_OFFSET * (len(ascii_bytes) + 1)
            ascii_units += _byte_sum(ascii_bytes.translate(self._byte), self._sums.byte)
            shares["ascii"] = float(max(0, ascii_units))
            rest = max(1, self._units(text, data) - ascii_units)
            rate = self._class_rates()
            weights = dict.fromkeys(DISPLAY_CLASSES, 0.0)
            for index, n in Counter(fine_class_stream(text)).items():
                name = STREAM_CLASSES[index]
                if name != ASCII_CLASS:
                    weights[DISPLAY_OF[name]] += n * rate[name]
            emoji = data.count(b"\xf0\x9f")
            weights["other"] -= emoji * rate["astral"]  # emoji are astral characters shown apart
            weights["emoji_symbols"] += emoji * rate["astral"]
            weight = sum(w for w in weights.values() if w > 0) or 1.0
            for name, w in weights.items():
                if name != "ascii" and w > 0:
                    shares[name] = rest * w / weight
        return make_breakdown(self.name, text, self.count(text), shares)

    def _class_rates(self) -> dict[str, float]:
        """Weight of one character of each fine class in a breakdown: its UTF-8 length, plus its
        script rate (the estimate has no per-character rate for a two-byte character alone)."""
        rates: dict[str, float] = {}
        for start, _, name in BLOCKS:
            size = len(chr(start).encode("utf-8", "surrogatepass"))
            rates[name] = float(size * UNIT + self.profile.script_units.get(name, 0))
        rates["lowsur"] = 0.0  # the second half of a character beyond the BMP
        rates["astral"] = 4.0 * UNIT
        rates["rare"] = 3.0 * UNIT
        return rates


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
        shares = {k: float(v) for k, v in display_chars(text).items()}
        return make_breakdown(self.name, text, self.count(text), shares)


def features(text: str) -> dict[str, int]:
    """The counts a profile multiplies by its rates (for fitting and explaining estimates).

    Keys: ``p`` + kind + prev kind (pairs of adjacent bytes, :func:`pair_name`, including the
    start and the end of the text), ``b`` + two hex digits (bytes of that value: ASCII characters
    and UTF-8 lead bytes) and ``s`` + a fine class of :data:`SCRIPT_CLASSES` (characters).

    Args:
        text: Any string.

    Returns:
        The counts; a profile's estimate is ``ceil(sum(units * count) / UNIT)``, at most the UTF-8
        length of ``text``.
    """
    data = text.encode("utf-8", "surrogatepass")
    if not data:
        return {}
    pairs = (int.from_bytes(data.translate(_PAIR_CODE), "little") << 4).to_bytes(len(data) + 1, "little")
    counts = {"p" + pair_name(code): n for code, n in Counter(pairs).items()}
    counts.update({f"b{byte:02x}": n for byte, n in Counter(data).items() if not 0x80 <= byte < 0xC0})
    if len(data) != len(text):
        for index, n in Counter(fine_class_stream(text)).items():
            name = STREAM_CLASSES[index]
            if name in SCRIPT_CLASSES:
                counts["s" + name] = n
    return counts


# --------------------------------------------------------------------------------------------
# The built-in profiles: the documented rule, and the fitted ones (core/_token_profiles.py).


def _mythex() -> Profile:
    """The documented rule as a profile: ASCII 1/4 token, CJK 1, anything else 1/2 per character."""
    byte_units = [0] * 256
    for b in range(256):
        if b < 0x80:
            byte_units[b] = UNIT // 4
        elif b >= 0xC0:
            byte_units[b] = UNIT // 2  # one lead byte per non-ASCII character
    script = {name: UNIT // 2 for name in SCRIPT_CLASSES if name in MYTHEX_CJK}
    return Profile(
        name="mythex",
        description="documented rule: ASCII 4 chars/token, CJK 1, everything else 2 (per character)",
        pair_units=(0,) * 256,
        byte_units=tuple(byte_units),
        script_units=MappingProxyType(script),
    )


def _fitted(name: str, description: str) -> Profile:
    return Profile(
        name=name,
        description=description,
        pair_units=_token_profiles.PAIR_UNITS[name],
        byte_units=_token_profiles.BYTE_UNITS[name],
        script_units=MappingProxyType(_token_profiles.SCRIPT_UNITS[name]),
    )


#: Built-in profiles by name.
PROFILES: Final[Mapping[str, Profile]] = MappingProxyType(
    {
        p.name: p
        for p in (
            _fitted("claude", "fitted to the current Claude tokenizer (Opus 4.7+), with a safety margin"),
            _fitted("openai", "fitted to OpenAI's o200k_base encoding, with a safety margin"),
            _mythex(),
        )
    }
)


# --------------------------------------------------------------------------------------------
# Registry

_REGISTRY_LOCK: Final = threading.Lock()
_INSTANCES: Final[dict[str, Estimator]] = {}


def available_estimators() -> tuple[str, ...]:
    """Names :func:`get_estimator` accepts here: the built-ins, plus exact ones if installed."""
    from .exact import exact_names

    return ESTIMATOR_NAMES + exact_names()


def get_estimator(name: str = DEFAULT_ESTIMATOR) -> Estimator:
    """The estimator registered under ``name`` (instances are shared, and safe to share).

    Args:
        name: One of :data:`ESTIMATOR_NAMES`, or of :data:`EXACT_ESTIMATOR_NAMES` when the
            optional exact backend is installed.

    Returns:
        The estimator.

    Raises:
        ValueError: For an unknown name (the message lists the known ones), or an exact estimator
            whose backend is not installed (the message says how to install it).
    """
    found = _INSTANCES.get(name)
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
    with _REGISTRY_LOCK:
        return _INSTANCES.setdefault(name, estimator)


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
