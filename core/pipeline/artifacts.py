"""Stage 1: trim heavy artifacts, before every model call and before any budget check.

* A DOM snapshot (a browser page's HTML) is reduced to what the model can act on: the page title,
  the heading structure, links, buttons, inputs, selects and text areas with their labels, and the
  forms that hold them (:func:`reduce_dom`). The newest few snapshots are sent in that form; older
  ones keep a one-line trace (:func:`dom_trace`).
* A screenshot is capped at a hard per-image token cap (sent smaller) when it is among the newest
  few, and dropped to a one-line trace otherwise. Other images are capped, never dropped.

Everything here is pure: it builds new blocks and never changes the ones it is given.
"""

from __future__ import annotations

import enum
import math
import re
from dataclasses import dataclass, field
from html.parser import HTMLParser
from typing import Final

from ..model import IMAGE_TOKEN_CAP, ArtifactKind, Block, BlockKind, image_tokens

MAX_LABEL_CHARS: Final = 80
"""A label, link text or option list is cut to this many characters."""

MAX_OPTIONS: Final = 8
"""Options listed per select before "… N more"."""

_SPACE_RE: Final = re.compile(r"\s+")
_BUTTON_INPUTS: Final = ("submit", "button", "reset", "image")


class Level(enum.IntEnum):
    """How far stage 1 has reduced one artifact block."""

    FULL = 0
    """Sent as stored (legacy strategy only)."""
    REDUCED = 1
    """DOM snapshot reduced to its actionable parts; screenshot or image capped."""
    TRACE = 2
    """Only a one-line trace is sent."""


def _clean(text: str, limit: int = MAX_LABEL_CHARS) -> str:
    text = _SPACE_RE.sub(" ", text).strip()
    return text if len(text) <= limit else text[: limit - 1] + "…"


@dataclass
class _Control:
    kind: str
    attrs: dict[str, str]
    text: list[str] = field(default_factory=list)
    options: list[str] = field(default_factory=list)


class _ActionableParser(HTMLParser):
    """Collects the title, headings, forms and controls of a page (stdlib ``html.parser``)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.title: list[str] = []
        self.items: list[tuple[str, _Control]] = []
        self.labels_for: dict[str, str] = {}
        self.counts: dict[str, int] = {}
        self._stack: list[_Control] = []
        self._in_title = False
        self._label: list[str] | None = None
        self._label_for: str = ""
        self._label_control: _Control | None = None
        self._option: list[str] | None = None
        self._skip = 0

    def _count(self, kind: str) -> None:
        self.counts[kind] = self.counts.get(kind, 0) + 1

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: (v or "") for k, v in attrs}
        if tag in ("script", "style", "noscript", "template"):
            self._skip += 1
            return
        if tag == "title":
            self._in_title = True
        elif tag in ("h1", "h2", "h3", "h4", "h5", "h6"):
            self._open(tag, a)
        elif tag == "a" and "href" in a:
            self._open("link", a)
        elif tag == "button" or (tag == "input" and a.get("type", "").lower() in _BUTTON_INPUTS):
            control = _Control("button", a)
            if tag == "input":
                self._add(control)
                self._attach_label(control)
            else:
                self._open("button", a)
        elif tag == "input":
            if a.get("type", "").lower() == "hidden":
                return
            control = _Control("input", a)
            self._add(control)
            self._attach_label(control)
        elif tag == "textarea":
            self._open("textarea", a)
        elif tag == "select":
            self._open("select", a)
        elif tag == "option" and self._stack and self._stack[-1].kind == "select":
            self._option = []
        elif tag == "form":
            self._add(_Control("form", a))
        elif tag == "label":
            self._label = []
            self._label_for = a.get("for", "")
            self._label_control = None
        elif tag == "img" and a.get("alt"):
            for control in self._stack:
                control.text.append(a["alt"])

    def _open(self, kind: str, attrs: dict[str, str]) -> None:
        control = _Control(kind, attrs)
        self._add(control)
        self._stack.append(control)
        self._attach_label(control)

    def _add(self, control: _Control) -> None:
        self.items.append((control.kind, control))
        self._count(control.kind)

    def _attach_label(self, control: _Control) -> None:
        if self._label is not None and not self._label_for and control.kind != "form":
            self._label_control = control

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style", "noscript", "template"):
            self._skip = max(0, self._skip - 1)
            return
        if tag == "title":
            self._in_title = False
        elif tag == "option" and self._option is not None:
            if self._stack and self._stack[-1].kind == "select":
                self._stack[-1].options.append(_clean("".join(self._option), 40))
            self._option = None
        elif tag == "label" and self._label is not None:
            text = _clean("".join(self._label))
            if self._label_for:
                self.labels_for[self._label_for] = text
            elif self._label_control is not None:
                self._label_control.attrs.setdefault("_label", text)
            self._label = None
        else:
            kinds = {"a": "link", "button": "button", "textarea": "textarea", "select": "select"}
            kind = kinds.get(tag, tag if tag in ("h1", "h2", "h3", "h4", "h5", "h6") else "")
            if kind:
                for depth in range(len(self._stack) - 1, -1, -1):
                    if self._stack[depth].kind == kind:
                        del self._stack[depth:]
                        break

    def handle_data(self, data: str) -> None:
        if self._skip:
            return
        if self._in_title:
            self.title.append(data)
        if self._option is not None:
            self._option.append(data)
        else:
            for control in self._stack:
                control.text.append(data)
        if self._label is not None:
            self._label.append(data)


def _describe(control: _Control, labels_for: dict[str, str]) -> str:
    a = control.attrs
    text = _clean(" ".join(control.text))
    label = (
        labels_for.get(a.get("id", ""))
        or a.get("_label")
        or a.get("aria-label")
        or a.get("placeholder")
        or a.get("title")
        or ""
    )
    kind = control.kind
    if kind.startswith("h") and kind[1:].isdigit():
        return f"{'  ' * (int(kind[1]) - 1)}{kind} {text}"
    if kind == "link":
        href = _clean(a.get("href", ""), 100)
        return f'link "{text or _clean(label)}" -> {href}'
    if kind == "button":
        name = text or _clean(a.get("value", "")) or _clean(label)
        return f'button "{name}"'
    if kind == "form":
        name = f' "{_clean(label)}"' if label else ""
        action = _clean(a.get("action", ""), 100)
        return f'form{name} method={a.get("method", "get").lower()} action="{action}"'
    parts = [kind]
    if kind == "input":
        parts.append(f"type={a.get('type', 'text').lower()}")
    if a.get("name"):
        parts.append(f"name={_clean(a['name'], 40)}")
    if label:
        parts.append(f'label "{_clean(label)}"')
    if kind == "input" and a.get("value"):
        parts.append(f'value "{_clean(a["value"], 40)}"')
    if kind == "select" and control.options:
        shown = ", ".join(control.options[:MAX_OPTIONS])
        more = len(control.options) - MAX_OPTIONS
        parts.append(f"options: {shown}" + (f" … {more} more" if more > 0 else ""))
    return " ".join(parts)


@dataclass(frozen=True, slots=True)
class DomSummary:
    """A DOM snapshot reduced to its actionable parts.

    Attributes:
        title: The page title ('' when it has none).
        lines: One line per heading, link, button, input, select, text area or form, in page order
            (a link or button repeated with the same text and target is listed once).
        counts: How many of each kind the page had (before the item cap).
        omitted: Items left out by the cap.
    """

    title: str
    lines: tuple[str, ...]
    counts: dict[str, int]
    omitted: int

    def text(self) -> str:
        head = f"[page reduced to its actionable parts] {self.title}".rstrip()
        tail = [f"… {self.omitted} more controls omitted"] if self.omitted else []
        return "\n".join([head, *self.lines, *tail])

    def trace(self) -> str:
        shown = ", ".join(
            f"{self.counts.get(kind, 0)} {kind}s" for kind in ("link", "button", "input", "form")
        )
        title = self.title or (self.lines[0].strip() if self.lines else "untitled page")
        return f"[earlier DOM snapshot: {_clean(title, 60)} ({shown}); trimmed to this trace]"


def reduce_dom(html: str, max_items: int = 150) -> DomSummary:
    """Reduce a page's HTML to its actionable parts.

    Args:
        html: The DOM snapshot (any HTML; malformed markup is tolerated).
        max_items: At most this many lines are kept; headings are kept before other items.

    Returns:
        The page's title, one line per control or heading in page order, and counts.
    """
    parser = _ActionableParser()
    parser.feed(html)
    parser.close()
    described: list[tuple[str, str]] = []
    seen: set[str] = set()
    for kind, control in parser.items:
        line = _describe(control, parser.labels_for)
        # A link or button repeated with the same text and target adds nothing the model can use.
        if line.strip() and (kind.startswith("h") or line not in seen):
            seen.add(line)
            described.append((kind, line))
    if len(described) > max_items:
        headings = [i for i, (kind, _) in enumerate(described) if kind.startswith("h") and kind[1:].isdigit()]
        keep = set(headings[: max_items // 3])
        for i in range(len(described)):
            if len(keep) >= max_items:
                break
            keep.add(i)
        lines = tuple(line for i, (_, line) in enumerate(described) if i in keep)
        omitted = len(described) - len(lines)
    else:
        lines = tuple(line for _, line in described)
        omitted = 0
    return DomSummary(_clean("".join(parser.title), 120), lines, dict(parser.counts), omitted)


def screenshot_trace(block: Block) -> str:
    size = f"{block.width}×{block.height}" if block.width and block.height else f"{block.size_bytes} bytes"
    kind = block.artifact.value if block.artifact else "image"
    return f"[earlier {kind} ({size}) dropped to save context]"


def capped_image(block: Block, cap: int) -> Block:
    """The image block resized so that it costs at most ``cap`` tokens (unchanged if it already does)."""
    cap = max(1, min(cap, IMAGE_TOKEN_CAP))
    if image_tokens(block.width, block.height, block.size_bytes) <= cap:
        return block
    if block.width > 0 and block.height > 0:
        scale = math.sqrt(cap / (block.width * block.height / 750))
        width = max(1, math.floor(block.width * scale))
        height = max(1, math.floor(block.height * scale))
        while image_tokens(width, height, 0) > cap:
            width, height = max(1, width - 1), max(1, height - 1)
        return Block(
            BlockKind.ARTIFACT, block.text, artifact=block.artifact, size_bytes=block.size_bytes,
            width=width, height=height,
        )
    return Block(BlockKind.ARTIFACT, block.text, artifact=block.artifact, size_bytes=cap * 64)


def trace_block(text: str) -> Block:
    """A one-line trace standing in for an artifact (plain text)."""
    return Block(BlockKind.TEXT, text)


@dataclass(frozen=True, slots=True)
class ArtifactForms:
    """The forms one artifact block can be sent in, by :class:`Level`."""

    full: Block
    reduced: Block
    trace: Block

    def at(self, level: Level) -> Block:
        if level is Level.FULL:
            return self.full
        return self.reduced if level is Level.REDUCED else self.trace


def artifact_forms(block: Block, *, screenshot_cap: int, dom_max_items: int) -> ArtifactForms:
    """Compute once the reduced and trace forms of an artifact block."""
    if block.artifact is ArtifactKind.DOM_SNAPSHOT:
        summary = reduce_dom(block.text, dom_max_items)
        reduced = Block(BlockKind.ARTIFACT, summary.text(), artifact=ArtifactKind.DOM_SNAPSHOT)
        return ArtifactForms(block, reduced, trace_block(summary.trace()))
    reduced = capped_image(block, screenshot_cap)
    if block.artifact is ArtifactKind.IMAGE:
        return ArtifactForms(block, reduced, reduced)
    return ArtifactForms(block, reduced, trace_block(screenshot_trace(block)))


def keeps_reduced(kind: ArtifactKind, rank_from_newest: int, dom_keep: int, screenshot_keep: int) -> Level:
    """The level of an artifact given how many newer artifacts of its kind follow it."""
    if kind is ArtifactKind.DOM_SNAPSHOT:
        return Level.REDUCED if rank_from_newest < dom_keep else Level.TRACE
    if kind is ArtifactKind.SCREENSHOT:
        return Level.REDUCED if rank_from_newest < screenshot_keep else Level.TRACE
    return Level.REDUCED
