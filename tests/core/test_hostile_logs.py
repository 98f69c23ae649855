"""Hostile input never stops reading: every bad line is counted by kind, every valid event is read.

All hostile files are generated here in tmp_path.
"""

from __future__ import annotations

import sys
import tracemalloc
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import orjson
import pytest
from ctxscope.core.reader import SessionReader, open_log
from ctxscope.core.session import KEPT_PROBLEMS

SESSION = "hostile-0000"


def cc_user(text: Any, **extra: Any) -> bytes:
    record = {
        "parentUuid": None,
        "isSidechain": False,
        "sessionId": SESSION,
        "type": "user",
        "uuid": "u",
        "message": {"role": "user", "content": text},
        **extra,
    }
    return orjson.dumps(record) + b"\n"


def cc_assistant(msg_id: str, text: str, use: Any = None) -> bytes:
    use = (
        use
        if use is not None
        else {
            "input_tokens": 1,
            "cache_creation_input_tokens": 2,
            "cache_read_input_tokens": 3,
            "output_tokens": 1,
        }
    )
    record = {
        "parentUuid": None,
        "isSidechain": False,
        "sessionId": SESSION,
        "type": "assistant",
        "requestId": f"r{msg_id}",
        "uuid": msg_id,
        "message": {
            "id": msg_id,
            "model": "m",
            "role": "assistant",
            "content": [{"type": "text", "text": text}],
            "usage": use,
        },
    }
    return orjson.dumps(record) + b"\n"


GOOD = [cc_user("first"), cc_assistant("m1", "reply one"), cc_user("second"), cc_assistant("m2", "reply two")]


def hostile_log(tmp_path: Path, bad: list[bytes]) -> Path:
    """Good events with the bad lines spliced in between them."""
    path = tmp_path / "hostile.jsonl"
    lines: list[bytes] = [GOOD[0]]
    for chunk in bad:
        lines.append(chunk if chunk.endswith(b"\n") else chunk + b"\n")
    lines.extend(GOOD[1:])
    path.write_bytes(b"".join(lines))
    return path


def assert_all_good_events_read(path: Path, **kwargs: Any) -> Any:
    session = open_log(path, **kwargs)
    main = session.scopes["main"]
    assert [m.text for m in main.messages] == ["first", "reply one", "second", "reply two"]
    assert len(main.requests) == 2
    return session


@pytest.mark.parametrize(
    ("bad", "kind"),
    [
        (b'{"type": "user", "message": {"role": "user", "content": "cut', "invalid_json"),
        (b"<<<not json>>>", "invalid_json"),
        (b'{"type": "user", "sessionId": "x", "message": {"content": "\xff\xfe\xfd"}', "invalid_utf8"),
        (b'{"type": "user", "\x00": 1}', "nul_bytes"),
        (b"\x00\x00\x00\x00", "nul_bytes"),
        (b"[1, 2, 3]", "wrong_type"),
        (cc_user(42), "wrong_type"),
        (cc_user([{"type": "text", "text": 5}]), "wrong_type"),
        (cc_user([7]), "wrong_type"),
        (cc_assistant("m9", "x", use="lots"), "wrong_type"),
        (cc_assistant("m9", "x", use={"input_tokens": -5}), "wrong_type"),
        (orjson.dumps({"type": "user", "sessionId": SESSION, "message": "not an object"}), "wrong_type"),
    ],
)
def test_each_bad_line_is_counted_and_reading_goes_on(tmp_path: Path, bad: bytes, kind: str) -> None:
    session = assert_all_good_events_read(hostile_log(tmp_path, [bad]))
    assert session.problems.counts == {kind: 1}
    (problem,) = session.problems.kept
    assert problem.line == 2 and problem.kind == kind
    assert problem.reason and "\n" not in problem.reason
    assert not any(ch in problem.reason for ch in "\x00\x1b\x07")


@pytest.mark.parametrize(
    ("line", "kind"),
    [
        (orjson.dumps({"type": "teleport", "sessionId": SESSION}), "teleport"),
        (orjson.dumps({"type": "\x1b[2J\x1b]0;pwned\x07", "sessionId": SESSION}), "?[2J?]0;pwned?"),
    ],
)
def test_a_record_kind_not_known_is_counted_by_kind_not_as_a_problem(
    tmp_path: Path, line: bytes, kind: str
) -> None:
    """A newer agent version's record kind is not a broken line: it is counted by its
    (sanitised) kind and reading goes on."""
    session = assert_all_good_events_read(hostile_log(tmp_path, [line]))
    assert session.problems.counts == {}
    assert session.unknown_kinds == {kind: 1}


def test_repaired_utf8_keeps_the_event(tmp_path: Path) -> None:
    latin1 = (
        b'{"type":"user","sessionId":"s","parentUuid":null,'
        b'"message":{"role":"user","content":"caf\xe9 ok"}}\n'
    )
    path = tmp_path / "log.jsonl"
    path.write_bytes(GOOD[0] + latin1 + b"".join(GOOD[1:]))
    session = open_log(path)
    main = session.scopes["main"]
    assert [m.text for m in main.messages][:2] == ["first", "caf\ufffd ok"]
    assert session.problems.counts == {"repaired_utf8": 1}


def test_many_bad_lines_counted_first_ones_kept(tmp_path: Path) -> None:
    bad = [b"garbage %d" % i for i in range(100)] + [b'{"type": "nope", "sessionId": "s"}'] * 5
    session = assert_all_good_events_read(hostile_log(tmp_path, bad))
    assert session.problems.counts == {"invalid_json": 100}
    assert session.unknown_kinds == {"nope": 5}
    assert len(session.problems.kept) == KEPT_PROBLEMS
    assert [p.line for p in session.problems.kept[:3]] == [2, 3, 4]


def test_fifty_megabyte_garbage_line(tmp_path: Path) -> None:
    session = assert_all_good_events_read(hostile_log(tmp_path, [b"{" + b"x" * (50 << 20)]))
    assert session.problems.counts == {"invalid_json": 1}


def test_fifty_megabyte_event_is_read_with_its_text_elided(tmp_path: Path) -> None:
    huge = "a" * (50 << 20)
    path = tmp_path / "big.jsonl"
    path.write_bytes(GOOD[0] + cc_assistant("m0", huge) + b"".join(GOOD[1:]))
    session = open_log(path, text_cap=4096)
    main = session.scopes["main"]
    block = main.messages[1].blocks[0]
    assert len(block.text) == 4096 and block.chars == len(huge)
    assert main.messages[1].tokens() > 1_000_000
    assert [m.text[:5] for m in main.messages] == ["first", "aaaaa", "reply", "secon", "reply"]
    assert session.problems.bad_lines == 0


def test_oversize_line_is_skipped_without_being_held(tmp_path: Path) -> None:
    path = hostile_log(tmp_path, [b'{"type":"user","pad":"' + b"p" * (50 << 20) + b'"}'])
    tracemalloc.start()
    try:
        reader = SessionReader(path, max_line_bytes=1 << 20)
        session = reader.read_all()
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert session.problems.counts == {"oversize": 1}
    assert session.problems.kept[0].line == 2
    assert len(session.scopes["main"].messages) == 4
    assert peak < 12 << 20, f"peak {peak >> 20} MB while skipping a 50 MB line"


def test_live_tail_survives_bad_lines_arriving_in_pieces(tmp_path: Path) -> None:
    path = tmp_path / "live.jsonl"
    path.write_bytes(GOOD[0])
    reader = SessionReader(path)
    reader.poll()
    pieces = [b'{"type": "user", "mess', b"age\xff\xfe\x00", b" broken}\n", GOOD[1], b"\x00\x00\n", GOOD[2]]
    for piece in pieces:
        with open(path, "ab") as handle:
            handle.write(piece)
        reader.poll()
    reader.poll()
    counts = reader.session.problems.counts
    assert counts == {"nul_bytes": 2}
    assert [m.text for m in reader.session.scopes["main"].messages] == ["first", "reply one", "second"]


@contextmanager
def opened_files() -> Iterator[list[str]]:
    """Record every path opened while the block runs (an audit hook; hooks cannot be removed)."""
    seen: list[str] = []
    active = [True]

    def hook(event: str, args: tuple[Any, ...]) -> None:
        if active[0] and event == "open" and isinstance(args[0], str):
            seen.append(args[0])

    sys.addaudithook(hook)
    try:
        yield seen
    finally:
        active[0] = False


def test_paths_inside_a_log_are_never_opened(tmp_path: Path) -> None:
    secret = tmp_path / "elsewhere" / "secret.txt"
    secret.parent.mkdir()
    secret.write_text("do not read")
    log_dir = tmp_path / "project"
    log_dir.mkdir()
    path = log_dir / "session.jsonl"
    path.write_bytes(
        cc_user(f"read {secret}", cwd=str(secret.parent), toolUseResult={"file": {"filePath": str(secret)}})
        + cc_user([{"type": "image", "source": {"type": "url", "url": f"file://{secret}"}}])
        + orjson.dumps(
            {
                "type": "system",
                "subtype": "local_command",
                "sessionId": SESSION,
                "content": f"$(cat {secret})",
                "parentUuid": None,
            }
        )
        + b"\n"
        + cc_user("__import__('os').system('touch /tmp/ctxscope-pwned')")
    )
    with opened_files() as seen:
        session = open_log(path)
    assert len(session.scopes["main"].messages) == 3
    assert all(not p.startswith(str(secret.parent)) for p in seen)
    assert all(p.startswith(str(log_dir)) or not p.startswith(str(tmp_path)) for p in seen)
