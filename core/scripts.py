"""Writing-script classes for token estimation, and the byte tables that find them at C speed.

Two levels of classes exist:

* **Fine classes** (:data:`FINE_CLASSES`) name the writing scripts of non-ASCII characters. Each
  covers whole 128-code-point blocks of the Basic Multilingual Plane (``cyr`` is U+0400–U+047F,
  ``deva`` is U+0900–U+097F, ...), because 128-code-point granularity is what
  :func:`fine_class_stream` can see without a Python-level loop over characters, and each lies
  wholly below U+0800 (two bytes of UTF-8) or wholly above it: the token estimators rate a
  two-byte character by its UTF-8 lead byte (64 code points) and a longer one by its fine class.
  Characters outside the BMP are one class (``astral``).
* **Display classes** (:data:`DISPLAY_CLASSES`) are the few groups a person reads in a breakdown:
  ``ascii``, ``latin_accented``, ``cyrillic``, ``greek``, ``arabic_hebrew``, ``indic``, ``cjk``,
  ``hangul``, ``emoji_symbols`` and ``other``.

How :func:`fine_class_stream` works: ``text.encode("utf-16-be")`` gives every BMP character as a
high byte (code point >> 8) and a low byte. The high bytes go through one 256-entry table that
names a *group* (times two), the low bytes through another that keeps only their top bit (which
half of the 256-code-point block), and the two byte strings are added as big integers (no carries:
each byte sum stays below 256): that is :func:`half_block_stream`. One more ``bytes.translate``
(:data:`HALF_BLOCK_CLASS`) turns each resulting byte into the index of its fine class; a table
indexed by fine class can be composed with it to skip that step. Everything runs in C; nothing
loops over characters in Python.
"""

from __future__ import annotations

from typing import Final

__all__ = [
    "ASCII_CLASS",
    "BLOCKS",
    "DISPLAY_CLASSES",
    "DISPLAY_OF",
    "FINE_CLASSES",
    "HALF_BLOCK_CLASS",
    "MYTHEX_CJK",
    "STREAM_CLASSES",
    "STREAM_INDEX",
    "fine_class_of",
    "fine_class_stream",
    "half_block_stream",
]

#: The class of ASCII characters (not in :data:`FINE_CLASSES`; ASCII is estimated separately).
ASCII_CLASS: Final = "ascii"

#: Fine classes of non-ASCII characters, in the order of their indices in the class stream.
FINE_CLASSES: Final[tuple[str, ...]] = (
    "lat1",  # U+0080-00FF Latin-1 supplement: accented letters, NBSP, symbols
    "latA",  # U+0100-017F Latin Extended-A (Central European, Turkish, Baltic)
    "latB",  # U+0180-027F Latin Extended-B (African and American orthographies)
    "ipa",  # U+0280-02FF IPA and spacing modifier letters
    "comb",  # U+0300-037F combining diacritical marks
    "grk",  # U+0380-03FF Greek
    "cyr",  # U+0400-047F basic Cyrillic
    "cyrx",  # U+0480-04FF Cyrillic letters of non-Slavic languages
    "armn",  # U+0500-057F Armenian (and the Cyrillic supplement)
    "hebr",  # U+0580-05FF Hebrew
    "arab",  # U+0600-06FF Arabic
    "syrc",  # U+0700-077F Syriac and the Arabic supplement
    "thaa",  # U+0780-07FF Thaana and NKo
    "deva",  # U+0900-097F Devanagari
    "beng",  # U+0980-09FF Bengali
    "guru",  # U+0A00-0A7F Gurmukhi
    "gujr",  # U+0A80-0AFF Gujarati
    "orya",  # U+0B00-0B7F Oriya
    "taml",  # U+0B80-0BFF Tamil
    "telu",  # U+0C00-0C7F Telugu
    "knda",  # U+0C80-0CFF Kannada
    "mlym",  # U+0D00-0D7F Malayalam
    "sinh",  # U+0D80-0DFF Sinhala
    "thai",  # U+0E00-0E7F Thai
    "lao",  # U+0E80-0EFF Lao
    "tibt",  # U+0F00-0FFF Tibetan
    "mymr",  # U+1000-107F Myanmar
    "geor",  # U+1080-10FF Georgian
    "jamo",  # U+1100-11FF Hangul Jamo
    "ethi",  # U+1200-137F Ethiopic
    "cher",  # U+1380-13FF Cherokee
    "ucas",  # U+1400-167F Unified Canadian Aboriginal Syllabics
    "khmr",  # U+1780-17FF Khmer
    "mong",  # U+1800-18FF Mongolian
    "phon",  # U+1D00-1DFF phonetic extensions
    "latX",  # U+1E00-1EFF Latin Extended Additional (Vietnamese, Yoruba, ...)
    "grkx",  # U+1F00-1FFF Greek extended (polytonic)
    "gpunc",  # U+2000-207F and U+2E00-2E7F general punctuation: dashes, quotes, ellipsis, ZWJ
    "sym",  # U+2080-217F and U+2400-24FF: super- and subscripts, currency, letterlike, enclosed
    "arrow",  # U+2180-21FF arrows (and the end of the number forms)
    "math",  # U+2200-22FF mathematical operators
    "tech",  # U+2300-23FF miscellaneous technical: APL, keyboard and editing symbols
    "box",  # U+2500-25FF box drawing, block elements, geometric shapes
    "dingb",  # U+2600-27FF, U+2900-2BFF miscellaneous symbols, dingbats, supplemental arrows, maths
    "brai",  # U+2800-28FF Braille patterns (terminal spinners and plots; mostly byte-level)
    "cjkp",  # U+2E80-2FFF and U+3100-33FF CJK radicals, Bopomofo, compatibility Jamo, enclosed CJK
    "kana",  # U+3000-30FF CJK punctuation, Hiragana, Katakana
    "cjk",  # U+3400-9FFF, U+F900-FAFF: CJK ideographs
    "hang",  # U+AC00-D7FF Hangul syllables
    "pua",  # U+E000-F8FF private use
    "arabx",  # U+0800-08FF, U+FB80-FDFF, U+FE80-FEFF: Arabic extended and presentation forms
    "pres",  # U+FB00-FB7F and U+FE00-FE7F presentation forms, variation selectors, small forms
    "fullw",  # U+FF00-FFFF full- and half-width forms, specials (U+FFFD)
    "rare",  # every other BMP block: historic and minority scripts (Yi, Vai, Javanese, Runic, ...)
    "astral",  # characters beyond the BMP, counted once (by their high surrogate)
    "lowsur",  # the second half of a surrogate pair: never counted
)

#: 128-code-point-aligned BMP ranges ``(start, end, fine class)``; gaps fall into ``rare``.
BLOCKS: Final[tuple[tuple[int, int, str], ...]] = (
    (0x0080, 0x0100, "lat1"),
    (0x0100, 0x0180, "latA"),
    (0x0180, 0x0280, "latB"),
    (0x0280, 0x0300, "ipa"),
    (0x0300, 0x0380, "comb"),
    (0x0380, 0x0400, "grk"),
    (0x0400, 0x0480, "cyr"),
    (0x0480, 0x0500, "cyrx"),
    (0x0500, 0x0580, "armn"),
    (0x0580, 0x0600, "hebr"),
    (0x0600, 0x0700, "arab"),
    (0x0700, 0x0780, "syrc"),
    (0x0780, 0x0800, "thaa"),
    (0x0800, 0x0900, "arabx"),
    (0x0900, 0x0980, "deva"),
    (0x0980, 0x0A00, "beng"),
    (0x0A00, 0x0A80, "guru"),
    (0x0A80, 0x0B00, "gujr"),
    (0x0B00, 0x0B80, "orya"),
    (0x0B80, 0x0C00, "taml"),
    (0x0C00, 0x0C80, "telu"),
    (0x0C80, 0x0D00, "knda"),
    (0x0D00, 0x0D80, "mlym"),
    (0x0D80, 0x0E00, "sinh"),
    (0x0E00, 0x0E80, "thai"),
    (0x0E80, 0x0F00, "lao"),
    (0x0F00, 0x1000, "tibt"),
    (0x1000, 0x1080, "mymr"),
    (0x1080, 0x1100, "geor"),
    (0x1100, 0x1200, "jamo"),
    (0x1200, 0x1380, "ethi"),
    (0x1380, 0x1400, "cher"),
    (0x1400, 0x1680, "ucas"),
    (0x1780, 0x1800, "khmr"),
    (0x1800, 0x1900, "mong"),
    (0x1D00, 0x1E00, "phon"),
    (0x1E00, 0x1F00, "latX"),
    (0x1F00, 0x2000, "grkx"),
    (0x2000, 0x2080, "gpunc"),
    (0x2080, 0x2180, "sym"),
    (0x2180, 0x2200, "arrow"),
    (0x2200, 0x2300, "math"),
    (0x2300, 0x2400, "tech"),
    (0x2400, 0x2500, "sym"),
    (0x2500, 0x2600, "box"),
    (0x2600, 0x2800, "dingb"),
    (0x2800, 0x2900, "brai"),
    (0x2900, 0x2C00, "dingb"),
    (0x2E00, 0x2E80, "gpunc"),
    (0x2E80, 0x3000, "cjkp"),
    (0x3000, 0x3100, "kana"),
    (0x3100, 0x3400, "cjkp"),
    (0x3400, 0xA000, "cjk"),
    (0xAC00, 0xD800, "hang"),
    (0xD800, 0xDC00, "astral"),
    (0xDC00, 0xE000, "lowsur"),
    (0xE000, 0xF900, "pua"),
    (0xF900, 0xFB00, "cjk"),
    (0xFB00, 0xFB80, "pres"),
    (0xFB80, 0xFE00, "arabx"),
    (0xFE00, 0xFE80, "pres"),
    (0xFE80, 0xFF00, "arabx"),
    (0xFF00, 0x10000, "fullw"),
)

#: Display classes of a breakdown, in display order.
DISPLAY_CLASSES: Final[tuple[str, ...]] = (
    "ascii",
    "latin_accented",
    "cyrillic",
    "greek",
    "arabic_hebrew",
    "indic",
    "cjk",
    "hangul",
    "emoji_symbols",
    "other",
)

_DISPLAY_GROUPS: Final[dict[str, tuple[str, ...]]] = {
    "latin_accented": ("lat1", "latA", "latB", "ipa", "phon", "comb", "latX"),
    "cyrillic": ("cyr", "cyrx"),
    "greek": ("grk", "grkx"),
    "arabic_hebrew": ("arab", "arabx", "hebr", "syrc", "thaa"),
    "indic": (
        "deva", "beng", "guru", "gujr", "orya", "taml", "telu", "knda", "mlym", "sinh",
        "thai", "lao", "tibt", "mymr", "khmr",
    ),
    "cjk": ("cjk", "kana", "cjkp", "fullw"),
    "hangul": ("hang", "jamo"),
    "emoji_symbols": ("gpunc", "sym", "arrow", "math", "tech", "box", "dingb", "brai", "pres"),
    "other": ("armn", "geor", "ethi", "cher", "ucas", "mong", "pua", "rare", "astral", "lowsur"),
}

#: Display class of each fine class (and ``ascii`` of ``ascii``).
DISPLAY_OF: Final[dict[str, str]] = {ASCII_CLASS: "ascii"} | {
    fine: display for display, fines in _DISPLAY_GROUPS.items() for fine in fines
}

#: Fine classes the documented ``mythex`` rule counts as CJK (one token per character).
MYTHEX_CJK: Final[frozenset[str]] = frozenset({"cjk", "kana", "cjkp", "fullw", "hang", "jamo"})

#: Classes in the order of their byte values in :func:`fine_class_stream` (``ascii`` is 0).
STREAM_CLASSES: Final[tuple[str, ...]] = (ASCII_CLASS, *FINE_CLASSES)

#: Byte value of each class in :func:`fine_class_stream`.
STREAM_INDEX: Final[dict[str, int]] = {name: i for i, name in enumerate(STREAM_CLASSES)}


def _half_block_classes() -> list[str]:
    """The fine class of each of the 512 half-blocks (128 code points) of the BMP."""
    halves = ["rare"] * 512
    halves[0] = ASCII_CLASS
    for start, end, name in BLOCKS:
        for half in range(start >> 7, end >> 7):
            halves[half] = name
    return halves


def _build_tables() -> tuple[bytes, bytes, bytes]:
    """The high-byte group table, the low-byte top-bit table and the final class table."""
    halves = _half_block_classes()
    pairs: dict[tuple[str, str], int] = {}
    group = bytearray(256)
    final = bytearray(256)
    for hi in range(256):
        pair = (halves[2 * hi], halves[2 * hi + 1])
        index = pairs.setdefault(pair, len(pairs))
        group[hi] = 2 * index
        for half, name in enumerate(pair):
            final[2 * index + half] = STREAM_INDEX[name]
    if len(pairs) > 128:  # pragma: no cover - guarded by the block layout above
        raise AssertionError("too many half-block pairs for one byte")
    top = bytes(1 if i >= 0x80 else 0 for i in range(256))
    return bytes(group), top, bytes(final)


_GROUP, _TOP, _FINAL = _build_tables()

#: The index in :data:`STREAM_CLASSES` of each byte value of :func:`half_block_stream`.
HALF_BLOCK_CLASS: Final[bytes] = _FINAL


def fine_class_of(char: str) -> str:
    """Fine class of one character (``ascii`` for ASCII), as :func:`fine_class_stream` sees it.

    Args:
        char: A single character.

    Returns:
        The fine class name.
    """
    code = ord(char)
    if code < 0x80:
        return ASCII_CLASS
    if code >= 0x10000:
        return "astral"
    for start, end, name in BLOCKS:
        if start <= code < end:
            return name
    return "rare"


def fine_class_stream(text: str) -> bytes:
    """One byte per UTF-16 code unit of ``text``: the index of its class in :data:`STREAM_CLASSES`.

    ASCII characters come out as 0; a character beyond the BMP gives one ``astral`` byte and one
    ``lowsur`` byte.

    Args:
        text: Any string (lone surrogates are allowed).

    Returns:
        The class stream, ``len(text.encode("utf-16-be", "surrogatepass")) // 2`` bytes long.
    """
    return half_block_stream(text).translate(_FINAL)


def half_block_stream(text: str) -> bytes:
    """One byte per UTF-16 code unit of ``text`` naming its half-block group (see the module
    docs); :data:`HALF_BLOCK_CLASS` maps it to :func:`fine_class_stream`'s class index.

    Args:
        text: Any string (lone surrogates are allowed).

    Returns:
        The stream, as long as :func:`fine_class_stream`'s.
    """
    units = text.encode("utf-16-be", "surrogatepass")
    high = int.from_bytes(units[0::2].translate(_GROUP), "big")
    low = int.from_bytes(units[1::2].translate(_TOP), "big")
    return (high + low).to_bytes(len(units) // 2, "big")
