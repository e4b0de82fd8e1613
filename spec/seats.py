"""Seats, the direction of play and partnerships, the same for every game.

A seat is a place at the table, numbered ``0 .. players-1`` *in the order of play*:
seat ``s + 1`` always plays after seat ``s``.  Whether that next seat sits on the left
(clockwise games) or on the right (counter-clockwise games such as 304) is the table's
:class:`Direction`; it matters for the names players use (left-hand opponent, right-hand
opponent), never for the order of turns.

>>> t = Table(("North", "East", "South", "West"), Direction.CLOCKWISE, partnerships=((0, 2), (1, 3)))
>>> t.next(3), t.partner(1), t.name(t.lho(0)), t.name(t.rho(0))
(0, 3, 'East', 'West')
>>> t.parse_seat("south")
2
"""
from __future__ import annotations

__all__ = ["Direction", "Table", "seat_after", "seat_from", "seats_from"]

import enum
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from spec.errors import NotationError


def seat_after(seat: Any, players: int, steps: int = 1) -> Any:
    """The seat that acts ``steps`` turns after ``seat``: the turn order of every game,
    written once.  ``seat`` may be a number or a solver's term (anything with ``+`` and
    ``%``)."""
    return (seat + steps) % players


def seats_from(first: Any, players: int, skip: Iterable[int] = (), outside: int = 0
               ) -> tuple[Any, ...]:
    """Every seat once, in the order of play from ``first`` (counted round the table),
    less the seats of ``skip`` and those of the seat set ``outside`` (a bit per seat)."""
    out = (seat_after(first, players, j) for j in range(players))
    gone = set(skip) | {s for s in range(players) if outside >> s & 1}
    return tuple(s for s in out if s not in gone) if gone else tuple(out)


def seat_from(first: int, players: int, skip: Iterable[int] = (), outside: int = 0) -> int:
    """The first seat, from ``first`` on in the order of play, that is none of ``skip``
    and not in the seat set ``outside``."""
    found = seats_from(first, players, skip, outside)
    if not found:
        raise ValueError("every seat is skipped")
    return found[0]  # type: ignore[no-any-return]


class Direction(enum.Enum):
    """Which way the turn passes around the table."""

    CLOCKWISE = "clockwise"
    COUNTER_CLOCKWISE = "counter-clockwise"


@dataclass(frozen=True, slots=True)
class Table:
    """The seats of a game: their names, the direction of play and fixed partnerships."""

    names: tuple[str, ...]
    direction: Direction = Direction.CLOCKWISE
    partnerships: tuple[tuple[int, ...], ...] = ()

    @property
    def players(self) -> int:
        return len(self.names)

    @property
    def seats(self) -> range:
        return range(len(self.names))

    def next(self, seat: int, steps: int = 1) -> int:
        """The seat that plays ``steps`` turns after ``seat``."""
        return seat_after(seat, len(self.names), steps)  # type: ignore[no-any-return]

    def lho(self, seat: int) -> int:
        """The seat on this seat's left."""
        return self.next(seat, 1 if self.direction is Direction.CLOCKWISE else -1)

    def rho(self, seat: int) -> int:
        """The seat on this seat's right."""
        return self.next(seat, -1 if self.direction is Direction.CLOCKWISE else 1)

    def partner(self, seat: int) -> int | None:
        """The fixed partner of a seat, or ``None`` in a game without partnerships."""
        for team in self.partnerships:
            if seat in team:
                others = [s for s in team if s != seat]
                return others[0] if len(others) == 1 else None
        return None

    @property
    def sides(self) -> tuple[tuple[int, ...], ...]:
        """The sides that score together: the partnerships, or each seat alone."""
        return self.partnerships or tuple((s,) for s in self.seats)

    def side_name(self, side: tuple[int, ...]) -> str:
        """A side by its seats' names: ``North-South``."""
        return "-".join(self.names[s] for s in side)

    def iter_from(self, seat: int) -> tuple[int, ...]:
        """Every seat once, in order of play, starting with ``seat``."""
        return seats_from(seat, len(self.names))

    def name(self, seat: int) -> str:
        return self.names[seat]

    def parse_seat(self, text: str) -> int:
        """Read a seat by name (any case), by its first letter or by number.

        Raises:
            NotationError: no seat has that name.
        """
        key = str(text).strip().lower()
        for i, n in enumerate(self.names):
            if key in (n.lower(), str(i)):
                return i
        matches = [i for i, n in enumerate(self.names) if n.lower().startswith(key) and key]
        if len(matches) == 1:
            return matches[0]
        raise NotationError(
            f"not a seat: {text!r} (expected one of {', '.join(self.names)})", value=text
        )
