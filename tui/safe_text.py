"""Log-controlled strings on their way to the terminal outside the widgets: the command palette,
notifications, window titles, and the CLI's tables and one-line errors.

Every such string may hold Rich/Textual markup (``[/]`` crashes a markup parser, ``[link=…]`` sends
an OSC 8 hyperlink, ``[@click=…]`` runs an action) or escape sequences (OSC 52 sets the clipboard,
OSC 2 the title, CSI 2J clears the screen) — also when the output is piped. These helpers pass it
as plain :class:`~textual.content.Content` or :class:`~rich.text.Text`, or as markup-escaped text,
after :func:`~ctxscope.tui.widgets.text.clean` replaced every control and invisible character
with a visible stand-in.
"""

from __future__ import annotations

from textual.content import Content
from textual.fuzzy import Matcher
from textual.markup import escape

from .widgets.text import clean


def plain(value: str, limit: int = 1000) -> Content:
    """A log string as palette content: shown literally, never parsed as markup."""
    return Content(clean(value, limit))


def highlighted(matcher: Matcher, value: str) -> Content:
    """Like ``Matcher.highlight`` (which parses its candidate as markup), for a literal string."""
    content = Content(value)
    score, offsets = matcher.fuzzy_search.match(matcher.query, value)
    if not score:
        return content
    for offset in offsets:
        if not value[offset].isspace():
            content = content.stylize(matcher.match_style, offset, offset + 1)
    return content


def markup_safe(value: str, limit: int = 1000) -> str:
    """A log string for an API that only takes markup (palette help, ``notify``): escaped."""
    return escape(clean(value, limit))

