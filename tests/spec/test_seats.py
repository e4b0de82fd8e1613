"""Seats, the direction of play and partnerships (spec.seats)."""
from __future__ import annotations

import pytest

from spec.errors import NotationError
from spec.seats import Direction, Table

NAMES = ("North", "East", "South", "West")
PAIRS = ((0, 2), (1, 3))
CLOCKWISE = Table(NAMES, Direction.CLOCKWISE, partnerships=PAIRS)
COUNTER = Table(NAMES, Direction.COUNTER_CLOCKWISE, partnerships=PAIRS)
THREE = Table(("Forehand", "Middlehand", "Rearhand"))


@pytest.mark.parametrize("table", [pytest.param(CLOCKWISE, id="clockwise"),
                                   pytest.param(COUNTER, id="counter-clockwise")])
@pytest.mark.parametrize(
    ("seat", "steps", "expected"),
    [
        pytest.param(0, 1, 1, id="0+1"),
        pytest.param(3, 1, 0, id="3+1-wraps"),
        pytest.param(2, 2, 0, id="2+2"),
        pytest.param(0, -1, 3, id="0-1-wraps"),
        pytest.param(1, 4, 1, id="1+4-full-round"),
    ],
)
def test_next_follows_the_order_of_play_whatever_the_direction(
    table: Table, seat: int, steps: int, expected: int
) -> None:
    assert table.next(seat, steps) == expected


@pytest.mark.parametrize(
    ("table", "seat", "lho", "rho"),
    [
        pytest.param(CLOCKWISE, 0, 1, 3, id="clockwise-north"),
        pytest.param(CLOCKWISE, 3, 0, 2, id="clockwise-west"),
        pytest.param(COUNTER, 0, 3, 1, id="counter-clockwise-north"),
        pytest.param(COUNTER, 3, 2, 0, id="counter-clockwise-west"),
        pytest.param(THREE, 2, 0, 1, id="three-seats-rearhand"),
    ],
)
def test_lho_and_rho(table: Table, seat: int, lho: int, rho: int) -> None:
    assert table.lho(seat) == lho
    assert table.rho(seat) == rho
    assert table.rho(table.lho(seat)) == seat


@pytest.mark.parametrize("table", [pytest.param(CLOCKWISE, id="clockwise"),
                                   pytest.param(COUNTER, id="counter-clockwise")])
@pytest.mark.parametrize(("seat", "partner"), [(0, 2), (1, 3), (2, 0), (3, 1)],
                         ids=lambda v: str(v))
def test_partner_is_direction_independent(table: Table, seat: int, partner: int) -> None:
    assert table.partner(seat) == partner


@pytest.mark.parametrize(
    ("table", "seat"),
    [
        pytest.param(THREE, 0, id="no-partnerships"),
        pytest.param(Table(NAMES[:3], partnerships=((0, 1, 2),)), 1, id="team-of-three"),
        pytest.param(Table(NAMES, partnerships=((0, 2),)), 1, id="seat-in-no-team"),
    ],
)
def test_no_single_partner(table: Table, seat: int) -> None:
    assert table.partner(seat) is None


def test_iter_from_and_counts() -> None:
    assert CLOCKWISE.iter_from(2) == (2, 3, 0, 1)
    assert COUNTER.iter_from(2) == (2, 3, 0, 1)
    assert THREE.players == 3 and list(THREE.seats) == [0, 1, 2]
    assert CLOCKWISE.name(CLOCKWISE.lho(0)) == "East"
    assert COUNTER.name(COUNTER.lho(0)) == "West"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        pytest.param("south", 2, id="name-lower-case"),
        pytest.param("SOUTH", 2, id="name-upper-case"),
        pytest.param("W", 3, id="first-letter"),
        pytest.param("2", 2, id="number-text"),
        pytest.param(1, 1, id="number"),
        pytest.param(" east ", 1, id="blanks"),
    ],
)
def test_parse_seat(text: object, expected: int) -> None:
    assert CLOCKWISE.parse_seat(text) == expected  # type: ignore[arg-type]  # ints are accepted


@pytest.mark.parametrize(
    ("table", "text"),
    [
        pytest.param(CLOCKWISE, "Northwest", id="unknown-name"),
        pytest.param(CLOCKWISE, "4", id="seat-number-out-of-range"),
        pytest.param(CLOCKWISE, "", id="empty"),
        pytest.param(Table(("Mary", "Mark", "Ann")), "mar", id="ambiguous-prefix"),
        pytest.param(THREE, "hand", id="not-a-prefix"),
    ],
)
def test_parse_seat_errors_list_the_seats(table: Table, text: str) -> None:
    with pytest.raises(NotationError) as info:
        table.parse_seat(text)
    assert str(info.value) == f"not a seat: {text!r} (expected one of {', '.join(table.names)})"
    assert info.value.value == text
