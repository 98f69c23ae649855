"""The top line: session, scope, model, log format, live/paused/offline, lag behind the file, and
when the session ran (first call, how long, how long since its last call: figures from core's
:class:`~ctxscope.core.timing.SessionTimes`; a log without timestamps says so)."""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from typing import NamedTuple

from ctxscope.core.snapshot import ScopeSnapshot, SessionSnapshot
from ctxscope.core.timing import SessionTimes, duration_text
from rich.text import Text
from textual.reactive import reactive
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
    narrow = width < 100
    if snapshot.lens == "recorded":
        out.append("recorded", "bold green")
    else:
        out.append("what-if" if narrow else "pipeline what-if", "bold yellow")
    out.append("  ")
    fields = _fields(snapshot, scope, status, follow=follow, redact=redact, narrow=narrow)
    return _fit(out, fields, width)


class _Field(NamedTuple):
    """One field of the header: its place in the give-way order, its full and its short form."""

    rank: int
    """Fields with a higher rank give way first (their short form, then the whole field)."""
    full: Text
    short: Text | None = None


def _field(rank: int, *parts: tuple[str, str], short: Sequence[tuple[str, str]] | None = None) -> _Field:
    def text(pieces: Sequence[tuple[str, str]]) -> Text:
        out = Text(no_wrap=True, end="")
        for words, style in pieces:
            out.append(words, style)
        out.append("  ")
        return out

    return _Field(rank, text(parts), text(short) if short is not None else None)


def _fields(
    snapshot: SessionSnapshot, scope: ScopeSnapshot | None, status: TailStatus, *, follow: bool,
    redact: bool, narrow: bool,
) -> list[_Field]:
    """The header's fields in display order: scope, model and follow keep their place longest;
    then the times (shortened first), estimator and format; the session id; the file name last."""
    times = snapshot.times
    # The times are the model calls': before the first call (or in a log of none) there is nothing
    # to say, never "no timestamps in the log" of a log whose lines all have one.
    called = times.known or any(each.records for each in snapshot.scopes.values())
    fields = [_times_field(times)] if called else []
    if snapshot.session_id:
        fields.append(_field(5, ("session ", "dim"), (fmt.clean(snapshot.session_id, 12), "")))
    if scope is not None:
        name = fmt.clean(scope_name(scope, redact), 18 if narrow else 28)
        parts = [("scope ", "dim"), (name, "bold")]
        if len(snapshot.scopes) > 1:
            position = list(snapshot.scopes).index(scope.header.scope_id) + 1
            parts.append((f" ({position}/{len(snapshot.scopes)})", "dim"))
        fields.append(_field(1, *parts))
        model = scope.records[-1].model if scope.records and scope.records[-1].model else scope.header.model
        if model:
            fields.append(_field(2, ("model ", "dim"), (fmt.clean(model, 24 if narrow else 32), "")))
    if snapshot.estimator:
        fields.append(_field(4, ("estimator ", "dim"), (fmt.clean(snapshot.estimator, 16), "")))
    if snapshot.format:
        fields.append(_field(4, ("format ", "dim"), (fmt.clean(snapshot.format, 24), "")))
    if not follow:
        fields.append(_field(1, ("follow off", "yellow")))
    source = os.path.basename(status.path or snapshot.source)
    if source:
        fields.append(_field(6, (fmt.clean(source, 80), "dim")))
    return fields


def _fit(out: Text, fields: list[_Field], width: int) -> Text:
    """``out`` followed by as many of ``fields`` as fit in ``width`` cells: fields take their
    short form first, then go, the highest-ranked first (no field is ever cut in the middle)."""
    shown: list[Text | None] = [f.full for f in fields]

    def fits() -> bool:  # each field ends in two spaces, which may fall off the edge
        return out.cell_len + sum(t.cell_len for t in shown if t is not None) - 2 <= width

    give_way = sorted(range(len(fields)), key=lambda i: (-fields[i].rank, -i))
    for i in give_way:
        if fits():
            break
        shown[i] = fields[i].short or shown[i]
    for i in give_way:
        if fits():
            break
        shown[i] = None
    for text in shown:
        if text is not None:
            out.append_text(text)
    out.rstrip()
    return out


def _now() -> datetime:
    return datetime.now(UTC)


CLOCK: Callable[[], datetime] = _now
"""Now, for "last call … ago" (tests freeze it)."""


def _times_field(times: SessionTimes) -> _Field:
    """When the session ran: first call, how long, how long since its last call (core's figures)."""
    if not times.known or times.started is None:
        return _field(3, ("no timestamps in the log", "dim"), short=[("no times", "dim")])
    full: list[tuple[str, str]] = [("started ", "dim"), (times.started.strftime("%Y-%m-%d %H:%M UTC"), "")]
    short: list[tuple[str, str]] = [(times.started.strftime("%m-%d %H:%M"), "")]
    ran = times.ran_seconds
    if ran is not None:
        full += [(" · ran ", "dim"), (duration_text(ran), "")]
        short += [(" ran ", "dim"), (duration_text(ran), "")]
    since = times.since_last_seconds(CLOCK())
    if since is not None:
        full += [(" · last call ", "dim"), (f"{duration_text(since)} ago", "")]
        short += [(" last ", "dim"), (f"{duration_text(since)} ago", "")]
    return _field(3, *full, short=short)


class StatusHeader(Widget):
    """One line of what is being shown and how fresh it is."""

    DEFAULT_CSS = """
    StatusHeader {
        height: 1;
    }
    """

    snapshot: reactive[SessionSnapshot | None] = reactive(None, always_update=True)
    """The newest snapshot (while paused, the one waiting); bound to the dashboard's."""
    scope: reactive[ScopeSnapshot | None] = reactive(None, always_update=True)
    """The scope shown; bound to the dashboard's."""
    status: reactive[TailStatus | None] = reactive(None)
    paused: reactive[bool] = reactive(False)
    follow: reactive[bool] = reactive(True)

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.redact = False
        """Show sub-agents by id, not by the label the log gives them (``--redact``)."""

    def on_mount(self) -> None:
        self.set_interval(15, self.refresh)  # "last call … ago" ages without new snapshots

    def render(self) -> Text:
        return header_text(self.snapshot, self.scope, self.status, paused=self.paused, follow=self.follow,
                           width=self.size.width, redact=self.redact)
