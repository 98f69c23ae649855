"""The OTLP log exporter's wrapper that keeps compaction events through a collector outage.

Imports the OpenTelemetry SDK at the top: only :mod:`ctxscope.tui.export` imports this module, once
it knows the SDK is installed.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from typing import Final

from opentelemetry.sdk._logs import ReadableLogRecord
from opentelemetry.sdk._logs.export import LogRecordExporter, LogRecordExportResult

MAX_PENDING_EVENTS: Final = 10_000
"""Compaction events kept for the next push while the collector does not take them (beyond this,
the oldest are dropped and counted in :attr:`RetainingEvents.dropped`)."""


class RetainingEvents(LogRecordExporter):
    """Wraps the SDK's OTLP log exporter: a batch the collector does not take is kept (up to
    :data:`MAX_PENDING_EVENTS`) and sent again before the next one, so an outage loses no
    compaction event. Every failed push is counted.

    Args:
        exporter: The SDK's exporter.
        url: Where it pushes (for the failure's reason).
        failed: Called with a reason for every failed push.
    """

    def __init__(self, exporter: LogRecordExporter, url: str, failed: Callable[[str], None]) -> None:
        self._exporter = exporter
        self._url = url
        self._failed = failed
        self._pending: list[ReadableLogRecord] = []
        self._lock = threading.Lock()
        self.dropped = 0

    @property
    def pending(self) -> int:
        with self._lock:
            return len(self._pending)

    def export(self, batch: Sequence[ReadableLogRecord]) -> LogRecordExportResult:
        with self._lock:
            records = [*self._pending, *batch]
            if not records:
                return LogRecordExportResult.SUCCESS
            try:
                result = self._exporter.export(records)
            except Exception as exc:  # the SDK's thread would only log it
                result, reason = LogRecordExportResult.FAILURE, f"{self._url}: {type(exc).__name__}"
            else:
                reason = f"{self._url} did not take it"
            if result is LogRecordExportResult.SUCCESS:
                self._pending = []
                return result
            self._pending = records[-MAX_PENDING_EVENTS:]
            self.dropped += len(records) - len(self._pending)
        self._failed(reason)
        return result

    def retry(self) -> None:
        """Send the kept events again (nothing when none is kept)."""
        if self.pending:
            self.export(())

    def force_flush(self, timeout_millis: int = 30_000) -> bool:
        return True

    def shutdown(self) -> None:
        self._exporter.shutdown()  # type: ignore[no-untyped-call]
