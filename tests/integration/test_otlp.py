"""OTLP push against a receiver on 127.0.0.1 that decodes what arrives with the protocol's own
protobuf definitions (``opentelemetry-proto``): the metrics and compaction events, their attributes,
and no message text."""

from __future__ import annotations

import asyncio
import gzip
import json
import subprocess
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from tests.integration.support import CTXSCOPE, free_port, running, wait_for
from tests.session_home import claude_call, claude_line, claude_session

pytest.importorskip("opentelemetry.sdk", reason="needs the otel extra: pip install '.[otel]'")
from ctxscope.core import telemetry as tm
from ctxscope.tui.export import Exporter, ExportOptions
from ctxscope.tui.tailer import CoreSource
from opentelemetry.proto.collector.logs.v1.logs_service_pb2 import ExportLogsServiceRequest
from opentelemetry.proto.collector.metrics.v1.metrics_service_pb2 import (
    ExportMetricsServiceRequest,
)

SECRET = "PROMPT-TEXT-NEVER-EXPORTED"
SUMMARY = "This session is being continued from a previous chat."


class Receiver:
    """A tiny OTLP/HTTP collector: keeps every request body by path."""

    def __init__(self) -> None:
        self.bodies: list[tuple[str, bytes]] = []
        self.lock = threading.Lock()
        self.refusing = False
        """Answer 400 (not retried by the SDK) instead of taking what comes."""
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                if self.headers.get("Content-Encoding") == "gzip":
                    body = gzip.decompress(body)
                if receiver.refusing:
                    self.send_response(400)
                    self.send_header("Content-Length", "0")
                    self.end_headers()
                    return
                with receiver.lock:
                    receiver.bodies.append((self.path, body))
                self.send_response(200)
                self.send_header("Content-Type", "application/x-protobuf")
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, format: str, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def of(self, path: str) -> list[bytes]:
        with self.lock:
            return [body for where, body in self.bodies if where == path]

    def metrics(self) -> dict[str, list[tuple[dict[str, str], float]]]:
        """Every data point received, by metric name: (attributes, value)."""
        out: dict[str, list[tuple[dict[str, str], float]]] = {}
        for body in self.of("/v1/metrics"):
            request = ExportMetricsServiceRequest.FromString(body)
            for resource in request.resource_metrics:
                for scope in resource.scope_metrics:
                    for metric in scope.metrics:
                        kind = metric.WhichOneof("data")
                        points = getattr(metric, kind).data_points
                        for point in points:
                            attrs = {a.key: _any(a.value) for a in point.attributes}
                            value = point.sum if kind == "histogram" else (
                                point.as_int if point.WhichOneof("value") == "as_int" else point.as_double
                            )
                            out.setdefault(metric.name, []).append((attrs, value))
        return out

    def histograms(self, name: str) -> list[tuple[dict[str, str], int, float]]:
        """Every histogram data point of one metric received: (attributes, count, sum)."""
        out = []
        for body in self.of("/v1/metrics"):
            for resource in ExportMetricsServiceRequest.FromString(body).resource_metrics:
                for scope in resource.scope_metrics:
                    for metric in scope.metrics:
                        if metric.name == name:
                            out += [({a.key: _any(a.value) for a in point.attributes}, point.count, point.sum)
                                    for point in metric.histogram.data_points]
        return out

    def events(self) -> list[tuple[str, dict[str, Any], str]]:
        """Every log record received: (event name, attributes, body)."""
        out = []
        for body in self.of("/v1/logs"):
            request = ExportLogsServiceRequest.FromString(body)
            for resource in request.resource_logs:
                for scope in resource.scope_logs:
                    for record in scope.log_records:
                        attrs = {a.key: _any(a.value) for a in record.attributes}
                        out.append((record.event_name, attrs, _any(record.body)))
        return out


def _any(value: Any) -> Any:
    kind = value.WhichOneof("value")
    return getattr(value, kind) if kind else None


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    found = Receiver()
    found.thread.start()
    yield found
    found.server.shutdown()
    found.server.server_close()


def session_log(folder: Path) -> Path:
    prompts = [30_000, 70_000, 25_000]
    log = claude_session(folder, "sess-otlp", prompts, compact_after=2, cwd="/srv/secret-project")
    with open(log, "ab") as handle:
        handle.write(claude_line("user", "sess-otlp", "/srv/secret-project", "2026-02-12T18:00:00.000Z",
                                 message={"role": "user", "content": SECRET}))
    return log


def assert_no_text(receiver: Receiver) -> None:
    with receiver.lock:
        raw = b"".join(body for _, body in receiver.bodies)
    assert raw
    for text in (SECRET, SUMMARY, "sub task"):
        assert text.encode() not in raw


def test_watch_pushes_metrics_and_compaction_events(tmp_path: Path, receiver: Receiver) -> None:
    log = session_log(tmp_path / "home")
    argv = [CTXSCOPE, "watch", str(log), "--headless", "--otlp-endpoint", receiver.url, "--host", "box-1"]
    with running(argv, tmp_path / "watch.out"):
        wait_for(lambda: True if tm.CONTEXT_TOKENS in receiver.metrics() and receiver.events() else None,
                 timeout=20, what="metrics and events at the receiver")
    metrics = receiver.metrics()
    identity = {
        tm.HOST: "box-1", tm.AGENT: "claude-code", tm.SESSION: "sess-otlp", tm.SCOPE: "main",
        tm.MODEL: "claude-opus-4-6", tm.PROJECT: "/srv/secret-project",
    }
    attrs, context = metrics[tm.CONTEXT_TOKENS][-1]
    assert attrs == identity
    assert context == 25_000
    assert metrics[tm.CONTEXT_WINDOW][-1][1] == 200_000
    assert metrics[tm.CALLS][-1][1] == 3
    assert metrics[tm.COMPACTIONS][-1][1] == 1
    assert metrics[tm.TOKENS_FREED][-1][1] == 70_000 - 25_000
    assert 0.9 < metrics[tm.CACHED_RATIO][-1][1] < 1
    assert tm.COMPACTION_TRIGGER in metrics and tm.ESTIMATE_RATIO in metrics
    usage_attrs, usage_sum = metrics[tm.TOKEN_USAGE][-1]
    assert usage_sum == 30_000 + 70_000 + 25_000
    assert usage_attrs[tm.PROVIDER] == "anthropic" and usage_attrs[tm.TOKEN_TYPE] == "input"
    [(name, fields, body)] = receiver.events()
    assert name == tm.COMPACTION_EVENT and body == tm.COMPACTION_EVENT
    assert fields["ctxscope.compaction.tokens_before"] == 70_000
    assert fields["ctxscope.compaction.tokens_after"] == 25_000
    assert fields["ctxscope.compaction.tokens_freed"] == 45_000
    assert fields["ctxscope.compaction.kind"] == "summary"
    assert fields["ctxscope.compaction.trigger_kind"] == "auto"
    assert fields["ctxscope.compaction.summary_tokens"] > 0
    assert {k: fields[k] for k in identity} == identity
    assert_no_text(receiver)


def published(log: Path, options: ExportOptions) -> Exporter:
    source = CoreSource(str(log))
    source.read(None)
    source.finish()
    exporter = Exporter(options)
    exporter.publish_snapshot(source.snapshot(), source)
    return exporter


def test_redact_hashes_session_ids_and_projects(tmp_path: Path, receiver: Receiver) -> None:
    options = ExportOptions(receiver.url, None, "127.0.0.1", tm.Identity("box-2", redact=True))
    exporter = published(session_log(tmp_path), options)
    exporter.flush()
    exporter.close()
    attrs = receiver.metrics()[tm.CONTEXT_TOKENS][-1][0]
    assert attrs[tm.SESSION] == tm.redacted("sess-otlp") != "sess-otlp"
    assert attrs[tm.PROJECT] == tm.redacted("/srv/secret-project")
    with receiver.lock:
        raw = b"".join(body for _, body in receiver.bodies)
    assert b"sess-otlp" not in raw and b"secret-project" not in raw
    assert_no_text(receiver)


def test_a_collector_that_is_down_is_counted_and_never_stalls(tmp_path: Path) -> None:
    down = f"http://127.0.0.1:{free_port()}"  # nothing listens there
    options = ExportOptions(down, None, "127.0.0.1", tm.Identity("box-3"), timeout_s=0.5)
    started = time.monotonic()
    exporter = published(session_log(tmp_path), options)
    publish_s = time.monotonic() - started
    exporter.flush()
    try:
        assert exporter.errors >= 1
        notice = exporter.notice()
        assert notice is not None and "failed push" in notice.reason and down in notice.reason
        snapshot = exporter.annotate(CoreSource(str(tmp_path / "sess-otlp.jsonl")).snapshot())
        assert snapshot.notices[-1] == notice  # what the error strip shows
    finally:
        exporter.close()
    assert publish_s < 5  # reading and publishing never wait for the collector


def test_an_outage_loses_no_compaction_event(tmp_path: Path, receiver: Receiver) -> None:
    receiver.refusing = True
    options = ExportOptions(receiver.url, None, "127.0.0.1", tm.Identity("box-5"), interval_ms=100)
    exporter = published(session_log(tmp_path), options)
    try:
        wait_for(lambda: True if exporter.errors and exporter.pending_events == 1 else None,
                 timeout=10, what="a refused push")
        assert receiver.events() == []
        assert exporter.notice() is not None
        receiver.refusing = False
        wait_for(lambda: True if receiver.events() and exporter.pending_events == 0 else None,
                 timeout=10, what="the kept event to be sent again")
    finally:
        exporter.close()
    [(name, fields, _)] = receiver.events()  # once, not lost, not twice
    assert name == tm.COMPACTION_EVENT and fields["ctxscope.compaction.tokens_freed"] == 45_000
    assert receiver.metrics()[tm.CALLS][-1][1] == 3  # cumulative: the calls of the outage too


def test_sessions_export_json_pushes_every_row(tmp_path: Path, receiver: Receiver) -> None:
    session_log(tmp_path / "logs")
    claude_session(tmp_path / "logs", "sess-two", [10_000, 12_000])
    done = subprocess.run(
        [CTXSCOPE, "sessions", str(tmp_path / "logs"), "--no-homes", "--cache", str(tmp_path / "cache.db"),
         "--json", "--export", "--otlp-endpoint", receiver.url, "--host", "box-4"],
        capture_output=True, timeout=30, check=True,
    )
    rows = json.loads(done.stdout)
    assert {row["session_id"] for row in rows} == {"sess-otlp", "sess-two"}
    contexts = {a[tm.SESSION]: v for a, v in receiver.metrics()[tm.CONTEXT_TOKENS]}
    assert contexts == {"sess-otlp": 25_000, "sess-two": 12_000}
    calls = {a[tm.SESSION]: v for a, v in receiver.metrics()[tm.CALLS]}
    assert calls == {"sess-otlp": 3, "sess-two": 2}
    def of(name: str) -> dict[str, float]:
        return {a[tm.SESSION]: v for a, v in receiver.metrics().get(name, [])}
    # The gauges `watch` publishes, from the rows: trigger (the 70k auto compaction lowered the
    # 200k window's default), cached share, tokens freed; and the session's cost and start.
    assert of(tm.COMPACTION_TRIGGER) == {"sess-otlp": 70_000, "sess-two": 167_000}
    assert of(tm.CACHED_RATIO) == pytest.approx({"sess-otlp": 24_890 / 25_000, "sess-two": 11_890 / 12_000})
    assert of(tm.TOKENS_FREED) == {"sess-otlp": 45_000}
    assert of(tm.SESSION_COST) == pytest.approx({row["session_id"]: row["cost"] for row in rows})
    assert of(tm.SESSION_START) == {"sess-otlp": 1_770_912_000, "sess-two": 1_770_912_000}
    # Estimate ÷ reported and one token-usage point per call, as `watch` publishes them.
    logs = tmp_path / "logs"
    assert of(tm.ESTIMATE_RATIO) == pytest.approx(
        {session: watched_ratio(logs / f"{session}.jsonl") for session in ("sess-otlp", "sess-two")}
    )
    usage = {a[tm.SESSION]: (count, total, a[tm.MODEL], a[tm.PROVIDER])
             for a, count, total in receiver.histograms(tm.TOKEN_USAGE)}
    assert usage == {"sess-otlp": (3, 30_000 + 70_000 + 25_000, "claude-opus-4-6", "anthropic"),
                     "sess-two": (2, 22_000, "claude-opus-4-6", "anthropic")}
    assert [fields[tm.SESSION] for _, fields, _ in receiver.events()] == ["sess-otlp"]
    assert_no_text(receiver)


def watched_ratio(log: Path) -> float:
    """The estimate ÷ reported gauge `ctxscope watch` publishes for a log."""
    source = CoreSource(str(log))
    source.read(None)
    source.finish()
    [scope] = tm.TelemetryTracker(tm.Identity("w")).from_snapshot(source.snapshot()).scopes
    return scope.gauges()[tm.ESTIMATE_RATIO]


def test_sessions_export_reads_a_grown_log_on_with_its_estimate(tmp_path: Path, receiver: Receiver) -> None:
    """The second run reads the grown log on from the cached offset (the cache carries the
    running estimate) and publishes the new calls' points and the same ratio `watch` computes
    over the whole log; a model change shows on the new calls' points."""
    log = claude_session(tmp_path / "logs", "sess-grow", [10_000, 12_000], compact_after=1)
    argv = [CTXSCOPE, "sessions", str(tmp_path / "logs"), "--no-homes", "--cache", str(tmp_path / "c.db"),
            "--json", "--export", "--otlp-endpoint", receiver.url, "--host", "box-7"]
    subprocess.run(argv, capture_output=True, timeout=30, check=True)
    with open(log, "ab") as handle:
        call = claude_call("sess-grow", "/home/dev/project", 3, 15_000, model="claude-sonnet-4-5", pieces=2)
        handle.write(b"".join(call))
    with receiver.lock:
        receiver.bodies.clear()
    subprocess.run(argv, capture_output=True, timeout=30, check=True)
    ratio = receiver.metrics()[tm.ESTIMATE_RATIO][-1][1]
    assert ratio == pytest.approx(watched_ratio(log))
    from ctxscope.core.sessions_index import SessionIndex

    with SessionIndex(str(tmp_path / "c.db"), export=True) as index:
        cached = index.digest(str(log))
    assert index.reads == 0 and cached.offset == log.stat().st_size  # the second run cached it
    points = {(a[tm.MODEL], count, total) for a, count, total in receiver.histograms(tm.TOKEN_USAGE)}
    # A new process publishes the session's every call again (cumulative from its start).
    assert points == {("claude-opus-4-6", 2, 22_000), ("claude-sonnet-4-5", 1, 15_000)}


def test_the_missing_extra_is_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import sys

    monkeypatch.setitem(sys.modules, "opentelemetry.sdk.metrics", None)
    from ctxscope.tui.cli import main

    code = main(["sessions", str(tmp_path), "--no-homes", "--json", "--export", "--metrics-port", "0"])
    assert code == 2
    err = capsys.readouterr().err
    assert err == "ctxscope sessions: exporting needs the OpenTelemetry SDK: pip install 'ctxscope[otel]'\n"


async def test_the_session_browser_exports_its_rows(tmp_path: Path, receiver: Receiver) -> None:
    from ctxscope.tui.export_browser import ExportingSessionsApp

    claude_session(tmp_path / "logs", "sess-b1", [11_000, 13_000])
    claude_session(tmp_path / "logs", "sess-b2", [21_000])
    exporter = Exporter(ExportOptions(receiver.url, None, "127.0.0.1", tm.Identity("box-6")))
    app = ExportingSessionsApp([str(tmp_path / "logs")], homes=False, cache=str(tmp_path / "c.db"),
                               exporter=exporter)
    try:
        async with app.run_test(size=(150, 30)) as pilot, asyncio.timeout(20):
            while not app.browser.finished:
                await pilot.pause(0.05)
        exporter.flush()
    finally:
        exporter.close()
    contexts = {a[tm.SESSION]: v for a, v in receiver.metrics()[tm.CONTEXT_TOKENS]}
    assert contexts == {"sess-b1": 13_000, "sess-b2": 21_000}
    assert {a[tm.HOST] for a, _ in receiver.metrics()[tm.CALLS]} == {"box-6"}
    usage = {a[tm.SESSION]: (count, total) for a, count, total in receiver.histograms(tm.TOKEN_USAGE)}
    assert usage == {"sess-b1": (2, 24_000), "sess-b2": (1, 21_000)}  # the browser's rows carry the calls
    assert set(receiver.metrics()[tm.ESTIMATE_RATIO][-1][0]) >= {tm.SESSION, tm.HOST}
