"""The dashboard with an export whose collector is down: the log is read as before and the failed
pushes show in the error strip, even while the log is quiet."""

from __future__ import annotations

from pathlib import Path

import pytest
from ctxscope.core.telemetry import Identity
from ctxscope.tui.app import CtxscopeApp, DashboardOptions
from ctxscope.tui.messages import Mode, SnapshotUpdated
from ctxscope.tui.widgets.error_strip import ErrorStrip, strip_text

from tests.integration.support import free_port
from tests.session_home import claude_session

from .test_tailer import Inbox

pytest.importorskip("opentelemetry.sdk", reason="needs the otel extra: pip install '.[otel]'")


async def test_failed_pushes_show_in_the_error_strip(tmp_path: Path) -> None:
    from ctxscope.tui.export import Exporter, ExportOptions

    log = claude_session(tmp_path, "sess-down", [10_000, 20_000])
    down = f"http://127.0.0.1:{free_port()}"
    exporter = Exporter(ExportOptions(down, None, "127.0.0.1", Identity("h"), interval_ms=100,
                                          timeout_s=0.5))
    inbox = Inbox()
    app = CtxscopeApp(DashboardOptions(str(log), mode=Mode.LIVE), export=exporter)
    try:
        async with app.run_test(size=(120, 40), message_hook=inbox.post) as pilot:

            def failed() -> SnapshotUpdated | None:
                return next((m for m in inbox.snapshots if m.snapshot.notices), None)

            await inbox.wait_for(lambda: failed() is not None, timeout=20)
            message = failed()
            assert message is not None
            assert len(message.snapshot.scopes["main"].records) == 2  # the log was read all the same
            await pilot.pause()
            strip = app.query_one(ErrorStrip)
            assert strip.has_class("-shown")
            text = strip_text(message.snapshot).plain
            assert "failed push" in text and down in text
    finally:
        exporter.close()
    assert exporter.errors >= 1
