"""Publishing ctxscope's figures through the OpenTelemetry SDK: OTLP push and a Prometheus endpoint.

The figures are computed in core (:mod:`ctxscope.core.telemetry`); this module only hands each
:class:`~ctxscope.core.telemetry.TelemetryBatch` to the SDK's instruments. Recording a value is an
in-memory update: the SDK's own threads send it — the periodic metric reader and the batch log
processor push to the collector every :data:`EXPORT_INTERVAL_MS`, the Prometheus endpoint answers
scrapes — so a collector that is down or slow never holds up the tailer. Failed pushes are counted
(:attr:`Exporter.errors`) and shown in the dashboard's error strip.

The SDK is an optional extra (``pip install 'ctxscope[otel]'``); it is imported only when an
exporter is built, and a missing SDK is one line (:class:`ExportUnavailable`).
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import socket
import threading
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Final

from ctxscope.core import telemetry as tm
from ctxscope.core.session import Problem
from ctxscope.core.sessions_index import SessionRow
from ctxscope.core.snapshot import SessionSnapshot

if TYPE_CHECKING:
    from .tailer import RecordedSource

EXPORT_INTERVAL_MS: Final = 2_000
"""How often figures are pushed to an OTLP collector."""

EXPORT_TIMEOUT_S: Final = 3.0
"""How long one push may take before it counts as failed."""

SHUTDOWN_TIMEOUT_MS: Final = 3_000
"""How long quitting waits for the last push."""

TOKEN_BUCKETS: Final = (
    1, 4, 16, 64, 256, 1024, 4096, 16384, 65536, 262144, 1048576, 4194304, 16777216, 67108864,
)
"""``gen_ai.client.token.usage`` buckets, as the GenAI semantic conventions recommend."""

MISSING_SDK: Final = (
    "exporting needs the OpenTelemetry SDK: pip install 'ctxscope[otel]'"
)

GAUGES: Final = (
    (tm.CONTEXT_TOKENS, "{token}", "Recorded context of the latest call"),
    (tm.CONTEXT_WINDOW, "{token}", "The context window"),
    (tm.COMPACTION_TRIGGER, "{token}", "The agent's auto-compaction trigger"),
    (tm.CACHED_RATIO, "1", "Share of the prompt read from the cache"),
    (tm.ESTIMATE_RATIO, "1", "ctxscope's estimate / the reported prompt"),
    (tm.SESSION_COST, "{USD}", "Estimated dollars of the session (list prices)"),
    (tm.SESSION_START, "s", "When the session started (epoch seconds)"),
)
"""(name, unit, description) of every gauge the exporter publishes."""


class ExportUnavailable(Exception):
    """The export cannot start (SDK missing, port taken); the message is one line."""


@dataclasses.dataclass(frozen=True, slots=True)
class ExportOptions:
    """What the command line asked to export.

    Attributes:
        otlp_endpoint: Base URL of an OTLP/HTTP collector (``/v1/metrics`` and ``/v1/logs`` are
            appended unless the URL already ends in one of them).
        metrics_port: Serve the metrics for Prometheus on this port (None: no endpoint; 0: any free
            port, see :attr:`Exporter.metrics_port`).
        metrics_host: The address the endpoint binds to.
        identity: Host, project and agent overrides, and ``--redact``.
        interval_ms: How often figures are pushed to the collector.
        timeout_s: How long one push may take before it counts as failed.
    """

    otlp_endpoint: str | None
    metrics_port: int | None
    metrics_host: str
    identity: tm.Identity
    interval_ms: int = EXPORT_INTERVAL_MS
    timeout_s: float = EXPORT_TIMEOUT_S

    @property
    def wanted(self) -> bool:
        return self.otlp_endpoint is not None or self.metrics_port is not None


def export_options(args: argparse.Namespace) -> ExportOptions:
    identity = tm.Identity(
        host=getattr(args, "export_host", None) or socket.gethostname(),
        project=getattr(args, "export_project", None) or "",
        redact=bool(getattr(args, "redact", False)),
    )
    return ExportOptions(
        otlp_endpoint=getattr(args, "otlp_endpoint", None),
        metrics_port=getattr(args, "metrics_port", None),
        metrics_host=getattr(args, "metrics_host", None) or "127.0.0.1",
        identity=identity,
    )


def signal_url(endpoint: str, signal: str) -> str:
    """The OTLP/HTTP URL of one signal (``metrics`` or ``logs``) under a collector's base URL."""
    base = endpoint.rstrip("/")
    for known in ("/v1/metrics", "/v1/logs"):
        if base.endswith(known):
            base = base[: -len(known)]
    return f"{base}/v1/{signal}"


class Exporter:
    """The SDK's providers, instruments and readers for one ctxscope process.

    Args:
        options: Endpoints and identity.

    Raises:
        ExportUnavailable: The SDK is not installed, or the metrics port cannot be bound.
    """

    def __init__(self, options: ExportOptions) -> None:
        try:
            from opentelemetry.sdk.metrics import MeterProvider
            from opentelemetry.sdk.metrics.view import ExplicitBucketHistogramAggregation, View
            from opentelemetry.sdk.resources import Resource
        except ImportError:
            raise ExportUnavailable(MISSING_SDK) from None
        self.options = options
        self.tracker = tm.TelemetryTracker(options.identity)
        self.errors = 0
        """Pushes that failed (collector down, slow or refusing)."""
        self.last_error = ""
        self.batches = 0
        self._errors_shown = 0
        self.metrics_port: int | None = None
        self._lock = threading.Lock()
        self._server: Any = None
        self._logger: Any = None
        self._logger_provider: Any = None
        self._events: Any = None
        self._stop_retry = threading.Event()
        readers: list[Any] = []
        resource = Resource.create({"service.name": "ctxscope", tm.HOST: options.identity.host})
        if options.metrics_port is not None:
            readers.append(self._prometheus_reader(options))
        if options.otlp_endpoint is not None:
            readers.append(self._otlp_reader(options))
            self._start_logs(options, resource)
        view = View(
            instrument_name=tm.TOKEN_USAGE,
            aggregation=ExplicitBucketHistogramAggregation(TOKEN_BUCKETS),
        )
        self._provider = MeterProvider(metric_readers=readers, resource=resource, views=[view])
        meter = self._provider.get_meter("ctxscope")
        self._usage = meter.create_histogram(
            tm.TOKEN_USAGE, unit="{token}", description="Prompt tokens the provider reported per call"
        )
        self._gauges = {
            name: meter.create_gauge(name, unit=unit, description=description)
            for name, unit, description in GAUGES
        }
        self._calls = meter.create_counter(tm.CALLS, unit="{call}", description="Model calls")
        self._compactions = meter.create_counter(
            tm.COMPACTIONS, unit="{compaction}", description="Compactions the agent made"
        )
        self._freed = meter.create_counter(
            tm.TOKENS_FREED, unit="{token}", description="Tokens the agent's compactions freed"
        )

    # -- building -------------------------------------------------------------------------------

    def _prometheus_reader(self, options: ExportOptions) -> Any:
        from opentelemetry.exporter.prometheus import PrometheusMetricReader
        from prometheus_client import REGISTRY, start_http_server

        reader = PrometheusMetricReader()
        try:
            self._server, _thread = start_http_server(
                options.metrics_port or 0, addr=options.metrics_host, registry=REGISTRY
            )
        except OSError as exc:
            reader.shutdown()
            where = f"{options.metrics_host}:{options.metrics_port}"
            raise ExportUnavailable(f"cannot serve metrics on {where}: {exc.strerror or exc}") from None
        self.metrics_port = int(self._server.server_address[1])
        return reader

    def _otlp_reader(self, options: ExportOptions) -> Any:
        from opentelemetry.exporter.otlp.proto.http.metric_exporter import OTLPMetricExporter
        from opentelemetry.sdk.metrics.export import MetricExportResult, PeriodicExportingMetricReader

        url = signal_url(options.otlp_endpoint or "", "metrics")
        exporter = OTLPMetricExporter(endpoint=url, timeout=options.timeout_s)
        counted = _counting(exporter, url, self._failed, lambda result: result is MetricExportResult.SUCCESS)
        return PeriodicExportingMetricReader(
            counted,
            export_interval_millis=options.interval_ms,
            export_timeout_millis=options.timeout_s * 1000,
        )

    def _start_logs(self, options: ExportOptions, resource: Any) -> None:
        from opentelemetry.exporter.otlp.proto.http._log_exporter import OTLPLogExporter
        from opentelemetry.sdk._logs import LoggerProvider
        from opentelemetry.sdk._logs.export import BatchLogRecordProcessor

        from .otel_events import RetainingEvents

        url = signal_url(options.otlp_endpoint or "", "logs")
        exporter = OTLPLogExporter(endpoint=url, timeout=options.timeout_s)
        interval_ms = options.interval_ms
        events = RetainingEvents(exporter, url, self._failed)
        self._events = events
        self._logger_provider = LoggerProvider(resource=resource)
        self._logger_provider.add_log_record_processor(
            BatchLogRecordProcessor(events, schedule_delay_millis=interval_ms)
        )
        self._logger = self._logger_provider.get_logger("ctxscope")

        def retry() -> None:
            while not self._stop_retry.wait(interval_ms / 1000):
                events.retry()

        threading.Thread(target=retry, name="ctxscope-export-retry", daemon=True).start()

    def _failed(self, reason: str) -> None:
        with self._lock:
            self.errors += 1
            self.last_error = reason

    # -- publishing (the worker's thread) --------------------------------------------------------

    def publish(self, batch: tm.TelemetryBatch) -> None:
        """Hand one batch to the SDK (in-memory updates; the SDK's threads send them)."""
        for scope in batch.scopes:
            attributes = dict(scope.attributes)
            for name, value in scope.gauges().items():
                self._gauges[name].set(value, attributes)
        for call in batch.calls:
            attributes = dict(call.attributes)
            self._calls.add(1, attributes)
            if call.input_tokens is not None:
                self._usage.record(call.input_tokens, call.usage_attributes())
        for freed_attributes, tokens in batch.freed:
            self._freed.add(tokens, dict(freed_attributes))
        for event in batch.compactions:
            attributes = dict(event.attributes)
            self._compactions.add(1, attributes)
            if self._logger is not None:
                from opentelemetry._logs import SeverityNumber

                self._logger.emit(
                    event_name=tm.COMPACTION_EVENT,
                    severity_number=SeverityNumber.INFO,
                    body=tm.COMPACTION_EVENT,
                    attributes=event.fields(),
                )
        self.batches += 1

    def publish_snapshot(self, snapshot: SessionSnapshot, source: RecordedSource) -> SessionSnapshot:
        """Publish a snapshot's figures and return it with the export's failures as a notice (the
        error strip shows it). The figures are the recorded lens's whatever the dashboard shows:
        another lens's snapshot is replaced by the source's recorded one."""
        recorded = snapshot if snapshot.lens == "recorded" else source.recorded_snapshot()
        if recorded.lens == "recorded" and recorded.scopes:
            self.publish(self.tracker.from_snapshot(recorded, project=log_project(recorded.source)))
        return self.annotate(snapshot)

    def publish_rows(self, rows: Sequence[SessionRow]) -> None:
        """Publish session rows (``ctxscope sessions --export``; one ``main`` scope each)."""
        self.publish(self.tracker.from_rows(rows))

    def annotate(self, snapshot: SessionSnapshot) -> SessionSnapshot:
        notice = self.notice()
        if notice is None:
            return snapshot
        return dataclasses.replace(snapshot, notices=(*snapshot.notices, notice))

    def news(self) -> bool:
        """Pushes failed since the last :meth:`annotate` (the screen should show the new count)."""
        with self._lock:
            return self.errors != self._errors_shown

    def notice(self) -> Problem | None:
        """The failures so far as one notice (None while every push went through)."""
        with self._lock:
            errors, last = self.errors, self.last_error
            self._errors_shown = errors
        if not errors:
            return None
        return Problem("export", 0, f"export: {errors:,} failed push{'es' if errors != 1 else ''} ({last})")

    @property
    def pending_events(self) -> int:
        """Compaction events waiting for the collector to take them."""
        return int(self._events.pending) if self._events is not None else 0

    def flush(self) -> None:
        """Push what was recorded now (``sessions --export --json`` before it exits)."""
        self._provider.force_flush(SHUTDOWN_TIMEOUT_MS)
        if self._logger_provider is not None:
            self._logger_provider.force_flush(SHUTDOWN_TIMEOUT_MS)
        if self._events is not None:
            self._events.retry()

    def close(self) -> None:
        """Push the last figures (bounded wait) and stop the SDK's threads and the endpoint."""
        self._stop_retry.set()
        if self._events is not None:
            self._events.retry()
        if self._logger_provider is not None:
            self._logger_provider.shutdown()
        self._provider.shutdown(timeout_millis=SHUTDOWN_TIMEOUT_MS)
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()


def _counting(exporter: Any, url: str, failed: Callable[[str], None], ok: Callable[[Any], bool]) -> Any:
    """Wrap an SDK exporter so that every failed push is counted (the SDK only logs them)."""
    original = exporter.export

    def export(batch: Sequence[Any], *args: Any, **kwargs: Any) -> Any:
        try:
            result = original(batch, *args, **kwargs)
        except Exception as exc:  # the SDK's threads swallow it; count it instead
            failed(f"{url}: {type(exc).__name__}")
            raise
        if not ok(result):
            failed(f"{url} did not take it")
        return result

    exporter.export = export
    return exporter


_PROJECTS: dict[str, str] = {}


def log_project(path: str) -> str:
    """The working directory a log names in its first lines ('' when none), read once per log."""
    if path not in _PROJECTS:
        from ctxscope.core.session_digest import log_start

        try:
            _PROJECTS[path] = log_start(path)[1] if os.path.isfile(path) else ""
        except OSError:
            _PROJECTS[path] = ""
    return _PROJECTS[path]


def start_export(args: argparse.Namespace) -> Exporter | None:
    """The exporter the command line asks for (None when it asks for none).

    Raises:
        UsageError: The SDK is missing or the metrics port cannot be bound.
    """
    from .cli import UsageError

    options = export_options(args)
    if not options.wanted:
        return None
    try:
        return Exporter(options)
    except ExportUnavailable as exc:
        raise UsageError(str(exc)) from None


def run_headless(args: argparse.Namespace, exporter: Exporter) -> int:
    """``ctxscope watch PATH --headless``: follow the log and export, with no dashboard (CI runners,
    servers). Runs the dashboard's own tailer; SIGINT or SIGTERM stops it.

    Returns:
        0 when stopped, 2 when the log cannot be read (the reason goes to stderr).
    """
    import asyncio
    import signal
    import sys
    from functools import partial

    from .app import dashboard_options, default_source
    from .messages import TailerFailed
    from .tailer import Tailer

    options = dashboard_options(args, live=True)
    failures: list[str] = []

    def post(message: object) -> None:
        if isinstance(message, TailerFailed):
            failures.append(message.reason)

    async def follow() -> None:
        tailer = Tailer(post, partial(default_source, options), options.mode,
                        force_polling=options.poll, export=exporter)
        loop = asyncio.get_running_loop()
        for signum in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(signum, tailer.stop)
        await tailer.run()

    asyncio.run(follow())
    if failures:
        print(f"ctxscope watch: {failures[0]}", file=sys.stderr)
        return 2
    return 0
