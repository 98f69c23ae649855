"""Paradigms: which words and names are of one kind, learnt from the session by substitution.

Two words are of one kind when they fill the same place in otherwise identical wording ("I'm
*vegan* now" / "I'm *halal* now"; "Lunch with *Ngozi* was fun" / "Lunch with *Wei* was fun"): the
distributional test of structural linguistics, applied to the messages of the session itself. No
list of expected attributes or values is involved; what the session repeats is what is learnt.

Each sentence is read as a token sequence in which a run of capitalised names (:mod:`.names`) is
one ``<n>`` token and a typed value (a date, an amount of money, a time of day, a number) one
``<date>``/``<money>``/``<time>``/``<num>`` token. Then

* every span of one to :data:`MAX_FILLER` lower-case words, and every name run, is a *filler* of
  its *context*, the sentence with the span cut out (other names left as ``<n>``);
* two fillers of one context are of one kind when they differ at both ends (the minimal
  substitution, not "on Friday" against "on Monday"), or when one is a name ("we booked *the
  Harbor Room*" / "we booked *the rooftop terrace*").

Contexts need :data:`MIN_CONTEXT` words, at least one of them a content word, so that "i'm ___" or
"___ thanks" do not join everything. Kinds are the classes of a union-find over the fillers.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Final

from .text import STOP_WORDS

MAX_FILLER: Final = 4
"""Longest span of words tried as one value."""

MAX_SENTENCE: Final = 60
"""Longest sentence (in tokens) learnt from: contexts are whole sentences, so a huge line would cost
its length squared and teach nothing."""

MIN_CONTEXT: Final = 3
"""Fewest words of context a substitution needs."""

NAME: Final = "<n>"
"""The token of a run of names."""
NAME_MARK: Final = "="
"""What marks a name among the fillers ("=atlas" against the word "atlas")."""


class _Kinds:
    """A union-find over strings, logging the strings whose kind a union changed."""

    def __init__(self) -> None:
        self.parent: dict[str, str] = {}
        self.size: dict[str, int] = {}
        self.members: dict[str, list[str]] = {}
        """Per root of a class of two or more, its strings."""
        self.changed: set[str] = set()
        """Strings whose class root or peers changed since the log was last taken."""

    def find(self, item: str) -> str:
        parent = self.parent.setdefault(item, item)
        if parent == item:
            return item
        root = self.find(parent)
        self.parent[item] = root
        return root

    def union(self, a: str, b: str) -> None:
        ra, rb = self.find(a), self.find(b)
        if ra != rb:
            keep, join = min(ra, rb), max(ra, rb)
            self.parent[join] = keep
            self.size[keep] = self.size.get(keep, 1) + self.size.pop(join, 1)
            # the joined class's strings take a new root; a lone string gains peers
            kept = self.members.pop(keep, None) or [keep]
            joined = self.members.pop(join, None) or [join]
            self.changed.update(joined)
            if len(kept) == 1:
                self.changed.add(keep)
            if len(kept) < len(joined):
                kept, joined = joined, kept
            kept.extend(joined)
            self.members[keep] = kept

    def has_peers(self, item: str) -> bool:
        """Whether ``item`` shares its class with another string."""
        return self.size.get(self.find(item), 1) > 1

    def known(self, item: str) -> bool:
        return item in self.parent


@dataclass
class Paradigms:
    """Kinds of words and names learnt from the sentences read so far.

    Attributes:
        kinds: Union-find over fillers: runs of lower-case words (``"vegan"``, ``"on track"``) and
            names (``"=atlas"``).
    """

    kinds: _Kinds = field(default_factory=_Kinds)
    _contexts: dict[tuple[str, ...], str] = field(default_factory=dict)

    def learn(self, tokens: list[str], name_runs: list[str]) -> None:
        """Learn from one sentence.

        Args:
            tokens: The sentence's tokens: lower-case words, ``<n>`` for each name run (in order),
                typed-value and punctuation tokens (``<date>``, ``<,>``…).
            name_runs: The name of each ``<n>`` token, lower-case, in order.
        """
        if len(tokens) > MAX_SENTENCE:
            return  # a sentence this long is not repeated with one place changed; and it would cost
        names = iter(name_runs)
        texts = [NAME_MARK + next(names) if t == NAME else t for t in tokens]
        n = len(tokens)
        for i in range(n):
            for j in range(i + 1, min(n, i + MAX_FILLER) + 1):
                filler = tokens[i:j]
                noun_phrase = _name_phrase(filler)
                if noun_phrase is not None:
                    # a name, with its article and a head noun or not ("the Building C atrium")
                    text = " ".join(texts[i + noun_phrase : j]) if noun_phrase >= 0 else texts[j - 1]
                elif any(t.startswith("<") for t in filler) or wording_around(filler):
                    continue
                else:
                    text = " ".join(filler)
                context = (*tokens[:i], "_", *tokens[j:])
                if not _enough(context):
                    continue
                self.kinds.find(text)
                seen = self._contexts.setdefault(context, text)
                if seen == text:
                    continue
                if seen.startswith(NAME_MARK) or text.startswith(NAME_MARK):
                    self.kinds.union(seen, text)
                    continue
                other = seen.split(" ")
                if other[0] != filler[0] and other[-1] != filler[-1]:
                    self.kinds.union(seen, text)

    def take_changed(self) -> set[str]:
        """The fillers whose :meth:`value_kind` may have changed since the last call (the log is
        emptied): what a reader of earlier sentences must look at again."""
        changed, self.kinds.changed = self.kinds.changed, set()
        return changed

    def value_kind(self, filler: str) -> str | None:
        """The kind of a lower-case filler, if the session showed it substituting for another."""
        if not self.kinds.known(filler):
            return None
        return self.kinds.find(filler) if self.kinds.has_peers(filler) else None

    def name_kind(self, name: str, noun: str = "") -> str | None:
        """The kind of a (lower-case) name, if the session showed it substituting for another; of
        the name followed by the head noun ``noun`` ("the Riverside loft"), if the bare name has none."""
        kind = self.value_kind(NAME_MARK + name)
        return kind if kind is not None or not noun else self.value_kind(f"{NAME_MARK}{name} {noun}")


_CLOSED_CLASS: Final = (
    "is are was were be been being am has have had do does did will would shall should can could may "
    "might must i me my mine you your yours we us our ours they them their he him his she her it its "
    "this that these those there here not no now today"
)
GRAMMAR_WORDS: Final = frozenset(_CLOSED_CLASS.split())
"""Closed-class words (auxiliaries, pronouns, possessives, negators, deictics)."""


def wording_around(words: list[str]) -> bool:
    """Whether a run of words is wording around a value rather than one: it holds a closed-class
    word or ends in a function word ("is capped at", "right now")."""
    return words[-1] in STOP_WORDS or any(w in GRAMMAR_WORDS for w in words)


def _name_phrase(filler: list[str]) -> int | None:
    """Where the name starts in a filler that is a name phrase: ``<n>``, ``the <n>``, ``<n> noun``
    or ``the <n> noun`` (-1 for a bare name with or without its article); None otherwise."""
    if filler in ([NAME], ["the", NAME]):
        return -1
    if len(filler) in (2, 3) and filler[-2] == NAME and filler[:-2] in ([], ["the"]):
        noun = filler[-1]
        if not noun.startswith("<") and noun not in STOP_WORDS:
            return len(filler) - 2
    return None


def _enough(context: tuple[str, ...]) -> bool:
    words = [t for t in context if t != "_"]
    return len(words) >= MIN_CONTEXT and any(t not in STOP_WORDS and not t.startswith("<") for t in words)

