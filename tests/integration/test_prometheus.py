"""A real Prometheus server scraping two headless ``ctxscope watch`` exporters (two "machines") and
the session rows a third publishes (as ``ctxscope sessions --export`` does), then ``ctxscope
sessions --prometheus … --json`` finding every session with its figures (the third's cost and
start time too).

Needs the ``prometheus`` binary (Debian's package; ``.ci/run`` installs it) and the otel extra.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import urllib.parse
import urllib.request
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest
from ctxscope.core.homes import discover
from ctxscope.core.sessions_index import SessionIndex
from ctxscope.core.telemetry import Identity

from tests.integration.support import CTXSCOPE, free_port, running, wait_for
from tests.session_home import claude_call, claude_session

pytest.importorskip("opentelemetry.exporter.prometheus", reason="needs the otel extra: pip install '.[otel]'")
PROMETHEUS = shutil.which("prometheus")
pytestmark = [
    pytest.mark.skipif(PROMETHEUS is None, reason="no prometheus binary (apt-get install prometheus)"),
    pytest.mark.slow,
]

MACHINES = {
    # host: (session id, prompts, compact after call)
    "laptop-ana": ("sess-ana", [20_000, 45_000, 90_000, 30_000, 41_000, 55_000], 3),
    "ci-runner-7": ("sess-ci7", [12_000, 18_000, 26_000], None),
}
ROWS_HOST = "build-box"
"""Publishes session rows (the third machine), in this process."""


def scraped(url: str) -> str | None:
    with urllib.request.urlopen(url, timeout=2) as response:
        body = response.read().decode()
    return body if "ctxscope_context_tokens{" in body else None


def query(base: str, promql: str) -> list[dict[str, Any]]:
    target = f"{base}/api/v1/query?{urllib.parse.urlencode({'query': promql})}"
    with urllib.request.urlopen(target, timeout=2) as response:
        result: list[dict[str, Any]] = json.loads(response.read())["data"]["result"]
    return result


def test_two_machines_through_a_real_prometheus(tmp_path: Path) -> None:
    assert PROMETHEUS is not None
    exporters: dict[str, int] = {}
    with_processes = []
    for host, (session, prompts, compact) in MACHINES.items():
        written = prompts[:-1] if host == "laptop-ana" else prompts  # its last call comes while watched
        log = claude_session(tmp_path / host, session, written, compact_after=compact, cwd=f"/work/{host}")
        exporters[host] = free_port()
        with_processes.append(running(
            [CTXSCOPE, "watch", str(log), "--headless", "--metrics-port", str(exporters[host]),
             "--host", host],
            tmp_path / f"{host}.out",
        ))
    from ctxscope.tui.export import Exporter, ExportOptions

    claude_session(tmp_path / ROWS_HOST, "sess-box", [8_000, 16_000], cwd=f"/work/{ROWS_HOST}")
    with SessionIndex(":memory:", export=True) as index:
        [box_row] = index.rows(discover([str(tmp_path / ROWS_HOST)], homes=False))
    rows_exporter = Exporter(ExportOptions(None, 0, "127.0.0.1", Identity(ROWS_HOST)))
    rows_exporter.publish_rows([box_row])
    assert rows_exporter.metrics_port is not None
    exporters[ROWS_HOST] = rows_exporter.metrics_port
    prom_port = free_port()
    base = f"http://127.0.0.1:{prom_port}"
    config = tmp_path / "prometheus.yml"
    targets = ", ".join(f"'127.0.0.1:{port}'" for port in exporters.values())
    config.write_text(
        "global:\n  scrape_interval: 1s\n  evaluation_interval: 1s\n"
        f"scrape_configs:\n  - job_name: ctxscope\n    static_configs:\n      - targets: [{targets}]\n"
    )
    with with_processes[0], with_processes[1], closing(rows_exporter):
        for host, port in exporters.items():
            wait_for(lambda port=port: scraped(f"http://127.0.0.1:{port}/metrics"), timeout=20,
                     what=f"{host}'s exporter")
        prometheus = [
            PROMETHEUS, f"--config.file={config}", f"--storage.tsdb.path={tmp_path / 'tsdb'}",
            f"--web.listen-address=127.0.0.1:{prom_port}",
        ]
        with running(prometheus, tmp_path / "prometheus.out"):
            series = wait_for(
                lambda: found if len(found := query(base, "ctxscope_context_tokens")) == 3 else None,
                timeout=30, what="Prometheus to scrape the three exporters",
            )
            by_host = {s["metric"]["host_name"]: s for s in series}
            assert set(by_host) == {*MACHINES, ROWS_HOST}
            for host, (session, prompts, _compact) in MACHINES.items():
                labels = by_host[host]["metric"]
                assert labels["gen_ai_conversation_id"] == session
                assert labels["gen_ai_agent_name"] == "claude-code"
                assert labels["gen_ai_request_model"] == "claude-opus-4-6"
                assert labels["ctxscope_project"] == f"/work/{host}"
                if host != "laptop-ana":
                    assert float(by_host[host]["value"][1]) == prompts[-1]
            # A call appended on one machine while it is watched reaches Prometheus.
            log = tmp_path / "laptop-ana" / "sess-ana.jsonl"
            with open(log, "ab") as handle:
                handle.write(b"".join(claude_call("sess-ana", "/work/laptop-ana", 6, 55_000)))
            wait_for(
                lambda: True if any(s["metric"]["host_name"] == "laptop-ana" and s["value"][1] == "55000"
                                    for s in query(base, "ctxscope_context_tokens")) else None,
                timeout=20, what="the appended call to be scraped",
            )
            # The rows' estimate ÷ reported and per-call token-usage points (`sessions --export`).
            assert box_row.export is not None and box_row.export.estimate is not None
            estimate, reported = box_row.export.estimate
            [ratio] = query(base, f'ctxscope_estimate_ratio{{host_name="{ROWS_HOST}"}}')
            assert float(ratio["value"][1]) == pytest.approx(estimate / reported)
            [usage] = query(base, f'gen_ai_client_token_usage_count{{host_name="{ROWS_HOST}"}}')
            assert usage["metric"]["gen_ai_request_model"] == "claude-opus-4-6" and usage["value"][1] == "2"
            [usage_sum] = query(base, f'gen_ai_client_token_usage_sum{{host_name="{ROWS_HOST}"}}')
            assert usage_sum["value"][1] == str(8_000 + 16_000)
            compactions = query(base, "ctxscope_compactions_total")
            assert {s["metric"]["host_name"]: float(s["value"][1]) for s in compactions} == {"laptop-ana": 1}

            done = subprocess.run([CTXSCOPE, "sessions", "--prometheus", base, "--json"],
                                  capture_output=True, timeout=30, check=True)
            rows = {row["host"]: row for row in json.loads(done.stdout)}
            assert set(rows) == {*MACHINES, ROWS_HOST}
            box = rows[ROWS_HOST]
            assert (box["session_id"], box["context"], box["calls"]) == ("sess-box", 16_000, 2)
            assert box["cost"] == pytest.approx(box_row.cost) and box_row.cost
            assert box["started"] == "2026-02-12T16:00:00Z" == box_row.started.replace(".000", "")
            for host, (session, prompts, compact) in MACHINES.items():
                row = rows[host]
                assert row["session_id"] == session
                assert row["context"] == prompts[-1]
                assert row["peak"] == prompts[-1]  # the figures published after catching up, then live
                assert row["window"] == 200_000
                assert row["calls"] == len(prompts)
                assert row["compactions"] == (1 if compact else 0)
                assert row["project"] == f"/work/{host}"
                assert row["agent"] == "claude-code"
                assert row["path"] == f"prometheus://{host}/{session}"
                assert (row["cost"], row["started"]) == (None, "")  # `watch` publishes neither
