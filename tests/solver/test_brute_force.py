"""The solver against brute force, on every game: the value of small end positions and of
each legal action there, as plain minimax finds them (``solver_positions.oracle``).

Every registered game, each variant that can be played alone and the small test games of the
general constructs (``tests/constructs``) are played from plain seeds to the last few cards
(see ``solver_positions``): three cards a hand where four seats play, four where fewer do,
and on some seeds one to three cards into a trick.  The ``slow`` sweep plays many more
seeds, and some at four cards a hand everywhere.

The seeds are enough to reach every kind of contract the games have (checked here): each
bid of a short ladder and each strain of a long one, goals of more, fewer and exactly so
many, sides of one seat and of two, several declarers playing alone (Wiezen's misères) and
a seat sitting the deal out (304's Partner Close Caps).
"""
from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from construct_games import construct_games
from solver_positions import ends_of, forms, in_play, name, oracle, to_play, walk_down

from spec.dsl._build import Game
from spec.engine import Action, State, engine_for
from spec.registry import GAMES
from spec.solver import Solver
from spec.solver._goal import Goal, goal_of, points_unit, side_of, tricks_of

SEEDS = range(32)  # each game as registered
VARIANT_SEEDS = range(6)  # each variant, and the test games' variants
SLOW_SEEDS = range(32, 232)
DEEP_SEEDS = range(232, 252)  # slow, at four cards a hand where four seats play too
LONG_LADDER = 16  # above so many bids, a ladder's strains are covered rather than each bid

BASE = [*GAMES.values(), *construct_games().values()]
FORMS: list[Game] = [form for game in BASE for form in forms(game)]
Case = tuple[int, State, int, tuple[tuple[Action, int], ...]]


def _size(start: State, seed: int, deep: bool) -> tuple[int, int]:
    """The cards a hand and the cards on the trick for the position of ``seed``."""
    seats = len(in_play(start))
    cards = 4 if deep or seats < 4 else 3
    return cards, seed % min(seats, 4)


_CASES: dict[tuple[int, int, bool], Case | None] = {}


def _case(game: Game, seed: int, deep: bool = False) -> Case | None:
    """The position of ``seed`` (None where the play ends before it), its value and each
    legal action's by the oracle; kept for the tests that read the same positions."""
    key = (id(game), seed, deep)
    if key not in _CASES:
        out = None
        start = to_play(game, seed)
        if start is not None:
            s = walk_down(*start, *_size(start[0], seed, deep))
            if s is not None:
                out = (seed, s, *oracle(s))
        _CASES[key] = out
    return _CASES[key]


def _cases(game: Game, seeds: range, deep: bool = False) -> Iterator[Case]:
    for seed in seeds:
        case = _case(game, seed, deep)
        if case is not None:
            yield case


def _seeds(game: Game) -> range:
    return VARIANT_SEEDS if game.active_variants else SEEDS


def _at(game: Game, seed: int, s: State) -> str:
    eng = s.engine
    hands = "; ".join(f"{game.table.name(k)} {s.hand(k)}" for k in in_play(s))
    trick = " ".join(str(game.deck[c]) for c, _n in s.trick)
    return (f"{name(game)}, seed {seed}, {eng.ladder[s.contract]} by "
            f"{game.table.name(s.declarer)}, trick {s.trick_number} [{trick}], "
            f"{game.table.name(s.turn)} to act: {hands}")


def _check(game: Game, seeds: range, deep: bool = False) -> int:
    """The solver's value and card values against the oracle's; the positions checked."""
    solver = Solver(game)
    checked = 0
    for seed, s, value, each in _cases(game, seeds, deep):
        got = solver.solve(s)
        assert got.value == value, (f"{_at(game, seed, s)}: the solver's value is {got.value}, "
                                    f"brute force's {value}")
        cards = solver.card_values(s)
        assert [str(a) for a, _v in cards] == [str(a) for a, _v in each]
        wrong = [f"{a}: {v} (brute force {w})" for (a, v), (_b, w) in zip(cards, each) if v != w]
        assert not wrong, f"{_at(game, seed, s)}: " + "; ".join(wrong)
        checked += 1
    return checked


@pytest.mark.parametrize("game", FORMS, ids=name)
def test_values_match_brute_force(game: Game) -> None:
    seeds = _seeds(game)
    checked = _check(game, seeds)
    # a game whose deals seldom reach the play (thrown in, say) still gives some positions
    assert checked >= len(seeds) // 3, (f"{name(game)}: only {checked} positions of "
                                        f"{len(seeds)} seeds")


@pytest.mark.slow
@pytest.mark.parametrize("game", FORMS, ids=name)
def test_values_match_brute_force_wide(game: Game) -> None:
    _check(game, SLOW_SEEDS)
    _check(game, DEEP_SEEDS, deep=True)


# -- what the seeds reach ---------------------------------------------------------------------

def _goal(s: State) -> Goal:
    eng = s.engine
    return goal_of(eng, s, side_of(eng, s), tricks_of(eng, s))


def _kinds(game: Game) -> dict[str, set[Any]]:
    """What the positions of the seeds reach: bids, goals, the seats of the side, the
    declarers, a seat sitting out."""
    eng = engine_for(game)
    out: dict[str, set[Any]] = {"bids": set(), "goals": set(), "sides": set(),
                                "declarers": set(), "out": set()}
    for _seed, s, _v, _e in _cases(game, SEEDS):
        goal = _goal(s)
        out["bids"].add(s.contract)
        out["goals"].add("between" if goal.bounded else "more" if goal.sign > 0 else "fewer")
        out["sides"].add(side_of(eng, s).bit_count())
        out["declarers"].add(max(1, s.declarers.bit_count()))
        out["out"].add(s.out >= 0)
    return out


def test_the_seeds_reach_every_kind_of_contract() -> None:
    everywhere: dict[str, set[Any]] = {}
    for game in GAMES.values():
        eng = engine_for(game)
        kinds = _kinds(game)
        for k, v in kinds.items():
            everywhere.setdefault(k, set()).update(v)
        ladder = range(len(eng.ladder))
        if len(ladder) <= LONG_LADDER:
            missed = [str(eng.ladder[b]) for b in ladder if b not in kinds["bids"]]
            assert not missed, f"{game.key}: no position in a contract of {', '.join(missed)}"
        else:
            strains = {eng._trump_of[b] for b in ladder}
            reached = {eng._trump_of[b] for b in kinds["bids"]}
            assert strains <= reached, f"{game.key}: strains {strains - reached} never reached"
    assert everywhere["goals"] == {"more", "fewer", "between"}
    assert {1, 2} <= everywhere["sides"]
    assert max(everywhere["declarers"]) > 1, "no position with several declarers"
    assert True in everywhere["out"], "no position with a seat sitting the deal out"


# -- the goal ----------------------------------------------------------------------------------

# Where the goal is known not to order the ends as the score does, by game key.
GOAL_MISREAD = {
    # a team that takes every trick without claiming Caps pays 2, so every card point (a
    # sweep) scores less than all but the cheapest trick; the solver plays the cards, never
    # the claim, and "as many points as it can" prefers the sweep (the goal's own reading,
    # from ends short of a sweep for either side, is right: see test_goal.py)
    "304": "an unclaimed sweep scores less than all but one trick, and the solver never claims",
    # trick k is worth k points, and the soloist scores by those points; the solver counts
    # tricks where no card has points of its own, and reads the goal as if the soloist won
    # the first tricks, so two ends with as many tricks but different points look alike
    # (a bid of 15 reads "exactly 5 tricks")
    "crescendo": "the solver counts tricks where a trick's worth turns on its number",
}


def _goal_cases() -> list[Any]:
    return [pytest.param(g, marks=pytest.mark.xfail(strict=True, reason=GOAL_MISREAD[g.key]))
            if g.key in GOAL_MISREAD else g for g in BASE]


def _utility(goal: Goal, p: int) -> int:
    if goal.bounded:
        return int(goal.low <= p <= goal.high)  # type: ignore[operator]
    return goal.sign * p


@pytest.mark.parametrize("game", _goal_cases(), ids=name)
def test_the_goal_orders_the_ends_as_the_score_does(game: Game) -> None:
    """Of two ends of the deal the play can still reach, the one the goal prefers never
    scores the declarer less (in positions with one declarer: where several play alone, each
    one's score also turns on the others' play)."""
    for seed, s, _v, _e in _cases(game, SEEDS):
        if s.declarers.bit_count() > 1:
            continue
        goal = _goal(s)
        unit = points_unit(s.engine)
        ends = ends_of(s)
        for p, score in ends:
            for q, other in ends:
                if _utility(goal, p) > _utility(goal, q):
                    assert score >= other, (
                        f"{_at(game, seed, s)}: the goal ({goal.describe(unit)}) prefers "
                        f"{p} {unit} to {q}, but the declarer scores {score} with {p} and "
                        f"{other} with {q}")
