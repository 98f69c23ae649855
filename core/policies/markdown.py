"""Markdown notes read as the English they stand for.

People who plan in a notes app or a chat that renders Markdown write their statements in its
notation: emphasis and code spans ("**Friday**", "`Atlas`"), checklists ("- [x] venue booked",
"- [ ] move the launch"), tables ("| project | owner |" over a "|---|---|" rule, then a row per
thing), fenced blocks of configuration ("```yaml" … "```") and single JSON pairs
(`"office": "Omaha"`). :func:`read_markdown` writes them out before anything else reads the message:

* emphasis, code spans and the fences of a block are notation, not words: their text is kept;
* a checked item ("- [x] …") and a bullet ("- …", "* …") state what they say; an unchecked item
  ("- [ ] …") is a to-do not done (or an option not taken) and commits to nothing, so it is left
  out;
* a table row is a statement of its first cell, each further cell a field named by its column's
  header: "| Atlas | Dana |" under "| project | owner |" reads "Atlas owner is Dana"; a row with no
  header says the same of its cells ("| Atlas | owner | Dana |": "Atlas owner is Dana") — a cell
  is a value, never an instruction ("| comms | draft in review |");
* a JSON pair is a field line: `"office": "Omaha"` reads "office: Omaha".

Everything here is notation, not vocabulary: no attribute, value or name of any session. A
message without Markdown is returned as it is.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Final

_CUE: Final = re.compile(r"\*\*|__|`|(?<![\w_])_\S|^[ \t]*(?:[-*] |\|)|\"[^\"\n]{1,40}\"\s*:", re.MULTILINE)
"""Some Markdown (or JSON) notation in the message."""

_EMPHASIS: Final = re.compile(
    r"\*\*([^*\n]+)\*\*|__([^_\n]+)__|(?<![\w*])[*_]([^*_\n]+)[*_](?![\w*])|`([^`\n]*)`"
)
"""Bold, italics or a code span: the text inside is what is said."""

_FENCE: Final = re.compile(r"^[ \t]*(?:```|~~~)[\w-]*[ \t]*$")
"""A line opening or closing a fenced block ("```yaml")."""

_RULE: Final = re.compile(r"^[ \t]*\|?[ \t]*:?-{3,}:?[ \t]*(?:\|[ \t]*:?-{3,}:?[ \t]*)*\|?[ \t]*$")
"""The rule under a table's header ("|---|---|")."""

_ROW: Final = re.compile(r"^[ \t]*\|(.*)\|[ \t]*$")
"""A table row ("| Atlas | Dana |")."""

_UNCHECKED: Final = re.compile(r"^[ \t]*[-*+] \[ \]")
"""An unchecked checklist item."""

_ITEM: Final = re.compile(r"^([ \t]*)[-*+] (?:\[[xX]\] ?)?")
"""A bullet or a checked checklist item: its marker."""

_JSON_PAIR: Final = re.compile(r"\"([^\"\n]{1,40})\"\s*:\s*\"([^\"\n]{1,80})\"")
"""A JSON pair of strings."""


def _cells(row: str) -> list[str]:
    return [cell.strip() for cell in row.split("|")]


def _row(cells: list[str], header: list[str] | None) -> str:
    """A table row as a statement of its first cell, the others fields named by the header."""
    if header is None or len(header) != len(cells):
        # a row of its own: a thing and its field ("| Atlas | Dana |"), or a thing, a field's name
        # and its value ("| Atlas | owner | Dana |")
        cells = [c for c in cells if c]
        if len(cells) in (2, 3):
            return " ".join(cells[:-1]) + " is " + cells[-1]
        return ", ".join(cells)
    fields = "; ".join(f"{h} is {c}" for h, c in zip(header[1:], cells[1:], strict=True) if c)
    return f"{cells[0]} {fields}" if fields else cells[0]


@lru_cache(maxsize=65_536)
def read_markdown(text: str) -> str:
    """``text`` with its Markdown notation written out as English (see the module docstring).

    Args:
        text: A message.

    Returns:
        The message as prose reads it (the same text when it has no Markdown).
    """
    if _CUE.search(text) is None:
        return text
    lines = text.split("\n")
    out: list[str] = []
    header: list[str] | None = None
    for index, line in enumerate(lines):
        if _FENCE.match(line) or _UNCHECKED.match(line):
            continue
        if _RULE.match(line) and "|" in line:
            continue
        row = _ROW.match(line)
        if row is not None:
            cells = _cells(row.group(1))
            if index + 1 < len(lines) and _RULE.match(lines[index + 1]):
                header = cells
                continue
            line = _row(cells, header)
        else:
            header = None
            line = _ITEM.sub(r"\1", line)
        out.append(line)
    body = "\n".join(out)
    body = _EMPHASIS.sub(lambda m: next(g for g in m.groups() if g is not None), body)
    return _JSON_PAIR.sub(r"\1: \2", body)
