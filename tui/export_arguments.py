"""The export options of ``watch`` and ``sessions``, kept apart from :mod:`ctxscope.tui.export` so
that registering them imports nothing but argparse (``ctxscope --help`` builds every sub-command's
parser; the exporter itself imports core's telemetry, the session index and the snapshot)."""

from __future__ import annotations

import argparse


def add_export_arguments(parser: argparse.ArgumentParser, *, redact: bool = False) -> None:
    """``--otlp-endpoint``, ``--metrics-port``, ``--metrics-host``, ``--host``, ``--project`` (and
    ``--redact`` where the command has none)."""
    group = parser.add_argument_group("export (needs ctxscope[otel]; figures only, never log text)")
    if redact:
        group.add_argument("--redact", action="store_true",
                           help="export hashes of the session ids and project paths")
    group.add_argument("--otlp-endpoint", metavar="URL", default=None,
                       help="push metrics and compaction events to this OTLP/HTTP collector "
                       "(e.g. http://127.0.0.1:4318)")
    group.add_argument("--metrics-port", metavar="N", type=int, default=None,
                       help="serve the metrics for Prometheus to scrape on this port")
    group.add_argument("--metrics-host", metavar="ADDR", default="127.0.0.1",
                       help="the address --metrics-port binds to (default: 127.0.0.1)")
    group.add_argument("--host", dest="export_host", metavar="NAME", default=None,
                       help="the host.name attribute (default: this machine's name)")
    group.add_argument("--project", dest="export_project", metavar="PATH", default=None,
                       help="the project attribute (default: the working directory in the log)")
