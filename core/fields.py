"""Reading typed fields of a parsed JSON record, and the Anthropic usage object.

Kept apart from :mod:`ctxscope.core.adapters` (whose package imports every adapter) so that
``ctxscope statusline``, which reads only Claude Code's usage, imports none of them;
:mod:`ctxscope.core.adapters._common` re-exports these for the adapters.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from .logformat import FormatError, clamp_count
from .model import Usage

NAME_CHARS: Final = 40
"""How much of a field name or value is quoted in a problem reason."""


def short(value: object, limit: int = NAME_CHARS) -> str:
    """A short printable rendering of a value for a problem reason."""
    text = str(value)[:limit]
    return "".join(ch if ch.isprintable() else "?" for ch in text)


def get_int(obj: Mapping[str, Any], key: str, default: int = 0) -> int:
    """``obj[key]`` as a non-negative integer; ``default`` when absent or null."""
    value = obj.get(key)
    if type(value) is int and value >= 0:
        return clamp_count(value)
    if value is None:
        return default
    raise FormatError(f"field {key!r} must be a non-negative integer, got {short(value, 20)!r}")


def anthropic_usage(raw: Any) -> Usage | None:
    """Usage of an Anthropic response: the prompt is input + cache creation + cache read tokens.

    Usage that is all zeros is no usage (None): models behind Claude Code that report none
    (``glm-4.7``) write zeros.

    Raises:
        FormatError: ``usage`` is present but not an object, or a count is not an integer.
    """
    if raw is None:
        return None
    if type(raw) is not dict:
        raise FormatError(f"field 'usage' must be an object, got {type(raw).__name__}")
    uncached = raw.get("input_tokens", 0)
    written = raw.get("cache_creation_input_tokens", 0)
    read = raw.get("cache_read_input_tokens", 0)
    output = raw.get("output_tokens", 0)
    if not (
        type(uncached) is int
        and type(written) is int
        and type(read) is int
        and type(output) is int
        and uncached >= 0
        and written >= 0
        and read >= 0
        and output >= 0
    ):  # the exact rule and its error, field by field
        uncached = get_int(raw, "input_tokens")
        written = get_int(raw, "cache_creation_input_tokens")
        read = get_int(raw, "cache_read_input_tokens")
        output = get_int(raw, "output_tokens")
    uncached, written, read, output = map(clamp_count, (uncached, written, read, output))
    if not (uncached or written or read or output):
        return None  # all zeros: a provider that reports no usage, not a call of zero tokens
    return Usage(uncached + written + read, read, written, output)
