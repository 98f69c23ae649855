"""``ctxscope sessions --export``: every session's figures published while the list is shown or
printed (the rows are those of the local session browser; see :mod:`ctxscope.tui.export`)."""

from __future__ import annotations

import argparse
import os

from textual.message import Message

from .cli import UsageError
from .export import Exporter, start_export
from .screens.sessions import SessionsApp
from .sessions_feed import SessionRowsUpdated


class ExportingSessionsApp(SessionsApp):
    """The session browser, publishing the rows as the feed posts them (in the feed's thread)."""

    def __init__(self, *args: object, exporter: Exporter, **kwargs: object) -> None:
        self.exporter = exporter
        super().__init__(*args, export=True, **kwargs)  # type: ignore[arg-type]

    def post_message(self, message: Message) -> bool:
        if isinstance(message, SessionRowsUpdated) and message.rows:
            self.exporter.publish_rows(message.rows)
        return super().post_message(message)


def run_exporting(args: argparse.Namespace) -> int:
    """Publish the rows: once then exit with ``--json``, else for as long as the browser is open."""
    from .commands.sessions_cmd import print_json

    folders = list(getattr(args, "folders", []) or [])
    for folder in folders:
        if not os.path.exists(os.path.expanduser(folder)):
            raise UsageError(f"{folder}: no such file or folder")
    exporter = start_export(args)
    if exporter is None:
        raise UsageError("--export needs --otlp-endpoint URL and/or --metrics-port N")
    homes = not getattr(args, "no_homes", False)
    try:
        if getattr(args, "json", False):
            return print_json(folders, homes, getattr(args, "cache", None), publish=exporter.publish_rows)
        ExportingSessionsApp(
            folders, homes=homes, cache=getattr(args, "cache", None),
            force_polling=getattr(args, "poll", False), exporter=exporter,
        ).run()
        return 0
    finally:
        exporter.close()
