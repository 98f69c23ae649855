"""One line under the dashboard: lines skipped while reading, and what happened to the file.

Hidden while there is nothing to say. Skipped lines are counted by kind (invalid JSON, invalid
UTF-8, oversize, NUL bytes, wrong field types, unknown events); truncation, rotation and switching to
a newer log are shown as notices. ``e`` opens the full list.
"""

from __future__ import annotations

from ctxscope.core.snapshot import SessionSnapshot
from rich.text import Text
from textual.reactive import reactive
from textual.widget import Widget

from . import text as fmt


def strip_text(snapshot: SessionSnapshot | None, failure: str = "", *, redact: bool = False) -> Text:
    """The strip's text for a snapshot (empty when there is nothing to report).

    With ``redact`` the first skipped line's reason (which may quote the line) is left out.
    """
    out = Text(no_wrap=True, overflow="ellipsis", end="")
    if failure:
        out.append("✖ ", "bold red")
        out.append(fmt.clean(failure, 300), "red")
    if snapshot is None:
        return out
    bad = sum(snapshot.bad_lines.values())
    if bad:
        if out:
            out.append("  ")
        out.append(f"⚠ {bad:,} bad line{'s' if bad != 1 else ''} skipped", "bold yellow")
        out.append(" (e lists them)", "dim")
        kinds = sorted(snapshot.bad_lines.items(), key=lambda kv: (-kv[1], kv[0]))
        out.append(" (" + ", ".join(f"{fmt.clean(k, 20)} {v:,}" for k, v in kinds) + ")", "yellow")
        if snapshot.problems:
            first = snapshot.problems[0]
            if redact:
                out.append(f" · first at line {first.line}", "dim")
            else:
                out.append(f" · line {first.line}: ", "dim")
                out.append(fmt.clean(first.reason, 120), "dim")
    if snapshot.notices:
        notice = snapshot.notices[-1]
        if out:
            out.append("  ")
        out.append("↻ ", "bold cyan")
        out.append(fmt.clean(notice.reason, 160), "cyan")
        if len(snapshot.notices) > 1:
            out.append(f" (+{len(snapshot.notices) - 1} earlier)", "dim")
    return out


class ErrorStrip(Widget):
    """Bad lines counted, truncation and rotation notices; hidden when empty."""

    DEFAULT_CSS = """
    ErrorStrip {
        height: 1;
        display: none;
    }
    ErrorStrip.-shown {
        display: block;
    }
    """

    snapshot: reactive[SessionSnapshot | None] = reactive(None, always_update=True)
    """The session shown; bound to the dashboard's."""
    failure: reactive[str] = reactive("")
    """Why the log cannot be read ('' while it can); bound to the dashboard's."""

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self._text = Text()
        self.redact = False
        """Leave out text quoted from skipped lines (``--redact``)."""

    def watch_snapshot(self) -> None:
        self._update()

    def watch_failure(self) -> None:
        self._update()

    def _update(self) -> None:
        self._text = strip_text(self.snapshot, self.failure, redact=self.redact)
        self.set_class(bool(self._text.plain), "-shown")

    def render(self) -> Text:
        return self._text
