"""The answer key: what is critical, stale or noise at each checkpoint. Read by the scorer alone.

No policy module imports this one (a test checks it); policies receive only
:class:`~.records.PolicyMessage` s, a query and a budget. The key comes either from the generator
(:mod:`.generator`) or from a LABELS file (:mod:`.external`).

A label row gives a turn one of four labels and, optionally, the turn from which it is stale:

* ``critical`` — an important fact that is current until ``stale_from`` (if given);
* ``stale`` — superseded evidence from the start;
* ``noise`` — chatter and distractors;
* ``other`` — anything else (episodes, acknowledgements, questions); with ``stale_from`` it becomes
  stale evidence from that turn on (an assistant's echo of a fact that was later superseded).

A checkpoint at turn T evaluates the context built for a query asked at T from the messages before
T: a row counts as stale at T when its label is ``stale`` or its ``stale_from`` is before T.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass, field


class Label(enum.StrEnum):
    """A turn's label in the answer key."""

    CRITICAL = "critical"
    STALE = "stale"
    NOISE = "noise"
    OTHER = "other"


@dataclass(frozen=True, slots=True)
class TurnLabel:
    """One labelled turn.

    Attributes:
        turn: The session turn.
        label: Its label.
        stale_from: The turn of the message that supersedes it, if it gets superseded.
        kind: A free-form tag for reports (e.g. ``update``, ``distractor``); not used for scoring.
    """

    turn: int
    label: Label
    stale_from: int | None = None
    kind: str = ""

    def status_at(self, at: int) -> Label:
        """The label that applies at a checkpoint asked at turn ``at``.

        Args:
            at: The checkpoint's turn.

        Returns:
            ``STALE`` once superseded before ``at``; the row's own label otherwise.
        """
        if self.label is Label.STALE or (self.stale_from is not None and self.stale_from < at):
            return Label.STALE
        return self.label


@dataclass(frozen=True, slots=True)
class Checkpoint:
    """A query at which the policies are evaluated.

    Attributes:
        turn: The query's turn; the policies see the messages before it.
        query: The query text.
        needs: Turns the answer depends on (query recall), if known.
    """

    turn: int
    query: str
    needs: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class AnswerKey:
    """Labels for a session and the checkpoints to evaluate.

    Attributes:
        labels: Label row per turn; unlabelled turns count as ``other``.
        checkpoints: Checkpoints in turn order.
    """

    labels: Mapping[int, TurnLabel]
    checkpoints: tuple[Checkpoint, ...]
    meta: Mapping[str, str] = field(default_factory=dict)
    """Free-form description (e.g. the generator's seed)."""

    def status_at(self, turn: int, at: int) -> Label:
        """The label of ``turn`` at a checkpoint asked at ``at``."""
        row = self.labels.get(turn)
        return Label.OTHER if row is None else row.status_at(at)

    def sets_at(self, at: int) -> dict[Label, frozenset[int]]:
        """Turns before ``at`` grouped by the label that applies at ``at``."""
        groups: dict[Label, set[int]] = {label: set() for label in Label}
        for turn, row in self.labels.items():
            if turn < at:
                groups[row.status_at(at)].add(turn)
        return {label: frozenset(turns) for label, turns in groups.items()}
