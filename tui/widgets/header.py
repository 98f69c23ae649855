"""The top line: session, scope, model, log format, live/paused/offline, and lag behind the file."""

from __future__ import annotations

import os

from ctxscope.core.snapshot import ScopeSnapshot, SessionSnapshot
from rich.text import Text
from textual.widget import Widget

from ..messages import Mode, TailStatus
from . import text as fmt


def scope_name(scope: ScopeSnapshot, redact: bool = False) -> str:
    """A scope's display name: its label when it has one, else its id (raw log text: clean it).

    With ``redact`` a sub-agent's label (often its task, written in the log) is replaced by its id.
    """
    header = scope.header
    if header.parent_id is None:
        return "main" if header.scope_id == "main" else header.scope_id
    if redact:
        return header.scope_id
    return header.label or header.scope_id


def header_text(
    snapshot: SessionSnapshot | None,
    scope: ScopeSnapshot | None,
    status: TailStatus | None,
    *,
    paused: bool,
    follow: bool,
    width: int,
    redact: bool = False,
) -> Text:
    out = Text(no_wrap=True, overflow="ellipsis", end="")
    out.append(" ctxscope ", "bold reverse")
    if status is None or snapshot is None:
        out.append("  starting…", "dim")
        return out
    mode = status.mode
    if status.fault:
        out.append(" ⚠ WAITING ", "bold white on dark_red")
        out.append(f" {fmt.clean(status.fault, 48)}, retrying", "bold red")
    elif paused:
        out.append(" ❚❚ PAUSED ", "bold black on yellow")
    elif mode is Mode.LIVE:
        out.append(" ● LIVE ", "bold white on dark_green")
    elif not status.done:
        out.append(f" reading {status.progress:.0%} ", "bold black on cyan")
    else:
        out.append(" OFFLINE ", "bold white on grey35")
    if mode is Mode.LIVE and not status.fault:
        lag = status.lag_bytes
        if lag:
            out.append(f" {fmt.size(lag)} behind", "yellow")
        else:
            out.append(" up to date", "green")
    if not status.done and mode is Mode.OFFLINE:
        out.append(f" ({fmt.size(status.bytes_read)} of {fmt.size(status.size)})", "dim")
    out.append("  ")
    # The lens first: it says what every figure on the screen is (and survives truncation).
    narrow = width < 100  # at 80 columns the session id gives way to the scope and the model
    if snapshot.lens == "recorded":
        out.append("recorded", "bold green")
    else:
        out.append("what-if" if narrow else "pipeline what-if", "bold yellow")
    out.append("  ")
    if snapshot.session_id and not narrow:
        out.append("session ", "dim")
        out.append(fmt.clean(snapshot.session_id, 12))
        out.append("  ")
    if scope is not None:
        out.append("scope ", "dim")
        out.append(fmt.clean(scope_name(scope, redact), 18 if narrow else 28), "bold")
        if len(snapshot.scopes) > 1:
            position = list(snapshot.scopes).index(scope.header.scope_id) + 1
            out.append(f" ({position}/{len(snapshot.scopes)})", "dim")
        out.append("  ")
        model = scope.records[-1].model if scope.records and scope.records[-1].model else scope.header.model
        if model:
            out.append("model ", "dim")
            out.append(fmt.clean(model, 24 if narrow else 32))
            out.append("  ")
    if snapshot.estimator:
        out.append("estimator ", "dim")
        out.append(fmt.clean(snapshot.estimator, 16))
        out.append("  ")
    if snapshot.format:
        out.append("format ", "dim")
        out.append(fmt.clean(snapshot.format, 24))
        out.append("  ")
    if not follow:
        out.append("follow off", "yellow")
        out.append("  ")
    source = os.path.basename(status.path or snapshot.source)
    if source and width - out.cell_len > 12:
        out.append(fmt.clean(source, 80), "dim")
    return out


class StatusHeader(Widget):
    """One line of what is being shown and how fresh it is."""

    DEFAULT_CSS = """
    StatusHeader {
        height: 1;
    }
    """

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.redact = False
        """Show sub-agents by id, not by the label the log gives them (``--redact``)."""
        self._args: tuple[SessionSnapshot | None, ScopeSnapshot | None, TailStatus | None, bool, bool] = (
            None, None, None, False, True,
        )

    def show(
        self,
        snapshot: SessionSnapshot | None,
        scope: ScopeSnapshot | None,
        status: TailStatus | None,
        *,
        paused: bool,
        follow: bool,
    ) -> None:
        args = (snapshot, scope, status, paused, follow)
        if all(a is b for a, b in zip(args, self._args, strict=True)):
            return
        self._args = args
        self.refresh()

    def render(self) -> Text:
        snapshot, scope, status, paused, follow = self._args
        return header_text(snapshot, scope, status, paused=paused, follow=follow, width=self.size.width,
                           redact=self.redact)
