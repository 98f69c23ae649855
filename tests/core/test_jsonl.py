"""Byte-offset line reading: complete lines only, truncation and rotation noticed, bad lines classified."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from ctxscope.core import jsonl
from ctxscope.core.jsonl import FileChange, LineTail, decode_line, iter_lines, sanitise_excerpt, split_lines
from hypothesis import given, settings
from hypothesis import strategies as st


def append(path: Path, data: bytes) -> None:
    with open(path, "ab") as handle:
        handle.write(data)


@given(st.lists(st.sampled_from([b"\n", b"\r", b"\r\n", b"{}", b"a", b"\xff", b"\x00", b" "]), max_size=40))
def test_split_lines_is_bytes_split(parts: list[bytes]) -> None:
    chunk = b"".join(parts)
    assert split_lines(chunk) == chunk.split(b"\n")


def test_half_written_line_waits_for_its_newline(tmp_path: Path) -> None:
    path = tmp_path / "log.jsonl"
    path.write_bytes(b'{"a":1}\n{"b":')
    tail = LineTail(path)
    first = tail.read()
    assert [line.data for line in first.lines] == [b'{"a":1}']
    assert tail.pending_bytes == len(b'{"b":')
    assert tail.read().lines == []
    append(path, b"2}\n")
    second = tail.read()
    assert [(line.number, line.offset, line.data) for line in second.lines] == [(2, 8, b'{"b":2}')]
    assert tail.pending_bytes == 0
    assert tail.offset == path.stat().st_size


def test_offsets_point_at_line_starts_and_crlf_is_stripped(tmp_path: Path) -> None:
    path = tmp_path / "log.jsonl"
    path.write_bytes(b'{"a":1}\r\n\n{"b":2}\n')
    lines = LineTail(path).read().lines
    assert [(line.number, line.offset, line.data) for line in lines] == [
        (1, 0, b'{"a":1}'),
        (2, 9, b""),
        (3, 10, b'{"b":2}'),
    ]
    data = path.read_bytes()
    assert data[lines[2].offset :].startswith(b'{"b":2}')


def test_truncation_is_reported_and_reading_starts_over(tmp_path: Path) -> None:
    path = tmp_path / "log.jsonl"
    path.write_bytes(b'{"a":1}\n{"a":2}\n')
    tail = LineTail(path)
    assert len(tail.read().lines) == 2
    with open(path, "r+b") as handle:
        handle.truncate(0)
        handle.write(b'{"x":1}\n')
    read = tail.read()
    assert read.change is FileChange.TRUNCATED
    assert [(line.number, line.data) for line in read.lines] == [(1, b'{"x":1}')]


def test_rotation_is_noticed_by_inode(tmp_path: Path) -> None:
    path = tmp_path / "log.jsonl"
    path.write_bytes(b'{"a":1}\n')
    tail = LineTail(path)
    tail.read()
    replacement = tmp_path / "new.jsonl"
    replacement.write_bytes(b'{"b":1}\n{"b":2}\n{"b":3}\n')
    os.replace(replacement, path)
    read = tail.read()
    assert read.change is FileChange.ROTATED
    assert len(read.lines) == 3 and read.lines[0].number == 1


def test_oversize_line_is_skipped_without_being_held(tmp_path: Path) -> None:
    path = tmp_path / "log.jsonl"
    path.write_bytes(b'{"a":1}\n' + b"x" * 5000)
    tail = LineTail(path, max_line_bytes=1000)
    read = tail.read()
    assert [line.data for line in read.lines] == [b'{"a":1}']
    assert read.oversize == [2]
    assert len(tail._partial) == 0  # the long unfinished line is counted, not kept
    append(path, b"y" * 5000 + b'\n{"b":2}\n')
    read = tail.read()
    assert read.oversize == []  # already reported
    assert [(line.number, line.data) for line in read.lines] == [(3, b'{"b":2}')]
    assert tail.offset == path.stat().st_size


def test_oversize_complete_line_in_one_read(tmp_path: Path) -> None:
    path = tmp_path / "log.jsonl"
    path.write_bytes(b"z" * 3000 + b'\n{"ok":1}\n')
    read = LineTail(path, max_line_bytes=1000).read()
    assert read.oversize == [1]
    assert [line.number for line in read.lines] == [2]


def test_max_bytes_reads_in_steps(tmp_path: Path) -> None:
    path = tmp_path / "log.jsonl"
    path.write_bytes(b"".join(b'{"n":%d}\n' % i for i in range(50_000)))
    chunks = list(iter_lines(path))
    assert sum(len(c.lines) for c in chunks) == 50_000


def test_take_partial_hands_out_a_last_line_without_newline(tmp_path: Path) -> None:
    path = tmp_path / "log.jsonl"
    path.write_bytes(b'{"a":1}\n{"b":2}')
    tail = LineTail(path)
    tail.read()
    last = tail.take_partial()
    assert last is not None and (last.number, last.offset, last.data) == (2, 8, b'{"b":2}')
    assert tail.take_partial() is None


@pytest.mark.parametrize(
    ("data", "kind", "kept"),
    [
        (b'{"a": 1', "invalid_json", False),
        (b"not json at all", "invalid_json", False),
        (b'{"a": "\x00"}', "nul_bytes", False),
        (b'{"a": "caf\xe9"}', "repaired_utf8", True),
        (b'{"a": "\xff\xfe', "invalid_utf8", False),
        (b"[1, 2]", "wrong_type", False),
        (b'"just a string"', "wrong_type", False),
        (b"42", "wrong_type", False),
    ],
)
def test_decode_line_classifies_and_never_raises(data: bytes, kind: str, kept: bool) -> None:
    obj, problem = decode_line(data)
    assert problem is not None and problem.kind == kind
    assert (obj is not None) is kept
    assert "\x00" not in problem.reason


def test_decode_line_good_and_blank() -> None:
    assert decode_line(b'{"a": [1, 2]}') == ({"a": [1, 2]}, None)
    assert decode_line(b"   ") == (None, None)


def test_repaired_utf8_keeps_the_event() -> None:
    obj, problem = decode_line(b'{"text": "ok \xc3\x28 here"}')
    assert obj is not None and "\ufffd" in obj["text"]
    assert problem is not None and problem.kind == "repaired_utf8"


def test_excerpt_is_short_and_printable() -> None:
    excerpt = sanitise_excerpt(b"\x1b[31mred\x07" + b"a" * 500)
    assert len(excerpt) <= 60 and "\x1b" not in excerpt and "\x07" not in excerpt


def _reference_lines(data: bytes, limit: int) -> tuple[list[tuple[int, int, bytes]], list[int], int]:
    """Complete lines as a plain split gives them: (number, offset, data), oversize numbers, end."""
    lines: list[tuple[int, int, bytes]] = []
    oversize: list[int] = []
    offset = 0
    pieces = data.split(b"\n")
    for number, piece in enumerate(pieces[:-1], 1):
        if len(piece) > limit:
            oversize.append(number)
        else:
            lines.append((number, offset, piece.rstrip(b"\r")))
        offset += len(piece) + 1
    if len(pieces[-1]) > limit:
        oversize.append(len(pieces))
    return lines, oversize, offset


@settings(max_examples=150, deadline=None)
@given(
    pieces=st.lists(
        st.sampled_from([b'{"a":1}', b"", b"\r", b'{"b":"x\\ny"}\r', b"z" * 30, b"\r\r", b'{"c":3}']),
        max_size=25,
    ),
    trailing=st.booleans(),
    chunk=st.integers(1, 40),
    steps=st.integers(1, 3),
)
def test_lines_across_chunk_boundaries_match_a_plain_split(
    tmp_path_factory: pytest.TempPathFactory,
    pieces: list[bytes],
    trailing: bool,
    chunk: int,
    steps: int,
) -> None:
    """Lines, offsets, CR stripping and oversize lines do not depend on where reads end."""
    data = b"\n".join(pieces) + (b"\n" if trailing else b"")
    path = tmp_path_factory.mktemp("chunks") / "log.jsonl"
    path.write_bytes(data)
    expected, expected_oversize, end = _reference_lines(data, limit=20)
    tail = LineTail(path, max_line_bytes=20)
    got: list[tuple[int, int, bytes]] = []
    oversize: list[int] = []
    original = jsonl.READ_CHUNK
    jsonl.READ_CHUNK = chunk
    try:
        for _ in range(len(data) + 2):
            read = tail.read(max_bytes=chunk * steps)
            got += [(line.number, line.offset, line.data) for line in read.lines]
            assert read.data == [line.data for line in read.lines]
            oversize += read.oversize
    finally:
        jsonl.READ_CHUNK = original
    assert got == expected
    assert [n for n in oversize if n <= len(data.split(b"\n")) - 1] == [
        n for n in expected_oversize if n <= len(data.split(b"\n")) - 1
    ]
    assert tail.offset == end
