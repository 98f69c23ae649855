"""Hostile values in any field of any format never crash reading, replay, the report or the timeline.

Hypothesis puts any JSON value (integers of any size, markup, escapes, containers where a string
is expected) into one to three fields of a small valid session in each line format, then reads it
offline and live, replays it, builds the report object and feeds every scope to the timeline's
64-bit series. The properties: nothing raises, and every figure fits a signed 64-bit integer.
"""

from __future__ import annotations

import dataclasses
import io
from pathlib import Path
from typing import Any

import orjson
import pytest
from ctxscope.core.analysis import SessionSummary, analyse
from ctxscope.core.reader import SessionReader, open_log
from ctxscope.core.replay import SessionReplay
from ctxscope.tui.commands.report_cmd import render_tables
from ctxscope.tui.widgets.timeline import Series
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from .hostile_seeds import SEEDS, all_fields, dump_lines, field_paths, hostile_values, replaced

INT64 = range(-(2**63), 2**63)
FIELDS = all_fields()


def check_figures(value: Any, where: str = "") -> None:
    """Every int in a snapshot (records, nested records, dicts, lists) fits a signed 64-bit int."""
    if isinstance(value, bool):
        return
    if isinstance(value, int):
        assert value in INT64, f"{where} = {value} does not fit 64 bits"
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        for item in dataclasses.fields(value):
            check_figures(getattr(value, item.name), f"{where}.{item.name}")
    elif isinstance(value, dict):
        for key, item in value.items():
            check_figures(item, f"{where}[{key!r}]")
    elif isinstance(value, (list, tuple)):
        for index, item in enumerate(value[:50]):
            check_figures(item, f"{where}[{index}]")


def read_everything(path: Path) -> None:
    """Offline and live reading, replay, the report (JSON and tables) and the timeline series."""
    session = open_log(path)
    replay = SessionReplay()
    replay.update(session)
    snapshot = replay.snapshot()
    check_figures(snapshot, "snapshot")
    for scope in snapshot.scopes.values():
        Series().update(scope)
    for lens in ("recorded", "pipeline"):  # the report (JSON and tables) in both lenses
        summary = analyse(session).summary(lens)
        orjson.dumps(summary.to_json())
        if session.scopes:
            render_tables_quietly(summary)
    live = SessionReader(path)
    live_replay = SessionReplay()
    size = path.stat().st_size
    live.poll(max_bytes=size // 2 or 1)
    live_replay.update(live.session)
    live.poll()
    live_replay.update(live.session)
    check_figures(live_replay.snapshot(), "live snapshot")


def render_tables_quietly(summary: SessionSummary) -> None:
    import rich.console

    original = rich.console.Console.__init__

    def to_buffer(self: Any, *args: Any, **kwargs: Any) -> None:
        kwargs["file"] = io.StringIO()
        original(self, *args, **kwargs)

    rich.console.Console.__init__ = to_buffer  # type: ignore[method-assign]
    try:
        render_tables(summary)
    finally:
        rich.console.Console.__init__ = original  # type: ignore[method-assign]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    picks=st.lists(st.sampled_from(FIELDS), min_size=1, max_size=3),
    values=st.lists(hostile_values(), min_size=3, max_size=3),
)
def test_any_value_in_any_field_never_crashes(tmp_path: Path, picks: list[Any], values: list[Any]) -> None:
    name = picks[0][0]
    lines: list[Any] = list(SEEDS[name])
    for (_, index, path), value in zip(picks, values, strict=False):
        if index < len(lines) and path in set(field_paths(lines[index])):
            lines[index] = replaced(lines[index], path, value)
    log = tmp_path / f"{name}.jsonl"
    log.write_bytes(dump_lines(lines))
    read_everything(log)


@pytest.mark.parametrize("name", sorted(SEEDS))
@pytest.mark.parametrize("big", [2**63, 2**64 + 7, 10**40])
def test_integers_of_any_size_in_every_integer_field(tmp_path: Path, name: str, big: int) -> None:
    """Every integer field of every format, set to a huge value, one at a time (exhaustive)."""
    lines = SEEDS[name]
    for index, line in enumerate(lines):
        for path in field_paths(line):
            node: Any = line
            for key in path:
                node = node[key]
            if isinstance(node, int) and not isinstance(node, bool):
                log = tmp_path / f"{name}-{index}.jsonl"
                log.write_bytes(dump_lines([*lines[:index], replaced(line, path, big), *lines[index + 1 :]]))
                read_everything(log)


@pytest.mark.parametrize("name", sorted(SEEDS))
@pytest.mark.parametrize("shape", [[], {}, [["x"]], {"a": {}}])
def test_type_field_a_list_or_object_on_the_first_line(tmp_path: Path, name: str, shape: Any) -> None:
    """Format detection on a first line whose ``type``/``t``/``role`` is a container."""
    lines = [dict(line) for line in SEEDS[name]]
    for key in ("type", "t", "role"):
        if key in lines[0]:
            lines[0][key] = shape
    log = tmp_path / "first.jsonl"
    log.write_bytes(dump_lines(lines))
    read_everything(log)
    reader = SessionReader(log)
    reader.poll()  # live detection too: the reader keeps reading later lines
    assert reader.session.lines_read == len(lines)
