"""Retention: what a live view may forget, decided in one place, and the containers that forget it.

A live view of a log that grows without end keeps memory flat by holding only the *live window*:
the newest :attr:`LiveWindow.keep` requests of each scope keep their detail (every message with
its fate, the breakdowns); older requests keep their figures (the timeline shows every request),
and the stored messages none of the kept requests can show are released. :class:`LiveWindow` is
the one policy: :class:`~ctxscope.core.analysis.Analysis` calls :meth:`LiveWindow.apply` after each
update, and it asks each lens how far back the kept requests reach (a question, never a write),
then releases, in this order,

* the records' breakdowns and the pipeline's decisions of the requests before the window;
* the pipeline state's copies of the messages no kept request sends;
* the session's messages that every lens has let go of, their finished tool rounds, and the
  requests every lens holds as figures only.

What is held lives in offset-based containers (:class:`Held`, :class:`HeldInts`): an item's index is
its absolute position (a message's index in its scope, a request's index), and the items before
:attr:`Held.offset` are released. Reading a released position raises :class:`ReleasedError`; code
that may meet one asks :meth:`Held.is_held` or iterates :meth:`Held.held` — there is no stand-in
object to check for.
"""

from __future__ import annotations

from array import array
from collections.abc import Iterable, Iterator, MutableSequence, Sequence
from dataclasses import dataclass
from typing import Generic, NamedTuple, Protocol, TypeVar, cast, overload

T = TypeVar("T")


class ReleasedError(IndexError):
    """A released position of a :class:`Held` or :class:`HeldInts` container was read."""


def _released(index: int, pinned: int, offset: int) -> ReleasedError:
    return ReleasedError(f"position {index} was released (held: below {pinned} and from {offset})")


class _Positions(Generic[T]):
    """The shared skeleton of :class:`Held` and :class:`HeldInts`: items by absolute position in
    a head (the :attr:`pinned` first items, never released) and a body from :attr:`offset` on.

    The two differ only in their storage (a list, or an :class:`array.array` that hot loops read
    directly) and in what they give back.
    """

    __slots__ = ("_head", "_items", "_offset")

    def __init__(self, items: MutableSequence[T], empty: MutableSequence[T]) -> None:
        self._head = empty
        self._items = items
        self._offset = 0

    @property
    def offset(self) -> int:
        """Items from :attr:`pinned` up to this position are released."""
        return self._offset

    @property
    def pinned(self) -> int:
        return len(self._head)

    def __len__(self) -> int:
        return self._offset + len(self._items)

    def is_held(self, index: int) -> bool:
        return 0 <= index < len(self._head) or self._offset <= index < len(self)

    def _item(self, index: int) -> T:
        if index < 0:
            index += len(self)
            if index < 0:
                raise IndexError(index)
        if index >= self._offset:
            return self._items[index - self._offset]
        if index < len(self._head):
            return self._head[index]
        raise _released(index, len(self._head), self._offset)

    def __setitem__(self, index: int, item: T) -> None:
        if index < 0:
            index += len(self)
        if index >= self._offset:
            self._items[index - self._offset] = item
        elif 0 <= index < len(self._head):
            self._head[index] = item
        else:
            raise _released(index, len(self._head), self._offset)

    def append(self, item: T) -> None:
        self._items.append(item)

    def _span(self, start: int, stop: int) -> MutableSequence[T]:
        """A copy of ``[start, stop)`` (``start < stop``), all in the head or all from the offset."""
        if start >= self._offset:
            return self._items[start - self._offset : stop - self._offset]
        if self._offset == 0 or stop <= len(self._head):
            return self._head[start:stop]
        raise _released(start, len(self._head), self._offset)

    def _releasing(self, stop: int, keep_first: int) -> int:
        """How many items of the body :meth:`release` lets go of now. The first release that
        releases anything fixes the head: the first ``keep_first`` items."""
        if self._offset == 0:
            keep_first = min(keep_first, len(self))
            if min(stop, len(self)) <= keep_first:
                return 0
            self._head = self._items[:keep_first]
            del self._items[:keep_first]
            self._offset = keep_first
        return max(0, min(stop, len(self)) - self._offset)

    def _drop(self, count: int) -> None:
        del self._items[:count]
        self._offset += count


class Held(_Positions[T], Sequence[T]):
    """An append-only list indexed by absolute position whose items in ``[pinned, offset)`` are released.

    ``len()`` counts every item ever appended; ``[i]`` and ``[a:b]`` take absolute positions (a
    negative index counts from the end) and raise :class:`ReleasedError` for a released one;
    iterating yields the held items only, in order (:meth:`held` gives their positions too). The
    first :attr:`pinned` items (a scope's head: its system prompt and first message) are never
    released; they are fixed by the first :meth:`release`.
    """

    __slots__ = ()
    _head: list[T]
    _items: list[T]

    def __init__(self, items: Iterable[T] = ()) -> None:
        super().__init__(list(items), [])

    def __bool__(self) -> bool:
        return len(self) > 0

    def __eq__(self, other: object) -> bool:
        """Equal to a list or tuple of the same items while nothing was released."""
        if isinstance(other, Held):
            return (self._offset, self._head, self._items) == (other._offset, other._head, other._items)
        if isinstance(other, (list, tuple)):
            return self._offset == 0 and self._items == list(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    @overload
    def __getitem__(self, index: int) -> T: ...

    @overload
    def __getitem__(self, index: slice) -> list[T]: ...

    def __getitem__(self, index: int | slice) -> T | list[T]:
        if not isinstance(index, slice):
            return self._item(index)
        start, stop, step = index.indices(len(self))
        if start >= stop:
            return []
        if step == 1:
            return list(self._span(start, stop))
        if start < self._offset:
            raise _released(start, len(self._head), self._offset)
        return self._items[start - self._offset : stop - self._offset : step]

    def __iter__(self) -> Iterator[T]:
        yield from self._head
        yield from self._items

    def __reversed__(self) -> Iterator[T]:
        yield from reversed(self._items)
        yield from reversed(self._head)

    def held(self, start: int = 0, stop: int | None = None) -> Iterator[tuple[int, T]]:
        """(position, item) of the held items in ``[start, stop)``."""
        end = len(self) if stop is None else min(stop, len(self))
        for k in range(max(0, start), min(end, len(self._head))):
            yield k, self._head[k]
        for k in range(max(start, self._offset) - self._offset, end - self._offset):
            yield k + self._offset, self._items[k]

    def release(self, stop: int, *, keep_first: int = 0) -> list[T]:
        """Release the items before ``stop`` but the first ``keep_first`` (fixed by the first
        release that releases anything); never moves back. Returns the items released now."""
        count = self._releasing(stop, keep_first)
        gone = self._items[:count]
        self._drop(count)
        return gone


class HeldInts(_Positions[int]):
    """:class:`Held` for machine integers: an :class:`array.array` of ``typecode`` from
    :attr:`offset` on, and the :attr:`pinned` first values.

    Hot loops over held positions read :attr:`raw` at ``i - offset`` directly.
    """

    __slots__ = ()
    _head: array[int]
    _items: array[int]

    def __init__(self, typecode: str = "q", items: Iterable[int] = ()) -> None:
        super().__init__(array(typecode, items), array(typecode))

    @property
    def raw(self) -> array[int]:
        """The values from :attr:`offset` on (read-only outside this class): the same array for
        the container's life (a release deletes from it in place)."""
        return self._items

    def __getitem__(self, index: int) -> int:
        offset = self._offset
        if index >= offset:  # held (a negative index is not: it goes the general way)
            return self._items[index - offset]
        return self._item(index)

    def values(self, start: int, stop: int) -> array[int]:
        """A copy of the values in ``[start, stop)``, all in the pinned head or all from the offset."""
        if start >= stop:
            return self._items[:0]
        return cast("array[int]", self._span(start, stop))

    def release(self, stop: int, *, keep_first: int = 0) -> None:
        """As :meth:`Held.release`."""
        self._drop(self._releasing(stop, keep_first))


# -- the live window -------------------------------------------------------------------------------


class WindowedLens(Protocol):
    """What :class:`LiveWindow` tells a lens (a replay or the recorded lens) and asks it."""

    def keep_detail_from(self, scope_id: str, request: int) -> None:
        """Drop the detail of the scope's requests before ``request``, and what only they need."""
        ...

    def needs(self, scope_id: str) -> Needs:
        """What of the scope this lens may still read."""
        ...


class Needs(NamedTuple):
    """What of a scope's history a lens may still read.

    Attributes:
        head: Its first messages (the head, always sent).
        messages_from: The stored messages from here on (those between the head and here not).
        requests_from: The requests from here on.
    """

    head: int
    messages_from: int
    requests_from: int


class WindowedScope(Protocol):
    """A scope's held history (:class:`~ctxscope.core.session.Scope`)."""

    @property
    def request_count(self) -> int: ...

    def release(self, messages: int, requests: int, *, keep_first: int) -> None:
        """Forget the stored messages in ``[keep_first, messages)`` and the requests before ``requests``."""
        ...


@dataclass(frozen=True, slots=True)
class LiveWindow:
    """The live view's retention policy: each scope keeps the detail of its newest ``keep`` requests.

    Attributes:
        keep: Requests per scope whose detail is kept (at least 1: the newest request is always
            kept whole, so a reader can still revise it).
    """

    keep: int

    def first_kept(self, requests: int) -> int:
        """The oldest request whose detail is kept, of a scope with ``requests`` requests."""
        return max(0, requests - max(1, self.keep))

    def apply(self, scopes: Iterable[tuple[str, WindowedScope]], lenses: Sequence[WindowedLens]) -> None:
        """Release what the window no longer shows.

        Args:
            scopes: The session's scopes by id.
            lenses: Every lens over the session, each up to date with it. A stored message is
                released once no lens needs it; a request once its detail is out of the window.
        """
        for scope_id, scope in scopes:
            first = self.first_kept(scope.request_count)
            for lens in lenses:
                lens.keep_detail_from(scope_id, first)
            needed = [lens.needs(scope_id) for lens in lenses]
            if needed:
                scope.release(
                    min(n.messages_from for n in needed),
                    min(first, *(n.requests_from for n in needed)),
                    keep_first=max(n.head for n in needed),
                )


__all__ = ["Held", "HeldInts", "LiveWindow", "Needs", "ReleasedError", "WindowedLens", "WindowedScope"]
