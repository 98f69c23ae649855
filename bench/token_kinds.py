"""Byte-kind tables for the pair features of ``bench/fit_tokens.py`` (``--kinds``).

``shipped`` is the runtime's table (:mod:`ctxscope.core.tokens`); the others are alternatives
measured held out and not shipped (``docs/tokens.md``, "Measured and not kept"): the runtime
computes only its own kinds, so ``fit --write`` refuses them. Nothing here needs numpy.
"""

from __future__ import annotations

import collections
from collections.abc import Callable
from dataclasses import dataclass

from ctxscope.core import tokens


@dataclass(frozen=True)
class Kinds:
    """The byte kinds of the pair features: 16 kinds of a byte, 16 of the byte before it."""

    name: str
    self_kinds: str
    prev_kinds: str
    code: bytes
    """Per byte value: ``prev kind << 4 | kind``, as ``ctxscope.core.tokens._PAIR_CODE``."""
    edge: Callable[[str], bool]
    """Whether a pair feature is only ever the start or the end of a text (kept at rate 0)."""

    def self_of(self, byte: int) -> int:
        """The code of ``byte``'s own kind."""
        return self.code[byte] & 15

    def features(self, text: str) -> dict[str, int]:
        """:func:`ctxscope.core.tokens.features` with this table's pairs."""
        if self.code == tokens._PAIR_CODE:
            return tokens.features(text)
        data = text.encode("utf-8", "surrogatepass")
        if not data:
            return {}
        out = {n: v for n, v in tokens.features(text).items() if n[0] != "p"}
        pairs = (int.from_bytes(data.translate(self.code), "little") << 4).to_bytes(len(data) + 1, "little")
        for c, n in collections.Counter(pairs).items():
            out["p" + self.self_kinds[c >> 4] + self.prev_kinds[c & 15]] = n
        return out


SHIPPED_KINDS = Kinds(
    "shipped",
    tokens.SELF_KINDS,
    tokens.PREV_KINDS,
    tokens._PAIR_CODE,
    lambda n: n.startswith("p") and (n[1] == "$" or n[2] == "^"),
)


def vowel_kinds() -> Kinds:
    """Lower-case vowels (``aeiou``) as a kind of their own, as a byte and as the byte before
    (the common letters of the byte before become consonants only): vowel-heavy orthographies
    (Polynesian, Bantu) tokenize worse than English. The codes come from the text's edges: the
    start reads as after a newline (code 0 of the byte before), the end as a continuation byte
    (code 0 of the byte), so an end after ASCII is a pair no text has inside (rate 0) and an end
    after another character costs one continuation pair."""
    self_kinds, prev_kinds = "cVlgaikheSNTDULP", "NcxSvTDUez_-.,(+"

    def kind(b: int) -> str:
        own = tokens._self_kind(b)
        return "V" if own == "L" and chr(b) in "aeiou" else own

    def before(b: int) -> str:
        return "v" if b < 0x80 and chr(b) in "aeiou" else tokens._prev_kind(b)

    code = bytes(prev_kinds.index(before(b)) << 4 | self_kinds.index(kind(b)) for b in range(256))
    return Kinds(
        "vowels", self_kinds, prev_kinds, code, lambda n: n[0] == "p" and n[1] == "c" and n[2] not in "cx"
    )


KINDS_CHOICES = ("shipped", "vowels")


def kinds_named(name: str) -> Kinds:
    """The table ``name`` of :data:`KINDS_CHOICES`."""
    if name == "shipped":
        return SHIPPED_KINDS
    if name == "vowels":
        return vowel_kinds()
    raise ValueError(f"unknown kinds {name!r}; known: {', '.join(KINDS_CHOICES)}")
