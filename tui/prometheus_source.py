"""``ctxscope sessions --prometheus URL``: the session browser filled from a Prometheus server.

Every host whose ctxscope exporter Prometheus scrapes shows up: the rows come from the instant
queries of :data:`ctxscope.core.fleet.FLEET_QUERIES` (the HTTP query API, ``/api/v1/query``),
fetched in a worker thread every :data:`REFRESH_SECONDS` while the browser is open. Enter on a row
shows that session's figures over time (``/api/v1/query_range``); the log itself stays on its
machine. The project column reads ``host:project``.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable, Mapping, Sequence
from typing import Any, ClassVar, Final

import orjson
from ctxscope.core import fleet
from ctxscope.core.sessions_index import SessionRow
from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.message import Message
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Static

from .screens.sessions import SessionsApp
from .sessions_feed import SessionRowsUpdated
from .widgets import text as fmt

REFRESH_SECONDS: Final = 5.0
"""How often the open browser asks Prometheus again."""

TIMEOUT_S: Final = 5.0
"""One HTTP request to Prometheus may take this long."""

HISTORY_SECONDS: Final = 6 * 3600
HISTORY_POINTS: Final = 240
"""A remote row's figures over the last :data:`HISTORY_SECONDS`, at most this many steps."""


class PrometheusError(Exception):
    """Prometheus could not be asked or answered with an error (one line)."""


@dataclasses.dataclass(frozen=True, slots=True)
class PrometheusClient:
    """The parts of Prometheus's HTTP API the fleet uses.

    Args:
        url: The server's base URL (``http://prometheus:9090``).
        timeout: Seconds one request may take.
    """

    url: str
    timeout: float = TIMEOUT_S

    def _get(self, endpoint: str, params: Mapping[str, str]) -> Any:
        target = f"{self.url.rstrip('/')}/api/v1/{endpoint}?{urllib.parse.urlencode(params)}"
        try:
            with urllib.request.urlopen(target, timeout=self.timeout) as response:
                body = orjson.loads(response.read())
        except urllib.error.HTTPError as exc:
            raise PrometheusError(f"{self.url}: HTTP {exc.code} for {endpoint}") from None
        except (urllib.error.URLError, OSError, TimeoutError) as exc:
            reason = getattr(exc, "reason", exc)
            raise PrometheusError(f"{self.url}: {reason}") from None
        except orjson.JSONDecodeError:
            raise PrometheusError(f"{self.url}: not a Prometheus API answer") from None
        if not isinstance(body, dict) or body.get("status") != "success":
            error = body.get("error", "unknown error") if isinstance(body, dict) else "unknown error"
            raise PrometheusError(f"{self.url}: {str(error)[:200]}")
        result = body.get("data", {}).get("result", [])
        return result if isinstance(result, list) else []

    def query(self, promql: str) -> list[dict[str, Any]]:
        """An instant query's ``data.result``."""
        result: list[dict[str, Any]] = self._get("query", {"query": promql})
        return result

    def query_range(self, promql: str, start: float, end: float, step: float) -> list[dict[str, Any]]:
        """A range query's ``data.result`` (a matrix)."""
        params = {"query": promql, "start": f"{start:.3f}", "end": f"{end:.3f}", "step": f"{step:.3f}"}
        result: list[dict[str, Any]] = self._get("query_range", params)
        return result


def fetch_rows(client: PrometheusClient, now: float | None = None) -> list[fleet.RemoteRow]:
    """Every session Prometheus knows of, newest first."""
    results = {name: client.query(promql) for name, promql in fleet.FLEET_QUERIES.items()}
    return fleet.fleet_rows(results, time.time() if now is None else now)


def fetch_history(
    client: PrometheusClient, host: str, session_id: str, now: float | None = None
) -> list[tuple[float, dict[str, int]]]:
    """One session's figures over the last :data:`HISTORY_SECONDS`."""
    end = time.time() if now is None else now
    start = end - HISTORY_SECONDS
    step = max(15.0, HISTORY_SECONDS / HISTORY_POINTS)
    queries = fleet.history_queries(host, session_id)
    return fleet.history({name: client.query_range(q, start, end, step) for name, q in queries.items()})


def print_json(url: str) -> int:
    """``ctxscope sessions --prometheus URL --json``: the rows, one object each, with their host."""
    from .cli import UsageError

    try:
        rows = fetch_rows(PrometheusClient(url))
    except PrometheusError as exc:
        raise UsageError(str(exc)) from None
    sys.stdout.buffer.write(orjson.dumps([r.to_json() for r in rows], option=orjson.OPT_INDENT_2) + b"\n")
    return 0


def browser_row(remote: fleet.RemoteRow) -> SessionRow:
    """The row as the browser shows it: the project column reads ``host:project``."""
    project = f"{remote.host}:{remote.row.project}" if remote.row.project else remote.host
    return dataclasses.replace(remote.row, project=project)


class PrometheusFeed:
    """Asks Prometheus for the rows every :data:`REFRESH_SECONDS`; run :meth:`run` inside a worker.

    Posts :class:`~ctxscope.tui.sessions_feed.SessionRowsUpdated` like the local feed, and a
    :class:`FleetFailed` when Prometheus cannot be asked (the browser keeps its last rows).
    """

    def __init__(self, post: Callable[[Message], object], client: PrometheusClient) -> None:
        self._post = post
        self.client = client
        self.stop_event = asyncio.Event()
        self.remote: dict[str, fleet.RemoteRow] = {}
        self.refresh_seconds = REFRESH_SECONDS
        self.watching = asyncio.Event()

    def stop(self) -> None:
        self.stop_event.set()

    async def run(self) -> None:
        self.watching.set()
        while not self.stop_event.is_set():
            try:
                rows = await asyncio.to_thread(fetch_rows, self.client)
            except PrometheusError as exc:
                self._post(FleetFailed(str(exc)))
            else:
                fresh = {remote.row.path: remote for remote in rows}
                gone = tuple(sorted(set(self.remote) - set(fresh)))
                self.remote = fresh
                shown = tuple(browser_row(remote) for remote in rows)
                self._post(SessionRowsUpdated(shown, done=len(shown), total=len(shown), finished=True,
                                              removed=gone))
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.stop_event.wait(), self.refresh_seconds)


class FleetFailed(Message):
    """Prometheus could not be asked for the rows."""

    def __init__(self, reason: str) -> None:
        super().__init__()
        self.reason = reason


HISTORY_COLUMNS: Final = ("time", "context", "window", "trigger", "calls", "compactions")


class RemoteFiguresScreen(Screen[None]):
    """One remote session's figures over time, from Prometheus's range queries."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "app.pop_screen", "Sessions", id="back-from-remote"),
    ]

    def __init__(self, client: PrometheusClient, remote: fleet.RemoteRow) -> None:
        super().__init__()
        self.client = client
        self.remote = remote

    def compose(self) -> ComposeResult:
        row = self.remote.row
        title = Text(f"{self.remote.host} · {row.agent or '?'} · {row.model or '?'} · session ")
        title.append(row.session_id)
        yield Static(title, id="remote-title", markup=False)
        yield DataTable[Text](id="remote-history", cursor_type="row", zebra_stripes=True)
        yield Static(Text("asking Prometheus…"), id="remote-status", markup=False)
        yield Footer()

    def on_mount(self) -> None:
        table = self.query_one("#remote-history", DataTable)
        for name in HISTORY_COLUMNS:
            table.add_column(name, key=name)
        self._load()

    @work(thread=True, exclusive=True, group="remote-history", exit_on_error=False)
    def _load(self) -> None:
        try:
            points = fetch_history(self.client, self.remote.host, self.remote.row.session_id)
        except PrometheusError as exc:
            self.app.call_from_thread(self._show_failure, str(exc))
            return
        self.app.call_from_thread(self._show, points)

    def _show(self, points: Sequence[tuple[float, Mapping[str, int]]]) -> None:
        table = self.query_one("#remote-history", DataTable)
        table.clear()
        last: tuple[int | None, ...] | None = None
        shown = 0
        for stamp, figures in points:
            values = tuple(figures.get(name) for name in HISTORY_COLUMNS[1:])
            if values == last:
                continue  # the figures only change at calls: one row per change
            last = values
            when = time.strftime("%H:%M:%S", time.localtime(stamp))
            table.add_row(Text(when), *(Text(_figure(v), justify="right") for v in values))
            shown += 1
        status = f"{shown} changes over the last {HISTORY_SECONDS // 3600} h (Prometheus range query)"
        self.query_one("#remote-status", Static).update(Text(status))

    def _show_failure(self, reason: str) -> None:
        self.query_one("#remote-status", Static).update(Text(f"✖ {fmt.clean(reason, 200)}", style="red"))


def _figure(value: int | None) -> str:
    return "—" if value is None else fmt.tokens(value)


class FleetApp(SessionsApp):
    """The session browser on a Prometheus server's rows; Enter shows a row's figures over time."""

    def __init__(self, url: str, *, start_feed: bool = True) -> None:
        super().__init__((), homes=False, start_feed=start_feed)
        self.client = PrometheusClient(url)
        self.feed = PrometheusFeed(self.post_message, self.client)  # type: ignore[assignment]

    def on_mount(self) -> None:
        super().on_mount()
        self.sub_title = f"sessions · {fmt.clean(self.client.url, 60)}"

    def on_fleet_failed(self, message: FleetFailed) -> None:
        self.notify(fmt.clean(message.reason, 200), severity="error", markup=False)

    def open_session(self, row: SessionRow) -> None:
        feed = self.feed
        remote = feed.remote.get(row.path) if isinstance(feed, PrometheusFeed) else None
        if remote is not None:
            self.push_screen(RemoteFiguresScreen(self.client, remote))
