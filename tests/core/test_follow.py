"""Following a folder's newest log (Claude Code project folders, Codex YYYY/MM/DD trees) and a file."""

from __future__ import annotations

import os
from pathlib import Path

import orjson
from ctxscope.core.follow import Follower, newest_log

SECOND = 1_000_000_000


def cc_line(session_id: str, text: str, **extra: object) -> bytes:
    record = {
        "type": "user",
        "sessionId": session_id,
        "parentUuid": None,
        "isSidechain": False,
        "message": {"role": "user", "content": text},
        **extra,
    }
    return orjson.dumps(record) + b"\n"


def rollout_line(text: str) -> bytes:
    payload = {"type": "message", "role": "user", "content": [{"type": "input_text", "text": text}]}
    return orjson.dumps({"timestamp": "t", "type": "response_item", "payload": payload}) + b"\n"


def write(path: Path, data: bytes, mtime: int) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "ab") as handle:
        handle.write(data)
    os.utime(path, ns=(mtime * SECOND, mtime * SECOND))
    return path


def texts(follower: Follower, scope: str = "main") -> list[str]:
    assert follower.session is not None
    return [m.text for m in follower.session.scopes[scope].messages]


def test_project_folder_follows_the_newest_session_and_switches(tmp_path: Path) -> None:
    old = write(tmp_path / "aaa.jsonl", cc_line("aaa", "old session"), 100)
    write(tmp_path / "bbb.jsonl", cc_line("bbb", "newer session"), 200)
    (tmp_path / "bbb" / "subagents").mkdir(parents=True)  # never followed on its own
    follower = Follower(tmp_path)
    first = follower.poll()
    assert first.path.endswith("bbb.jsonl") and not first.switched
    assert texts(follower) == ["newer session"]

    write(tmp_path / "bbb.jsonl", cc_line("bbb", "more"), 300)
    write(old, cc_line("aaa", "old one wakes up"), 400)  # a known file being written: no switch
    progress = follower.poll()
    assert not progress.switched and texts(follower) == ["newer session", "more"]

    write(tmp_path / "ccc.jsonl", cc_line("ccc", "brand new"), 500)
    before = follower.session
    progress = follower.poll()
    assert progress.switched and progress.new_session and progress.path.endswith("ccc.jsonl")
    assert follower.session is not before and texts(follower) == ["brand new"]
    assert follower.session is not None
    assert [n.kind for n in follower.session.problems.notices] == ["switched"]


def test_subagents_join_the_followed_session_later(tmp_path: Path) -> None:
    write(tmp_path / "s1.jsonl", cc_line("s1", "main prompt"), 100)
    follower = Follower(tmp_path)
    follower.poll()
    sub = cc_line("s1", "sub prompt", isSidechain=True, agentId="x1")
    write(tmp_path / "s1" / "subagents" / "agent-x1.jsonl", sub, 150)
    progress = follower.poll()
    assert not progress.switched
    assert follower.session is not None and set(follower.session.scopes) == {"main", "agent-x1"}
    assert texts(follower, "agent-x1") == ["sub prompt"]


def test_codex_sessions_tree_looks_only_at_the_newest_day(tmp_path: Path) -> None:
    write(tmp_path / "2025" / "09" / "24" / "rollout-a.jsonl", rollout_line("september"), 100)
    write(tmp_path / "2025" / "11" / "17" / "rollout-b.jsonl", rollout_line("november"), 200)
    (tmp_path / "2025" / "11" / "18").mkdir(parents=True)  # an empty new day falls back
    assert newest_log(tmp_path) == str(tmp_path / "2025" / "11" / "17" / "rollout-b.jsonl")
    follower = Follower(tmp_path)
    follower.poll()
    assert texts(follower) == ["november"]
    write(tmp_path / "2025" / "11" / "18" / "rollout-c.jsonl", rollout_line("next day"), 300)
    progress = follower.poll()
    assert progress.switched and texts(follower) == ["next day"]
    # A later year wins even when an older folder has a newer modification time.
    write(tmp_path / "2026" / "01" / "01" / "rollout-d.jsonl", rollout_line("new year"), 250)
    assert newest_log(tmp_path) == str(tmp_path / "2026" / "01" / "01" / "rollout-d.jsonl")


def test_folder_of_project_folders(tmp_path: Path) -> None:
    write(tmp_path / "-home-me-a" / "s1.jsonl", cc_line("s1", "a"), 100)
    write(tmp_path / "-home-me-b" / "s2.jsonl", cc_line("s2", "b"), 200)
    assert newest_log(tmp_path) == str(tmp_path / "-home-me-b" / "s2.jsonl")


def test_empty_folder_waits_for_a_log(tmp_path: Path) -> None:
    follower = Follower(tmp_path)
    progress = follower.poll()
    assert progress.path == "" and progress.read is None and follower.session is None
    write(tmp_path / "first.jsonl", cc_line("f", "hello"), 100)
    progress = follower.poll()
    assert progress.path.endswith("first.jsonl") and not progress.switched
    assert texts(follower) == ["hello"]


def test_following_a_file_and_what_to_watch(tmp_path: Path) -> None:
    log = write(tmp_path / "sess.jsonl", cc_line("sess", "one"), 100)
    follower = Follower(log)
    follower.poll()
    write(log, cc_line("sess", "two"), 200)
    assert follower.poll().read is not None and texts(follower) == ["one", "two"]
    assert follower.watch_paths() == [str(tmp_path)]
    (tmp_path / "sess").mkdir()
    assert follower.watch_paths() == [str(tmp_path), str(tmp_path / "sess")]
    assert Follower(tmp_path).watch_paths() == [str(tmp_path)]
