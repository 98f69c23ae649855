"""Valid JSON orjson refuses, rewrites in place, long lines, FIFOs, devices and symlinks out of a folder."""

from __future__ import annotations

import os
import threading
from pathlib import Path

import orjson
import pytest
from ctxscope.core.files import NotARegularFileError, inside, looks_utf16
from ctxscope.core.follow import Follower, newest_log
from ctxscope.core.jsonl import FileChange, LineTail, decode_line
from ctxscope.core.reader import SessionReader, UnknownFormatError, open_log

from .test_hostile_logs import cc_assistant, cc_user


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        (rb'{"a": "\ud83d tail"}', {"a": "\ufffd tail"}),
        (rb'{"a": "\ud83d\ude00"}', {"a": "\U0001f600"}),
        (b'{"a": 1e400, "b": -1e400}', {"a": float("inf"), "b": float("-inf")}),
        (b'\xef\xbb\xbf{"a": 1}', {"a": 1}),
    ],
)
def test_valid_json_orjson_refuses_is_read(line: bytes, expected: dict[str, object]) -> None:
    obj, problem = decode_line(line)
    assert problem is None
    assert obj == expected


def test_a_bom_does_not_drop_the_first_line(tmp_path: Path) -> None:
    log = tmp_path / "bom.jsonl"
    lone = cc_user("x SURROGATE y").replace(b"SURROGATE", rb"\ud83d")
    log.write_bytes(b"\xef\xbb\xbf" + cc_user("first") + cc_assistant("m1", "a") + lone)
    session = open_log(log)
    assert session.problems.bad_lines == 0
    assert len(session.scopes["main"].messages) == 3
    assert "\ufffd" in session.scopes["main"].messages[2].blocks[0].text
    orjson.dumps(session.scopes["main"].messages[2].blocks[0].text)  # encodable


def test_rewrite_in_place_that_ends_larger_is_read_again(tmp_path: Path) -> None:
    log = tmp_path / "s.jsonl"
    log.write_bytes(b'{"n": 1}\n{"n": 2}\n')
    tail = LineTail(log)
    assert tail.read().data == [b'{"n": 1}', b'{"n": 2}']
    log.write_bytes(b'{"n": 10}\n{"n": 20}\n{"n": 30}\n')  # `> log` then new, longer content
    read = tail.read()
    assert read.change is FileChange.TRUNCATED
    assert read.data == [b'{"n": 10}', b'{"n": 20}', b'{"n": 30}']
    with log.open("ab") as handle:
        handle.write(b'{"n": 40}\n')
    read = tail.read()
    assert read.change is None and read.data == [b'{"n": 40}']


def test_a_line_longer_than_one_read_step_is_read_without_another_write(tmp_path: Path) -> None:
    log = tmp_path / "long.jsonl"
    long = b'{"a": "' + b"x" * (5 << 20) + b'"}\n'
    log.write_bytes(b'{"n": 1}\n' + long)
    tail = LineTail(log)
    first = tail.read(max_bytes=1 << 20)
    second = tail.read(max_bytes=1 << 20)  # nothing written in between
    assert [len(x) for x in first.data + second.data] == [8, len(long) - 1]
    # An oversize line is skipped to its end in one read, too.
    small = LineTail(log, max_line_bytes=1 << 20)
    small.read(max_bytes=1 << 20)
    read = small.read(max_bytes=1 << 20)
    assert read.oversize == [2] and small.offset == log.stat().st_size


def test_fifo_and_device_are_refused_without_blocking(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.jsonl"
    os.mkfifo(fifo)
    done = threading.Event()
    errors: list[BaseException] = []

    def attempt() -> None:
        for target in (fifo, Path("/dev/zero")):
            try:
                open_log(target)
            except (OSError, UnknownFormatError) as exc:
                errors.append(exc)
        try:
            LineTail(fifo).read()
        except OSError as exc:
            errors.append(exc)
        done.set()

    threading.Thread(target=attempt, daemon=True).start()
    assert done.wait(10), "reading a FIFO with no writer (or /dev/zero) did not return"
    assert len(errors) == 3 and all(isinstance(e, NotARegularFileError) for e in errors)
    assert "FIFO" in str(errors[0]) and "device" in str(errors[1])


def test_utf16_is_named_in_the_refusal(tmp_path: Path) -> None:
    log = tmp_path / "u16.jsonl"
    log.write_bytes(cc_user("hello").decode().encode("utf-16"))
    assert looks_utf16(log.read_bytes())
    with pytest.raises(UnknownFormatError, match="UTF-16"):
        open_log(log)


def test_symlinks_out_of_a_folder_are_not_followed(tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    secret = outside / "secret.jsonl"
    secret.write_bytes(cc_user("secret"))
    project = tmp_path / "project"
    project.mkdir()
    own = project / "own.jsonl"
    own.write_bytes(cc_user("own") + cc_assistant("m1", "a"))
    os.utime(own, ns=(1, 1))
    (project / "zz-newest.jsonl").symlink_to(secret)  # newer than own.jsonl
    inner = project / "inner.jsonl"
    assert newest_log(project) == str(own)
    assert not inside(str(project / "zz-newest.jsonl"), str(project))
    inner.symlink_to(own)
    assert inside(str(inner), str(project))
    # Sub-agent logs linked from outside are not read as siblings either.
    agents = project / "own" / "subagents"
    agents.mkdir(parents=True)
    (agents / "agent-x.jsonl").symlink_to(secret)
    reader = SessionReader(own)
    reader.read_all()
    assert list(reader.session.scopes) == ["main"]
    follower = Follower(project)
    follower.poll()
    assert os.path.realpath(follower.path) == str(own)


def test_an_idle_folder_is_not_listed_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``--poll`` on a folder of thousands of logs: a wake with no new file lists nothing."""
    for i in range(300):
        (tmp_path / f"s{i:03}.jsonl").write_bytes(cc_user(f"session {i}"))
    follower = Follower(tmp_path)
    follower.poll()
    listed: list[str] = []
    real_scandir = os.scandir

    class Listing:
        """``os.scandir`` that records which folders are iterated (listed), not just opened."""

        def __init__(self, path: str) -> None:
            self.path, self.inner = path, real_scandir(path)

        def __enter__(self) -> Listing:
            return self

        def __exit__(self, *exc: object) -> None:
            self.inner.close()

        def __iter__(self) -> object:
            listed.append(self.path)
            return iter(self.inner)

        def close(self) -> None:
            self.inner.close()

    monkeypatch.setattr(os, "scandir", Listing)
    for _ in range(5):
        follower.poll()
    assert str(tmp_path) not in listed
    newest = tmp_path / "zz-new.jsonl"
    newest.write_bytes(cc_user("new"))
    progress = follower.poll()
    assert progress.switched and follower.path == str(newest)
