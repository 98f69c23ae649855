"""The fleet browser (``sessions --prometheus``) against a stand-in Prometheus HTTP API on
127.0.0.1: rows of every host, refreshed while open, Enter on a row shows its figures over time,
and a server that fails is a notification, not a crash."""

from __future__ import annotations

import threading
import urllib.parse
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import orjson
import pytest
from ctxscope.core.fleet import FLEET_QUERIES
from ctxscope.tui.prometheus_source import FleetApp, FleetFailed, RemoteFiguresScreen
from rich.text import Text
from textual.widgets import DataTable

from .test_tailer import Inbox


def vector(*samples: tuple[str, str, float]) -> list[dict[str, Any]]:
    labels = {"gen_ai_agent_name": "codex", "ctxscope_project": "/srv/[bold]x"}
    labels["gen_ai_request_model"] = "gpt-5"
    return [
        {"metric": {"host_name": h, "gen_ai_conversation_id": s, **labels}, "value": [1.0, str(v)]}
        for h, s, v in samples
    ]


class FakePrometheus:
    """Answers the fleet's instant queries from :attr:`answers` and every range query alike."""

    def __init__(self) -> None:
        self.answers: dict[str, list[dict[str, Any]]] = {}
        self.failing = False
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                url = urllib.parse.urlparse(self.path)
                promql = urllib.parse.parse_qs(url.query)["query"][0]
                if fake.failing:
                    self.send_response(503)
                    self.end_headers()
                    return
                if url.path.endswith("query_range"):
                    result = [{"metric": {}, "values": [[1000, "10"], [1015, "10"], [1030, "42000"]]}]
                else:
                    name = next(k for k, q in FLEET_QUERIES.items() if q == promql)
                    result = fake.answers.get(name, [])
                body = orjson.dumps({"status": "success", "data": {"resultType": "vector", "result": result}})
                self.send_response(200)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, format: str, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"


@pytest.fixture
def prometheus() -> Iterator[FakePrometheus]:
    fake = FakePrometheus()
    fake.answers = {
        "context": vector(("ci-1", "s1", 42_000), ("laptop", "s2", 9_000)),
        "window": vector(("ci-1", "s1", 272_000)),
        "calls": vector(("ci-1", "s1", 7), ("laptop", "s2", 2)),
        "seen": vector(("ci-1", "s1", 2e9), ("laptop", "s2", 1e9)),
        "moving": vector(("ci-1", "s1", 1)),
    }
    thread = threading.Thread(target=fake.server.serve_forever, daemon=True)
    thread.start()
    yield fake
    fake.server.shutdown()
    fake.server.server_close()


def plain(table: DataTable[Text], row: str, column: str) -> str:
    return table.get_cell(row, column).plain


async def test_rows_refresh_and_history(prometheus: FakePrometheus) -> None:
    inbox = Inbox()
    app = FleetApp(prometheus.url)
    app.feed.refresh_seconds = 0.05
    async with app.run_test(size=(150, 30), message_hook=inbox.post) as pilot:
        browser = app.browser
        await inbox.wait_for(lambda: len(browser.shown) == 2)
        assert browser.shown == ["prometheus://ci-1/s1", "prometheus://laptop/s2"]
        table = browser.table
        assert plain(table, "prometheus://ci-1/s1", "project") == "ci-1:/srv/[bold]x"  # literal, never markup
        assert plain(table, "prometheus://ci-1/s1", "calls") == "7"
        assert plain(table, "prometheus://ci-1/s1", "live") == "●"
        # Refreshed while open: a new call on one host, a host gone.
        prometheus.answers["calls"] = vector(("ci-1", "s1", 8))
        prometheus.answers["context"] = vector(("ci-1", "s1", 50_000))
        await inbox.wait_for(lambda: browser.shown == ["prometheus://ci-1/s1"]
                             and browser.rows["prometheus://ci-1/s1"].calls == 8)
        await pilot.press("enter")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, RemoteFiguresScreen)
        history = screen.query_one("#remote-history", DataTable)
        await inbox.wait_for(lambda: history.row_count == 2)  # unchanged steps fold into one row
        assert [history.get_row_at(i)[1].plain for i in range(2)] == ["10", "42.0k"]
        await pilot.press("escape")
        assert app.screen is browser


async def test_a_failing_server_is_a_notice(prometheus: FakePrometheus) -> None:
    prometheus.failing = True
    inbox = Inbox()
    app = FleetApp(prometheus.url)
    async with app.run_test(size=(150, 30), message_hook=inbox.post) as pilot:
        await inbox.wait_for(lambda: any(isinstance(m, FleetFailed) for m in inbox.messages))
        await pilot.pause()
        failure = next(m for m in inbox.messages if isinstance(m, FleetFailed))
        assert "HTTP 503" in failure.reason
        assert app.browser.rows == {}
