"""Aider chat histories: prefixes of whole sessions of Aquaticat/Monochromatic's (Apache-2.0) and
AFI-Protocol/afi-core's (MIT) histories.

Independent count, over the raw lines by their first characters only: a call with usage is a
``> Tokens:`` line (its ``N sent`` is the prompt, ``M received`` the output, ``$X message`` the
cost); a reply starts at a non-blank line that begins with neither ``> `` nor ``#``, right after
a line that begins with ``> `` (or is ``>``) or ``####``, a ``> `` line without Aider's two
trailing spaces running on to the next line that has them; provider errors are ``> litellm.`` lines.
Aider writes no compaction unless the user types ``/clear``, which these histories never do.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from ctxscope.core.adapters import aider
from ctxscope.core.reader import SessionReader, detect_format, open_log

from tests.core.agent_fixtures import FIXTURES, assert_figures

HISTORY = FIXTURES / "aider" / "monochromatic.aider.chat.history.md"


def thousands(figure: str) -> int:
    return round(float(figure[:-1]) * 1000) if figure.endswith("k") else int(figure.replace(",", ""))


def raw_counts(path: Path) -> dict[str, float | int | None]:
    lines = path.read_text(encoding="utf-8").splitlines()
    tokens = [
        re.search(r"Tokens: (\S+) sent, (\S+) received\.(?: Cost: \$(\S+) message)?", ln) for ln in lines
    ]
    found = [m for m in tokens if m]
    replies = 0
    previous_was_tool_or_prompt = False
    in_block = False
    for line in lines:
        if in_block or (line.startswith("> ") and not line.endswith("  ")):
            in_block = not line.endswith("  ")  # a multi-line ">" message, closed by two spaces
            previous_was_tool_or_prompt = True
            continue
        if line.strip():
            tool_or_prompt = line.startswith(("> ", "####")) or line.rstrip() == ">"
            if not tool_or_prompt and not line.startswith("#") and previous_was_tool_or_prompt:
                replies += 1
            previous_was_tool_or_prompt = tool_or_prompt
    return {
        "with_usage": len(found),
        "replies": replies,
        "prompt_total": sum(thousands(m[1]) for m in found),
        "output_total": sum(thousands(m[2]) for m in found),
        "largest": max((thousands(m[1]) for m in found), default=None),
        "cost": round(sum(float(m[3]) for m in found if m[3]), 6),
        "errors": sum(1 for ln in lines if ln.startswith("> litellm.")),
    }


@pytest.mark.parametrize("name", ["monochromatic.aider.chat.history.md", "afi-core.aider.chat.history.md"])
def test_fixture_matches_raw_count(name: str) -> None:
    path = FIXTURES / "aider" / name
    session = open_log(path)
    assert session.format == aider.FORMAT == detect_format(path)
    want = raw_counts(path)
    assert_figures(
        session,
        calls=want["replies"],
        calls_with_usage=want["with_usage"],
        prompt_total=want["prompt_total"],
        output_total=want["output_total"],
        largest_prompt=want["largest"],
        errors=want["errors"],
        compactions=0,
    )
    costs = [e.cost for s in aider.parse(path.read_text(encoding="utf-8")) for e in s.events if e.cost]
    assert round(sum(costs), 6) == want["cost"]


def test_sessions_are_scopes_with_their_model_and_files() -> None:
    session = open_log(HISTORY)
    starts = HISTORY.read_text(encoding="utf-8").count("# aider chat started at")
    assert session.ignored["session without a model call"] + len(session.scopes) == starts
    assert list(session.scopes)[:3] == ["session-15", "session-13", "session-12"]  # newest first
    last = session.scopes["session-15"]
    assert last.header.model == "gemini/gemini-2.5-pro-preview-05-06"
    assert last.header.label.startswith("aider chat started at 2025-06-02")
    notes = [m for s in session.scopes.values() for m in s.messages if m.meta]
    assert notes and all(
        "added to the chat" in m.text or m.text.startswith("[repo map: up to ") for m in notes
    )
    blocks = [b for s in session.scopes.values() for m in s.messages for b in m.blocks]
    assert not any("thinking-content" in b.text for b in blocks)  # the (empty) thinking section is not text


@pytest.mark.parametrize(
    ("line", "prompt", "cached", "written", "output", "cost"),
    [
        ("Tokens: 9.7k sent, 85 received. Cost: $0.01 message, $0.01 session.", 9700, 0, 0, 85, 0.01),
        (
            "Tokens: 2.3k sent, 1.1k cache write, 500 cache hit, 412 received. Cost: $0.01.",
            2300,
            500,
            1100,
            412,
            None,
        ),
        ("Tokens: 1,234 sent, 1 received.", 1234, 0, 0, 1, None),
    ],
)
def test_tokens_line(
    line: str, prompt: int, cached: int, written: int, output: int, cost: float | None
) -> None:
    parsed = aider.tokens_usage(line)
    assert parsed is not None
    usage, got_cost = parsed
    assert (usage.prompt_tokens, usage.cached_prompt_tokens, usage.cache_write_tokens) == (
        prompt,
        cached,
        written,
    )
    assert (usage.output_tokens, got_cost) == (output, cost)


def test_commands_clear_and_hostile_text(tmp_path: Path) -> None:
    text = (
        "# aider chat started at 2025-01-01 10:00:00\n\n"
        "> Model: gpt-4o with diff edit format  \n\n"
        "#### /add x.py  \n> Added x.py to the chat  \n\n"
        "> y.py  \n> Add file to the chat? (Y)es/(N)o/(D)on't ask again [Yes]: y  \n\n"
        "#### \x1b[2J[red]what[/red] is x?  \n\n"
        "It is [bold]nothing\x07.\n\n"
        "> Tokens: 1.5k sent, 20 received. Cost: $0.01 message, $0.01 session.  \n\n"
        "#### /clear  \n\n"
        "#### again  \n\n"
        "> litellm.ContextWindowExceededError: too long  \n"
    )
    path = tmp_path / ".aider.chat.history.md"
    path.write_text(text, encoding="utf-8")
    session = open_log(path)
    scope = session.scopes["session-1"]
    assert [m.role for m in scope.messages] == ["user", "user", "user", "assistant", "user"]
    assert scope.messages[0].meta and scope.messages[1].meta and "y.py" in scope.messages[1].text
    assert len(scope.requests) == 1 and scope.requests[0].usage is not None
    assert [c.trigger for c in scope.compactions] == ["manual"]
    assert [e.error.kind.value for e in scope.errors] == ["context_length"]
    assert session.ignored["command:/add"] == 1


def test_markdown_of_no_known_format_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "notes.md"
    path.write_text("# Notes\n\nsome text\n", encoding="utf-8")
    with pytest.raises(ValueError) as refused:
        open_log(path)
    message = str(refused.value)
    assert message.startswith("notes.md: text that is not JSON (it starts '# Notes')")
    assert "aider needs a '# aider chat started at' line" in message and "specstory needs" in message
    assert "bad lines" not in message


def test_a_growing_history_is_read_again_while_tailed(tmp_path: Path) -> None:
    path = tmp_path / ".aider.chat.history.md"
    start = "# aider chat started at 2025-01-01 10:00:00\n\n"
    path.write_text(start + "#### hi  \n\nHello.\n\n> Tokens: 1k sent, 5 received.  \n", encoding="utf-8")
    reader = SessionReader(path)
    reader.poll()
    assert reader.format == aider.FORMAT
    assert len(reader.session.scopes["session-1"].requests) == 1
    with path.open("a", encoding="utf-8") as handle:
        handle.write("\n#### more  \n\nMore.\n\n> Tokens: 1.2k sent, 6 received.  \n")
    progress = reader.poll()
    assert progress.change is not None and progress.change.value == "rewritten"
    requests = reader.session.scopes["session-1"].requests
    assert [r.usage.prompt_tokens for r in requests if r.usage] == [1000, 1200]
    assert reader.poll().lines == 0  # unchanged: not read again
