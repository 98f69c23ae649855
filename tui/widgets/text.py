"""Safe display of text that came from a log, and compact number formatting.

Every string read from a log is hostile: it may hold Rich markup (``[bold red]x[/]``, ``[/path]``),
ANSI and OSC escape sequences (a JSON ``"\\u001b"`` decodes into a real ESC), carriage returns,
BEL, NUL, zero-width and bidi-override characters. Widgets never put such a string into markup:
they build :class:`rich.text.Text` objects from :func:`clean` output, which replaces every control
and invisible formatting character with a visible stand-in so the text is shown literally and the
layout cannot be broken.
"""

from __future__ import annotations

import re
from typing import Final

from ctxscope.core.short_form import tokens as tokens  # re-exported: widgets format counts as fmt.tokens
from rich.text import Text

_CONTROL_PICTURES: Final = {code: chr(0x2400 + code) for code in range(0x20)}
"""C0 controls shown as their Unicode control pictures (NUL → ␀, BEL → ␇, ESC → ␛, CR → ␍)."""

_TRANSLATE: Final[dict[int, str]] = {
    **_CONTROL_PICTURES,
    0x09: " ",  # a tab is shown as one space in a one-line cell
    0x0A: "⏎",  # a newline in a one-line preview
    0x7F: "␡",
}
for _code in range(0x80, 0xA0):  # C1 controls (CSI 0x9B, OSC 0x9D …)
    _TRANSLATE[_code] = "�"
for _code in (
    *range(0x200B, 0x2010),  # zero-width space/joiners, LRM/RLM
    *range(0x202A, 0x202F),  # bidi embeddings and overrides
    *range(0x2060, 0x2065),  # word joiner, invisible operators
    *range(0x2066, 0x206A),  # bidi isolates
    0x00AD,  # soft hyphen
    0x061C,  # Arabic letter mark
    0xFEFF,  # BOM / zero-width no-break space
    0x115F, 0x1160, 0x3164, 0xFFA0,  # Hangul fillers: 0 cells for Rich, 2 for most terminals
    *range(0xE0000, 0xE0080),  # Unicode tag characters (invisible; can smuggle ASCII)
):
    _TRANSLATE[_code] = "⍰"

_UNSAFE: Final = re.compile(
    "[\x00-\x1f\x7f-\x9f\u00ad\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff"
    "\u115f\u1160\u3164\uffa0\U000e0000-\U000e007f]"
)

DISPLAY_CAP: Final = 1000
"""Characters of one log string considered for a one-line display (the rest is never looked at)."""


def clean(value: str, limit: int = DISPLAY_CAP) -> str:
    """Make a log string safe to show on one line.

    Args:
        value: Raw text from a log.
        limit: Characters kept (cut before any other processing; an ellipsis marks the cut).

    Returns:
        The text with controls, zero-width and bidi characters replaced by visible stand-ins.
    """
    cut = len(value) > limit
    if cut:
        value = value[:limit]
    if _UNSAFE.search(value):
        value = value.translate(_TRANSLATE)
    return value + "…" if cut else value


def clean_block(value: str, limit: int = 200_000) -> str:
    """Make a multi-line log string (a summary) safe to show: newlines and tabs are kept."""
    cut = len(value) > limit
    if cut:
        value = value[:limit]
    value = value.replace("\r\n", "\n").replace("\t", "    ")
    if _UNSAFE.search(value):
        value = "\n".join(line.translate(_TRANSLATE) for line in value.split("\n"))
    return value + "\n…" if cut else value


def literal(value: str, style: str = "", limit: int = DISPLAY_CAP) -> Text:
    """A one-line :class:`Text` of a log string, never interpreted as markup."""
    return Text(clean(value, limit), style=style, no_wrap=True, overflow="ellipsis", end="")


def exact(value: int | None) -> str:
    """A token count with thousands separators (``—`` when unknown)."""
    return "—" if value is None else f"{value:,}"


def size(value: int) -> str:
    """A byte count: ``512 B``, ``12.0 KB``, ``3.4 MB``."""
    if value < 1024:
        return f"{value} B"
    if value < 1024 * 1024:
        return f"{value / 1024:.1f} KB"
    if value < 1024**3:
        return f"{value / 1024 / 1024:.1f} MB"
    return f"{value / 1024**3:.2f} GB"


def percent(part: int | float, whole: int | float) -> str:
    """``part`` as a share of ``whole`` (``—`` when the whole is zero)."""
    if not whole:
        return "—"
    return f"{100 * part / whole:.0f}%"


def share(value: float | None) -> str:
    """A share computed in core (0..1) as a whole percentage (``—`` when unknown)."""
    return "—" if value is None else f"{100 * value:.0f}%"


def shape(kind: str, *, token_count: int | None = None, chars: int | None = None,
          lines: int | None = None) -> str:
    """What ``--redact`` shows instead of a log text: its kind and size, never its content.

    Example: ``‹result Read · 2.6k tokens›``, ``‹summary · 1.9k tokens · 6.1k chars · 40 lines›``.
    """
    parts = [clean(kind, 40) or "text"]
    if token_count is not None:
        parts.append(f"{tokens(token_count)} tokens")
    if chars is not None:
        parts.append(f"{count(chars)} chars")
    if lines is not None:
        parts.append(f"{lines:,} line{'s' if lines != 1 else ''}")
    return "‹" + " · ".join(parts) + "›"


def plural(value: int, noun: str) -> str:
    """``1 model call``, ``2 model calls``, ``1,200 model calls``."""
    return f"{value:,} {noun}{'' if value == 1 else 's'}"


def count(value: int) -> str:
    """A count in a short form: ``812``, ``2.6k``, ``1.20M``."""
    if value < 1000:
        return str(value)
    if value < 1_000_000:
        return f"{value / 1000:.1f}k"
    return f"{value / 1_000_000:.2f}M"


def redacted_block(kind: str, text: str, *, token_count: int | None = None) -> str:
    """The shape of a multi-line text (a summary): kind, tokens, characters and lines."""
    return shape(kind, token_count=token_count, chars=len(text), lines=text.count("\n") + 1 if text else 0)
