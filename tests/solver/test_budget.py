"""A search that spends its budget of nodes answers unknown (None), never a value; the
same position with budget enough answers brute force's value.

The positions are end positions of every registered game (see ``solver_positions``); the
nodes a full search needs are read from the solver itself, so the test holds however fast
the search gets.  A whole Vint deal, far beyond any small budget, is asked too.
"""
from __future__ import annotations

import random

import pytest
from solver_positions import forms, name, oracle, position

from spec.dsl._build import Game
from spec.games.vint import GAME as VINT
from spec.registry import GAMES
from spec.solver import Solver

SEEDS = range(8)
SMALL = 3  # cards a hand
LEAST_NODES = 8  # positions the full search of which needs fewer nodes tell nothing


@pytest.mark.parametrize("game", [forms(g)[0] for g in GAMES.values()], ids=name)
def test_a_spent_budget_answers_unknown(game: Game) -> None:
    asked = 0
    for seed in SEEDS:
        s = position(game, seed, SMALL, seed % 3)
        if s is None:
            continue
        needed = Solver(game).solve(s).nodes
        if needed < LEAST_NODES:
            continue
        value, each = oracle(s)
        for budget in (0, 1, needed // 2, needed - 1):
            got = Solver(game).solve(s, budget=budget)
            assert got.value is None and not got.known, (
                f"{name(game)}, seed {seed}: a budget of {budget} of the {needed} nodes the "
                f"search needs answered {got.value}")
            assert got.nodes <= budget + 1
            cards = Solver(game).card_values(s, budget=budget)
            wrong = [(str(a), v, w) for (a, v), (_b, w) in zip(cards, each) if v not in (None, w)]
            assert not wrong, f"{name(game)}, seed {seed}, budget {budget}: {wrong}"
        full = Solver(game).solve(s, budget=needed)
        assert full.value == value, (f"{name(game)}, seed {seed}: with its {needed} nodes the "
                                     f"search answers {full.value}, brute force {value}")
        asked += 1
    assert asked, f"{name(game)}: no position needed {LEAST_NODES} nodes or more"


def test_a_whole_deal_on_a_small_budget_is_unknown() -> None:
    rng = random.Random(0)
    cards = list(range(len(VINT.deck)))
    rng.shuffle(cards)
    hands = [sum(1 << c for c in cards[k * 13:(k + 1) * 13]) for k in range(4)]
    solver = Solver(VINT)
    s = solver.start(hands, contract="3NT", declarer="South")
    for budget in (0, 1, 1_000):
        got = solver.solve(s, budget=budget)
        assert got.value is None and got.nodes <= budget + 1
        assert all(v is None for _a, v in solver.card_values(s, budget=budget))
