"""What the declaring side plays for, read from the scoring rules.

304 scores a team that takes every trick apart from one that does not (Caps, and a sweep not
claimed), so its goal must be read from counts where neither side sweeps: a bidding team
wants as many card points as it can in every contract, the bands of game points and Partner
Close Caps alike.
"""
from __future__ import annotations

import random

import pytest

from spec.engine import engine_for
from spec.registry import GAMES
from spec.solver import Solver
from spec.solver._goal import Goal, goal_of, side_of, tricks_of

GAME = GAMES["304"]


def _hands(seed: int) -> list[int]:
    deck = list(range(len(GAME.deck)))
    random.Random(seed).shuffle(deck)
    size = len(deck) // GAME.players
    return [sum(1 << c for c in deck[k * size:(k + 1) * size]) for k in range(GAME.players)]


@pytest.mark.parametrize("bid", [str(b) for b in GAME.ladder])
def test_a_304_bidding_team_wants_the_most_points_in_every_contract(bid: str) -> None:
    solver = Solver(GAME)
    eng = engine_for(GAME)
    s = solver.start(_hands(1), contract=bid, declarer=0)
    assert goal_of(eng, s, side_of(eng, s), tricks_of(eng, s)) == Goal(1)
